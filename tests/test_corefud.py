"""CorefUD scoring through the Python API and the command line: mention matching, zeros, the CRAC preset.

The fixture ``fixtures/corefud`` is one sentence, "The big dog barked [zero] it saw a red car too", with
key entities {The big dog (head dog), zero 4.1 (DEPS 4:nsubj), it} and {a red car (head car)}, and
response entities {big dog (head dog), zero 4.2 (DEPS 4:nsubj; the response's 4.1 is an unannotated
empty node with DEPS 6:nsubj), it} and {a red car too (head car)}. Each mode pairs one more mention:
exact pairs "it" only; the dependent zero alignment adds the zero (same parent and relation, another
id); partial adds "big dog" (inside the key mention, with its head); head adds "a red car too" too.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import corefscore
import pytest
from _helpers import REPO
from fixtures.conllu_perturb import perturb_conllu

FIXTURE = Path(__file__).parent / "fixtures" / "corefud"
KEY, RESPONSE = FIXTURE / "key.conllu", FIXTURE / "response.conllu"
GUM = REPO.parent / "shared" / "data" / "gum-conllu"
SCORER_ENV = "COREFSCORE_COREFUD_SCORER"
SCORER = os.environ.get(SCORER_ENV)
SCORER_PYTHON = os.environ.get("COREFSCORE_COREFUD_PYTHON", sys.executable)

# Key mentions paired (of 4 on each side) per (match, zero_match), by the reasoning of the module docstring.
PAIRED = {("exact", "linear"): 1, ("exact", "dependent"): 2, ("partial", "linear"): 2,
          ("partial", "dependent"): 3, ("head", "linear"): 3, ("head", "dependent"): 4}


def _cli(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "PYTHONPATH": str(REPO / "python")}
    return subprocess.run([sys.executable, "-m", "corefscore", *args], capture_output=True, text=True, env=env,
                          check=False)


@pytest.mark.parametrize(("match", "zero_match"), sorted(PAIRED))
def test_each_mode_pairs_the_mentions_it_should(match, zero_match):
    r = corefscore.score_files(KEY, RESPONSE, match=match, zero_match=zero_match)
    c = r.counts["mentions"]
    assert (c["recall_num"], c["recall_den"], c["precision_den"]) == (PAIRED[match, zero_match], 4, 4)
    # The dog's entity has both its links once its three mentions are all paired.
    if (match, zero_match) in {("partial", "dependent"), ("head", "dependent")}:
        assert r["muc"].recall == 1.0
    else:
        assert r["muc"].recall < 1.0
    # MOR does not depend on the mode.
    assert r.counts["mor"] == corefscore.score_files(KEY, RESPONSE).counts["mor"]


def test_the_crac_preset_is_head_dependent_without_singletons_and_keywords_override_it():
    crac = corefscore.score_files(KEY, RESPONSE, preset="crac")
    explicit = corefscore.score_files(KEY, RESPONSE, match="head", zero_match="dependent", singletons="exclude")
    assert crac.counts == explicit.counts
    assert crac.counts["mentions"]["recall_den"] == 3, "the car's singleton entity is left out"
    kept = corefscore.score_files(KEY, RESPONSE, preset="crac", singletons="keep")
    assert kept.counts["mentions"]["recall_den"] == 4
    partial = corefscore.score_files(KEY, RESPONSE, match="partial", preset="crac", singletons="keep")
    assert partial.counts["mentions"]["recall_num"] == PAIRED["partial", "dependent"], "the keywords win"


def test_bad_values_name_the_keyword():
    for kw in ({"match": "fuzzy"}, {"zero_match": "by_id"}, {"preset": "crac2099"}):
        with pytest.raises(corefscore.CorefScoreInputError) as info:
            corefscore.score_files(KEY, RESPONSE, **kw)
        assert info.value.option == next(iter(kw))


def test_heads_are_needed_and_the_message_says_where_they_come_from(tmp_path):
    # A CoNLL-2012 file without POS tags has no heads.
    lines = ["#begin document (d); part 000"]
    for i, (w, c) in enumerate([("the", "(1"), ("dog", "1)"), ("barked", "-"), ("it", "(1)")]):
        lines.append(f"d\t0\t{i}\t{w}\t-\t-\t-\t-\t-\t-\t{c}")
    bare = tmp_path / "bare.conll"
    bare.write_text("\n".join(lines) + "\n\n#end document\n")
    assert corefscore.score_files(bare, bare)["muc"].f1 == 1.0
    with pytest.raises(corefscore.CorefScoreInputError) as info:
        corefscore.score_files(bare, bare, match="head")
    assert info.value.kind == "missing_heads"
    assert "CoNLL-U" in info.value.reason and "POS" in info.value.reason
    # Mention arrays have no words: mor is refused when named, left out otherwise.
    with pytest.raises(corefscore.CorefScoreInputError) as info:
        corefscore.score([[1, 2]], [[1, 2]], metrics=["mor"])
    assert info.value.kind == "missing_heads"
    assert "mor" not in corefscore.score([[1, 2]], [[1, 2]]).metrics


def test_the_command_line_takes_the_same_options():
    for (match, zero_match), paired in PAIRED.items():
        out = _cli("score", str(KEY), str(RESPONSE), "--match", match, "--zero-match", zero_match, "--json")
        assert out.returncode == 0, out.stderr
        assert json.loads(out.stdout)["metrics"]["mentions"]["recall_num"] == paired
    out = _cli("score", str(KEY), str(RESPONSE), "--preset", "crac", "--singletons", "keep", "--json")
    assert json.loads(out.stdout)["metrics"]["mentions"]["recall_den"] == 4
    out = _cli("score", str(KEY), str(RESPONSE), "--match", "fuzzy")
    assert out.returncode == 2 and "--match" in out.stderr


def test_datasets_give_each_result_and_their_macro_average(tmp_path):
    other = tmp_path / "other.conllu"
    other.write_text(KEY.read_text())  # a second dataset scored perfectly
    out = _cli("score", "--datasets", str(KEY), str(RESPONSE), str(other), str(other), "--match", "partial",
               "--metrics", "muc,bcub,ceafe", "--json")
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout)
    assert list(got["datasets"]) == ["key", "other"]
    one = corefscore.score_files(KEY, RESPONSE, match="partial", metrics=["muc", "bcub", "ceafe"])
    assert got["datasets"]["key"]["metrics"]["muc"]["f1"] == pytest.approx(one["muc"].f1)
    for m in ("muc", "bcub", "ceafe"):
        assert got["macro"]["metrics"][m]["f1"] == pytest.approx((one[m].f1 + 1.0) / 2)
    assert got["macro"]["conll_f1"] == pytest.approx((one.conll_f1 + 1.0) / 2)
    text = _cli("score", "--datasets", str(KEY), str(RESPONSE), str(other), str(other), "--match", "partial").stdout
    assert "dataset key" in text and "dataset other" in text and "macro average over 2 datasets" in text
    bad = _cli("score", "--datasets", str(KEY), str(RESPONSE), str(other))
    assert bad.returncode == 2 and "pairs" in bad.stderr
    assert _cli("score").returncode == 2


@pytest.mark.skipif(not GUM.is_dir(), reason=f"GUM CoNLL-U is not available ({GUM})")
@pytest.mark.parametrize("match", ["exact", "partial", "head"])
def test_gum_against_itself_and_a_perturbed_copy(match, tmp_path):
    files = sorted(GUM.glob("*.conllu"))[:3]
    for f in files:
        same = corefscore.score_files(f, f, match=match, zero_match="dependent")
        assert all(same[m].f1 == 1.0 for m in ("muc", "bcub", "ceafe", "lea", "mor"))
    key, resp = _perturbed_gum(tmp_path, files)
    by_mode = {m: corefscore.score_files(key, resp, match=m) for m in ("exact", "partial", "head")}
    # Heads moved and boundaries shifted: partial pairs at least what exact does, head at least what partial does
    # here (the perturbation only shrinks mentions around their heads or moves heads).
    assert (by_mode["exact"].counts["mentions"]["recall_num"] <= by_mode["partial"].counts["mentions"]["recall_num"])
    assert by_mode[match]["muc"].f1 < 1.0


def _perturbed_gum(tmp_path: Path, files: list[Path]) -> tuple[Path, Path]:
    """The files concatenated as the key, and a response: some mentions dropped, some heads moved."""
    key_text = "".join(f.read_text(encoding="utf-8") for f in files)
    key, resp = tmp_path / "key.conllu", tmp_path / "response.conllu"
    key.write_text(key_text, encoding="utf-8")
    resp.write_text(perturb_conllu(key_text), encoding="utf-8")
    return key, resp


_SCORER_LINE = re.compile(r"Recall:\s*([\d.]+)\s+Precision:\s*([\d.]+)\s+F1:\s*([\d.]+)")


@pytest.mark.skipif(not SCORER, reason=f"the CorefUD scorer is not available (set {SCORER_ENV} to corefud-scorer.py)")
@pytest.mark.skipif(not GUM.is_dir(), reason=f"GUM CoNLL-U is not available ({GUM})")
@pytest.mark.parametrize("match", ["exact", "partial", "head"])
def test_the_command_line_agrees_with_the_corefud_scorer(match, tmp_path):
    key, resp = _perturbed_gum(tmp_path, sorted(GUM.glob("*.conllu"))[:2])
    metrics = ["muc", "bcub", "ceafe", "ceafm", "lea", "mor"]
    theirs = subprocess.run([SCORER_PYTHON, SCORER, str(key), str(resp), "-s", "-a", match, "-z", "dependent",
                             "-m", *metrics], capture_output=True, text=True, check=True).stdout
    found = {}
    name = None
    for line in theirs.splitlines():
        if line.strip() in metrics:
            name = line.strip()
        elif (m := _SCORER_LINE.search(line)) and name:
            found[name] = tuple(float(x) for x in m.groups())
    assert set(found) == set(metrics), theirs
    out = _cli("score", str(key), str(resp), "--match", match, "--zero-match", "dependent", "--metrics",
               ",".join(metrics), "--json")
    assert out.returncode == 0, out.stderr
    ours = json.loads(out.stdout)["metrics"]
    for m in metrics:
        got = tuple(100 * ours[m][k] for k in ("recall", "precision", "f1"))
        assert got == pytest.approx(found[m], abs=0.006), m
