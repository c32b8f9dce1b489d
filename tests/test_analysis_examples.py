"""Worked examples of the two error analyses, with the values their sources print.

What could be established, and from where:

- Martschat & Strube (2014), "Recall Error Analysis for Coreference
  Resolution": the example that opens the paper (a system misses "the
  factory" -> "the refinery"; tests/test_analysis.py,
  test_martschat_strube_introduction_example). The paper's Figure 1 (a
  reference entity as a complete one-directional graph, three system
  entities, the partition, a spanning tree) is known here by its caption
  only, not by its mentions, so it is not a test.
- The spanning trees of cort (smartschat/cort), Martschat's implementation
  of the paper: its own tests build an entity with typed mentions and a
  system partition and print the tree edges that ``recall_accessibility``
  (the paper's choice, by accessibility) and ``recall_closest`` take, and
  the recall errors its ``ErrorExtractor`` extracts
  (cort/test/analysis/test_spanning_tree_algorithms.py and
  test_error_extractors.py). The engine exposes the cut edges only (the
  errors), so the tests check that the errors are exactly the cut edges of
  cort's trees.
- Kummerfeld & Klein (2013), "Error-Driven Analysis of Challenges in
  Coreference Resolution": the paper's figures could not be read here (only
  its abstract and first page). The Berkeley analyser, their
  implementation, ships its output on two Wall Street Journal documents
  (example_out.classified_errors in jkkummerfeld/berkeley-coreference-analyser:
  system clusters as groups, ``Extra:`` for mentions not in the key,
  ``Missing:`` for key mentions the system lacks, and the errors counted per
  category). The blocks whose key entities the listing makes unambiguous are
  tests here, with the tool's counts.

Mentions are written as the tool prints them, ``(sentence, first token, end)``
with an exclusive end, and turned into document token spans.
"""

from __future__ import annotations

import corefscore
import pytest
from corefscore._analysis import CATEGORIES, KK_CATEGORIES


def span(sentence: int, first: int, end: int) -> tuple[int, int]:
    """A (sentence, first, exclusive end) mention of the Berkeley analyser's listing as a document span."""
    return (1000 * sentence + first, 1000 * sentence + end - 1)


# --- Martschat & Strube (2014), as cort implements it -------------------------------------------------------

# cort's test entity: six mentions with their types (NOM, NAM, PRO in cort's terms), a second entity, and the
# system output that partitions them.
_M = [(0, 0), (1, 1), (2, 3), (4, 5), (5, 6), (7, 7)]
_CORT_TYPES = {(0, 0): "nominal", (1, 1): "name", (2, 3): "pronoun", (4, 5): "name", (5, 6): "nominal",
               (7, 7): "nominal", (7, 8): "nominal", (9, 9): "name", (10, 10): "pronoun"}
_CORT_KEY = [_M, [(7, 8), (9, 9), (10, 10)]]
_CORT_SYSTEM = [[(0, 0), (2, 3)], [(3, 4), (7, 8)], [(4, 5), (5, 6)]]


def _cut(tree: list[tuple], response: list[list]) -> list[tuple]:
    """The edges of a tree whose two ends are not in one response entity (a mention absent from it: its own)."""
    of = {m: i for i, c in enumerate(response) for m in c}
    return [(a, b) for a, b in tree if a not in of or b not in of or of[a] != of[b]]


def test_cort_accessibility_tree():
    """cort's test_recall_type: ``recall_accessibility`` takes the tree (m1, m0), (m2, m0), (m3, m1), (m4, m3),
    (m5, m3) for the first entity: a noun phrase cut from its part goes to the closest earlier name (m3 -> m1,
    m5 -> m3; m1 has no earlier name and takes the closest nominal, m0), a mention with an earlier mention in
    its own system entity to the closest of those (m2 -> m0, m4 -> m3). The recall errors are its cut edges."""
    tree = [(_M[1], _M[0]), (_M[2], _M[0]), (_M[3], _M[1]), (_M[4], _M[3]), (_M[5], _M[3])]
    a = corefscore.analyze(_CORT_KEY, _CORT_SYSTEM, mention_types=_CORT_TYPES, metrics="ms")
    first = [e.mentions for e in a.errors if e.category == "recall_error" and e.mentions[0] in _M]
    assert first == _cut(tree, _CORT_SYSTEM) == [(_M[1], _M[0]), (_M[3], _M[1]), (_M[5], _M[3])]
    types = [e.types for e in a.errors if e.category == "recall_error" and e.mentions[0] in _M]
    assert types == [("name", "nominal"), ("name", "name"), ("nominal", "name")]


