"""Wall and CPU time of the whole ``corefscore`` process on GUM CoNLL-U with the CRAC preset, beside the CorefUD scorer.

Fixtures (written to a temporary directory): the key is every file of
../shared/data/gum-conllu concatenated; the response is its perturbation by
``fixtures.conllu_perturb`` (every 7th single-node mention dropped).

Commands timed, each run a fresh process, side by side in one run:

- ``python -m corefscore score KEY RESPONSE --preset crac`` (head matching,
  singletons excluded, dependent zeros; every default metric) with this
  interpreter and the repository's package on PYTHONPATH; median and minimum
  of ``--runs`` after one warm-up run;
- ``python corefud-scorer.py KEY RESPONSE`` (its defaults: head matching,
  singletons excluded, dependent zeros, all its metrics) with the
  interpreter given by ``--scorer-python`` (one with udapi and scipy),
  ``--scorer-runs`` runs (0 to skip it);
- where the corefscore process's time goes, each part a fresh process too:
  the interpreter (``python -c pass``), the imports of the score path and the
  loading of the shared library (``python -c "import argparse; from corefscore import cli,
  _engine, _lib, _report; _lib.metric_names()"``), and, in this process, the
  Go call alone (read and parse both files, pair, score; ``--runs`` calls
  after a warm-up) with its CPU time (every thread of this process).

CPU time is user + system time of the child (``RUSAGE_CHILDREN``), or of this
process for the in-process call. On a machine shared with other work the
wall time of a run can be several times its CPU time: compare CPU times, and
read the load averages printed before and after.

Usage::

    python bench/corefud_bench.py [--runs 7] [--scorer-runs 1] [--package-dir DIR]
        [--scorer /work/peers/corefud/corefud-scorer.py] [--scorer-python /work/venvs/issue12/bin/python]

``--package-dir`` times another copy of the package (a folder holding
``corefscore/`` with its library, e.g. an older commit's ``python/`` with
the library built from that commit) instead of this repository's.

Prints Markdown; ``bench/corefud.md`` records a run.
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

from _machine import cpu_model
from fixtures.conllu_perturb import perturb_conllu

REPO = Path(__file__).resolve().parents[1]
GUM = REPO.parent / "shared" / "data" / "gum-conllu"
LOAD = "import argparse; from corefscore import cli, _engine, _lib, _report; _lib.metric_names()"


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def _time(cmd: list[str], runs: int, env: dict[str, str], warm: bool) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of ``runs`` fresh processes of ``cmd``."""
    if warm:
        subprocess.run(cmd, env=env, check=True, capture_output=True)
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = _children_cpu(), time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        walls.append(time.perf_counter() - t0)
        cpus.append(_children_cpu() - c0)
    return walls, cpus


def _in_process(key: Path, resp: Path, runs: int, package: Path) -> tuple[list[float], list[float]]:
    """Wall and CPU seconds of the Go call alone (read, pair, score), as the score command makes it."""
    sys.path.insert(0, str(package))
    from corefscore import _engine

    opts = _engine.options(preset="crac", duplicates="ignore")
    _engine.score_files(key, resp, opts, as_numpy=False)
    walls, cpus = [], []
    for _ in range(runs):
        c0, t0 = time.process_time(), time.perf_counter()
        _engine.score_files(key, resp, opts, as_numpy=False)
        walls.append(time.perf_counter() - t0)
        cpus.append(time.process_time() - c0)
    return walls, cpus


def _row(label: str, walls: list[float], cpus: list[float]) -> str:
    return (f"| {label} | {len(walls)} | {statistics.median(walls):.3f} | {min(walls):.3f} "
            f"| {statistics.median(cpus):.3f} | {min(cpus):.3f} |")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=7)
    p.add_argument("--scorer-runs", type=int, default=1)
    p.add_argument("--scorer", default=os.environ.get("COREFSCORE_COREFUD_SCORER", "corefud-scorer.py"))
    p.add_argument("--scorer-python", default=os.environ.get("COREFSCORE_COREFUD_PYTHON", sys.executable))
    p.add_argument("--package-dir", type=Path, default=REPO / "python")
    args = p.parse_args()
    files = sorted(GUM.glob("*.conllu"))
    if not files:
        sys.exit(f"no GUM CoNLL-U files in {GUM}")
    with tempfile.TemporaryDirectory() as tmp:
        key, resp = Path(tmp, "key.conllu"), Path(tmp, "response.conllu")
        text = "".join(f.read_text(encoding="utf-8") for f in files)
        key.write_text(text, encoding="utf-8")
        resp.write_text(perturb_conllu(text), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(args.package_dir), "PYTHONPYCACHEPREFIX": str(Path(tmp, "pyc"))}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        py = sys.executable
        ours_cmd = [py, "-m", "corefscore", "score", str(key), str(resp), "--preset", "crac"]
        theirs_cmd = [args.scorer_python, args.scorer, str(key), str(resp)]
        load0 = os.getloadavg()
        t_start = time.strftime("%d %b %Y %H:%M UTC", time.gmtime())
        ours = _time(ours_cmd, args.runs, env, warm=True)
        floor = _time([py, "-c", "pass"], args.runs, env, warm=True)
        imports = _time([py, "-c", LOAD], args.runs, env, warm=True)
        go = _in_process(key, resp, args.runs, args.package_dir)
        theirs = _time(theirs_cmd, args.scorer_runs, dict(os.environ), warm=False) if args.scorer_runs else None
        load1 = os.getloadavg()
        size = key.stat().st_size + resp.stat().st_size
    print("# CorefUD: whole process, GUM CoNLL-U, CRAC setting\n")
    print(f"- {t_start}; machine: {cpu_model()}, {os.cpu_count()} CPUs, shared with other sessions; "
          f"load average {load0[0]:.2f} before, {load1[0]:.2f} after")
    print(f"- Python {sys.version.split()[0]} ({py}); {len(files)} documents, key + response {size / 1e6:.1f} MB")
    print(f"- corefscore: `python -m corefscore score KEY RESPONSE --preset crac`, package {args.package_dir}")
    print("- CorefUD scorer v1.2: `python corefud-scorer.py KEY RESPONSE` (head, no singletons, dependent zeros)\n")
    print("| command | runs | median wall s | min wall s | median CPU s | min CPU s |")
    print("|---|---|---|---|---|---|")
    print(_row("corefscore score --preset crac", *ours))
    print(_row("part: interpreter alone, `python -c pass`", *floor))
    print(_row("part: interpreter + imports + library load", *imports))
    print(_row("part: Go read + pair + score (in-process call)", *go))
    if theirs is not None:
        print(_row("corefud-scorer.py", *theirs))
        ratio_wall = statistics.median(theirs[0]) / statistics.median(ours[0])
        ratio_cpu = statistics.median(theirs[1]) / statistics.median(ours[1])
        print(f"\nratio (CorefUD scorer / corefscore, medians): {ratio_wall:.0f}x wall, {ratio_cpu:.0f}x CPU")


if __name__ == "__main__":
    main()
