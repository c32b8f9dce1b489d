"""Issue 19: nothing that is not a score is shown as one, and what cannot be meant is refused.

File pairs with no document in common, partly missing documents, ``--datasets``
keyed by position, the report's viewer paired as scoring paired, ``n/a`` for
metrics with nothing to count, and count-only metrics shown as counts.
"""

from __future__ import annotations

import json

import corefscore
import pytest
from _helpers import REPO
from corefscore import cli, score_files
from corefscore._analysis import KK_CATEGORIES
from corefscore._engine import CorefScoreInputError

EXAMPLES = REPO / "examples"


def run_cli(capsys, *argv):
    status = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def _conll(path, names, clusters="(0)"):
    """A CoNLL-2012 file with one two-token document per name, both tokens in entity 0."""
    text = "".join(f"#begin document {n}\n{n} 0 0 A NNP - - - - - {clusters}\n{n} 0 1 B PRP - - - - - (0)\n"
                   "#end document\n" for n in names)
    path.write_text(text)
    return path


# -- files with no document in common ----------------------------------------------


def test_disjoint_files_are_refused_naming_both_sides(tmp_path):
    key = _conll(tmp_path / "key.conll", ["k1", "k2", "k3", "k4"])
    resp = _conll(tmp_path / "resp.conll", ["r1", "r2"])
    with pytest.raises(CorefScoreInputError) as info:
        score_files(key, resp)
    message = str(info.value)
    assert 'key: "k1", "k2", "k3" and 1 more' in message
    assert 'response: "r1", "r2"' in message
    result = score_files(key, resp, allow_disjoint=True)
    assert result.n_documents == 4
    assert result["muc"].recall == 0.0


def test_disjoint_files_exit_2_on_the_command_line_unless_allowed(tmp_path, capsys):
    key = _conll(tmp_path / "key.conll", ["k1", "k2"])
    resp = _conll(tmp_path / "resp.conll", ["r1"])
    for argv in (("score", key, resp), ("muc", key, resp), ("score", key, resp, "--json"),
                 ("report", key, resp, "-o", tmp_path / "r.html")):
        status, out, err = run_cli(capsys, *argv)
        assert status == 2, argv
        assert "no document name in common" in err and '"k1"' in err and '"r1"' in err, argv
        assert out == ""
    status, out, _ = run_cli(capsys, "score", key, resp, "--allow-disjoint", "--json")
    assert status == 0
    assert len(json.loads(out)["warnings"]) == 2


def test_partly_missing_documents_are_one_warning_line(tmp_path, capsys):
    names = [f"d{i:03d}" for i in range(50)]
    key = _conll(tmp_path / "key.conll", names)
    resp = _conll(tmp_path / "resp.conll", [*names[:5], "extra1", "extra2"])
    result = score_files(key, resp)
    assert result.warnings == [
        f"{key}, line 21: 45 of 50 key documents are not in the response (\"d005\", \"d006\", \"d007\" and 42 more): "
        "scored against an empty response",
        f"{resp}, line 21: 2 of 7 response documents are not in the key (\"extra1\", \"extra2\"): ignored",
    ]
    status, _, err = run_cli(capsys, "score", key, resp)
    assert status == 0
    assert err.count("\n") == 2


# -- the report's viewer ----------------------------------------------------------


def test_report_viewer_shows_the_response_document_scoring_paired(tmp_path):
    from corefscore import report_html
    from corefscore.report import report_data

    key = tmp_path / "key.conll"
    key.write_text("#begin document (doc1); part 000\n" + "".join(
        f"doc1 0 {i} w{i} NN - - - - - {c}\n" for i, c in enumerate(["(0)", "(0)", "(1)", "(1)", "-"]))
        + "#end document\n#begin document (doc2); part 000\ndoc2 0 0 x NN - - - - - (0)\n#end document\n")
    resp = tmp_path / "resp.jsonlines"
    resp.write_text(json.dumps({"doc_key": "doc1", "clusters": [[[0, 0], [1, 1]], [[2, 2], [4, 4]]]}) + "\n")
    data = report_data(key, [resp], n_bootstrap=0)
    doc1, doc2 = map(report_html.nested_document, data["documents"])
    system = data["systems"][0]
    assert doc1["scores"][system]["muc"] > 0
    assert doc1["responses"][system] == [[(0, 0), (1, 1)], [(2, 2), (4, 4)]]
    assert doc2["responses"][system] == []


