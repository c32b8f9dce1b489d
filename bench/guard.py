"""The regression guard: this working tree against the previous release, paired and alternating, whole process.

Builds the previous release (``--base``, default :data:`PREVIOUS_RELEASE`, the commit the README names) in a
temporary git worktree beside this one, builds this tree's library, and times both on the standard inputs, each
run a fresh process, round after round with the order of the two versions alternating (base-new, new-base, ...),
so that a change of load between rounds hits both alike. For every case it prints new/old ratios of wall time,
CPU time (user + system, every thread: the child's rusage from ``wait4``) and peak resident memory (the child's
``ru_maxrss``), as the median of the per-round ratios with their range (min-max), and each version's median.

Cases (``--cases``, comma-separated; default all):

- ``litbank``: LitBank's 100 files concatenated and a seeded perturbation; the drop-in form ``all KEY RESP none``
  and the table ``score KEY RESP``;
- ``gum``: GUM CoNLL-U concatenated and ``fixtures.conllu_perturb``'s response, ``score KEY RESP`` (exact
  matching: the release 5a28b7f has no ``--preset``);
- ``synthetic``: the CoNLL-2012-test-sized synthetic corpus (348 documents), drop-in form;
- ``200k`` and ``1m``: one synthetic document of 200,000 and 1,000,000 key mentions (``score KEY RESP``), the
  mentions' starts drawn over 12 tokens a mention (the 1M key: 383.5 MB);
- ``1m-dense``: the same 1,000,000 key mentions with their starts drawn over 4 tokens a mention (a 137.2 MB key,
  near the 117 MB of issue 24's document);
- ``per_call``: in one child process per version and round, the best of 200 x 200 calls of ``score`` on a
  one-cluster document and of ``Scorer.update`` on a 50-mention document (microseconds; the ratio is of those
  figures, and the process's peak memory).

Fixtures are written once into ``--fixtures DIR`` (default: a temporary directory) and reused when present.

Usage::

    python bench/guard.py [--base REV] [--rounds 8] [--cases litbank,gum,...] [--fixtures DIR] [--out FILE]

Prints Markdown (and writes it to ``--out``); ``bench/guard.md`` records a run. A ratio above 1.00 means this
tree is slower or larger than the release: say so wherever a speed is claimed.
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
from fixtures.memory import run_child as measure_child

REPO = Path(__file__).resolve().parent.parent
DATA = REPO.parent / "shared" / "data"

#: The previous release this tree is compared with (README, "Speed"): v0.2.0, by its commit so that a clone
#: without tags finds it too. Runs 1-13 of bench/guard.md compared with 5a28b7f, the first wave's state.
PREVIOUS_RELEASE = "0e55858"

PER_CALL = r"""
import time
from corefscore import Scorer, score
one = [[(0, 1), (3, 3)]]
fifty_key = [[(i * 4 + j * 200, i * 4 + j * 200 + 1) for i in range(5)] for j in range(10)]
fifty_resp = [c[:3] for c in fifty_key] + [c[3:] for c in fifty_key]
scorer = Scorer()
def best(fn, n=200, rounds=200):
    fn()
    out = float("inf")
    for _ in range(rounds):
        t0 = time.perf_counter()
        for _ in range(n):
            fn()
        out = min(out, (time.perf_counter() - t0) / n)
    return out * 1e6
