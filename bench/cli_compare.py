"""Interleaved timing of the drop-in command for several package versions.

On a shared machine the load changes from minute to minute, so timing one
version after another (``bench/cli_bench.py``) compares moments as much as
versions. This script runs ``python [-S] -m corefscore all KEY RESPONSE none``
(or ``score KEY RESPONSE`` with ``--command score``) for every version in
turn, round after round (the first round is a warm-up), and prints the
median and minimum wall time and the median CPU time (user + system, all
threads) per corpus and version.

Each version is a directory holding a ``corefscore`` package with its own
shared library (for instance ``git archive COMMIT python capi gocore go.mod
go.sum`` unpacked and built with ``make build``), whose bytecode is cached
per version under a temporary directory as an installed package caches it;
or the path of an installed ``corefscore`` command (``VENV/bin/corefscore``
of a virtual environment where that version was pip-installed), which is
run directly, without ``-S`` or PYTHONPATH.

Usage::

    python bench/cli_compare.py --fixtures DIR [-S] [--rounds 16] [--command score] NAME=PACKAGE_DIR_OR_COMMAND ...

where DIR holds ``litbank_key.conll``, ``litbank_response.conll`` and
``synthetic/key.conll``, ``synthetic/response.conll`` (the files
``bench/cli_bench.py`` writes: LitBank concatenated and its seeded
perturbation, and the synthetic CoNLL-2012-test-sized corpus). Prints
Markdown.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--fixtures", required=True, type=Path)
    ap.add_argument("-S", dest="no_site", action="store_true", help="run the children with python -S")
    ap.add_argument("--rounds", type=int, default=16)
    ap.add_argument(
        "--command", choices=("all", "score"), default="all", help="all KEY RESP none (default) or score KEY RESP"
    )
    ap.add_argument("versions", nargs="+", metavar="NAME=PACKAGE_DIR_OR_COMMAND")
    args = ap.parse_args()
    versions = dict(v.split("=", 1) for v in args.versions)
    corpora = {
        "LitBank": (args.fixtures / "litbank_key.conll", args.fixtures / "litbank_response.conll"),
        "synthetic": (args.fixtures / "synthetic" / "key.conll", args.fixtures / "synthetic" / "response.conll"),
    }
    flags = ["-S"] if args.no_site else []
    results: dict[tuple[str, str], list[tuple[float, float]]] = {}
    load_start = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="cli_compare_pycache_") as cache:
        for r in range(args.rounds):
            for corpus, (key, resp) in corpora.items():
                for name, pkg in versions.items():
                    argv = [args.command, str(key), str(resp)] + (["none"] if args.command == "all" else [])
                    if os.path.isfile(pkg):  # an installed corefscore command, run as a user runs it
                        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONPYCACHEPREFIX")}
                        cmd = [pkg, *argv]
                    else:
                        env = dict(os.environ)
                        env["PYTHONPATH"] = pkg
                        env.pop("PYTHONDONTWRITEBYTECODE", None)
                        env["PYTHONPYCACHEPREFIX"] = os.path.join(cache, name)
                        cmd = [sys.executable, *flags, "-m", "corefscore", *argv]
                    c0, t0 = _children_cpu(), time.perf_counter()
                    proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
                    wall, cpu = time.perf_counter() - t0, _children_cpu() - c0
                    if proc.returncode != 0:
                        raise SystemExit(f"{name}: {' '.join(cmd)} failed: {proc.stderr.decode()[:500]}")
                    if r > 0:
                        results.setdefault((corpus, name), []).append((wall, cpu))
    tail = " none" if args.command == "all" else ""
    print(f"- command: `python{' -S' if flags else ''} -m corefscore {args.command} KEY RESP{tail}`", end="")
    print(" (or the installed `corefscore` named for a version)")
    print(f"- python: {sys.executable}; {args.rounds - 1} rounds after 1 warm-up")
    print(f"- load average at start: {' '.join(f'{x:.2f}' for x in load_start)}; ", end="")
    print(f"at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    print()
    print("| corpus | version | median wall (ms) | min wall (ms) | median CPU (ms) |")
    print("|---|---|---:|---:|---:|")
    for (corpus, name), xs in results.items():
        walls = [w for w, _ in xs]
        cpus = [c for _, c in xs]
        print(
            f"| {corpus} | {name} | {1000 * statistics.median(walls):.0f} | {1000 * min(walls):.0f} "
            f"| {1000 * statistics.median(cpus):.0f} |"
        )


if __name__ == "__main__":
    main()