# -- --datasets ---------------------------------------------------------------------


def test_datasets_are_positions_not_paths(tmp_path, capsys):
    key, resp = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    other = tmp_path / "response.conll"  # another system: the same stem, another directory
    other.write_text(key.read_text())
    status, out, _ = run_cli(capsys, "score", "--datasets", key, resp, key, other, "--json")
    assert status == 0
    got = json.loads(out)
    assert list(got["datasets"]) == ["key vs response (1)", "key vs response (2)"]
    assert got["macro"]["n_datasets"] == 2
    first, second = got["datasets"].values()
    assert first["response"] == str(resp) and second["response"] == str(other)
    assert first["metrics"]["muc"]["f1"] < 1.0 == second["metrics"]["muc"]["f1"]
    status, out, _ = run_cli(capsys, "score", "--datasets", key, resp, key, resp)
    assert status == 0
    assert "macro average over 2 datasets" in out and out.count("dataset key") == 2


# -- the n/a rule ---------------------------------------------------------------------


def _without_zero_mentions(tmp_path):
    """The CorefUD fixture without its empty node: a CoNLL-U file with no zero mention."""
    lines = (REPO / "tests" / "fixtures" / "corefud" / "key.conllu").read_text().splitlines()
    kept = [ln.replace("|4:nsubj", "").replace("\t4:nsubj\t", "\t_\t") for ln in lines
            if not (ln.split("\t")[0].count(".") == 1 and ln[0].isdigit())]
    path = tmp_path / "nozero.conllu"
    path.write_text("\n".join(kept) + "\n")
    return path


def test_zero_gold_against_gold_without_zero_mentions_is_na_everywhere(tmp_path, capsys):
    gold = _without_zero_mentions(tmp_path)
    result = score_files(gold, gold, metrics=["muc", "bcub", "ceafe", "zero"])
    zero = result["zero"]
    assert not zero.counted and result["muc"].counted
    assert (zero.recall, zero.precision, zero.f1) == (0.0, 0.0, 0.0), "the attributes keep the reference's 0 / 0"
    as_dict = result.to_dict(per_doc=True)
    assert {q: as_dict["metrics"]["zero"][q] for q in ("recall", "precision", "f1")} == dict.fromkeys(
        ("recall", "precision", "f1"))
    assert as_dict["documents"][0]["metrics"]["zero"]["f1"] is None
    reason = "zero: n/a, nothing to count: no zero mentions in the key or the response"
    assert reason in as_dict["warnings"]
    assert as_dict["conll_f1"] == 1.0
    assert "  zero              n/a        n/a      n/a\n" in repr(result)
    assert "<th>zero</th><td>n/a</td><td>n/a</td><td>n/a</td>" in result._repr_html_()
    frame = result.to_pandas()
    assert frame.set_index("metric").loc["zero", ["recall", "precision", "f1"]].isna().all()
    for extra in ((), ("--per-doc",), ("--average", "macro"), ("--ci", "--n", "20")):
        argv = ("--metrics", "muc,bcub,ceafe,zero", *extra)
        status, out, err = run_cli(capsys, "score", gold, gold, *argv)
        assert status == 0
        rows = [ln.split() for ln in out.splitlines() if ln.startswith("zero")]
        assert rows == [["zero", "n/a", "n/a", "n/a"]], extra
        assert reason in err
    status, out, _ = run_cli(capsys, "score", gold, gold, "--metrics", "zero", "--json")
    assert json.loads(out)["metrics"]["zero"]["f1"] is None
    # The drop-in form prints what the reference scorer prints: 0 over 0.
    status, out, _ = run_cli(capsys, "zero", gold, gold, "none")
    assert status == 0
    assert "Coreference: Recall: (0 / 0) 0%\tPrecision: (0 / 0) 0%\tF1: 0%" in out


