"""The command's process exit (``corefscore.cli.run``): at once when nothing is left to run, else the ordinary one."""

from __future__ import annotations

import os
import subprocess
import sys

from _helpers import REPO
from corefscore import cli

EXAMPLES = REPO / "examples"
DROP_IN = ["all", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"), "none"]

# A module global whose finaliser writes to stderr: it runs only if the interpreter tears itself down.
PROGRAM = """
import sys
{setup}
class Teardown:
    def __del__(self):
        sys.stderr.write("interpreter teardown\\n")
witness = Teardown()
sys.argv[1:] = {argv!r}
from corefscore.cli import run
run()
"""


def _run(argv: list[str], setup: str = "") -> subprocess.CompletedProcess:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO / "python"), os.environ.get("PYTHONPATH", "")]))
    return subprocess.run([sys.executable, "-c", PROGRAM.format(setup=setup, argv=argv)], capture_output=True,
                          text=True, env=env, timeout=300)


def test_the_drop_in_exits_at_once_with_everything_printed(capsys):
    assert cli.main(DROP_IN) == 0
    expected = capsys.readouterr().out
    proc = _run(DROP_IN)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == expected
    assert "====== TOTALS =======" in proc.stdout
    assert "interpreter teardown" not in proc.stderr


def test_the_exit_status_survives_the_fast_exit():
    proc = _run(["all", str(EXAMPLES / "key.conll"), str(EXAMPLES / "no-such-response.conll"), "none"])
    assert proc.returncode == 2
    assert "no-such-response.conll: no such file" in proc.stderr
    assert "interpreter teardown" not in proc.stderr


def test_an_atexit_handler_keeps_the_ordinary_exit():
    setup = "import atexit\natexit.register(lambda: sys.stderr.write('atexit handler ran\\n'))"
    proc = _run(DROP_IN, setup)
    assert proc.returncode == 0, proc.stderr
    assert "atexit handler ran" in proc.stderr
    assert "interpreter teardown" in proc.stderr
    assert "====== TOTALS =======" in proc.stdout


def test_another_thread_keeps_the_ordinary_exit():
    # A non-daemon thread still running when the command is done (the command takes well under the thread's
    # 3 s): the interpreter waits for it.
    setup = ("import threading, time\n"
             "threading.Thread(target=lambda: (time.sleep(3), sys.stderr.write('thread finished\\n'))).start()")
    proc = _run(DROP_IN, setup)
    assert proc.returncode == 0, proc.stderr
    assert "thread finished" in proc.stderr
    assert "interpreter teardown" in proc.stderr
