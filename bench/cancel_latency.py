"""How long Ctrl-C takes to end a long call: SIGINT sent at several points, time to the child's exit.

Each case runs in a fresh child process on one huge generated document
(``fixtures.perturb.write_synthetic_corpus(dir, seed=0, n_docs=1,
n_mentions=N, n_entities=N * 45 // 197)``, about 12 words a mention; or the
``--dir`` holding its ``key.conll`` and ``response.conll``):

- ``report``: ``python -m corefscore report KEY RESPONSE -o FILE`` (exit 130);
- ``score``: ``python -m corefscore score KEY RESPONSE`` (exit 130);
- ``score_files`` and ``analyze_files``: a child calling the function, which
  exits 130 when the call raises KeyboardInterrupt.

The child is first run once to its end (its duration, ``full``); then, for
each delay in ``--points`` evenly spread over that duration (from half a
second in), a new child gets SIGINT that many seconds after it started, and
the time from the signal to its exit is the latency (wall time, so an upper
bound on a loaded machine: the child competes for the CPUs). A child that
ended before the signal, or with another status, is shown as such.

Usage::

    python bench/cancel_latency.py [--mentions 1000000] [--dir DIR] [--points 8]
        [--cases report,score,score_files,analyze_files]

Prints Markdown; ``bench/cancel.md`` records a run.
"""

from __future__ import annotations

import argparse
import os
import platform
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import cpu_model

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "tests"))

_CALL = """import sys, corefscore
try:
    corefscore.{fn}(sys.argv[1], sys.argv[2])
except KeyboardInterrupt:
    sys.exit(130)
"""


def command(case: str, key: Path, resp: Path, out: Path) -> list[str]:
    if case == "report":
        return [sys.executable, "-m", "corefscore", "report", str(key), str(resp), "-o", str(out)]
    if case == "score":
        return [sys.executable, "-m", "corefscore", "score", str(key), str(resp)]
    return [sys.executable, "-c", _CALL.format(fn=case), str(key), str(resp)]


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = str(REPO / "python") + os.pathsep + e.get("PYTHONPATH", "")
    return e


def default_sigint() -> None:
    """In the child: SIGINT's default action, whatever this process got (a background job ignores SIGINT)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run(cmd: list[str], delay: float | None) -> tuple[float, int | None, float | None]:
    """(seconds from start to exit, return code, seconds from SIGINT to exit or None when it ended first)."""
    start = time.monotonic()
    child = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env(), cwd=REPO,
                             preexec_fn=default_sigint)
    sent = None
    if delay is not None:
        try:
            child.wait(delay)
        except subprocess.TimeoutExpired:
            sent = time.monotonic()
            child.send_signal(signal.SIGINT)
    try:
        code = child.wait(600)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        code = None
    end = time.monotonic()
    return end - start, code, (end - sent) if sent is not None else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--mentions", type=int, default=1_000_000)
    ap.add_argument("--dir", type=Path, help="a directory with key.conll and response.conll (else generated)")
    ap.add_argument("--points", type=int, default=8)
    ap.add_argument("--cases", default="report,score,score_files,analyze_files")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        if args.dir:
            key, resp = args.dir / "key.conll", args.dir / "response.conll"
        else:
            from fixtures.perturb import write_synthetic_corpus

            n = args.mentions
            key, resp = map(Path, write_synthetic_corpus(tmp, seed=0, n_docs=1, n_mentions=n,
                                                         n_entities=n * 45 // 197))
        out = Path(tmp) / "report.html"
        print("# Ctrl-C latency: SIGINT to exit, whole process\n")
        print(f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
        print(f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}")
        print(f"- input: {key} ({key.stat().st_size / 2**20:.0f} MiB) and {resp.name}"
              f" ({resp.stat().st_size / 2**20:.0f} MiB)")
        print(f"- command: `python bench/cancel_latency.py {' '.join(sys.argv[1:])}`")
        print(f"- load average before: {', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
        print("| case | full run (s) | SIGINT at (s) | exit status | SIGINT to exit (s) |")
        print("|---|---:|---:|---:|---:|")
        worst = {}
        for case in args.cases.split(","):
            cmd = command(case, key, resp, out)
            full, code, _ = run(cmd, None)
            print(f"| {case} | {full:.2f} | (not sent) | {code} | |", flush=True)
            for i in range(args.points):
                at = 0.5 + i * (full - 0.5) / args.points
                _, code, latency = run(cmd, at)
                shown = f"{latency:.3f}" if latency is not None else "(ended before)"
                print(f"| {case} | | {at:.2f} | {code} | {shown} |", flush=True)
                if latency is not None:
                    worst[case] = max(worst.get(case, 0.0), latency)
        print(f"\nload average after: {', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
        print("Worst SIGINT-to-exit per case: " + ", ".join(f"{c} {w:.3f} s" for c, w in worst.items()))


if __name__ == "__main__":
    main()