def test_na_is_decided_per_document_row(capsys):
    import corefscore

    result = corefscore.score_corpus([[[(0, 0)], [(2, 2)]], [[(0, 0), (1, 1)]]],
                                     [[[(0, 0)], [(2, 2)]], [[(0, 0), (1, 1)]]], metrics=["muc", "bcub"])
    first, second = result.per_document()
    assert not first["muc"].counted and first["bcub"].counted, "singletons only: no MUC links"
    assert second["muc"].counted and result["muc"].counted
    assert result.to_dict(per_doc=True)["documents"][0]["metrics"]["muc"]["f1"] is None
    assert result.to_dict()["metrics"]["muc"]["f1"] == 1.0
    assert result.to_pandas(per_document=True)["f1"].isna().tolist() == [True, False, False, False]


def test_conll_f1_is_none_over_a_metric_with_nothing_to_count():
    import corefscore

    singletons = [[(0, 0)], [(1, 1)]]
    result = corefscore.score(singletons, singletons)
    assert not result["muc"].counted and result["bcub"].f1 == 1.0
    assert result.conll_f1 is None and result.to_dict()["conll_f1"] is None
    assert "conll" not in repr(result)


def test_blanc_without_any_link_is_na():
    import corefscore

    result = corefscore.score([[(0, 0)]], [[(0, 0)]], metrics=["blanc"])
    assert not result["blanc"].counted
    assert result.to_dict()["metrics"]["blanc"]["coref_links"]["f1"] is None


def test_totals_and_result_agree_on_na():
    import corefscore
    from corefscore._report import Totals

    result = corefscore.score([[(0, 0)], [(1, 1)]], [[(0, 0)], [(1, 1)]])
    totals = Totals(result.counts_matrix.ravel().tolist(), 1, result.columns, result.metrics)
    assert [m for m, s in totals.items() if not s.counted] == [m for m in result.metrics if not result[m].counted]
    assert totals.na_warnings() == result.na_warnings() != []
    assert totals.conll_f1 is None is result.conll_f1


def test_datasets_macro_average_leaves_out_datasets_with_nothing_to_count(tmp_path, capsys):
    gold = _without_zero_mentions(tmp_path)
    fixture = REPO / "tests" / "fixtures" / "corefud"
    status, out, _ = run_cli(capsys, "score", "--datasets", gold, gold, fixture / "key.conllu",
                             fixture / "response.conllu", "--metrics", "muc,zero", "--json")
    assert status == 0
    got = json.loads(out)
    second = list(got["datasets"].values())[1]["metrics"]["zero"]
    assert got["macro"]["metrics"]["zero"]["f1"] == second["f1"] is not None
    status, out, _ = run_cli(capsys, "score", "--datasets", gold, gold, gold, gold, "--metrics", "zero")
    assert out.rstrip().splitlines()[-1].split() == ["zero", "n/a", "n/a", "n/a"]


# -- count-only metrics -----------------------------------------------------------------


def test_count_only_metrics_asked_by_name_are_shown_as_counts(capsys):
    import corefscore

    result = corefscore.score([[(0, 0), (1, 1)], [(3, 3)]], [[(0, 0), (1, 1), (3, 3)]], metrics=["kk", "ms"])
    assert result.metrics == () and result.analyses == ("kk", "ms")
    as_dict = result.to_dict(per_doc=True)
    assert as_dict["analyses"]["kk"]["conflated_entities"] == 1
    assert as_dict["analyses"]["ms"] == {k: int(v) for k, v in result.counts["ms"].items()}
    assert as_dict["documents"][0]["analyses"]["kk"]["conflated_entities"] == 1
    with pytest.raises(KeyError, match=r"kk has counts, not scores: result.counts\['kk'\]"):
        result["kk"]
    text = repr(result)
    assert "kk          span_error 0, conflated_entities 1," in text
    assert "<th>kk</th><td colspan=\"3\">span_error 0, conflated_entities 1," in result._repr_html_()


