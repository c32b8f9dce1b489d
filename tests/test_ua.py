"""Universal Anaphora: the CoNLL-UA reader and the UA scorer's modes (issue 21).

The plural test cases of the UA scorer (Paun et al. 2022) are rebuilt here from their
notation, e.g. ``{ab} {cd} {e} {{ac}fg}`` (an inner brace lists the markables whose
entities are the plural's split antecedents: they carry ``ElementOf``), and checked
against the recall and precision its ``PluralTestCases.README`` gives. Seeded random UA
pairs are compared count for count with the UA scorer when ``COREFSCORE_UA_SCORER``
names a checkout of it (github juntaoy/universal-anaphora-scorer) and
``COREFSCORE_UA_PYTHON`` a Python with NumPy and SciPy (default: this one).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import corefscore
import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).parent))
import ua_random

UA_SCORER = os.environ.get("COREFSCORE_UA_SCORER")
UA_PYTHON = os.environ.get("COREFSCORE_UA_PYTHON", sys.executable)
needs_scorer = pytest.mark.skipif(not UA_SCORER, reason="set COREFSCORE_UA_SCORER to a checkout of the UA scorer "
                                  "(and COREFSCORE_UA_PYTHON to a Python with numpy and scipy) to compare with it")
# The CorefUD scorer carries the UA scorer v2.0 (its ``scorer`` package reads CoNLL-UA too).
COREFUD_SCORER = os.environ.get("COREFSCORE_COREFUD_SCORER")
COREFUD_PYTHON = os.environ.get("COREFSCORE_COREFUD_PYTHON", sys.executable)
needs_corefud = pytest.mark.skipif(not COREFUD_SCORER, reason="set COREFSCORE_COREFUD_SCORER to corefud-scorer.py "
                                   "(and COREFSCORE_COREFUD_PYTHON to a Python with udapi and scipy) to compare")
HEADER = ua_random.HEADER
RP = ("recall_num", "recall_den", "precision_num", "precision_den")


def _notation(text: str) -> list[str]:
    """The IDENTITY cells of a document in the plural test notation, one token per letter."""
    cells: dict[str, list[str]] = {}
    element_of: dict[str, list[str]] = {}
    entity = 0
    depth, inner = 0, False
    entity_of: dict[str, int] = {}
    for ch in text:
        if ch == "{":
            depth += 1
            if depth == 1:
                entity += 1
            else:
                inner = True
        elif ch == "}":
            depth -= 1
            inner = depth > 1 if depth else False
            if depth == 1:
                inner = False
        elif ch.isalpha():
            if inner:
                element_of.setdefault(ch, []).append(str(entity))
            else:
                entity_of[ch] = entity
    for letter in set(entity_of) | set(element_of):
        attrs = f"EntityID={entity_of[letter]}|MarkableID=markable_{letter}"
        if letter in element_of:
            attrs += "|ElementOf=" + ",".join(element_of[letter])
        cells[letter] = [f"({attrs})"]
    # Letter a is token 1, b token 2 ...: the same letter is the same markable on both sides.
    return [cells[chr(ord("a") + t)][0] if chr(ord("a") + t) in cells else "_" for t in range(8)]


def _ua_file(path: Path, docs: dict[str, list[str]], bridging: dict[str, dict[int, str]] | None = None) -> Path:
    lines = [HEADER]
    for name, cells in docs.items():
        lines.append(f"# newdoc id = {name}")
        for t, cell in enumerate(cells):
            b = (bridging or {}).get(name, {}).get(t, "_")
            lines.append("\t".join([str(t + 1), f"w{t}"] + ["_"] * 8 + [cell, b, "_"]))
        lines.append("")
    path.write_text("\n".join(lines) + "\n")
    return path


def _counts(result: corefscore.Result, metric: str) -> list[float]:
    cols = list(corefscore._lib._columns)
    tot = result.total_counts
    return [float(tot[cols.index(f"{metric}.{c}")]) for c in RP]


KEY_A = "{ab} {cd} {e} {{ac}fg}"
KEY_B = "{ab} {cd} {e} {{ac}fg} {{ae}h}"
# (key, response, {metric: (recall, precision)}) with the README's values; its BLANC
# non-coreference links of TC-PB-1/2 (44/44) are 39/39 (45 pairs of 10 items, less 6 links).
PLURAL_CASES = {
    "TC-PA-1": (KEY_A, KEY_A, {m: (1, 1) for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}),
    "TC-PA-2": (KEY_A, "{ab} {cd} {e} {{ad}fg}", {m: (1, 1) for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}),
    "TC-PA-3": (KEY_A, "{ab} {cd} {e} {{bd}fg}", {m: (1, 1) for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}),
    "TC-PA-4": (KEY_A, "{ab} {cd} {e} {fg}", {"bcub": (19 / 24, 1), "muc": (3 / 4, 1), "ceafm": (7 / 8, 1),
                                              "ceafe": (3.8 / 4, 3.8 / 4), "lea": (6 / 8, 1)}),
    "TC-PA-5": (KEY_A, "{ab} {cd} {e} {{ace}fg}", {"bcub": (1, 0.95167), "muc": (1, 11 / 12),
                                                   "ceafm": (0.98611, 0.98611), "ceafe": (0.98333, 0.98333),
                                                   "lea": (1, 7.6 / 8)}),
    "TC-PA-6": (KEY_A, "{ab} {cd} {e} {{ae}fg}", {"bcub": (0.88542, 0.92130), "muc": (7 / 8, 7 / 8),
                                                  "ceafm": (0.94643, 0.94643), "ceafe": (0.95833, 0.95833),
                                                  "lea": (7 / 8, 11 / 12)}),
    "TC-PA-7": (KEY_A, "{ab} {c} {e} {{ac}fg}", {"bcub": (0.72461, 1), "muc": (5 / 8, 5 / 6),
                                                 "ceafm": (0.85714, 0.97959), "ceafe": (0.90278, 0.90278),
                                                 "lea": (5 / 8, 16 / 21)}),
    "TC-PA-8": (KEY_A, "{ab} {cd} {e} {{ac}f} {{bc}g}", {m: (1, 1) for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}),
    "TC-PA-9": (KEY_A, "{ab} {cde} {{ac}fg}", {"bcub": (1, 0.75463), "muc": (1, 11 / 15), "ceafm": (0.86111, 0.86111),
                                               "ceafe": (0.69167, 0.92222), "lea": (7 / 8, 5.2 / 8)}),
    "TC-PA-10": (KEY_A, "{ab} {cd} {e} {{ac}f} {{bce}g}", {"bcub": (0.83333, 0.83333), "muc": (3 / 4, 3 / 4),
                                                           "ceafm": (7 / 8, 7 / 9), "ceafe": (3.8 / 4, 3.8 / 5),
                                                           "lea": (6 / 8, 7 / 9)}),
    "TC-PA-11": (KEY_A, "{ab} {cd} {e} {{ab}fg}", {"bcub": (0.88542, 1), "muc": (7 / 8, 1), "ceafm": (0.95833, 0.95833),
                                                   "ceafe": (0.97222, 0.97222), "lea": (7 / 8, 1)}),
    "TC-PB-1": (KEY_B, KEY_B, {m: (1, 1) for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}),
    "TC-PB-2": (KEY_B, "{ab} {cd} {e} {{ad}fg} {{be}h}", {m: (1, 1) for m in ("muc", "bcub", "ceafm", "ceafe", "lea")}),
    "TC-PB-3": (KEY_B, "{ab} {cd} {e} {{ac}fg} {{ace}h}", {"bcub": (1, 0.928), "muc": (1, 14 / 15),
                                                           "ceafm": (0.975, 0.975), "ceafe": (4.9 / 5, 4.9 / 5),
                                                           "lea": (1, 9.2 / 10)}),
    "TC-PB-4": (KEY_B, "{ab} {cd} {e} {{ac}fgh}", {"bcub": (8.5 / 10, 7.5 / 9), "muc": (4 / 5, 4 / 5),
                                                   "ceafm": (8 / 10, 8 / 9), "ceafe": (0.77143, 0.96429),
                                                   "lea": (8 / 10, 7 / 9)}),
}
# The split-antecedent alignment alone (split_antecedents="only"), as (recall, precision)
# fractions; TC-PB-3 sums the README's two plurals; TC-PB-4's precision counts the
# response's split antecedents only, as the scorer does (the README lists 0/3 and 0/2
# for the key plural with no response counterpart).
SPLIT_ONLY = {
    "TC-PA-5": {"bcub": (4 / 4, 4 / 5), "muc": (2 / 2, 2 / 3), "ceafm": (4 / 4, 4 / 5), "ceafe": (2 / 2, 2 / 3),
                "lea": (4 / 4, 4 / 5)},
    "TC-PA-6": {"bcub": (2 / 4, 2 / 3), "muc": (1 / 2, 1 / 2), "ceafm": (2 / 4, 2 / 3), "ceafe": (1 / 2, 1 / 2),
                "lea": (2 / 4, 2 / 3)},
    "TC-PA-7": {"bcub": (5 / 8, 3 / 3), "muc": (1 / 2, 1 / 2), "ceafm": (3 / 4, 3 / 3), "ceafe": (5 / 6, 5 / 6),
                "lea": (2 / 4, 2 / 3)},
    "TC-PA-9": {"bcub": (4 / 4, 2 / 3), "muc": (2 / 2, 2 / 3), "ceafm": (4 / 4, 4 / 5), "ceafe": (9 / 10, 9 / 10),
                "lea": (4 / 4, 3 / 5)},
    "TC-PA-11": {"bcub": (2 / 4, 2 / 2), "muc": (1 / 2, 1 / 1), "ceafm": (2 / 4, 2 / 2), "ceafe": (1 / 2, 1 / 1),
                 "lea": (2 / 4, 2 / 2)},
    "TC-PB-3": {"bcub": (7 / 7, 7 / 9), "muc": (4 / 4, 4 / 5), "ceafm": (7 / 7, 7 / 9), "ceafe": (4 / 4, 4 / 5),
                "lea": (7 / 7, 7 / 9)},
    "TC-PB-4": {"bcub": (4 / 7, 4 / 4), "muc": (2 / 4, 2 / 2), "lea": (4 / 7, 4 / 4)},
}


def _plural_pair(tmp_path: Path, case: str) -> tuple[Path, Path]:
    key, resp, _ = PLURAL_CASES[case]
    return (_ua_file(tmp_path / f"{case}.key", {"d": _notation(key)}),
            _ua_file(tmp_path / f"{case}.sys", {"d": _notation(resp)}))


def _rp(counts: list[float]) -> tuple[float, float]:
    rn, rd, pn, pd = counts
    return (rn / rd if rd else 0.0, pn / pd if pd else 0.0)


@pytest.mark.parametrize("case", sorted(PLURAL_CASES))
def test_plural_cases_default_mode(tmp_path, case):
    key, resp = _plural_pair(tmp_path, case)
    result = corefscore.score_files(key, resp)  # the header says CoNLL-UA
    for metric, expected in PLURAL_CASES[case][2].items():
        assert _rp(_counts(result, metric)) == pytest.approx(expected, abs=5e-5), metric


@pytest.mark.parametrize("case", sorted(SPLIT_ONLY))
def test_plural_cases_split_alignment_only(tmp_path, case):
    key, resp = _plural_pair(tmp_path, case)
    result = corefscore.score_files(key, resp, split_antecedents="only")
    for metric, expected in SPLIT_ONLY[case].items():
        assert _rp(_counts(result, metric)) == pytest.approx(expected, abs=5e-5), metric


def test_plural_blanc_links(tmp_path):
    key, resp = _plural_pair(tmp_path, "TC-PA-1")
    result = corefscore.score_files(key, resp, format="ua")
    assert _counts(result, "blanc.coref") == [5, 5, 5, 5]
    assert _counts(result, "blanc.noncoref") == [23, 23, 23, 23]
    key, resp = _plural_pair(tmp_path, "TC-PB-2")
    result = corefscore.score_files(key, resp, format="ua")
    assert _counts(result, "blanc.coref") == [6, 6, 6, 6]
    assert _counts(result, "blanc.noncoref") == [39, 39, 39, 39]


def test_lea_weights_each_split_link_once(tmp_path):
    """TC-PA-5: LEA precision is 7.6/8 whatever the order of the plural's markables (the paper's reading;
    the UA scorer gives 7.4/8 when its set order puts the split antecedent inside its cluster)."""
    key = _ua_file(tmp_path / "k", {"d": _notation(KEY_A)})
    for resp_text in ("{ab} {cd} {e} {{ace}fg}", "{ab} {cd} {e} {f{ace}g}"):
        resp = _ua_file(tmp_path / "r", {"d": _notation(resp_text)})
        assert _counts(corefscore.score_files(key, resp), "lea")[2:] == pytest.approx([7.6, 8])


def test_split_antecedents_excluded_and_singletons(tmp_path):
    key, resp = _plural_pair(tmp_path, "TC-PA-5")
    # Without split antecedents the plural is {fg} on both sides: a perfect response.
    result = corefscore.score_files(key, resp, split_antecedents="exclude")
    for metric in ("muc", "bcub", "ceafe", "lea"):
        assert _rp(_counts(result, metric)) == (1.0, 1.0)
    # Singletons out as well: {e} goes, 3 clusters of 2 remain on each side.
    result = corefscore.score_files(key, resp, split_antecedents="exclude", singletons="exclude")
    assert _counts(result, "ceafe") == [3, 3, 3, 3]


def _cells(spec: list[tuple[int, int, str]], n: int, extra: str = "") -> list[str]:
    """IDENTITY cells for (start, end, attrs) markables on n tokens (nested, outer first)."""
    cells = [""] * n
    closes: dict[int, int] = {}
    for s, e, attrs in sorted(spec, key=lambda x: (x[0], -x[1])):
        if s == e:
            cells[s] += f"({attrs})"
        else:
            cells[s] += f"({attrs}"
            closes[e] = closes.get(e, 0) + 1
    for t, k in closes.items():
        cells[t] = ")" * k + cells[t]
    return [c or "_" for c in cells]


def test_non_referring_and_bridging(tmp_path):
    common = [(0, 1, "EntityID=1|MarkableID=a"), (2, 2, "EntityID=2-Pseudo|MarkableID=b"),
              (3, 3, "EntityID=1|MarkableID=c"), (4, 4, "EntityID=3|MarkableID=e")]
    key = _ua_file(tmp_path / "k", {"d": _cells([*common, (5, 5, "EntityID=4-Pseudo|MarkableID=f")], 6)},
                   {"d": {4: "(MarkableID=e|MentionAnchor=a)"}})
    resp = _ua_file(tmp_path / "r", {"d": _cells([*common, (5, 5, "EntityID=5|MarkableID=f")], 6)},
                    {"d": {4: "(MarkableID=e|MentionAnchor=c)"}})
    result = corefscore.score_files(key, resp, non_referring=True, bridging=True)
    assert _counts(result, "non_referring") == [1, 2, 1, 1]
    # The anaphor is found, its anchor c is another markable of a's entity.
    assert _counts(result, "bridging_anaphora") == [1, 1, 1, 1]
    assert _counts(result, "bridging_markable") == [0, 1, 0, 1]
    assert _counts(result, "bridging_entity") == [1, 1, 1, 1]
    assert tuple(result.metrics[-4:]) == ("non_referring", "bridging_anaphora", "bridging_markable", "bridging_entity")
    # Non-referring markables never enter the coreference chains: the same scores either way.
    plain = corefscore.score_files(key, resp)
    assert _counts(plain, "muc") == _counts(result, "muc")


def test_min_span_matches_every_metric(tmp_path):
    """Key markable tokens 1-3 with Min=3 (and a second mention): a response markable 2-3 matches it in every
    metric (the paper's reading; the UA scorer matches it in CEAF only, through list membership)."""
    key = _ua_file(tmp_path / "k", {"d": _cells([(0, 2, "EntityID=1|MarkableID=a|Min=3,3"),
                                                 (4, 4, "EntityID=1|MarkableID=b")], 5)})
    resp = _ua_file(tmp_path / "r", {"d": _cells([(1, 2, "EntityID=1|MarkableID=a"),
                                                  (4, 4, "EntityID=1|MarkableID=b")], 5)})
    exact = corefscore.score_files(key, resp)
    assert _rp(_counts(exact, "muc")) == (0.0, 0.0)
    result = corefscore.score_files(key, resp, min_span=True)
    for metric in ("muc", "bcub", "ceafm", "ceafe", "lea", "blanc.coref"):
        assert _rp(_counts(result, metric)) == (1.0, 1.0), metric
    # Min=a-b, the form of the UA format document, reads the same.
    key2 = _ua_file(tmp_path / "k2", {"d": _cells([(0, 2, "EntityID=1|MarkableID=a|Min=3-3"),
                                                  (4, 4, "EntityID=1|MarkableID=b")], 5)})
    assert _counts(corefscore.score_files(key2, resp, min_span=True), "muc") == _counts(result, "muc")


def test_discourse_deixis_column(tmp_path):
    lines = [HEADER, "# newdoc id = d"]
    ident = ["(EntityID=1|MarkableID=a)", "(EntityID=1|MarkableID=b)", "_"]
    deixis = ["(EntityID=7|MarkableID=x)", "_", "(EntityID=7|MarkableID=y)"]
    for t in range(3):
        lines.append("\t".join([str(t + 1), "w"] + ["_"] * 8 + [ident[t], "_", deixis[t]]))
    key = tmp_path / "k"
    key.write_text("\n".join(lines) + "\n")
    resp_lines = [HEADER, "# newdoc id = d"]
    for t in range(3):
        resp_lines.append("\t".join([str(t + 1), "w"] + ["_"] * 8 + [ident[t], "_", "_"]))
    resp = tmp_path / "r"
    resp.write_text("\n".join(resp_lines) + "\n")
    assert _rp(_counts(corefscore.score_files(key, resp), "muc")) == (1.0, 1.0)
    dd = corefscore.score_files(key, resp, discourse_deixis=True)
    assert _counts(dd, "muc") == [0, 1, 0, 0]


@pytest.mark.parametrize("cell, message", [
    ("(EntityID=1|MarkableID=a", "never closed"),
    (")", "no markable open"),
    ("(EntityID=1)", "without MarkableID"),
    ("(MarkableID=a)", "has no EntityID"),
    ("(EntityID=1|MarkableID=a|Min=x)", "Min=x"),
    ("(EntityID=1|MarkableID=a|ElementOf=1)", "element of itself"),
])
def test_reader_errors_name_file_and_line(tmp_path, cell, message):
    key = _ua_file(tmp_path / "k", {"d": ["(EntityID=2|MarkableID=z)", cell]})
    resp = _ua_file(tmp_path / "r", {"d": ["_", "_"]})
    with pytest.raises(corefscore.CorefScoreInputError) as info:
        corefscore.score_files(key, resp)
    assert message in str(info.value)
    if "element of itself" not in message:
        assert "line" in str(info.value)


def test_bridging_to_unknown_markable_is_refused(tmp_path):
    key = _ua_file(tmp_path / "k", {"d": ["(EntityID=1|MarkableID=a)", "_"]},
                   {"d": {1: "(MarkableID=a|MentionAnchor=q)"}})
    with pytest.raises(corefscore.CorefScoreInputError, match=r'line 4.*anchor "q"'):
        corefscore.score_files(key, key, bridging=True)


def test_ua_modes_refused_elsewhere(tmp_path):
    key, resp = _plural_pair(tmp_path, "TC-PA-1")
    with pytest.raises(corefscore.CorefScoreInputError, match="discourse deixis"):
        corefscore.score_files(key, resp, discourse_deixis=True, bridging=True)
    with pytest.raises(ValueError, match="does not apply"):
        corefscore.score_files(key, resp, metrics=["lmuc"])
    with pytest.raises(ValueError, match="Universal Anaphora"):
        corefscore.score([[(0, 1)]], [[(0, 1)]], split_antecedents="only")


def test_cli_flags(tmp_path, capsys):
    from corefscore import cli

    key, resp = _plural_pair(tmp_path, "TC-PA-5")
    assert cli.main(["score", str(key), str(resp), "--format", "ua", "--split-antecedents", "only", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["metrics"]["muc"]["precision_num"] == 2 and out["metrics"]["muc"]["precision_den"] == 3


# --- the UA scorer itself -------------------------------------------------------------------

PEER_MODES = {
    "default": {},
    "remove_singletons_split": {"singletons": "exclude", "split_antecedents": "exclude"},
    "remove_split_antecedent": {"split_antecedents": "exclude"},
    "only_split_antecedent": {"split_antecedents": "only"},
    "keep_non_referring_bridging": {"non_referring": True, "bridging": True},
    "evaluate_discourse_deixis": {"discourse_deixis": True},
}


def _peer(key: Path, resp: Path, mode: str, order: str = "paper", corefud: bool = False) -> dict:
    python, scorer = (COREFUD_PYTHON, str(Path(COREFUD_SCORER).parent)) if corefud else (UA_PYTHON, UA_SCORER)
    args = [python, str(Path(__file__).parent / "ua_peer_counts.py"), scorer, str(key), str(resp), mode]
    out = subprocess.run([*args, order], capture_output=True, text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])  # after any message the scorer prints


def _assert_equal_to_peer(result: corefscore.Result, peer: dict, where: str) -> None:
    for metric in ("muc", "bcub", "ceafe", "ceafm", "lea", "blanc.coref", "blanc.noncoref"):
        assert _counts(result, metric) == pytest.approx(peer[metric], abs=1e-9), (where, metric)
    if "non_referring" in peer:
        assert _counts(result, "non_referring") == peer["non_referring"], where
    if "bridging_scores" in peer:
        for name, (r, p, _f) in zip(("bridging_anaphora", "bridging_markable", "bridging_entity"),
                                    peer["bridging_scores"]):
            assert _rp(_counts(result, name)) == pytest.approx((r, p), abs=1e-12), (where, name)


@needs_scorer
@pytest.mark.parametrize("case", sorted(PLURAL_CASES))
def test_plural_cases_equal_the_ua_scorer(tmp_path, case):
    key, resp = _plural_pair(tmp_path, case)
    for mode, opts in PEER_MODES.items():
        _assert_equal_to_peer(corefscore.score_files(key, resp, **opts), _peer(key, resp, mode), f"{case} {mode}")


@needs_scorer
@pytest.mark.parametrize("seed", range(12))
def test_random_pairs_equal_the_ua_scorer(tmp_path, seed):
    """Every mode, count for count, with the scorer's clusters in the order of the paper's reading."""
    key_text, resp_text = ua_random.random_pair(seed, 4)
    key, resp = tmp_path / "key.ua", tmp_path / "resp.ua"
    key.write_text(key_text)
    resp.write_text(resp_text)
    for mode, opts in PEER_MODES.items():
        _assert_equal_to_peer(corefscore.score_files(key, resp, **opts), _peer(key, resp, mode), f"seed {seed} {mode}")


@needs_corefud
@pytest.mark.parametrize("seed", range(4))
def test_random_pairs_equal_the_corefud_scorers_ua_mode(tmp_path, seed):
    """The UA scorer v2.0 inside the CorefUD scorer, every mode, count for count (its clusters in the paper's
    order: its LEA already weighs each link once; its BLANC coreference links still credit a split
    antecedent only when it comes first)."""
    key_text, resp_text = ua_random.random_pair(1000 + seed, 4)
    key, resp = tmp_path / "key.ua", tmp_path / "resp.ua"
    key.write_text(key_text)
    resp.write_text(resp_text)
    for mode, opts in PEER_MODES.items():
        _assert_equal_to_peer(corefscore.score_files(key, resp, **opts), _peer(key, resp, mode, corefud=True),
                              f"seed {seed} {mode}")


@needs_scorer
def test_ua_scorer_tests_folder_equals_the_scorer(reference_dir):
    """The UA scorer's tests/ folder is the CoNLL reference scorer's test cases (byte for byte the files of
    ../shared/data/reference-testcases): its CoNLL-2012 road gives our counts on every pair but TC-A-8 and
    TC-A-9, whose response repeats a mention in two entities: there we keep the reference scorer's numbers
    (tests/test_reference.py) under the duplicate policy, and the UA scorer's reader scores fewer links."""
    compared = 0
    for response in sorted(reference_dir.glob("TC-*.response")):
        key = reference_dir / (response.name.rsplit("-", 1)[0] + ".key")
        peer = _peer(key, response, "conll", order="")
        ours = corefscore.score_files(key, response, format="conll2012", duplicates="ignore")
        if response.name in ("TC-A-8.response", "TC-A-9.response"):
            assert _counts(ours, "muc") == [1, 3, 1, 3] and peer["muc"] == [0, 3, 0, 3]
            continue
        _assert_equal_to_peer(ours, peer, response.name)
        compared += 1
    assert compared == 34


@needs_scorer
def test_scorer_order_differs_from_the_paper_on_lea(tmp_path):
    """Both readings on TC-PA-5: with the split antecedent first in its cluster the scorer gives the paper's
    LEA precision, 7.6/8, which corefscore gives whatever the order; with the split antecedent inside its
    cluster (an order the scorer's sets can produce) the scorer's running product gives 7.4/8."""
    key = _ua_file(tmp_path / "k", {"d": _notation(KEY_A)})
    resp = _ua_file(tmp_path / "r", {"d": _notation("{ab} {cd} {e} {{ace}fg}")})
    assert _peer(key, resp, "default", "paper")["lea"][2] == pytest.approx(7.6)
    assert _peer(key, resp, "default", "middle")["lea"][2] == pytest.approx(7.4)
    assert _counts(corefscore.score_files(key, resp), "lea")[2] == pytest.approx(7.6)


# --- UA documents in memory (score_ua) --------------------------------------------------------


def _notation_dict(text: str) -> dict:
    """The in-memory form of a plural test case: letter a is token 0, b token 1, ..."""
    clusters: list[list] = []
    depth, inner = 0, set()
    for ch in text:
        if ch == "{":
            depth += 1
            if depth == 1:
                clusters.append([])
                inner = set()
        elif ch == "}":
            depth -= 1
            if depth == 1:
                clusters[-1].append(inner)
        elif ch.isalpha():
            (inner.add(ch) if depth > 1 else clusters[-1].append((ord(ch) - 97, ord(ch) - 97)))
    entity_of = {m: ci for ci, c in enumerate(clusters) for m in c if isinstance(m, tuple)}
    return {"clusters": [[m if isinstance(m, tuple) else {entity_of[(ord(x) - 97,) * 2] for x in m} for m in c]
                         for c in clusters]}


@pytest.mark.parametrize("case", sorted(PLURAL_CASES))
def test_in_memory_equals_files_on_plural_cases(tmp_path, case):
    key_file, resp_file = _plural_pair(tmp_path, case)
    key, resp = (_notation_dict(t) for t in PLURAL_CASES[case][:2])
    for opts in PEER_MODES.values():
        np.testing.assert_array_equal(corefscore.score_ua(key, resp, **opts).total_counts,
                                      corefscore.score_files(key_file, resp_file, **opts).total_counts)


def test_in_memory_every_feature_equals_the_file(tmp_path):
    spec_key = [(0, 2, "EntityID=0|MarkableID=a|Min=2,2|ElementOf=2"), (3, 3, "EntityID=1|MarkableID=b|ElementOf=2"),
                (5, 6, "EntityID=2|MarkableID=c"), (7, 7, "EntityID=0|MarkableID=d"),
                (8, 8, "EntityID=nr0-Pseudo|MarkableID=e")]
    key_file = _ua_file(tmp_path / "k", {"d": _cells(spec_key, 10)}, {"d": {7: "(MarkableID=d|MentionAnchor=c)"}})
    spec_resp = [(1, 2, "EntityID=0|MarkableID=a|ElementOf=2"), (3, 3, "EntityID=1|MarkableID=b"),
                 (5, 6, "EntityID=2|MarkableID=c"), (7, 7, "EntityID=0|MarkableID=d"),
                 (8, 8, "EntityID=nr0-Pseudo|MarkableID=e")]
    resp_file = _ua_file(tmp_path / "r", {"d": _cells(spec_resp, 10)}, {"d": {7: "(MarkableID=d|MentionAnchor=a)"}})
    key = {"clusters": [[(0, 2), (7, 7)], [(3, 3)], [(5, 6), {0, 1}]], "non_referring": [(8, 8)],
           "bridging": [((7, 7), (5, 6))], "min_spans": {(0, 2): (1, 1)}}
    resp = {"clusters": [[(1, 2), (7, 7)], [(3, 3)], [(5, 6), {0}]], "non_referring": [(8, 8)],
            "bridging": [((7, 7), (1, 2))]}
    for opts in [{}, {"non_referring": True, "bridging": True}, {"min_span": True}, {"split_antecedents": "only"},
                 {"split_antecedents": "exclude", "singletons": "exclude"}]:
        np.testing.assert_array_equal(corefscore.score_ua({"d": key}, {"d": resp}, **opts).total_counts,
                                      corefscore.score_files(key_file, resp_file, **opts).total_counts, str(opts))
    assert corefscore.score_ua(key, resp, min_span=True)["bcub"].recall < 1  # the plural lost an antecedent


def test_in_memory_refusals():
    with pytest.raises(TypeError, match="mapping"):
        corefscore.score_ua([[(0, 0)]], [[(0, 0)]])
    with pytest.raises(ValueError, match="keys"):
        corefscore.score_ua({"clusters": [], "chains": []}, {"clusters": []})
    with pytest.raises(corefscore.CorefScoreInputError, match="no such cluster"):
        corefscore.score_ua({"clusters": [[(0, 0), {5}]]}, {"clusters": []})
    with pytest.raises(corefscore.CorefScoreInputError, match="no markable"):
        corefscore.score_ua({"clusters": [[(0, 0)]], "bridging": [((0, 0), (3, 3))]}, {"clusters": []}, bridging=True)
