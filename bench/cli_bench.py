"""Wall time of the whole ``corefscore`` process, beside the Perl reference scorer.

Fixtures (written to a temporary directory, seeded):

- LitBank: the 100 files of ../shared/data/litbank concatenated into one key
  file, and a seeded perturbation of it (``fixtures.perturb``, seed 1);
- a synthetic corpus the size of the CoNLL-2012 English test set (348
  documents, 19,700 key mentions; ``fixtures.synthetic``, seed 0) written
  as CoNLL-2012 key and response files.

Commands timed (each run is a fresh process; median of ``--runs`` after one
warm-up run):

- the installed command, ``corefscore all KEY RESPONSE none`` (the drop-in
  form) and ``corefscore score KEY RESPONSE`` (the table of every metric), as
  a user runs it: the repository pip-installed (not editable) into a fresh
  virtual environment of this interpreter (or ``--venv DIR``);
- ``python -m corefscore all KEY RESPONSE none`` with this interpreter and
  the repository's package on PYTHONPATH, with and without ``-S``: the
  interpreter's own ``site`` runs the ``.pth`` start-up hooks of its
  site-packages (on the machine of ``bench/cli.md``, one that imports
  certifi: about 60 ms), which a virtual environment does not load;
- floors: ``python -c pass`` in the virtual environment, with this
  interpreter and with ``-S``, ``python -c "import numpy"``,
  ``python -c "import corefscore"``;
- ``perl scorer.pl all KEY RESPONSE none`` when perl and the reference scorer
  exist (``--perl-runs`` runs; it is slow).

The ``python -m`` children cache bytecode as an installed package does: the
environment variable ``PYTHONDONTWRITEBYTECODE`` is dropped for them and
``PYTHONPYCACHEPREFIX`` points at a temporary directory (otherwise every
run would compile the package's modules again); pip compiled the installed
package's bytecode.

In-process, the Go call alone (read both files, pair, score) is timed too.

Usage::

    python bench/cli_bench.py [--runs 7] [--perl-runs 1] [--perl PATH/scorer.pl] [--venv DIR]

Prints Markdown; ``bench/cli.md`` records a run.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO / "python"))
sys.path.insert(0, str(REPO / "tests"))  # the fixtures


#: CPU seconds (user + system) of the last timed runs, per command, filled by wall().
CPU: dict[str, list[float]] = {}


def _children_cpu() -> float:
    ru = resource.getrusage(resource.RUSAGE_CHILDREN)
    return ru.ru_utime + ru.ru_stime


def wall(cmd: list[str], env: dict[str, str], runs: int, warmup: int = 1) -> list[float]:
    """Wall times of ``runs`` runs of ``cmd`` (after ``warmup`` untimed runs); checks exit status 0.

    The CPU time (user + system, all threads) of each timed run goes to ``CPU[" ".join(cmd)]``.
    """
    times, cpu = [], []
    for i in range(warmup + runs):
        c0 = _children_cpu()
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        dt = time.perf_counter() - t0
        if proc.returncode != 0:
            raise SystemExit(f"{' '.join(cmd)} failed ({proc.returncode}): {proc.stderr.decode()[:500]}")
        if i >= warmup:
            times.append(dt)
            cpu.append(_children_cpu() - c0)
    CPU[" ".join(cmd)] = cpu
    return times


def _cpu(cmd: list[str]) -> str:
    return f"{1000 * statistics.median(CPU[' '.join(cmd)]):.0f}"


def fixtures(tmp: Path) -> dict[str, tuple[Path, Path]]:
    from fixtures.perturb import perturb_conll_file, write_synthetic_corpus

    out = {}
    files = sorted((DATA / "litbank").glob("*.conll"))
    if files:
        key = tmp / "litbank_key.conll"
        with key.open("wb") as f:
            for p in files:
                data = p.read_bytes()
                f.write(data if data.endswith(b"\n") else data + b"\n")
        resp = tmp / "litbank_response.conll"
        perturb_conll_file(key, resp, seed=1)
        out["LitBank (100 docs)"] = (key, resp)
    syn = tmp / "synthetic"
    syn.mkdir()
    out["synthetic CoNLL-2012 test size (348 docs)"] = tuple(Path(p) for p in write_synthetic_corpus(syn, seed=0))
    return out


def go_only(key: Path, resp: Path, runs: int) -> float:
    """Median time of the library reading and scoring the two files (one cs_score_files call and its take)."""
    from corefscore import _engine

    opts = _engine.options(metrics=["mentions", "muc", "bcub", "ceafm", "ceafe", "blanc"])
    _engine.score_files(key, resp, opts)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        _engine.score_files(key, resp, opts)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def facts() -> list[str]:
    from _machine import cpu_model
    from corefscore import _lib

    cpu = cpu_model()

    return [
        f"- machine: {platform.machine()}, {os.cpu_count()} CPUs ({cpu}), {platform.system()} {platform.release()}",
        f"- python: {sys.executable} {platform.python_version()}",
        f"- library: {_lib.library_path()}",
        f"- load average at start: {' '.join(f'{x:.2f}' for x in os.getloadavg())}",
    ]


def install_venv(path: Path) -> Path:
    """A fresh virtual environment at ``path`` with this repository pip-installed (not editable); its python."""
    subprocess.run([sys.executable, "-m", "venv", str(path)], check=True)
    py = path / "bin" / "python"
    subprocess.run([str(py), "-m", "pip", "install", "-q", str(REPO)], check=True)
    return py


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=7)
    ap.add_argument("--perl-runs", type=int, default=1)
    ap.add_argument("--perl", default=os.environ.get("COREFSCORE_REFERENCE_SCORER", ""),
                    help="the reference scorer.pl (default: $COREFSCORE_REFERENCE_SCORER)")
    ap.add_argument(
        "--package-dir",
        default=str(REPO / "python"),
        help="directory holding the corefscore package the python -m processes import (default: the repository's)",
    )
    ap.add_argument(
        "--venv",
        type=Path,
        help="a virtual environment with corefscore installed, whose bin/corefscore is timed "
        "(default: a fresh one in a temporary directory, with this repository pip-installed)",
    )
    args = ap.parse_args()
    # The in-process timing and the fixtures use the package under test too.
    sys.path.insert(0, args.package_dir)
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([args.package_dir, env.get("PYTHONPATH", "")])
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    pycache = tempfile.TemporaryDirectory(prefix="cli_bench_pycache_")
    env["PYTHONPYCACHEPREFIX"] = pycache.name
    venv_dir = tempfile.TemporaryDirectory(prefix="cli_bench_venv_")
    venv_py = args.venv / "bin" / "python" if args.venv else install_venv(Path(venv_dir.name))
    installed = str(venv_py.parent / "corefscore")
    # The installed command runs as a user runs it: its own site-packages, its own bytecode.
    venv_env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONPYCACHEPREFIX")}
    py = sys.executable
    lines = [
        "# corefscore command-line benchmark",
        "",
        *facts(),
        f"- runs: median of {args.runs} after 1 warm-up",
        f"- installed command: {installed} (a virtual environment of {py}, package pip-installed)",
        f"- python -m rows: {py} with PYTHONPATH={args.package_dir}",
        f"- bytecode of the python -m rows cached in {pycache.name} (PYTHONPYCACHEPREFIX; "
        "PYTHONDONTWRITEBYTECODE dropped)",
        "",
        "| floor | median wall (ms) | median CPU (ms) |",
        "|---|---:|---:|",
    ]
    for label, cmd, cmd_env in (
        ("venv `python -c pass`", [str(venv_py), "-c", "pass"], venv_env),
        ("`python -c pass`", [py, "-c", "pass"], env),
        ("`python -S -c pass`", [py, "-S", "-c", "pass"], env),
        ("`python -c 'import numpy'`", [py, "-c", "import numpy"], env),
        ("`python -c 'import corefscore'`", [py, "-c", "import corefscore"], env),
    ):
        t = wall(cmd, cmd_env, args.runs)
        lines.append(f"| {label} | {1000 * statistics.median(t):.0f} | {_cpu(cmd)} |")
    lines += [
        "",
        "| corpus | command | median wall (ms) | min wall (ms) | median CPU (ms) "
        "| Go read+score in-process (ms) | Perl wall (s) | Perl / ours |",
        "|---|---|---:|---:|---:|---:|---:|---:|",
    ]
    have_perl = bool(shutil.which("perl") and args.perl and Path(args.perl).is_file()) and args.perl_runs > 0
    with tempfile.TemporaryDirectory() as d:
        for corpus, (key, resp) in fixtures(Path(d)).items():
            go = go_only(key, resp, args.runs)
            perl_s = None
            if have_perl:
                perl_s = statistics.median(
                    wall(["perl", args.perl, "all", str(key), str(resp), "none"], env, args.perl_runs, warmup=0)
                )
            drop_in = ["all", str(key), str(resp), "none"]
            for label, cmd, cmd_env in (
                ("installed `corefscore all KEY RESP none` (venv)", [installed, *drop_in], venv_env),
                ("`python -m corefscore all KEY RESP none`", [py, "-m", "corefscore", *drop_in], env),
                ("`python -S -m corefscore all KEY RESP none`", [py, "-S", "-m", "corefscore", *drop_in], env),
                ("installed `corefscore score KEY RESP` (venv)", [installed, "score", str(key), str(resp)], venv_env),
            ):
                t = wall(cmd, cmd_env, args.runs)
                med = statistics.median(t)
                first = label.startswith("installed `corefscore all")
                ratio = f"{perl_s / med:.0f}x" if perl_s is not None and first else ""
                perl_cell = f"{perl_s:.1f}" if perl_s is not None and first else ""
                lines.append(
                    f"| {corpus} | {label} | {1000 * med:.0f} | {1000 * min(t):.0f} | "
                    f"{_cpu(cmd)} | {1000 * go:.0f} | {perl_cell} | {ratio} |"
                )
            sizes = f"{key.stat().st_size / 1e6:.1f} MB + {resp.stat().st_size / 1e6:.1f} MB"
            lines.append(f"| {corpus} | (file sizes: {sizes}) | | | | | | |")
    lines.append(f"- load average at end: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    pycache.cleanup()
    venv_dir.cleanup()
    print("\n".join(lines))


if __name__ == "__main__":
    main()