def test_score_command_prints_count_only_metrics(capsys):
    key, resp = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    counts = corefscore.analyze_files(key, resp, metrics="kk").counts  # the same engine, another road
    kk_line = "\nkk           " + ", ".join(f"{c} {counts[c]}" for c in KK_CATEGORIES) + "\n"
    assert sum(counts[c] for c in KK_CATEGORIES) > 0
    for metrics in ("kk,ms", "muc,kk"):
        for extra in ((), ("--per-doc",)):
            status, out, _ = run_cli(capsys, "score", key, resp, "--metrics", metrics, *extra)
            assert status == 0
            assert kk_line in out, (metrics, extra)
            assert ("\nmuc " in out) == ("muc" in metrics)
    status, out, _ = run_cli(capsys, "score", key, resp, "--metrics", "muc,kk", "--json")
    got = json.loads(out)
    assert list(got["metrics"]) == ["muc"] and got["analyses"]["kk"] == {c: counts[c] for c in KK_CATEGORIES}


def test_drop_in_form_refuses_count_only_metrics_and_does_not_list_them(capsys):
    key, resp = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    for metric in ("kk", "ms"):
        status, out, err = run_cli(capsys, metric, key, resp)
        assert status == 2 and out == ""
        assert f"corefscore score KEY RESPONSE --metrics {metric}" in err
    status, out, _ = run_cli(capsys, "--help")
    others = next(ln for ln in out.splitlines() if "other metrics" in ln)
    assert "lea" in others and "kk" not in others and "ms" not in others


def test_report_shows_na_for_a_metric_with_nothing_to_count(tmp_path):
    from corefscore import report_html
    from corefscore.report import report_data

    gold = _without_zero_mentions(tmp_path)
    data = report_data(gold, [gold], metrics=["muc", "zero"], n_bootstrap=20)
    system = data["systems"][0]
    assert data["scores"][system]["zero"] == {"recall": None, "precision": None, "f1": None}
    assert data["scores"][system]["muc"]["f1"] == 1.0 and "f1_ci" in data["scores"][system]["muc"]
    assert data["documents"][0]["scores"][system] == {"muc": 1.0, "zero": None}
    page = report_html.render_report(data)
    assert 'data-metric="zero" data-part="f1"><span class="cfs-v">n/a</span>' in page


# -- one scalar core ------------------------------------------------------------------


def test_one_arithmetic_for_floats_and_arrays_without_numpy_at_import():
    import subprocess
    import sys

    import numpy as np
    from corefscore import _arith, _report

    probe = "import sys, corefscore._arith, corefscore._report; print('numpy' in sys.modules)"
    env_path = str(REPO / "python")
    out = subprocess.run([sys.executable, "-c", f"import sys; sys.path.insert(0, {env_path!r}); {probe}"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
    rng = np.random.default_rng(3)
    counts = rng.integers(0, 9, (500, 8)) / rng.integers(1, 4, (500, 8))
    counts[rng.random(counts.shape) < 0.3] = 0.0
    names = [f"{h}.{c}" for h in ("coref", "noncoref") for c in _arith.RP_COUNTS]
    for rule in ("key", "either"):
        arrays = _arith.scores_of("blanc", lambda s: counts[:, names.index(s)], rule)
        for row, i in zip(counts.tolist(), range(len(counts))):
            floats = _arith.scores_of("blanc", lambda s, row=row: row[names.index(s)], rule)
            assert [floats[q] for q in ("recall", "precision", "f1", "counted")] == \
                [arrays[q][i] for q in ("recall", "precision", "f1", "counted")]
            assert _report.blanc_scores(row[:4], row[4:], rule) == (floats["recall"], floats["precision"], floats["f1"])
