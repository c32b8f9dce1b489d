"""Whole-process time of scoring Universal Anaphora files in every mode, corefscore beside the UA scorer.

Fixtures (written to a temporary directory):

- the UA scorer's own test suite: the 15 pairs of its ``plural-tests`` folder (from the
  checkout given by ``--scorer``);
- a 200-document random UA corpus (``tests/ua_random.random_pair(seed, 200)``: plural
  anaphors with 2-4 antecedents, nested markables, -Pseudo entities, bridging, discourse
  deixis, Min spans).

Every pair is scored in the UA scorer's six modes (default, ``remove_singletons
remove_split_antecedent``, ``remove_split_antecedent``, ``only_split_antecedent``,
``keep_non_referring keep_bridging``, ``evaluate_discourse_deixis``):

- corefscore: ONE fresh process, ``python -c`` importing corefscore and calling
  ``score_files`` for every pair and mode (16 pairs x 6 modes);
- the UA scorer: ``python ua-scorer.py KEY RESPONSE MODE...``, one process per pair and
  mode as its users run it, with the interpreter given by ``--scorer-python`` (NumPy,
  SciPy); the total over all its processes.

Wall and CPU time (user + system of the children, ``RUSAGE_CHILDREN``); corefscore's
median and minimum of ``--runs`` after one warm-up, the UA scorer's total of one round
(``--scorer-runs``, 0 to skip it). The machine is shared: read the load averages.

Usage::

    python bench/ua_bench.py --scorer /work/peers/ua-scorer --scorer-python /work/peers/uaenv/bin/python [--runs 5]

Prints Markdown; ``bench/ua.md`` records a run.
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

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "tests"))
import ua_random  # noqa: E402

MODES = {
    "default": ([], {}),
    "remove_singletons_split": (["remove_singletons", "remove_split_antecedent"],
                                {"singletons": "exclude", "split_antecedents": "exclude"}),
    "remove_split_antecedent": (["remove_split_antecedent"], {"split_antecedents": "exclude"}),
    "only_split_antecedent": (["only_split_antecedent"], {"split_antecedents": "only"}),
    "keep_non_referring_bridging": (["keep_non_referring", "keep_bridging"], {"non_referring": True, "bridging": True}),
    "evaluate_discourse_deixis": (["evaluate_discourse_deixis"], {"discourse_deixis": True}),
}


def _timed(cmd: list[str], env: dict | None = None) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, env=env)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--scorer", required=True, help="a checkout of the UA scorer (juntaoy/universal-anaphora-scorer)")
    ap.add_argument("--scorer-python", default=sys.executable, help="a Python with numpy and scipy")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--scorer-runs", type=int, default=1)
    args = ap.parse_args()
    scorer = Path(args.scorer)
    plural = scorer / "plural-tests"
    pairs = [(plural / "TC-PA.key", p) for p in sorted(plural.glob("TC-PA-*.sys"))]
    pairs += [(plural / "TC-PB.key", p) for p in sorted(plural.glob("TC-PB-*.sys"))]
    tmp = Path(tempfile.mkdtemp(prefix="ua_bench"))
    key_text, resp_text = ua_random.random_pair(2022, 200)
    (tmp / "random.key").write_text(key_text)
    (tmp / "random.sys").write_text(resp_text)
    pairs.append((tmp / "random.key", tmp / "random.sys"))

    job = [(str(k), str(r), opts) for k, r in pairs for _, opts in MODES.values()]
    script = ("import corefscore\n"
              f"for k, r, o in {job!r}:\n"
              "    corefscore.score_files(k, r, format='ua', **o)\n")
    env = dict(os.environ, PYTHONPATH=str(REPO / "python"))
    cmd = [sys.executable, "-c", script]
    _timed(cmd, env)  # warm-up
    ours = [_timed(cmd, env) for _ in range(args.runs)]

    theirs = []
    for _ in range(args.scorer_runs):
        wall = cpu = 0.0
        for k, r in pairs:
            for flags, _ in MODES.values():
                w, c = _timed([args.scorer_python, str(scorer / "ua-scorer.py"), str(k), str(r), *flags])
                wall, cpu = wall + w, cpu + c
        theirs.append((wall, cpu))

    size = sum(os.path.getsize(p) for pair in pairs for p in pair)
    print(f"- {time.strftime('%d %b %Y %H:%M UTC', time.gmtime())}; machine: {cpu_model()}, {os.cpu_count()} CPUs; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"- {len(pairs)} pairs ({len(pairs) - 1} plural test cases + a 200-document random corpus), "
          f"{len(MODES)} modes each; {size / 1e6:.2f} MB of files")
    print()
    print("| command | runs | median wall s | min wall s | median CPU s | min CPU s |")
    print("|---|---|---|---|---|---|")

    def row(name: str, xs: list[tuple[float, float]]) -> None:
        w, c = [x[0] for x in xs], [x[1] for x in xs]
        print(f"| {name} | {len(xs)} | {statistics.median(w):.3f} | {min(w):.3f} | "
              f"{statistics.median(c):.3f} | {min(c):.3f} |")

    row("corefscore, one process, every pair and mode", ours)
    if theirs:
        row(f"ua-scorer.py, {len(pairs) * len(MODES)} processes (total)", theirs)
        print()
        print(f"ratio (UA scorer / corefscore, medians): "
              f"{statistics.median(x[0] for x in theirs) / statistics.median(x[0] for x in ours):.0f}x wall, "
              f"{statistics.median(x[1] for x in theirs) / statistics.median(x[1] for x in ours):.0f}x CPU")


if __name__ == "__main__":
    main()
