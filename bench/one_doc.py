"""One large document, whole process: the command against a Go process doing the same, and the collector's settings.

Issues 20 and 24 ask for one 1,000,000-mention CoNLL-2012 document scored by ``corefscore score KEY RESPONSE``
in under 1 s (0.7 s) and 350 MB. This script splits that command's cost, each case a fresh process, the cases
taking turns within a round and their order rotating from round to round (a change of the shared machine's load
hits every case alike):

- ``go``: ``bench/nativefloor score KEY RESPONSE``, a Go process that reads, pairs and scores the files with the
  options of ``corefscore score`` and prints nothing: the command without Python;
- ``cli``: ``python python/scripts/corefscore score KEY RESPONSE``, the command as pip installs it;
- ``cli, collector off to 300 MiB``: the same with ``GOGC=off GOMEMLIMIT=300MiB`` in the environment (which the
  library's collector settings leave alone, ``capi/gcbudget.go``): what a bounded collector budget for a large
  input would save;
- ``python + library``: ``python -c`` importing the command's modules and loading the library: the command's
  fixed cost before it reads.

For each it prints the median and minimum wall time, the median and minimum CPU time (user + system, every
thread, the child's own rusage from ``wait4``) and the median and maximum peak RSS. Inputs: the 1M-mention
fixtures of ``bench/guard.py`` (``--fixtures DIR``, written there when missing; ``--cases 1m,1m-dense``).

Usage::

    python bench/one_doc.py [--rounds 8] [--cases 1m-dense,1m] [--fixtures DIR] [--out FILE]

Prints Markdown (and writes it to ``--out``); ``bench/one_doc.md`` records a run.
"""

from __future__ import annotations

import argparse
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from _machine import cpu_model
from guard import build, env_for, fixtures, run_child

REPO = Path(__file__).resolve().parent.parent

#: What the command imports before it reads (cli.py's score table road) and the library's load.
PYTHON_FIXED = "from corefscore import cli, _engine, _lib, _report; _lib.columns()"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=8, help="timed rounds (after one warm-up round)")
    ap.add_argument("--cases", default="1m-dense,1m", help="guard.py's one-document cases: 1m-dense, 1m, 200k")
    ap.add_argument("--fixtures", type=Path, help="where inputs are written once and reused")
    ap.add_argument("--out", type=Path, help="also write the Markdown here")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="corefscore-one-doc-"))
    try:
        build(REPO)
        native = tmp / "nativefloor"
        subprocess.run(["go", "build", "-trimpath", "-ldflags=-s -w", "-o", str(native), "./bench/nativefloor"],
                       cwd=REPO, check=True)
        env = env_for(REPO / "python", tmp / "cache")
        env_gc = {**env, "GOGC": "off", "GOMEMLIMIT": "300MiB"}
        script = str(REPO / "python" / "scripts" / "corefscore")
        rev = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, check=True,
                             capture_output=True, text=True).stdout.strip()
        lines = [
            "# One large document, whole process: the command, a Go process, the collector",
            "",
            f"- command: `python bench/one_doc.py --rounds {args.rounds} --cases {args.cases}`",
            f"- tree: {rev}; each run a fresh process, {args.rounds} rounds after a warm-up, the cases' order "
            "rotating per round",
            f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}; load average before: {os.getloadavg()[0]:.2f}",
            "",
            "| input | case | wall median (min) s | CPU median (min) s | peak RSS median (max) MiB |",
            "|---|---|---|---|---|",
        ]
        fixed = ("python + library (imports, load)", [sys.executable, "-c", PYTHON_FIXED], env)
        for name, (argv,) in fixtures(args.fixtures or tmp / "fixtures", args.cases.split(",")).items():
            key, resp = argv[1], argv[2]
            cases = [
                ("go: bench/nativefloor score", [str(native), "score", key, resp], env),
                ("cli: corefscore score", [sys.executable, script, "score", key, resp], env),
                ("cli, collector off to 300 MiB", [sys.executable, script, "score", key, resp], env_gc),
                fixed,
            ]
            runs: dict[str, list[tuple[float, float, float, str]]] = {c[0]: [] for c in cases}
            for rnd in range(args.rounds + 1):
                shift = rnd % len(cases)
                for label, cmd, cmd_env in cases[shift:] + cases[:shift]:
                    run = run_child(cmd, cmd_env)
                    if rnd:
                        runs[label].append(run)
            for label, _, _ in cases:
                walls, cpus, peaks = ([r[k] for r in runs[label]] for k in range(3))
                lines.append(f"| {name.removesuffix(', score')} | {label} | {statistics.median(walls):.3f} "
                             f"({min(walls):.3f}) | {statistics.median(cpus):.3f} ({min(cpus):.3f}) | "
                             f"{statistics.median(peaks):.0f} ({max(peaks):.0f}) |")
        lines += ["", f"Load average after: {os.getloadavg()[0]:.2f}."]
        text = "\n".join(lines) + "\n"
        print(text)
        if args.out:
            args.out.write_text(text)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
