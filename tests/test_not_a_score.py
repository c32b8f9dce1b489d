"""Issue 19: nothing that is not a score is shown as one, and what cannot be meant is refused.

File pairs with no document in common, partly missing documents, ``--datasets``
keyed by position, the report's viewer paired as scoring paired, ``n/a`` for
metrics with nothing to count, and count-only metrics shown as counts.
"""

from __future__ import annotations

import json

import pytest
from _helpers import REPO
from corefscore import cli, score_files
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
    from corefscore.report import report_data

    key = tmp_path / "key.conll"
    key.write_text("#begin document (doc1); part 000\n" + "".join(
        f"doc1 0 {i} w{i} NN - - - - - {c}\n" for i, c in enumerate(["(0)", "(0)", "(1)", "(1)", "-"]))
        + "#end document\n#begin document (doc2); part 000\ndoc2 0 0 x NN - - - - - (0)\n#end document\n")
    resp = tmp_path / "resp.jsonlines"
    resp.write_text(json.dumps({"doc_key": "doc1", "clusters": [[[0, 0], [1, 1]], [[2, 2], [4, 4]]]}) + "\n")
    data = report_data(key, [resp], n_bootstrap=0)
    doc1, doc2 = data["documents"]
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
