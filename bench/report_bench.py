"""Speed of the error analysis and of ``corefscore report`` on LitBank.

Fixture (written to a temporary directory, seeded): the 100 files of
../shared/data/litbank concatenated into one key file, and a seeded
perturbation of it (``fixtures.perturb``, seed 1), as in ``cli_bench.py``.

Timed (median and best of ``--runs`` after one warm-up):

- in-process: ``corefscore.analyze_files(key, response)`` (read, pair and
  analyse both files in Go, records copied into Python objects), and the
  Go-side parts alone (``cs_score_files`` with outputs=analysis; with
  outputs=key_documents for the key; with every output, the one call
  ``corefscore report`` makes per response: scores, analysis and documents
  from one read of each file);
- whole processes: ``python -m corefscore report KEY RESPONSE -o FILE`` and
  with a second response (seed 2), and the size of the HTML file written.

Usage::

    python bench/report_bench.py [--runs 5]

Prints Markdown; ``bench/report.md`` records a run.
"""

from __future__ import annotations

import argparse
import os
import platform
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _machine import best_and_median, cpu_model

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
sys.path.insert(0, str(REPO / "python"))


def litbank(tmp: Path) -> tuple[Path, Path, Path]:
    from fixtures.perturb import perturb_conll_file

    files = sorted((DATA / "litbank").glob("*.conll"))
    if not files:
        sys.exit(f"no LitBank files under {DATA / 'litbank'}")
    key = tmp / "litbank_key.conll"
    with key.open("wb") as f:
        for p in files:
            data = p.read_bytes()
            f.write(data if data.endswith(b"\n") else data + b"\n")
    a, b = tmp / "litbank_response_a.conll", tmp / "litbank_response_b.conll"
    perturb_conll_file(key, a, seed=1)
    perturb_conll_file(key, b, seed=2)
    return key, a, b


def process_seconds(cmd: list[str], runs: int) -> tuple[float, float, float, float]:
    """Best and median wall time, and the best and median CPU time (user + system) of the child process."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    cpu: list[float] = []

    def run() -> None:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run(cmd, check=True, env=env, stdout=subprocess.DEVNULL)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)

    best, med = best_and_median(run, runs)
    return best, med, min(cpu[1:]), statistics.median(cpu[1:])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    load_before = os.getloadavg()
    import corefscore
    from corefscore import _engine, _lib

    with tempfile.TemporaryDirectory() as d:
        tmp = Path(d)
        key, a, b = litbank(tmp)
        analysis = corefscore.analyze_files(key, a)
        n_docs, n_err = len(analysis.documents), len(analysis.errors)
        def files_call(key_path, response_path, outputs):
            opts = _engine.options(outputs=outputs)
            return lambda: _lib.score_files(key_path and os.fsencode(key_path),
                                            response_path and os.fsencode(response_path), opts.handle(False))

        rows = [
            ("`analyze_files(key, response)` (in process)",
             best_and_median(lambda: corefscore.analyze_files(key, a), args.runs)),
            ("Go analysis alone (`cs_score_files`, outputs=analysis)",
             best_and_median(files_call(key, a, "analysis"), args.runs)),
            ("Go documents and words of the key (`cs_score_files`, outputs=key_documents)",
             best_and_median(files_call(key, None, "key_documents"), args.runs)),
            ("Go scores, analysis and documents, one read of each file (`cs_score_files`, every output)",
             best_and_median(files_call(key, a, "scores,analysis,key_documents,response_documents"), args.runs)),
        ]
        out1, out2 = tmp / "one.html", tmp / "two.html"
        cmd1 = [sys.executable, "-m", "corefscore", "report", str(key), str(a), "-o", str(out1)]
        cmd2 = [sys.executable, "-m", "corefscore", "report", str(key), str(a), str(b), "-o", str(out2)]
        rows.append(("`corefscore report KEY RESPONSE -o FILE` (whole process)", process_seconds(cmd1, args.runs)))
        rows.append(("`corefscore report KEY RESPONSE_A RESPONSE_B -o FILE` (whole process)",
                     process_seconds(cmd2, args.runs)))
        sizes = (out1.stat().st_size, out2.stat().st_size)
    print("# Error analysis and report on LitBank\n")
    print(f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}; "
          "shared with several other agents' jobs while this ran, so times are noisy upper bounds")
    print(f"- Python {platform.python_version()}, corefscore {corefscore.__version__}")
    print(f"- input: LitBank, {n_docs} documents in one key file, response perturbed with seed 1 "
          f"(second response seed 2); {n_err} errors found in the first")
    print(f"- command: `python bench/report_bench.py --runs {args.runs}`")
    print(f"- load average before: {', '.join(f'{x:.1f}' for x in load_before)}; "
          f"when done: {', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("| what | best wall (s) | median wall (s) | best CPU, user + system (s) | median CPU (s) |")
    print("|---|---:|---:|---:|---:|")
    for name, t in rows:
        cpu = f"{t[2]:.3f} | {t[3]:.3f}" if len(t) > 2 else " | "
        print(f"| {name} | {t[0]:.3f} | {t[1]:.3f} | {cpu} |")
    print(f"\nHTML written: {sizes[0] / 2**20:.1f} MB (one response), {sizes[1] / 2**20:.1f} MB (two responses).")


if __name__ == "__main__":
    main()
