"""Error analysis from Python: corefscore.analyze / analyze_files, Analysis, plot_errors and `corefscore report`.

The counts must equal the engine's "kk" and "ms" columns of scoring (the
same engine, another path through the ABI); the records must be consistent
with the input; properties that hold for any input are checked on random
documents.
"""

from __future__ import annotations

import random
import re

import corefscore
import pytest
from _helpers import DATA, REPO
from corefscore import cli
from corefscore._analysis import CATEGORIES, KK_CATEGORIES

EXAMPLES = REPO / "examples"
KEY, RESPONSE = EXAMPLES / "key.conll", EXAMPLES / "response.conll"


def random_partition(rng: random.Random, spans: list[tuple[int, int]]) -> list[list[tuple[int, int]]]:
    k = rng.randint(1, max(1, len(spans) // 2))
    clusters: list[list[tuple[int, int]]] = [[] for _ in range(k)]
    for s in spans:
        clusters[rng.randrange(k)].append(s)
    return [c for c in clusters if c]


def random_pair(seed: int) -> tuple[list, list]:
    """A key and a response over overlapping mention sets: shared, key-only, response-only, shifted spans."""
    rng = random.Random(seed)
    n = rng.randint(1, 25)
    spans = sorted({(s, s + rng.randint(0, 2)) for s in rng.sample(range(0, 200, 4), n)})
    key_spans = [s for s in spans if rng.random() < 0.85]
    resp_spans = [s if rng.random() < 0.9 else (s[0], s[1] + 1) for s in spans if rng.random() < 0.85]
    return random_partition(rng, key_spans), random_partition(rng, resp_spans)


def kk_ms_counts(result) -> dict[str, float]:
    c = result.counts
    out = {k: c["kk"][k] for k in KK_CATEGORIES}
    out["recall_error"], out["precision_error"] = c["ms"]["recall_errors"], c["ms"]["precision_errors"]
    return out


@pytest.mark.parametrize("seed", range(40))
def test_counts_equal_the_score_columns(seed):
    key, response = random_pair(seed)
    a = corefscore.analyze(key, response)
    r = corefscore.score(key, response, metrics=["kk", "ms"])
    assert a.counts == kk_ms_counts(r)
    assert sum(a.counts.values()) == len(a.errors) == len(a)


@pytest.mark.parametrize("seed", range(40))
def test_records_name_the_callers_mentions_and_entities(seed):
    key, response = random_pair(seed)
    a = corefscore.analyze(key, response)
    key_of = {m: i for i, c in enumerate(key) for m in c}
    resp_of = {m: i for i, c in enumerate(response) for m in c}
    for e in a.errors:
        assert e.document == "0" and e.category in CATEGORIES and e.mentions
        for m in e.mentions:
            assert m in key_of or m in resp_of
        assert all(k == -1 or 0 <= k < len(key) for k in e.key_entities)
        assert all(r == -1 or 0 <= r < len(response) for r in e.response_entities)
        if e.category in ("recall_error", "precision_error"):
            anaphor, antecedent = e.mentions
            assert antecedent < anaphor  # the later mention first
            same = key_of if e.category == "recall_error" else resp_of
            assert same[anaphor] == same[antecedent]  # the cut edge lies inside one entity of that side
        if e.category in ("missing_mention", "missing_entity"):
            # Response singletons are dropped first, as the Berkeley analyser does: a key mention found
            # only as one is missing.
            singles = {c[0] for c in response if len(c) == 1}
            assert all(m in key_of and (m not in resp_of or m in singles) for m in e.mentions)
        if e.category in ("extra_mention", "extra_entity"):
            assert all(m in resp_of and m not in key_of for m in e.mentions)


@pytest.mark.parametrize("seed", range(20))
def test_key_against_itself_has_no_error(seed):
    key, _ = random_pair(seed)
    a = corefscore.analyze(key, key)
    assert a.errors == [] and set(a.counts.values()) == {0}


@pytest.mark.parametrize("seed", range(30))
def test_swapping_key_and_response_swaps_recall_and_precision_errors(seed):
    key, response = random_pair(seed)
    ab = corefscore.analyze(key, response, metrics="ms")
    ba = corefscore.analyze(response, key, metrics="ms")
    assert ab.counts["recall_error"] == ba.counts["precision_error"]
    assert ab.counts["precision_error"] == ba.counts["recall_error"]
    links = lambda a, c: sorted(e.mentions for e in a.errors if e.category == c)  # noqa: E731
    assert links(ab, "recall_error") == links(ba, "precision_error")
    assert links(ab, "precision_error") == links(ba, "recall_error")
    assert all(ab.counts[c] == 0 for c in KK_CATEGORIES)  # only ms was asked for


def test_metrics_must_name_analyses():
    with pytest.raises(ValueError, match="kk"):
        corefscore.analyze([[1, 2]], [[1, 2]], metrics=["muc"])


def test_analyze_files_equals_score_files_columns():
    a = corefscore.analyze_files(KEY, RESPONSE)
    r = corefscore.score_files(KEY, RESPONSE, metrics=["kk", "ms"])
    assert a.counts == kk_ms_counts(r)
    assert a.documents == r.doc_names
    assert any(a.counts.values())
    # Mentions are token spans of the files' documents.
    for e in a.errors:
        assert e.document in a.documents
        assert all(isinstance(m, tuple) and len(m) == 2 and 0 <= m[0] <= m[1] for m in e.mentions)
    # Counts add up over documents.
    per_doc = [kk_ms_counts(d) for d in r.per_document()]
    by_doc = a.by_document()
    for name, counts in zip(a.documents, per_doc):
        got = {c: 0 for c in CATEGORIES}
        for e in by_doc[name]:
            got[e.category] += 1
        assert got == counts
    assert {c: sum(d[c] for d in per_doc) for c in CATEGORIES} == a.counts


def test_analyze_files_key_against_itself():
    assert not corefscore.analyze_files(KEY, KEY).errors


def test_analyze_files_litbank_counts():
    files = sorted((DATA / "litbank").glob("*.conll"))[:10]
    if not files:
        pytest.skip("no LitBank data under ../shared/data/litbank")
    key = files[0]
    for other in files[:3]:
        a = corefscore.analyze_files(key, other if other == key else key)
        assert sum(a.counts.values()) == 0
    import tempfile
    from pathlib import Path

    from fixtures.perturb import perturb_conll_file

    with tempfile.TemporaryDirectory() as d:
        resp = Path(d) / "r.conll"
        perturb_conll_file(key, resp, seed=3)
        a = corefscore.analyze_files(key, resp)
        r = corefscore.score_files(key, resp, metrics=["kk", "ms"])
        assert a.counts == kk_ms_counts(r) and sum(a.counts.values()) > 0


def test_to_pandas_and_html():
    pd = pytest.importorskip("pandas")
    a = corefscore.analyze_files(KEY, RESPONSE)
    df = a.to_pandas()
    assert isinstance(df, pd.DataFrame) and len(df) == len(a.errors)
    assert list(df.columns) == ["document", "category", "mentions", "key_entities", "response_entities", "types"]
    assert df["category"].value_counts().to_dict() == {k: v for k, v in a.counts.items() if v}
    html = a._repr_html_()
    for c, v in a.counts.items():
        assert f"<td>{c}</td><td style='text-align:right'>{v}</td>" in html


def test_plot_errors_side_by_side():
    matplotlib = pytest.importorskip("matplotlib", reason="plots need the notebook extra (matplotlib)")
    matplotlib.use("Agg")
    from corefscore import plotting

    a = corefscore.analyze_files(KEY, RESPONSE)
    b = corefscore.analyze_files(KEY, KEY, name="perfect")
    ax = plotting.plot_errors(a, b)
    bars = [p for c in ax.containers for p in c]
    assert len(bars) == 2 * len(CATEGORIES)
    # Most frequent first (b, the key itself, has none): a's counts in decreasing order, ties in engine order.
    by_count = sorted(CATEGORIES, key=lambda c: -a.counts[c])
    assert [t.get_text() for t in ax.get_xticklabels()] == [c.replace("_", " ") for c in by_count]
    assert [p.get_height() for p in ax.containers[0]] == [a.counts[c] for c in by_count]
    assert [t.get_text() for t in ax.texts] == [str(a.counts[c]) for c in by_count] + ["0"] * len(CATEGORIES)
    assert [p.get_height() for p in ax.containers[1]] == [0] * len(CATEGORIES)
    assert [t.get_text() for t in ax.get_legend().get_texts()] == [a.name, "perfect"]
    one = plotting.plot_errors(a, categories=KK_CATEGORIES)
    assert len(one.containers) == 1 and len(one.containers[0]) == len(KK_CATEGORIES)


_CELL = re.compile(r'data-system="([^"]*)" data-metric="([^"]*)" data-part="([^"]*)" data-value="([^"]*)"')


@pytest.mark.parametrize("n_responses", [1, 2])
def test_cli_report(tmp_path, capsys, n_responses):
    out = tmp_path / "report.html"
    responses = [RESPONSE, KEY][:n_responses]
    status = cli.main(["report", str(KEY), *map(str, responses), "-o", str(out), "--n", "200"])
    assert status == 0, capsys.readouterr().err
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>")
    # Self-contained: nothing loaded from a network.
    assert not re.search(r"""(src|href)\s*=\s*["']?\s*(https?:)?//""", html, re.I)
    assert "<link" not in html.lower() and "@import" not in html
    # The score table holds score_files' numbers.
    cells = _CELL.findall(html)
    assert cells
    names = ["response.conll", "key.conll"][:n_responses]
    results = {n: corefscore.score_files(KEY, p) for n, p in zip(names, responses)}
    seen = set()
    for system, metric, part, value in cells:
        if metric == "conll":  # the CoNLL F1 row, first
            assert part == "f1" and float(value) == pytest.approx(results[system].conll_f1, abs=1e-12)
        else:
            assert float(value) == pytest.approx(getattr(results[system][metric], part), abs=1e-12)
        seen.add((system, metric))
    assert seen == {(s, m) for s in names for m in (*results[s].metrics, "conll")}
    assert _CELL.search(html).group(2) == "conll"
    # Every document with its words.
    for word in ("John", "Smith", "Anna", "Paris"):  # a document's words are one string, separated by spaces
        assert re.search(rf'[" ]{word}[" ]', html), word


def test_cli_report_refuses_three_responses(tmp_path, capsys):
    status = cli.main(["report", str(KEY), str(RESPONSE), str(RESPONSE), str(RESPONSE), "-o", str(tmp_path / "x")])
    assert status == 2
    assert "one or two" in capsys.readouterr().err


def test_report_documents_have_the_files_words():
    from corefscore import report, report_html

    data = report.report_data(KEY, [RESPONSE], n_bootstrap=0)
    first = report_html.nested_document(data["documents"][0])
    assert first["sentences"][0][:2] == ["John", "Smith"]
    words = [w for s in first["sentences"] for w in s]
    for entity in first["key"]:
        for s, e in entity:
            assert 0 <= s <= e < len(words)
    assert data["error_counts"]["response.conll"] == {
        c: corefscore.analyze_files(KEY, RESPONSE).counts[c] for c in KK_CATEGORIES}


def test_martschat_strube_introduction_example():
    """The example that opens Martschat & Strube (2014): a system that misses "the factory" -> "the refinery".

    One recall error, nominal to nominal (anaphor first); no precision error. For Kummerfeld & Klein as
    the Berkeley analyser counts, the response's singleton "the refinery" is dropped first, so the
    entity {the refinery, the factory} is wholly missing: one missing entity. Spans are the token spans
    of the paper's two sentences.
    """
    project, refinery, this, factory = (11, 23), (16, 23), (30, 30), (34, 35)
    types = {project: "nominal", refinery: "nominal", this: "pronoun", factory: "nominal"}
    key = [[project, this], [refinery, factory]]
    response = [[project, this], [refinery]]
    a = corefscore.analyze(key, response, mention_types=types)
    assert [(e.category, e.mentions, e.types) for e in a.errors] == [
        ("missing_entity", (refinery, factory), ()),
        ("recall_error", (factory, refinery), ("nominal", "nominal")),
    ]
    r = corefscore.score(key, response, mention_types=types, metrics=["kk", "ms"])
    assert r.counts["ms"]["recall.nominal_nominal"] == 1 and r.counts["ms"]["precision_errors"] == 0


def test_report_errors_are_the_analysis_errors():
    """The report's columnar errors per document are analyze_files' records, and report_html's page form of both
    forms of the schema (columns, a dict per error) is the same."""
    from corefscore import report, report_html

    data = report.report_data(KEY, [RESPONSE], n_bootstrap=0)
    by_doc = corefscore.analyze_files(KEY, RESPONSE).by_document()
    assert sum(len(v) for v in by_doc.values()) > 0
    for doc in data["documents"]:
        cols = doc["errors"]["response.conll"]
        records = by_doc[doc["name"]]
        got = []
        for r, c in enumerate(cols["category"]):
            flat = cols["mentions"][cols["mention_offsets"][r]:cols["mention_offsets"][r + 1]]
            got.append((c, tuple(zip(flat[::2], flat[1::2])),
                        tuple(cols["key_entities"][cols["key_offsets"][r]:cols["key_offsets"][r + 1]]),
                        tuple(cols["response_entities"][cols["response_offsets"][r]:cols["response_offsets"][r + 1]])))
        assert got == [(e.category, e.mentions, e.key_entities, e.response_entities) for e in records]
        as_dicts = [{"category": e.category, "mentions": [list(m) for m in e.mentions]} for e in records]
        from_cols, from_dicts = report_html._errors_payload(cols, []), report_html._errors_payload(as_dicts, [])
        assert {k: list(v) for k, v in from_cols.items()} == {k: list(v) for k, v in from_dicts.items()}