print(best(lambda: score(one, one)), best(lambda: scorer.update(fifty_key, fifty_resp)))
"""


def run_child(cmd: list[str], env: dict[str, str]) -> tuple[float, float, float, str]:
    """(wall s, CPU s, peak RSS MiB, stdout) of one child process, from its own rusage (``fixtures.memory``: a
    child forked from this process, grown by the fixtures it wrote, would report this process's size)."""
    run = measure_child(cmd, env)
    return run.wall, run.cpu, run.peak / 2**20, run.stdout


def build(tree: Path) -> None:
    """Build the shared library of the tree at ``tree`` into its package."""
    lib = tree / "python" / "corefscore" / "libcorefscore.so"
    subprocess.run(["go", "build", "-trimpath", "-buildmode=c-shared", "-ldflags=-s -w", "-o", str(lib), "./capi"],
                   cwd=tree, check=True)
    (tree / "python" / "corefscore" / "libcorefscore.h").unlink(missing_ok=True)


def concatenated(files: list[Path], dst: Path) -> None:
    with dst.open("wb") as f:
        for p in files:
            data = p.read_bytes()
            f.write(data if data.endswith(b"\n") else data + b"\n")


def fixtures(root: Path, cases: list[str]) -> dict[str, tuple[list[str], ...]]:
    """The commands' argument lists per case (after ``python -m corefscore``), writing missing inputs."""
    sys.path.insert(0, str(REPO / "tests"))
    from fixtures.conllu_perturb import perturb_conllu
    from fixtures.perturb import perturb_conll_file, write_synthetic_corpus

    root.mkdir(parents=True, exist_ok=True)
    out: dict[str, tuple[list[str], ...]] = {}
    if "litbank" in cases:
        key, resp = root / "litbank_key.conll", root / "litbank_response.conll"
        if not resp.exists():
            concatenated(sorted((DATA / "litbank").glob("*.conll")), key)
            perturb_conll_file(key, resp, seed=1)
        out["LitBank, drop-in all"] = (["all", str(key), str(resp), "none"],)
        out["LitBank, score table"] = (["score", str(key), str(resp)],)
    if "gum" in cases:
        key, resp = root / "gum_key.conllu", root / "gum_response.conllu"
        if not resp.exists():
            concatenated(sorted((DATA / "gum-conllu").glob("*.conllu")), key)
            resp.write_text(perturb_conllu(key.read_text(encoding="utf-8")), encoding="utf-8")
        # Exact matching: 5a28b7f has no --preset (the CRAC preset's own figures: bench/corefud.md).
        out["GUM CoNLL-U, score"] = (["score", str(key), str(resp)],)
    if "synthetic" in cases:
        d = root / "synthetic"
        if not (d / "response.conll").exists():
            d.mkdir(exist_ok=True)
            write_synthetic_corpus(d, seed=0)
        out["synthetic 348 docs, drop-in all"] = (["all", str(d / "key.conll"), str(d / "response.conll"), "none"],)
    for case, n, tokens_per_mention in (("200k", 200_000, 12), ("1m", 1_000_000, 12), ("1m-dense", 1_000_000, 4)):
        if case in cases:
            d = root / f"one_{case.replace('-', '_')}"
            if not (d / "response.conll").exists():
                d.mkdir(exist_ok=True)
                write_synthetic_corpus(d, seed=0, n_docs=1, n_mentions=n, n_entities=n * 45 // 197,
                                       tokens_per_mention=tokens_per_mention)
            dense = ", dense" if tokens_per_mention != 12 else ""
            out[f"one {n:,}-mention document{dense}, score"] = (["score", str(d / "key.conll"),
                                                                 str(d / "response.conll")],)
    return out


def env_for(package: Path, cache: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")}
    env.update(PYTHONPATH=str(package), PYTHONPYCACHEPREFIX=str(cache), OPENBLAS_NUM_THREADS="1")
    return env


def fmt_ratio(ratios: list[float]) -> str:
    return f"{statistics.median(ratios):.2f} ({min(ratios):.2f}-{max(ratios):.2f})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--base", default=PREVIOUS_RELEASE, help="the release to compare with (a tag or commit)")
    ap.add_argument("--rounds", type=int, default=8, help="timed rounds per case (after one warm-up round)")
    ap.add_argument("--cases", default="litbank,gum,synthetic,200k,1m,1m-dense,per_call")
    ap.add_argument("--fixtures", type=Path, help="where inputs are written once and reused")
    ap.add_argument("--out", type=Path, help="also write the Markdown here")
    args = ap.parse_args()
    cases = args.cases.split(",")
    tmp = Path(tempfile.mkdtemp(prefix="corefscore-guard-"))
    base_tree = tmp / "base"
    try:
        subprocess.run(["git", "worktree", "add", "--detach", "-q", str(base_tree), args.base], cwd=REPO, check=True)
        base_rev = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=base_tree, check=True,
                                  capture_output=True, text=True).stdout.strip()
        new_rev = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=REPO, check=True,
                                 capture_output=True, text=True).stdout.strip()
        build(base_tree)
        build(REPO)
        versions = {"base": env_for(base_tree / "python", tmp / "cache-base"),
                    "new": env_for(REPO / "python", tmp / "cache-new")}
        commands = {name: [sys.executable, "-m", "corefscore", *argv[0]]
                    for name, argv in fixtures(args.fixtures or tmp / "fixtures", cases).items()}
        if "per_call" in cases:
            commands["per call: score 1 cluster | Scorer.update 50 mentions (us, in process)"] = \
                [sys.executable, "-c", PER_CALL]
        lines = [
            "# Regression guard: this tree against the previous release",
            "",
            f"- command: `python bench/guard.py --base {args.base} --rounds {args.rounds} --cases {args.cases}`",
            f"- new: {new_rev}; base: {args.base} ({base_rev}); each run a fresh process, {args.rounds} rounds "
            "after a warm-up, the two versions' order alternating per round",
            f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, {platform.system()} {platform.release()}, "
            f"Python {platform.python_version()}; load average before: {os.getloadavg()[0]:.2f}",
            "- ratio = new / base per round: median (min-max); above 1.00 = slower or larger than the release",
            "",
            "| case | wall new / base | CPU new / base | peak RSS new / base | median wall new, base "
            "| peak MiB new, base |",
            "|---|---|---|---|---|---|",
        ]
        for name, cmd in commands.items():
            per = {v: [] for v in versions}
            for rnd in range(args.rounds + 1):
                order = list(versions) if rnd % 2 == 0 else list(reversed(versions))
                for v in order:
                    wall, cpu, rss, out = run_child(cmd, versions[v])
                    if rnd:
                        per[v].append((wall, cpu, rss, out))
            if name.startswith("per call"):
                figures = {v: [tuple(map(float, r[3].split())) for r in per[v]] for v in versions}
                for i, label in enumerate(("score 1 cluster", "Scorer.update 50 mentions")):
                    ratios = [n[i] / b[i] for n, b in zip(figures["new"], figures["base"])]
                    new_best = min(f[i] for f in figures["new"])
                    base_best = min(f[i] for f in figures["base"])
                    lines.append(f"| per call, {label} (best us) | {fmt_ratio(ratios)} | | | "
                                 f"{new_best:.1f}, {base_best:.1f} us | |")
                continue
            walls, cpus, rsss = ([n[k] / b[k] for n, b in zip(per["new"], per["base"])] for k in range(3))
            med = {v: (statistics.median(r[0] for r in per[v]), statistics.median(r[2] for r in per[v]))
                   for v in versions}
            lines.append(f"| {name} | {fmt_ratio(walls)} | {fmt_ratio(cpus)} | {fmt_ratio(rsss)} | "
                         f"{med['new'][0]:.3f}, {med['base'][0]:.3f} s | {med['new'][1]:.0f}, {med['base'][1]:.0f} |")
        lines += ["", f"Load average after: {os.getloadavg()[0]:.2f}."]
        text = "\n".join(lines) + "\n"
        print(text)
        if args.out:
            args.out.write_text(text)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(base_tree)], cwd=REPO, check=False)
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
