"""The command line on the real corpora of ../shared/data: self-scores and seeded perturbations.

Each corpus folder (one file per document) is concatenated into one key file
in a temporary directory (the data stay in ../shared). A key scored against
itself gives 100 on every metric; against a seeded perturbation
(``fixtures.perturb``) every metric drops below 100, and the drop-in
output's totals equal the ``--json`` counts. Where perl and the reference
scorer exist, single real documents against their perturbation print exactly
what the reference prints.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from _helpers import DATA, NO_PERL_REASON
from fixtures.perturb import perturb_conll_file, read_mentions
from test_cli import HAVE_PERL, _comparable, parse_totals, perl_output, run_cli

CORPORA = {
    "litbank": ("litbank", ".conll"),
    "gum": ("gum", ".conll"),
    "ontogum": ("ontogum", ".conll"),
    "gum-pos": ("gum-pos", ".conll"),
    "gum-conllu": ("gum-conllu", ".conllu"),
}
CLASSIC = ("mentions", "muc", "bcub", "bcub_entity", "ceafm", "ceafe", "blanc", "lea")


@pytest.fixture(scope="module")
def corpus_file(tmp_path_factory):
    made: dict[str, Path] = {}

    def get(name: str) -> Path:
        folder, ext = CORPORA[name]
        src = DATA / folder
        files = sorted(src.glob("*" + ext)) if src.exists() else []
        if not files:
            pytest.skip(f"{src} not found (the tests read ../shared beside the repository)")
        if name not in made:
            path = tmp_path_factory.mktemp(name) / ("key" + ext)
            with path.open("wb") as out:
                for f in files:
                    data = f.read_bytes()
                    out.write(data if data.endswith(b"\n") else data + b"\n")
            made[name] = path
        return made[name]

    return get


def _json(capsys, *argv) -> tuple[dict, str]:
    status, out, err = run_cli(capsys, *argv, "--json")
    assert status == 0, err
    return json.loads(out), err


@pytest.mark.parametrize("name", list(CORPORA))
def test_corpus_against_itself_is_perfect(name, corpus_file, capsys):
    key = corpus_file(name)
    obj, _ = _json(capsys, "score", key, key)
    n_docs = 100 if name == "litbank" else 177
    metrics = obj["metrics"]
    for m in CLASSIC:
        for q in ("recall", "precision", "f1"):
            assert metrics[m][q] == 1.0, (name, m, q)
    assert obj["conll_f1"] == 1.0
    # Typed metrics are reported when the files carry mention types, and are perfect too.
    if name in ("gum-pos", "gum-conllu"):
        for m in ("lmuc", "lbcub", "lceafm", "lceafe", "da"):
            assert metrics[m]["f1"] == 1.0, (name, m)
    docs, _ = _json(capsys, "score", key, key, "--per-doc", "--metrics", "muc")
    assert len(docs["documents"]) == n_docs


@pytest.mark.parametrize("name", ["litbank", "gum", "ontogum"])
def test_corpus_against_seeded_perturbation(name, corpus_file, capsys, tmp_path):
    key = corpus_file(name)
    response = tmp_path / "response.conll"
    perturb_conll_file(key, response, seed=11)
    obj, _ = _json(capsys, "score", key, response)
    for m in CLASSIC:
        assert 0.3 < obj["metrics"][m]["f1"] < 1.0, (name, m, obj["metrics"][m]["f1"])
    assert obj["metrics"]["mentions"]["recall"] < 1.0
    # The drop-in output's totals are the same counts.
    status, text, _ = run_cli(capsys, "all", key, response, "none")
    assert status == 0
    totals = parse_totals(text)
    for m in ("muc", "bcub", "ceafm", "ceafe"):
        got = totals[m]["Coreference"]
        want = obj["metrics"][m]
        assert float(got[0]) == pytest.approx(want["recall_num"], rel=1e-12)
        assert float(got[1]) == want["recall_den"]
        assert float(got[3]) == pytest.approx(want["precision_num"], rel=1e-12)
        assert float(got[4]) == want["precision_den"]
    ident = totals["muc"]["Identification of Mentions"]
    assert float(ident[1]) == obj["metrics"]["mentions"]["recall_den"]


def test_perturbation_is_seeded_and_keeps_tokens(tmp_path):
    src = DATA / "litbank" / "105_persuasion_brat.conll"
    if not src.exists():
        pytest.skip(f"{src} not found")
    a, b, c = tmp_path / "a.conll", tmp_path / "b.conll", tmp_path / "c.conll"
    perturb_conll_file(src, a, seed=5)
    perturb_conll_file(src, b, seed=5)
    perturb_conll_file(src, c, seed=6)
    assert a.read_bytes() == b.read_bytes()
    assert a.read_bytes() != c.read_bytes()
    original = src.read_text().split("\n")
    perturbed = a.read_text().split("\n")
    assert len(original) == len(perturbed)
    # Only the last column changes.
    for x, y in zip(original, perturbed):
        if x.strip() and not x.startswith("#"):
            assert x.split("\t")[:-1] == y.split("\t")[:-1]
    (_, _, n_tokens, key_mentions), (_, _, n2, resp_mentions) = read_mentions(original)[0], read_mentions(perturbed)[0]
    assert n_tokens == n2
    assert {m[:2] for m in key_mentions} != {m[:2] for m in resp_mentions}


@pytest.mark.skipif(not HAVE_PERL, reason=NO_PERL_REASON)
@pytest.mark.parametrize(
    "relpath", ["litbank/105_persuasion_brat.conll", "gum/GUM_bio_emperor.conll", "gum/GUM_academic_art.conll"]
)
def test_real_document_against_perturbation_equals_perl(relpath, tmp_path, capsys):
    key = DATA / relpath
    if not key.exists():
        pytest.skip(f"{key} not found")
    response = tmp_path / "response.conll"
    perturb_conll_file(key, response, seed=3)
    status, ours, _ = run_cli(capsys, "all", key, response, "none")
    assert status == 0
    perl = perl_output("all", key, response, "none")
    assert re.search(r"^BLANC: ", perl, flags=re.M)
    assert _comparable(ours) == _comparable(perl)


def _totals_sections(text: str) -> list[list[str]]:
    """The lines of each ``====== TOTALS =======`` section of a drop-in output (up to the next metric's)."""
    sections: list[list[str]] = []
    current: list[str] | None = None
    for line in text.split("\n"):
        if line.startswith("====== TOTALS"):
            current = []
            sections.append(current)
        elif line.startswith("METRIC "):
            current = None
        elif current is not None:
            current.append(line)
    return sections


@pytest.mark.parametrize(("name", "seed"), [("litbank", 1), ("litbank", 11), ("litbank", 23), ("gum", 11),
                                            ("ontogum", 11)])
def test_dropin_totals_alone_equal_the_totals_after_every_document(name, seed, corpus_file, capsys, tmp_path):
    """``all KEY RESPONSE none`` asks the engine for the reference's totals only (``sums="reference-totals"``:
    most documents whose CEAF_e alignments tie skip the replay of the reference's Munkres); its lines are the
    totals that ``all KEY RESPONSE`` prints after every document's (each document's numerators Perl's)."""
    key = corpus_file(name)
    response = tmp_path / "response.conll"
    perturb_conll_file(key, response, seed=seed)
    status, alone, err = run_cli(capsys, "all", key, response, "none")
    assert status == 0, err
    status, every, err = run_cli(capsys, "all", key, response)
    assert status == 0, err
    sections = _totals_sections(alone)
    assert len(sections) == 5 and all(len(s) > 3 for s in sections)
    assert sections == _totals_sections(every)
