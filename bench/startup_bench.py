"""The command line against its floor: whole processes, round-robin, wall and CPU time and page faults.

The floor of a command that scores two files is the interpreter's start plus reading the files' bytes
(``python -c "open(KEY, 'rb').read(); open(RESPONSE, 'rb').read()"``). Each case below is a fresh process of
the same interpreter, with this tree's package on PYTHONPATH and bytecode cached (``PYTHONPYCACHEPREFIX``), as
``bench/guard.py`` runs them; the cases take turns within a round and the order rotates from round to round, so
that a change of the shared machine's load hits every case alike. For each case it prints the median and the
minimum wall time, the median and minimum CPU time (user + system, every thread, the child's own rusage from
``wait4``), the median minor page faults (``ru_minflt``) and the ratios to the floor's (median wall, minimum
wall, median CPU).

Cases (on LitBank's 100 files concatenated against a seeded perturbation, ``fixtures.perturb`` seed 1):

- ``python -c pass`` and the floor;
- ``python -c "import corefscore"``, the drop-in's imports with the library loaded (what it pays before it
  reads), and ``python -c "import numpy"``;
- the drop-in form ``all KEY RESPONSE none`` as installed: ``python python/scripts/corefscore ...``, the
  script pip installs as ``corefscore`` with its first line pointing at the interpreter (the same process);
- the same through ``python -m corefscore``, which also imports ``runpy`` and its ``importlib`` modules;
- ``bench/nativefloor``, a Go process that reads, pairs and scores the two files as the drop-in does and
  prints nothing: the least a native entry point would cost (built with ``go build`` when ``go`` is found);
- ``score KEY RESPONSE`` (the table, no NumPy) and ``score KEY RESPONSE --json`` (no NumPy since issue 24);
- ``score KEY RESPONSE --json --ci --n 200`` (NumPy and the statistics module, for scale).

Usage::

    python bench/startup_bench.py [--rounds 15] [--fixtures DIR] [--out FILE]

Prints Markdown (and writes it to ``--out``); ``bench/startup.md`` records a run.
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
import time
from pathlib import Path

from _machine import cpu_model

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"


def run_child(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """(wall s, CPU s, minor page faults) of one child process, its rusage read by ``wait4``."""
    t0 = time.perf_counter()
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(cmd, env=env, stdout=null, stderr=err)
        _, status, ru = os.wait4(proc.pid, 0)
        wall = time.perf_counter() - t0
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            raise RuntimeError(f"{' '.join(cmd)} failed: {err.read().decode(errors='replace')[-2000:]}")
    return wall, ru.ru_utime + ru.ru_stime, ru.ru_minflt


def build_nativefloor(tmp: Path) -> Path | None:
    """``bench/nativefloor`` built as the library is (``-trimpath``, ``-s -w``), or None without ``go``."""
    go = shutil.which("go")
    if go is None:
        print("go not found: the nativefloor row is left out", file=sys.stderr)
        return None
    out = tmp / "nativefloor"
    subprocess.run([go, "build", "-trimpath", "-ldflags=-s -w", "-o", str(out), "./bench/nativefloor"], cwd=REPO,
                   check=True)
    return out


def litbank_pair(root: Path) -> tuple[Path, Path]:
    """LitBank concatenated and its seeded perturbation, written once into ``root``."""
    from fixtures.perturb import perturb_conll_file

    key, resp = root / "litbank_key.conll", root / "litbank_response.conll"
    if not resp.exists():
        root.mkdir(parents=True, exist_ok=True)
        with key.open("wb") as f:
            for p in sorted((DATA / "litbank").glob("*.conll")):
                data = p.read_bytes()
                f.write(data if data.endswith(b"\n") else data + b"\n")
        perturb_conll_file(key, resp, seed=1)
    return key, resp


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--rounds", type=int, default=15, help="timed rounds (after one warm-up round)")
    ap.add_argument("--fixtures", type=Path, help="where the inputs are written once and reused")
    ap.add_argument("--out", type=Path, help="also write the Markdown here")
    args = ap.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="corefscore-startup-"))
    key, resp = litbank_pair(args.fixtures or tmp / "fixtures")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env.update(PYTHONPATH=str(REPO / "python"), PYTHONPYCACHEPREFIX=str(tmp / "cache"))
    py = sys.executable
    floor = "floor: python -c \"read KEY and RESPONSE\""
    script = str(REPO / "python" / "scripts" / "corefscore")
    dropin = ["all", str(key), str(resp), "none"]
    cases = {
        "python -c pass": [py, "-c", "pass"],
        floor: [py, "-c", f"open({str(key)!r}, 'rb').read(); open({str(resp)!r}, 'rb').read()"],
        "python -c \"import corefscore\"": [py, "-c", "import corefscore"],
        "the drop-in's imports + library load": [
            py, "-c", "from corefscore import cli, _engine, _lib, _report; _lib.columns()"],
        "python -c \"import numpy\"": [py, "-c", "import numpy"],
        "drop-in, installed: corefscore all KEY RESPONSE none": [py, script, *dropin],
        "drop-in: python -m corefscore all KEY RESPONSE none": [py, "-m", "corefscore", *dropin],
        "score KEY RESPONSE": [py, script, "score", str(key), str(resp)],
        "score KEY RESPONSE --json": [py, script, "score", str(key), str(resp), "--json"],
        "score KEY RESPONSE --json --ci --n 200": [py, script, "score", str(key), str(resp), "--json",
                                                   "--ci", "--n", "200"],
    }
    native = build_nativefloor(tmp)
    if native is not None:
        cases["Go process: read + pair + score, no output (bench/nativefloor)"] = [str(native), str(key), str(resp)]
    names = list(cases)
    runs: dict[str, list[tuple[float, float, int]]] = {n: [] for n in names}
    load_before = os.getloadavg()
    for rnd in range(args.rounds + 1):
        shift = rnd % len(names)
        for name in names[shift:] + names[:shift]:
            r = run_child(cases[name], env)
            if rnd:
                runs[name].append(r)
    load_after = os.getloadavg()
    med = {n: tuple(statistics.median(r[k] for r in runs[n]) for k in range(3)) for n in names}
    best = {n: tuple(min(r[k] for r in runs[n]) for k in range(2)) for n in names}
    lines = [
        "| case | median wall ms | min wall ms | median CPU ms | min CPU ms | minor faults | wall / floor "
        "(medians) | wall / floor (minima) | CPU / floor (medians) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for n in names:
        wall, cpu, faults = med[n]
        lo_wall, lo_cpu = best[n]
        lines.append(f"| {n} | {wall * 1e3:.1f} | {lo_wall * 1e3:.1f} | {cpu * 1e3:.1f} | {lo_cpu * 1e3:.1f} | "
                     f"{faults:.0f} | {wall / med[floor][0]:.2f} | {lo_wall / best[floor][0]:.2f} | "
                     f"{cpu / med[floor][1]:.2f} |")
    tree = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True,
                          text=True).stdout.strip()
    head = [
        f"- command: `python bench/startup_bench.py --rounds {args.rounds}`",
        f"- tree: {tree}; "
        f"inputs: LitBank concatenated ({key.stat().st_size / 1e6:.1f} MB) and its perturbation "
        f"({resp.stat().st_size / 1e6:.1f} MB)",
        f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, Python "
        f"{platform.python_version()} ({py}); load average before {load_before[0]:.2f}, after {load_after[0]:.2f}",
        f"- whole processes, {args.rounds} rounds after a warm-up, the cases' order rotating per round",
        "",
    ]
    text = "\n".join(head + lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
