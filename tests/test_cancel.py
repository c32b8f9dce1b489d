"""Ctrl-C ends every long call on a large input (issue 20): the CLI with 130, the functions with KeyboardInterrupt.

Each test runs a child process on one generated document of 400,000 mentions
per side, waits until the child is inside the engine (its Go runtime has
started threads), sends SIGINT at a few points of the work, and asserts the
status the child ends with. How fast it ends is measured by
``bench/cancel_latency.py`` (``bench/cancel.md``), not asserted here: the
timeout below only bounds a child that would otherwise never end.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

import corefscore
import numpy as np
import pytest
from _helpers import REPO

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc (Linux)")

#: A child still running this long after SIGINT is killed and the test fails.
HARD_TIMEOUT = 120

_CALL = """import sys, corefscore
try:
    corefscore.{fn}(sys.argv[1], sys.argv[2])
except KeyboardInterrupt:
    sys.exit(130)
sys.exit(0)
"""


@pytest.fixture(scope="module")
def big_pair(tmp_path_factory):
    """One document, 400,000 one-word mentions per side in 40,000-entity partitions, a sentence every 20 words."""
    tmp = tmp_path_factory.mktemp("cancel")
    rng = np.random.default_rng(5)
    n = 400_000
    paths = []
    for side in ("key", "response"):
        ids = rng.integers(0, n // 10, size=n).tolist()
        lines = ["#begin document (big); part 000"]
        for i, c in enumerate(ids):
            lines.append(f"big\t0\t{i % 20}\tw{i % 97}\tNN" + "\t_" * 6 + f"\t({c})")
            if i % 20 == 19:
                lines.append("")
        lines.append("#end document")
        p = tmp / f"{side}.conll"
        p.write_text("\n".join(lines) + "\n")
        paths.append(p)
    return paths


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(os.path.abspath(corefscore.__file__))) + os.pathsep + \
        env.get("PYTHONPATH", "")
    return env


def _threads(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("Threads:"):
                    return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def _interrupt(cmd: list[str], delay: float) -> subprocess.CompletedProcess:
    """Run cmd, send SIGINT ``delay`` seconds after its Go runtime started (inside the engine), wait for its end."""
    # SIGINT's default action in the child, even when this process ignores it (run as a background job).
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=REPO,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        start = time.monotonic()
        # Python alone runs one thread (two with the report's helper); the Go runtime starts several at once.
        while _threads(child.pid) < 4 and child.poll() is None and time.monotonic() - start < HARD_TIMEOUT:
            time.sleep(0.01)
        time.sleep(delay)
        assert child.poll() is None, "the child ended before it could be interrupted: make the input larger"
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=HARD_TIMEOUT)
    finally:
        child.kill()
        child.wait()
    return subprocess.CompletedProcess(cmd, child.returncode, out, err)


@pytest.mark.parametrize("delay", [0.05, 0.6, 1.5])
@pytest.mark.parametrize("case", ["report", "score", "score_files", "analyze_files"])
def test_ctrl_c_ends_a_long_call_with_130(big_pair, tmp_path, case, delay):
    key, resp = big_pair
    if case == "report":
        cmd = [sys.executable, "-m", "corefscore", "report", str(key), str(resp), "-o", str(tmp_path / "r.html")]
    elif case == "score":
        cmd = [sys.executable, "-m", "corefscore", "score", str(key), str(resp)]
    else:
        cmd = [sys.executable, "-c", _CALL.format(fn=case), str(key), str(resp)]
    done = _interrupt(cmd, delay)
    assert done.returncode == 130, (done.returncode, done.stderr[-2000:])
    assert "Traceback" not in done.stderr, done.stderr[-2000:]
    if case == "report":
        assert not (tmp_path / "r.html").exists(), "an interrupted report writes no page"