def test_cort_closest_tree():
    """cort's test_recall_closest: without types every mention takes the closest earlier mention of its own
    system entity, else the closest earlier mention: (m1, m0), (m2, m0), (m3, m2), (m4, m3), (m5, m4)."""
    tree = [(_M[1], _M[0]), (_M[2], _M[0]), (_M[3], _M[2]), (_M[4], _M[3]), (_M[5], _M[4])]
    a = corefscore.analyze(_CORT_KEY, _CORT_SYSTEM, metrics="ms")
    first = [e.mentions for e in a.errors if e.category == "recall_error" and e.mentions[0] in _M]
    assert first == _cut(tree, _CORT_SYSTEM) == [(_M[1], _M[0]), (_M[3], _M[2]), (_M[5], _M[4])]


def test_cort_extracted_recall_errors():
    """cort's test_compute_errors: with the closest-mention trees, the recall errors of its two key entities
    against one system output are exactly (b, a), (ef, cd), (h, fg), (hi, de), (k, hi): five, which is also
    the MUC recall loss (the tree only decides which links are named)."""
    a_, b, cd, ef, fg, h = (0, 0), (1, 1), (2, 3), (4, 5), (5, 6), (7, 7)
    de, hi, k = (3, 4), (7, 8), (10, 10)
    key = [[a_, b, cd, ef, fg, h], [de, hi, k]]
    system = [[a_, cd], [ef, fg], [h, k]]
    found = corefscore.analyze(key, system, metrics="ms")
    recall = sorted(e.mentions for e in found.errors if e.category == "recall_error")
    assert recall == sorted([(b, a_), (ef, cd), (h, fg), (hi, de), (k, hi)])
    muc = corefscore.score(key, system, metrics=["muc"]).counts["muc"]
    assert muc["recall_den"] - muc["recall_num"] == len(recall) == found.counts["recall_error"]


# --- Kummerfeld & Klein (2013), as the Berkeley analyser classifies its example ------------------------------

_BERKELEY = {
    # wsj_0020: South Korea is found twice; "South Korea" (6, 3, 5) and "Seoul" are missing.
    "missing mentions": (
        [[span(0, 12, 14), span(14, 42, 44), span(6, 3, 5), span(7, 0, 1)]],
        [[span(0, 12, 14), span(14, 42, 44)]],
        {"missing_mention": 2}),
    # wsj_0020: "their protection of intellectual property" ... "this touchy issue", none found.
    "missing entity": (
        [[span(2, 25, 30), span(3, 23, 26)]],
        [],
        {"missing_entity": 1}),
    # wsj_0020: three "property rights" put together, none of them a key mention.
    "extra entity": (
        [],
        [[span(0, 41, 43), span(4, 16, 18), span(5, 12, 14)]],
        {"extra_entity": 1}),
    # wsj_0037: "Characters ... They ... They ... their" and an extra "`` we - Japanese ''".
    "extra mention": (
        [[span(2, 0, 1), span(3, 0, 1), span(4, 0, 1), span(4, 3, 4)]],
        [[span(2, 0, 1), span(3, 0, 1), span(4, 0, 1), span(4, 3, 4), span(7, 19, 24)]],
        {"extra_mention": 1}),
    # wsj_0037: Mr. Katzenstein's entity found whole, with four extra mentions nested in its mentions.
    "extra mentions nested": (
        [[span(26, 14, 16), span(28, 12, 14), span(29, 2, 3), span(31, 9, 30), span(32, 13, 15),
          span(32, 17, 18), span(34, 0, 2)]],
        [[span(26, 14, 16), span(28, 12, 14), span(29, 2, 3), span(31, 9, 11), span(31, 9, 30), span(31, 10, 11),
          span(32, 13, 15), span(32, 13, 36), span(32, 14, 15), span(32, 17, 18), span(34, 0, 2)]],
        {"extra_mention": 4}),
    # wsj_0020: "five other countries -- ... --", "those countries" | "they", "their": one entity in two.
    "divided entity": (
        [[span(1, 2, 16), span(2, 7, 9), span(2, 21, 22), span(2, 25, 26)]],
        [[span(1, 2, 16), span(2, 7, 9)], [span(2, 21, 22), span(2, 25, 26)]],
        {"divided_entity": 1}),
    # Issue 23, "Smith man man man man he": the entity's first non-pronoun mention, Smith, is the part that
    # stays even when the other side lacks it (never introduced, never removed).
    "first mention missing": (
        [[span(0, 0, 1), span(0, 1, 2), span(0, 2, 3)]],
        [[span(0, 1, 2), span(0, 2, 3)]],
        {"divided_entity": 1}),
    "first mention extra": (
        [[span(0, 1, 2), span(0, 2, 3)]],
        [[span(0, 0, 1), span(0, 1, 2), span(0, 2, 3)]],
        {"conflated_entities": 1}),
}


