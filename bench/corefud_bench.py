"""Wall time of the whole ``corefscore`` process on GUM CoNLL-U with the CRAC preset, beside the CorefUD scorer.

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
  ``--scorer-runs`` runs.

Usage::

    python bench/corefud_bench.py [--runs 5] [--scorer-runs 1]
        [--scorer /work/peers/corefud/corefud-scorer.py] [--scorer-python /work/venvs/issue12/bin/python]

Prints Markdown; ``bench/corefud.md`` records a run.
"""

from __future__ import annotations

import argparse
import os
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


def _time(cmd: list[str], runs: int, env: dict[str, str], warm: bool) -> list[float]:
    if warm:
        subprocess.run(cmd, env=env, check=True, capture_output=True)
    times = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, env=env, check=True, capture_output=True)
        times.append(time.perf_counter() - t0)
    return times


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--scorer-runs", type=int, default=1)
    p.add_argument("--scorer", default=os.environ.get("COREFSCORE_COREFUD_SCORER", "corefud-scorer.py"))
    p.add_argument("--scorer-python", default=os.environ.get("COREFSCORE_COREFUD_PYTHON", sys.executable))
    args = p.parse_args()
    files = sorted(GUM.glob("*.conllu"))
    if not files:
        sys.exit(f"no GUM CoNLL-U files in {GUM}")
    with tempfile.TemporaryDirectory() as tmp:
        key, resp = Path(tmp, "key.conllu"), Path(tmp, "response.conllu")
        text = "".join(f.read_text(encoding="utf-8") for f in files)
        key.write_text(text, encoding="utf-8")
        resp.write_text(perturb_conllu(text), encoding="utf-8")
        env = {**os.environ, "PYTHONPATH": str(REPO / "python"), "PYTHONPYCACHEPREFIX": str(Path(tmp, "pyc"))}
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        ours_cmd = [sys.executable, "-m", "corefscore", "score", str(key), str(resp), "--preset", "crac"]
        theirs_cmd = [args.scorer_python, args.scorer, str(key), str(resp)]
        load0 = os.getloadavg()
        ours = _time(ours_cmd, args.runs, env, warm=True)
        theirs = _time(theirs_cmd, args.scorer_runs, dict(os.environ), warm=False)
        load1 = os.getloadavg()
        size = key.stat().st_size + resp.stat().st_size
    print("# CorefUD: whole process, GUM CoNLL-U, CRAC setting\n")
    print(f"- machine: {cpu_model()}, {os.cpu_count()} CPUs, shared with other sessions; "
          f"load average {load0[0]:.2f} before, {load1[0]:.2f} after")
    print(f"- Python {sys.version.split()[0]}; {len(files)} documents, key + response {size / 1e6:.1f} MB")
    print(f"- corefscore: `{' '.join(['python', *ours_cmd[1:3], 'score', 'KEY', 'RESPONSE', '--preset', 'crac'])}`")
    print("- CorefUD scorer v1.2: `python corefud-scorer.py KEY RESPONSE` (head, no singletons, dependent zeros)\n")
    print("| command | runs | median s | min s |")
    print("|---|---|---|---|")
    print(f"| corefscore score --preset crac | {len(ours)} | {statistics.median(ours):.3f} | {min(ours):.3f} |")
    print(f"| corefud-scorer.py | {len(theirs)} | {statistics.median(theirs):.2f} | {min(theirs):.2f} |")
    print(f"\nratio (CorefUD scorer / corefscore, medians): {statistics.median(theirs) / statistics.median(ours):.0f}x")


if __name__ == "__main__":
    main()
