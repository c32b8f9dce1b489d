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
  with a second response (seed 2), and the size of the HTML file written;
- one huge document (``--single``, default 200,000 and 1,000,000 mentions:
  ``fixtures.perturb.write_synthetic_corpus(dir, seed=0, n_docs=1,
  n_mentions=n, n_entities=n * 45 // 197)``, about 12 words a mention):
  ``corefscore report KEY RESPONSE -o FILE`` as a child process, its wall
  time, CPU time and peak RSS (``wait4``), and the page's size and how many
  of the document's words it holds (``--single-runs`` runs each).

Usage::

    python bench/report_bench.py [--runs 5] [--single 200000 1000000] [--single-runs 1]

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


def child_run(cmd: list[str]) -> tuple[float, float, float]:
    """Wall seconds, CPU seconds (user + system) and peak RSS (MB) of one child process."""
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    t0 = time.perf_counter()
    proc = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - t0
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        sys.exit(f"{' '.join(cmd)} exited with {proc.returncode}")
    return wall, usage.ru_utime + usage.ru_stime, usage.ru_maxrss / 1024


def single_document(tmp: Path, n_mentions: int, runs: int) -> dict:
    """`corefscore report` on one synthetic document of ``n_mentions`` mentions: times, peak RSS, the page."""
    import json
    import re

    from fixtures.perturb import write_synthetic_corpus

    d = tmp / f"single_{n_mentions}"
    d.mkdir()
    key, resp = write_synthetic_corpus(d, seed=0, n_docs=1, n_mentions=n_mentions, n_entities=n_mentions * 45 // 197)
    out = d / "report.html"
    cmd = [sys.executable, "-m", "corefscore", "report", key, resp, "-o", str(out)]
    measured = [child_run(cmd) for _ in range(runs)]
    page = out.read_text(encoding="utf-8")
    body = re.search(r'<script type="application/json" id="[^"]+-doc-0">(.*?)</script>', page, re.S)
    body = json.loads(body.group(1)) if body else {"n": 0, "shown": 0}
    result = {"n_mentions": n_mentions, "key_mb": os.path.getsize(key) / 1e6, "page_mb": len(page.encode()) / 1e6,
              "words": body["n"], "shown": body["shown"],
              "wall": [m[0] for m in measured], "cpu": [m[1] for m in measured], "rss": [m[2] for m in measured]}
    for p in Path(d).iterdir():
        p.unlink()
    return result


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--single", type=int, nargs="*", default=[200_000, 1_000_000],
                    help="mention counts of the one-document cases (none: skip them)")
    ap.add_argument("--single-runs", type=int, default=1)
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
        singles = [single_document(tmp, n, args.single_runs) for n in args.single]
    print("# Error analysis and report on LitBank\n")
    print(f"- date: {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}")
    print(f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}; "
          "shared with several other agents' jobs while this ran, so times are noisy upper bounds")
    print(f"- Python {platform.python_version()}, corefscore {corefscore.__version__}")
    print(f"- input: LitBank, {n_docs} documents in one key file, response perturbed with seed 1 "
          f"(second response seed 2); {n_err} errors found in the first")
    single = f" --single {' '.join(map(str, args.single))} --single-runs {args.single_runs}" if args.single else ""
    print(f"- command: `python bench/report_bench.py --runs {args.runs}{single}`")
    print(f"- load average before: {', '.join(f'{x:.1f}' for x in load_before)}; "
          f"when done: {', '.join(f'{x:.1f}' for x in os.getloadavg())}\n")
    print("| what | best wall (s) | median wall (s) | best CPU, user + system (s) | median CPU (s) |")
    print("|---|---:|---:|---:|---:|")
    for name, t in rows:
        cpu = f"{t[2]:.3f} | {t[3]:.3f}" if len(t) > 2 else " | "
        print(f"| {name} | {t[0]:.3f} | {t[1]:.3f} | {cpu} |")
    print(f"\nHTML written: {sizes[0] / 2**20:.1f} MB (one response), {sizes[1] / 2**20:.1f} MB (two responses).")
    if singles:
        print("\n## One huge document: `corefscore report KEY RESPONSE -o FILE` (whole process)\n")
        print("| mentions | key file (MB) | words | median wall (s) | median CPU (s) | peak RSS (MB) "
              "| page (MB) | words in the page |")
        print("|---:|---:|---:|---:|---:|---:|---:|---:|")
        for r in singles:
            print(f"| {r['n_mentions']:,} | {r['key_mb']:.0f} | {r['words']:,} | {statistics.median(r['wall']):.1f} "
                  f"| {statistics.median(r['cpu']):.1f} | {max(r['rss']):.0f} | {r['page_mb']:.1f} "
                  f"| {r['shown']:,} |")


if __name__ == "__main__":
    main()