@pytest.mark.parametrize("case", sorted(_BERKELEY))
def test_berkeley_analyser_example(case):
    """Each unambiguous block of the Berkeley analyser's example output: the same Kummerfeld-Klein counts."""
    key, response, want = _BERKELEY[case]
    a = corefscore.analyze(key, response, metrics="kk")
    assert {c: n for c, n in a.counts.items() if n} == want
    assert all(a.counts[c] == 0 for c in CATEGORIES if c not in KK_CATEGORIES)
    for e in a.errors:  # the records name the listing's mentions
        if e.category in ("missing_mention", "missing_entity"):
            assert set(e.mentions) <= {m for c in key for m in c} - {m for c in response for m in c}
        if e.category in ("extra_mention", "extra_entity"):
            assert set(e.mentions) <= {m for c in response for m in c} - {m for c in key for m in c}


# The first sentence of wsj_0020 with its parse column (the analyser's doctest sentence).
_WSJ_PARSED = [("They", "PRP", "(TOP(S(NP*)"), ("will", "MD", "(VP*"), ("remain", "VB", "(VP*"), ("on", "IN", "(PP*"),
               ("a", "DT", "(NP(NP*"), ("lower", "JJR", "(NML*"), ("-", "HYPH", "*"), ("priority", "NN", "*)"),
               ("list", "NN", "*)"), ("that", "WDT", "(SBAR(WHNP*)"), ("includes", "VBZ", "(S(VP*"),
               ("17", "CD", "(NP*"), ("other", "JJ", "*"), ("countries", "NNS", "*))))))))"), (".", ".", "*))")]


def _write_parsed(path, cells, parse=True):
    lines = ["#begin document (nw/wsj/00/wsj_0020); part 000"]
    for i, (word, tag, tree) in enumerate(_WSJ_PARSED):
        lines.append("\t".join(["nw/wsj/00/wsj_0020", "0", str(i), word, tag, tree if parse else "-",
                                "-", "-", "-", "-", "*", cells.get(i, "-")]))
    path.write_text("\n".join([*lines, "", "#end document", ""]))


@pytest.mark.parametrize("parse", [True, False])
def test_berkeley_span_errors_from_the_parse(tmp_path, parse):
    """With the key's parse column, files reach the analyser's span repair on every road: "17 other countries ."
    is "17 other countries" once trimmed, and "a lower - priority list" shares its head "list" with the key's
    "a lower - priority list that includes 17 other countries"; without the parse neither is a span error."""
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    _write_parsed(key, {0: "(1)", 4: "(1", 13: "1)|2)", 9: "(2)", 11: "(2"}, parse)
    _write_parsed(response, {0: "(1)", 4: "(1", 8: "1)", 9: "(2)", 11: "(2", 14: "2)"}, parse)
    want = 2 if parse else 0
    assert corefscore.analyze_files(key, response, metrics="kk").counts["span_error"] == want
    per_doc = corefscore.score_files(key, response, metrics=["kk"]).per_document()
    assert per_doc[0].counts["kk"]["span_error"] == want
