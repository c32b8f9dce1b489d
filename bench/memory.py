"""Peak memory per input byte of ``corefscore score``, for each file format, whole process (issue 20).

Each case scores a key and a response file in a fresh child process (``python -m corefscore score KEY RESP
[mode]``) and reads the child's own peak resident memory from ``os.wait4`` (``ru_maxrss``). The floor is the
same command on a one-mention pair of files (interpreter, NumPy, library, Go runtime); the table gives the peak,
the peak above the floor per byte of input (key + response), and the bound of ``fixtures.memory.bound`` (the one
the README states and ``tests/test_memory.py`` asserts).

Cases (``--cases``, comma-separated; default all but ``1m``):

- ``litbank``: LitBank's 100 files concatenated and a seeded perturbation (CoNLL-2012);
- ``jsonlines``: the same two files converted to jsonlines (``doc_key``, ``sentences``, ``clusters``);
- ``gum``: GUM CoNLL-U concatenated and ``fixtures.conllu_perturb``'s response, every ``--match`` mode and
  ``--preset crac`` (head matching, dependent zero alignment);
- ``nested``: ``fixtures.nested``'s 16,000 nested mentions (mention i covers words i+1..N), CoNLL-U in every
  mode and the same spans as CoNLL-2012;
- ``dense``: ``fixtures.memory.write_dense_jsonlines``, 1,000,000 one-token mentions per side in about 15
  bytes each (no ``sentences``): the input with the most mentions per byte, above the per-byte bound;
- ``1m``: the synthetic 1,000,000-mention CoNLL-2012 document of ``bench/guard.py``.

Usage::

    python bench/memory.py [--cases litbank,gum,...] [--rounds 3] [--fixtures DIR] [--out bench/memory.md]
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import subprocess
import tempfile
from pathlib import Path

from _machine import cpu_model
from fixtures.conllu_perturb import perturb_conllu
from fixtures.memory import (
    ALLOWANCE,
    PER_INPUT_BYTE,
    bound,
    cli,
    conll_to_jsonlines,
    run_child,
    write_dense_jsonlines,
    write_tiny_pair,
)
from fixtures.nested import write_nested_conll2012, write_nested_conllu
from fixtures.perturb import perturb_conll_file, write_synthetic_corpus

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"
NESTED = 16_000
MODES = {"exact": [], "partial": ["--match", "partial"], "head": ["--match", "head"], "crac": ["--preset", "crac"]}


def concatenated(files: list[Path], dst: Path) -> Path:
    with dst.open("wb") as f:
        for p in files:
            data = p.read_bytes()
            f.write(data if data.endswith(b"\n") else data + b"\n")
    return dst


def cases(root: Path, names: list[str]) -> list[tuple[str, str, Path, Path, list[str]]]:
    """(case, format, key, response, mode) rows, writing missing inputs into ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    out = []
    if "litbank" in names or "jsonlines" in names:
        key, resp = root / "litbank_key.conll", root / "litbank_response.conll"
        if not resp.exists():
            concatenated(sorted((DATA / "litbank").glob("*.conll")), key)
            perturb_conll_file(key, resp, seed=1)
        if "litbank" in names:
            out.append(("LitBank", "CoNLL-2012", key, resp, []))
        if "jsonlines" in names:
            jkey, jresp = root / "litbank_key.jsonl", root / "litbank_response.jsonl"
            if not jresp.exists():
                conll_to_jsonlines(key, jkey)
                conll_to_jsonlines(resp, jresp)
            out.append(("LitBank", "jsonlines", jkey, jresp, []))
    if "gum" in names:
        key, resp = root / "gum_key.conllu", root / "gum_response.conllu"
        if not resp.exists():
            concatenated(sorted((DATA / "gum-conllu").glob("*.conllu")), key)
            resp.write_text(perturb_conllu(key.read_text(encoding="utf-8")), encoding="utf-8")
        out += [("GUM", "CoNLL-U", key, resp, mode) for mode in MODES.values()]
    if "nested" in names:
        key, resp = root / "nested_key.conllu", root / "nested_response.conllu"
        ckey, cresp = root / "nested_key.conll", root / "nested_response.conll"
        if not cresp.exists():
            write_nested_conllu(key, NESTED)
            write_nested_conllu(resp, NESTED, response=True)
            write_nested_conll2012(ckey, NESTED)
            write_nested_conll2012(cresp, NESTED, response=True)
        out += [(f"nested {NESTED:,}", "CoNLL-U", key, resp, mode) for mode in MODES.values()]
        out.append((f"nested {NESTED:,}", "CoNLL-2012", ckey, cresp, []))
    if "dense" in names:
        key, resp = root / "dense_key.jsonl", root / "dense_response.jsonl"
        if not resp.exists():
            write_dense_jsonlines(key, resp)
        out.append(("dense 1M mentions", "jsonlines", key, resp, []))
    if "1m" in names:
        d = root / "one_1m"
        if not (d / "response.conll").exists():
            d.mkdir(exist_ok=True)
            write_synthetic_corpus(d, seed=0, n_docs=1, n_mentions=1_000_000, n_entities=1_000_000 * 45 // 197)
        out.append(("synthetic 1M mentions", "CoNLL-2012", d / "key.conll", d / "response.conll", []))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--cases", default="litbank,jsonlines,gum,nested")
    ap.add_argument("--rounds", type=int, default=3, help="runs per row (the median peak is shown)")
    ap.add_argument("--fixtures", type=Path, help="where inputs are written once and reused")
    ap.add_argument("--out", type=Path, help="also write the Markdown here")
    args = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GOGC", "GOMEMLIMIT")}
    env.update(PYTHONPATH=str(REPO / "python"), OPENBLAS_NUM_THREADS="1")
    rev = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, capture_output=True, text=True).stdout
    with tempfile.TemporaryDirectory(prefix="corefscore-memory-") as tmp:
        root = args.fixtures or Path(tmp)
        rows = cases(root, args.cases.split(","))
        tiny = write_tiny_pair(Path(tmp))
        floor = statistics.median(run_child(cli("score", *map(str, tiny)), env).peak for _ in range(args.rounds))
        lines = [
            "# Peak memory per input byte, whole process",
            "",
            f"- command: `python bench/memory.py --cases {args.cases} --rounds {args.rounds}`; tree {rev.strip()}",
            f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}; load average before: {os.getloadavg()[0]:.2f}",
            f"- each row: `python -m corefscore score KEY RESPONSE [mode]` in a fresh process, median of "
            f"{args.rounds} runs of its peak RSS (`wait4` rusage); floor = the same command on a one-mention pair: "
            f"{floor / 2**20:.1f} MiB",
            f"- bound = floor + {PER_INPUT_BYTE} x input + {ALLOWANCE >> 20} MiB (`tests/fixtures/memory.py`, "
            "asserted by `tests/test_memory.py`)",
            "",
            "| input | format | mode | input (key + response) | peak RSS | (peak - floor) / input byte | bound | "
            "CPU |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for case, fmt, key, resp, mode in rows:
            size = key.stat().st_size + resp.stat().st_size
            runs = [run_child(cli("score", str(key), str(resp), *mode), env) for _ in range(args.rounds)]
            peak = statistics.median(r.peak for r in runs)
            cpu = statistics.median(r.cpu for r in runs)
            label = " ".join(mode) or "exact (default)"
            lines.append(f"| {case} | {fmt} | {label} | {size / 2**20:.2f} MiB | {peak / 2**20:.0f} MiB | "
                         f"{(peak - floor) / size:.2f} | {bound(int(floor), size) / 2**20:.0f} MiB | {cpu:.2f} s |")
        lines += ["", f"Load average after: {os.getloadavg()[0]:.2f}."]
    text = "\n".join(lines) + "\n"
    print(text)
    if args.out:
        args.out.write_text(text)


if __name__ == "__main__":
    main()
