"""The command line: drop-in reference output, exit statuses, JSON, compare and --ci.

Most tests call ``cli.main(argv)`` in-process and read stdout/stderr with
capsys; the exit-status and no-traceback tests run the real command
(``python -m corefscore``) as a subprocess. The reference scorer's numbers
come from ``../shared/data/reference-testcases/expected.json``; where perl
and the reference scorer (``/tmp/ref``) exist, whole outputs are also
compared with the Perl scorer's output captured at run time.
"""

from __future__ import annotations

import json
import math
import os
import re
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import corefscore
import pytest
from _helpers import HAVE_PERL, NO_PERL_REASON, REFERENCE, REFERENCE_SCORER, REPO
from corefscore import cli
from corefscore._report import REFERENCE_METRICS, percent, perl_number, rpf

EXAMPLES = REPO / "examples"
#: Where the corefscore under test lives (the checkout's python/, or an installed wheel's site-packages).
PACKAGE_PARENT = os.path.dirname(os.path.dirname(os.path.abspath(corefscore.__file__)))
needs_perl = pytest.mark.skipif(not HAVE_PERL, reason=NO_PERL_REASON)


def _cases() -> list[str]:
    path = REFERENCE / "expected.json"
    if not path.exists():
        return []
    return sorted(json.loads(path.read_text())["cases"])


def _expected() -> dict:
    return json.loads((REFERENCE / "expected.json").read_text())["cases"]


def run_cli(capsys, *argv: str) -> tuple[int, str, str]:
    """``cli.main(argv)`` in-process: (status, stdout, stderr)."""
    status = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def run_process(*argv: str) -> subprocess.CompletedProcess:
    """The real command line, ``python -m corefscore ARGV``, in a fresh interpreter."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT, env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "corefscore", *map(str, argv)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )


def perl_output(*argv: str) -> str:
    return subprocess.run(
        ["perl", str(REFERENCE_SCORER), *map(str, argv)], capture_output=True, text=True, timeout=600
    ).stdout


# ---------------------------------------------------------------------------
# Parsing our output
# ---------------------------------------------------------------------------

_RPF = re.compile(r"Recall: \((\S+) / (\S+)\) (\S+)%\tPrecision: \((\S+) / (\S+)\) (\S+)%\tF1: (\S+)%$")


def parse_totals(text: str) -> dict[str, dict[str, list[str]]]:
    """``{metric: {line label: [nr, dr, r%, np, dp, p%, f1%]}}`` of the TOTALS blocks of ``all`` output."""
    out: dict[str, dict[str, list[str]]] = {}
    metric = None
    in_totals = False
    for line in text.split("\n"):
        m = re.match(r"METRIC (\w+):$", line)
        if m:
            metric, in_totals = m.group(1), False
            out[metric] = {}
            continue
        if line == "====== TOTALS =======":
            in_totals = True
            continue
        if not in_totals or metric is None:
            continue
        label, _, rest = line.partition(": Recall")
        hit = _RPF.search(line)
        if hit and rest:
            out[metric][label] = list(hit.groups())
    return out


def _close(printed: str, expected: float) -> bool:
    return math.isclose(float(printed), expected, rel_tol=1e-9, abs_tol=1e-9)


# ---------------------------------------------------------------------------
# Number formatting (values read off the reference scorer's output)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (7.0, "7"),
        (0.0, "0"),
        (20, "20"),
        (13.366666666666667, "13.3666666666667"),
        (15.333333333333334, "15.3333333333333"),
        (5.55, "5.55"),
        (0.6321428571428571, "0.632142857142857"),
        (0.7468017057569296, "0.74680170575693"),
    ],
)
def test_perl_number(value, text):
    assert perl_number(value) == text


@pytest.mark.parametrize(
    ("fraction", "text"),
    [(7 / 12, "58.33"), (0.95, "95"), (1.0, "100"), (2 / 3, "66.66"), (0.0, "0"), (14 / 19, "73.68"), (0.807, "80.7")],
)
def test_percent_truncates(fraction, text):
    assert percent(fraction) == text


def test_rpf_zero_denominators():
    assert rpf(0, 0, 0, 0).split("\n")[0] == "Recall: (0 / 0) 0%\tPrecision: (0 / 0) 0%\tF1: 0%"


# ---------------------------------------------------------------------------
# The 36 reference test pairs against expected.json
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("case", _cases() or ["(no shared data)"])
def test_reference_cases_all_metrics(case, capsys, reference_dir):
    c = _expected()[case]
    status, out, err = run_cli(capsys, "all", reference_dir / c["key"], reference_dir / c["response"])
    assert status == 0, err
    totals = parse_totals(out)
    assert list(totals) == list(REFERENCE_METRICS)
    exp = c["metrics"]
    for metric in REFERENCE_METRICS:
        lines = totals[metric]
        ident = lines["Identification of Mentions"]
        m = exp["mentions"]
        for got, want in zip(
            ident[:2] + ident[3:5], (m["recall_num"], m["recall_den"], m["precision_num"], m["precision_den"])
        ):
            assert _close(got, want), (metric, "mentions", ident)
        if metric == "blanc":
            halves = [
                ("Coreference links", exp["blanc"]["coref_links"]),
                ("Non-coreference links", exp["blanc"]["noncoref_links"]),
            ]
            for label, want in halves:
                got = lines[label]
                nums = [got[0], got[1], got[3], got[4]]
                for g, w in zip(
                    nums, (want["recall_num"], want["recall_den"], want["precision_num"], want["precision_den"])
                ):
                    assert _close(g, w), (case, label, got)
            blanc = lines["BLANC"]
            assert _close(blanc[0], exp["blanc"]["recall"]) and blanc[1] == "1"
            assert _close(blanc[3], exp["blanc"]["precision"]) and blanc[4] == "1"
            assert blanc[6] == percent(exp["blanc"]["f1"])
            continue
        got = lines["Coreference"]
        want = exp[metric]
        for g, w in zip(
            (got[0], got[1], got[3], got[4]),
            (want["recall_num"], want["recall_den"], want["precision_num"], want["precision_den"]),
        ):
            assert _close(g, w), (case, metric, got)
        # The percentages are the reference's truncation of the expected scores.
        assert got[2] == percent(want["recall"]), (case, metric)
        assert got[5] == percent(want["precision"]), (case, metric)
        assert got[6] == percent(want["f1"]), (case, metric)


def test_reference_case_none_and_per_document_totals_agree(capsys, reference_dir):
    key, response = reference_dir / "TC-M.key", reference_dir / "TC-M-3.response"
    _, per_doc, _ = run_cli(capsys, "all", key, response)
    _, none, _ = run_cli(capsys, "all", key, response, "none")
    assert parse_totals(per_doc) == parse_totals(none)
    assert "Total key mentions:" in per_doc and "Total key mentions:" not in none


# ---------------------------------------------------------------------------
# Whole outputs against the Perl scorer (run at test time)
# ---------------------------------------------------------------------------


def _comparable(text: str) -> list[str]:
    """Output lines without the version line, the Perl-only entity dumps and repeated-mention lines.

    Document names lose trailing blanks (our readers trim them).
    """
    lines = text.split("\n")[1:]
    dropped = re.compile(r"(====> |File |Entity \d+:|Repeated mention)")
    return [re.sub(r"\s+:$", ":", ln) for ln in lines if not dropped.match(ln)]


def _blocks(lines: list[str]) -> list[tuple[list[tuple[str, ...]], list[str]]]:
    """Per metric section: the sorted per-document blocks and the totals lines.

    Perl prints documents in hash order, so blocks are compared as a sorted list.
    """
    text = "\n".join(lines)
    sections = []
    for section in re.split(r"^METRIC \w+:$", text, flags=re.M):
        head, _, totals = section.partition("====== TOTALS =======")
        blocks: list[list[str]] = []
        for ln in head.split("\n"):
            if ln.endswith(":") and not ln.startswith(("Coreference", "Invented")):
                blocks.append([])
            if blocks and ln:
                blocks[-1].append(ln)
        sections.append((sorted(tuple(b) for b in blocks), totals.split("\n")))
    return sections


PERL_CASES = [
    (EXAMPLES / "key.conll", EXAMPLES / "response.conll"),
    (REFERENCE / "TC-A.key", REFERENCE / "TC-A-3.response"),
    (REFERENCE / "TC-C.key", REFERENCE / "TC-C-1.response"),
    (REFERENCE / "TC-M.key", REFERENCE / "TC-M-4.response"),
    (REFERENCE / "TC-N.key", REFERENCE / "TC-N-2.response"),
]


@needs_perl
@pytest.mark.parametrize(("key", "response"), PERL_CASES, ids=lambda p: p.name)
def test_none_output_equals_perl(key, response, capsys):
    if not key.exists():
        pytest.skip(f"{key} not found")
    status, ours, _ = run_cli(capsys, "all", key, response, "none")
    assert status == 0
    assert _comparable(ours) == _comparable(perl_output("all", key, response, "none"))


@needs_perl
@pytest.mark.parametrize("metric", ["muc", "bcub", "ceafm", "ceafe", "blanc"])
def test_repeated_mentions_output_equals_perl(metric, capsys, reference_dir):
    # Ten repeated response mentions: the reference still scores one metric at a time (its
    # counter is process-wide, so `all` refuses at the second metric; we score every metric).
    key, response = reference_dir / "TC-A.key", reference_dir / "TC-A-9.response"
    status, ours, _ = run_cli(capsys, metric, key, response, "none")
    assert status == 0
    perl = perl_output(metric, key, response, "none")
    assert perl.count("Repeated mention in the response") == 10
    assert _comparable(ours) == _comparable(perl)


@needs_perl
@pytest.mark.parametrize(("key", "response"), PERL_CASES[:3], ids=lambda p: p.name)
def test_per_document_output_equals_perl_up_to_document_order(key, response, capsys):
    status, ours, _ = run_cli(capsys, "all", key, response)
    assert status == 0
    assert _blocks(_comparable(ours)) == _blocks(_comparable(perl_output("all", key, response)))


@needs_perl
@pytest.mark.parametrize("metric", ["muc", "bcub", "ceafe", "blanc"])
def test_single_document_equals_perl(metric, capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    name = "(example/station); part 000"
    status, ours, _ = run_cli(capsys, metric, key, response, name)
    assert status == 0
    assert _comparable(ours) == _comparable(perl_output(metric, key, response, name))


@needs_perl
def test_unknown_document_scores_empty_as_perl(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    status, ours, err = run_cli(capsys, "muc", key, response, "nosuch")
    assert status == 0
    assert "nosuch" in err
    assert _comparable(ours) == _comparable(perl_output("muc", key, response, "nosuch"))


def test_version_line_and_metric_headers(capsys):
    status, out, _ = run_cli(capsys, "all", EXAMPLES / "key.conll", EXAMPLES / "response.conll", "none")
    assert status == 0
    first = out.split("\n")[0]
    assert first.startswith("version: 8.01 /") and first.endswith("_report.py")
    assert re.findall(r"^METRIC (\w+):$", out, flags=re.M) == list(REFERENCE_METRICS)


def test_documents_in_key_order(capsys):
    status, out, _ = run_cli(capsys, "muc", EXAMPLES / "key.conll", EXAMPLES / "response.conll")
    assert status == 0
    printed = [ln[:-1] for ln in out.split("\n") if ln.startswith("(example/")]
    in_key = re.findall(r"^#begin document (.*)$", (EXAMPLES / "key.conll").read_text(), flags=re.M)
    assert printed == [n.strip() for n in in_key]


def test_other_metric_names_in_drop_in_mode(capsys, reference_dir):
    c = _expected()["TC-M-3"]
    status, out, _ = run_cli(capsys, "lea", reference_dir / c["key"], reference_dir / c["response"], "none")
    assert status == 0
    got = _RPF.search(out.split("Coreference: ")[1].split("\n")[0]).groups()
    want = c["metrics"]["lea"]
    assert _close(got[0], want["recall_num"]) and _close(got[3], want["precision_num"])
    assert _close(got[1], want["recall_den"]) and _close(got[4], want["precision_den"])


def test_repeated_mentions_are_scored_and_reported_on_stderr(capsys, reference_dir):
    # TC-A-9 repeats one response mention ten times; the reference scores it (refusing beyond ten).
    status, out, err = run_cli(capsys, "muc", reference_dir / "TC-A.key", reference_dir / "TC-A-9.response", "none")
    assert status == 0
    assert "====== TOTALS =======" in out and "Repeated" not in out
    assert err.count("is repeated") == 10
    status, _, err = run_cli(
        capsys, "muc", reference_dir / "TC-A.key", reference_dir / "TC-A-9.response", "none", "--duplicates", "raise"
    )
    assert status == 2
    assert len(err.strip().split("\n")) == 1


# ---------------------------------------------------------------------------
# Malformed input: exit status 2 and one line naming file, line and document
# ---------------------------------------------------------------------------

GOOD = "#begin document (d1); part 000\nd1\t0\t0\tJohn\t(1)\nd1\t0\t1\tsaw\t-\nd1\t0\t2\thim\t(1)\n#end document\n"
BEGIN = "#begin document (d1); part 000\n"

MALFORMED = {
    "unbalanced-brackets": (
        BEGIN + "d1\t0\t0\tJohn\t(1\nd1\t0\t1\tsaw\t-\nd1\t0\t2\thim\t(2)\n#end document\n",
        5,
        True,
    ),
    "closing-without-opening": (
        BEGIN + "d1\t0\t0\tJohn\t(1)\nd1\t0\t1\tsaw\t3)\nd1\t0\t2\thim\t(1)\n#end document\n",
        3,
        True,
    ),
    "never-ends": (BEGIN + "d1\t0\t0\tJohn\t(1)\nd1\t0\t1\tsaw\t-\nd1\t0\t2\thim\t(1)\n", None, True),
    "duplicated-document": (GOOD + GOOD, 6, True),
    "non-utf8": (BEGIN + "d1\t0\t0\tJo\xffhn\t(1)\nd1\t0\t1\tsaw\t-\nd1\t0\t2\thim\t(1)\n#end document\n", 2, True),
    "empty": ("", 1, False),
    "binary": (None, None, False),
}


def _write_malformed(tmp_path: Path, kind: str) -> Path:
    text, _, _ = MALFORMED[kind]
    path = tmp_path / f"{kind}.conll"
    if kind == "binary":
        path.write_bytes(bytes(range(256)) * 4)
    elif kind == "non-utf8":
        path.write_bytes(text.encode("latin-1"))
    else:
        path.write_text(text)
    return path


def _assert_one_line(err: str, path: Path, line: int | None, document: bool) -> None:
    assert "Traceback" not in err
    lines = err.strip().split("\n")
    assert len(lines) == 1, err
    msg = lines[0]
    assert msg.startswith("corefscore: error: ")
    assert str(path) in msg
    m = re.search(re.escape(str(path)) + r":(\d+):", msg)
    assert m, msg
    if line is not None:
        assert int(m.group(1)) == line, msg
    if document:
        assert 'document "(d1); part 000"' in msg


@pytest.mark.parametrize("kind", list(MALFORMED))
def test_malformed_key_exits_2(kind, tmp_path):
    bad = _write_malformed(tmp_path, kind)
    good = tmp_path / "good.conll"
    good.write_text(GOOD)
    proc = run_process("all", bad, good, "none")
    assert proc.returncode == 2
    assert proc.stdout == ""
    _, line, document = MALFORMED[kind]
    _assert_one_line(proc.stderr, bad, line, document)


@pytest.mark.parametrize("kind", ["unbalanced-brackets", "closing-without-opening", "non-utf8"])
def test_malformed_response_exits_2_in_every_command(kind, tmp_path, capsys):
    bad = _write_malformed(tmp_path, kind)
    good = tmp_path / "good.conll"
    good.write_text(GOOD)
    _, line, document = MALFORMED[kind]
    for argv in (
        ["muc", good, bad],
        ["score", good, bad],
        ["score", good, bad, "--json"],
        ["compare", good, good, bad],
    ):
        status, out, err = run_cli(capsys, *argv)
        assert status == 2, argv
        assert out == ""
        _assert_one_line(err, bad, line, document)


def test_response_with_other_token_count_exits_2(tmp_path):
    key = tmp_path / "key.conll"
    key.write_text(GOOD)
    resp = tmp_path / "resp.conll"
    resp.write_text(BEGIN + "d1\t0\t0\tJohn\t(1)\nd1\t0\t1\tsaw\t(1)\n#end document\n")
    proc = run_process("all", key, resp, "none")
    assert proc.returncode == 2
    err = proc.stderr.strip()
    assert "\n" not in err and "Traceback" not in err
    assert str(key) in err and str(resp) in err and '"(d1); part 000"' in err
    assert "3 tokens" in err and "2 " in err


@pytest.mark.parametrize(
    "argv",
    [
        ["nosuchmetric", "a", "b"],
        ["score", "only-one-file"],
        ["score", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"), "--metrics", "muc,nope"],
        ["score", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"), "--workers", "0"],
        ["score", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"), "--link-weights", "1,2"],
        ["all", "/nonexistent/key.conll", str(EXAMPLES / "response.conll")],
        [],
    ],
)
def test_bad_arguments_exit_2_without_traceback(argv, capsys):
    status, out, err = run_cli(capsys, *argv)
    assert status == 2
    assert "Traceback" not in err
    if argv:
        assert out == ""
        assert len(err.strip().split("\n")) == 1
        assert err.startswith("corefscore: error: ")


def test_missing_file_names_the_file(capsys):
    status, _, err = run_cli(capsys, "all", "/nonexistent/key.conll", EXAMPLES / "response.conll")
    assert status == 2
    assert "/nonexistent/key.conll" in err


# ---------------------------------------------------------------------------
# --json
# ---------------------------------------------------------------------------

FIELDS = {"recall", "precision", "f1", "recall_num", "recall_den", "precision_num", "precision_den"}


def _check_schema(obj: dict, key: Path, response: Path) -> None:
    assert {"version", "key", "response", "metrics", "conll_f1", "warnings"} <= set(obj)
    assert obj["key"] == str(key) and obj["response"] == str(response)
    assert isinstance(obj["warnings"], list)
    for name, m in obj["metrics"].items():
        # BLANC's counts are in its two halves.
        assert (FIELDS if name != "blanc" else {"recall", "precision", "f1"}) <= set(m), name
        for q in ("recall", "precision", "f1"):
            assert 0.0 <= m[q] <= 1.0
    blanc = obj["metrics"]["blanc"]
    for half in ("coref_links", "noncoref_links"):
        assert FIELDS <= set(blanc[half])
    conll = (obj["metrics"]["muc"]["f1"] + obj["metrics"]["bcub"]["f1"] + obj["metrics"]["ceafe"]["f1"]) / 3
    assert obj["conll_f1"] == pytest.approx(conll, abs=1e-12)


def test_json_schema_and_numbers(capsys, reference_dir):
    c = _expected()["TC-M-4"]
    key, response = reference_dir / c["key"], reference_dir / c["response"]
    status, out, _ = run_cli(capsys, "score", key, response, "--json")
    assert status == 0
    obj = json.loads(out)
    _check_schema(obj, key, response)
    assert "documents" not in obj
    for metric in ("mentions", "muc", "bcub", "ceafm", "ceafe", "lea"):
        for field in ("recall_num", "recall_den", "precision_num", "precision_den", "recall", "precision", "f1"):
            assert obj["metrics"][metric][field] == pytest.approx(c["metrics"][metric][field], abs=1e-9)
    assert obj["conll_f1"] == pytest.approx(c["conll_f1"], abs=1e-9)
    for half in ("coref_links", "noncoref_links"):
        for field in ("recall_num", "recall_den", "precision_num", "precision_den"):
            assert obj["metrics"]["blanc"][half][field] == c["metrics"]["blanc"][half][field]


def test_json_per_doc_and_drop_in(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    status, out, _ = run_cli(capsys, "score", key, response, "--json", "--per-doc")
    assert status == 0
    obj = json.loads(out)
    _check_schema(obj, key, response)
    docs = obj["documents"]
    assert [d["name"] for d in docs] == ["(example/station); part 000", "(example/letter); part 000"]
    total = sum(d["metrics"]["muc"]["recall_num"] for d in docs)
    assert total == obj["metrics"]["muc"]["recall_num"]
    # Drop-in --json: the same object for the reference's metrics.
    status, out, _ = run_cli(capsys, "all", key, response, "none", "--json")
    assert status == 0
    dropin = json.loads(out)
    _check_schema(dropin, key, response)
    assert set(dropin["metrics"]) == {"mentions", *REFERENCE_METRICS}
    for m in dropin["metrics"]:
        assert dropin["metrics"][m] == obj["metrics"][m]
    status, out, _ = run_cli(capsys, "muc", key, response, "(example/letter); part 000", "--json")
    single = json.loads(out)
    assert single["metrics"]["muc"] == docs[1]["metrics"]["muc"]


def test_json_is_one_object_on_stdout_process():
    proc = run_process("score", EXAMPLES / "key.conll", EXAMPLES / "response.conll", "--json")
    assert proc.returncode == 0
    assert isinstance(json.loads(proc.stdout), dict)


# ---------------------------------------------------------------------------
# score (readable table), --ci, --average, compare
# ---------------------------------------------------------------------------


def test_score_table_matches_json(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    _, out, _ = run_cli(capsys, "score", key, response, "--metrics", "muc,bcub,ceafe,blanc")
    _, js, _ = run_cli(capsys, "score", key, response, "--metrics", "muc,bcub,ceafe,blanc", "--json")
    obj = json.loads(js)
    rows = {ln.split()[0]: ln.split()[1:] for ln in out.split("\n") if ln.split() and ln.split()[0] in obj["metrics"]}
    assert list(rows) == ["muc", "bcub", "ceafe", "blanc"]
    for m, cells in rows.items():
        want = [f"{100 * obj['metrics'][m][q]:.2f}" for q in ("recall", "precision", "f1")]
        assert cells == want
    assert f"{100 * obj['conll_f1']:.2f}" in out.split("CoNLL F1")[1]


def test_ci_intervals_next_to_scores(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    argv = ["score", key, response, "--metrics", "muc,bcub,ceafe", "--ci", "--n", "300", "--seed", "7"]
    status, out, _ = run_cli(capsys, *argv)
    assert status == 0
    assert re.search(r"^muc\s+\d+\.\d\d \[\d+\.\d\d, \d+\.\d\d\]", out, flags=re.M)
    status, js, _ = run_cli(capsys, *argv, "--json")
    obj = json.loads(js)
    iv = obj["intervals"]
    assert iv["n"] == 300 and iv["seed"] == 7
    for m in ("muc", "bcub", "ceafe", "conll"):
        for q, cell in iv["metrics"][m].items():
            assert cell["low"] <= cell["estimate"] <= cell["high"], (m, q)
    assert iv["metrics"]["muc"]["f1"]["estimate"] == pytest.approx(obj["metrics"]["muc"]["f1"])
    # Seeded: the same command gives the same intervals.
    _, again, _ = run_cli(capsys, *argv, "--json")
    assert json.loads(again)["intervals"] == iv


def test_macro_average(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    status, js, _ = run_cli(
        capsys, "score", key, response, "--metrics", "muc", "--average", "macro", "--json", "--per-doc"
    )
    assert status == 0
    obj = json.loads(js)
    per_doc = [d["metrics"]["muc"]["recall"] for d in obj["documents"]]
    assert obj["macro"]["muc"]["recall"] == pytest.approx(sum(per_doc) / len(per_doc))


def test_compare_self_and_better_system(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    status, js, _ = run_cli(capsys, "compare", key, response, response, "--json", "--n", "200", "--seed", "1")
    assert status == 0
    obj = json.loads(js)
    assert obj["response_a"] == str(response)
    for m, row in obj["metrics"].items():
        assert row["difference"] == 0.0 and row["p_value"] == 1.0, m
    # The key itself as system B is at least as good on every metric.
    status, js, _ = run_cli(
        capsys, "compare", key, response, key, "--json", "--method", "bootstrap", "--n", "200", "--metrics", "muc,bcub"
    )
    assert status == 0
    obj = json.loads(js)
    assert obj["method"] == "bootstrap"
    assert set(obj["metrics"]) >= {"muc", "bcub"}
    assert obj["metrics"]["muc"]["score_b"] == 1.0
    assert obj["metrics"]["muc"]["difference"] > 0
    status, text, _ = run_cli(capsys, "compare", key, response, key, "--n", "100")
    assert status == 0
    assert re.search(r"^muc\s+\d+\.\d\d\s+100\.00\s+\+\d+\.\d\d\s+\[", text, flags=re.M)


def test_help_and_version(capsys):
    status, out, _ = run_cli(capsys, "--help")
    assert status == 0 and "corefscore METRIC KEY RESPONSE" in out
    status, out, _ = run_cli(capsys, "--version")
    assert status == 0 and out.startswith("corefscore ")


def test_report_doctests():
    import doctest

    from corefscore import _report

    result = doctest.testmod(_report)
    assert result.attempted >= 5
    assert result.failed == 0


@needs_perl
def test_key_document_missing_from_response_scores_empty_as_perl(tmp_path, capsys):
    key = EXAMPLES / "key.conll"
    text = (EXAMPLES / "response.conll").read_text()
    start = text.index("#begin document (example/letter)")
    response = tmp_path / "letter_only.conll"
    response.write_text(text[start : text.index("#end document", start)] + "#end document\n")
    status, ours, err = run_cli(capsys, "all", key, response, "none")
    assert status == 0
    assert "(example/station); part 000" in err and "not in the response" in err
    assert _comparable(ours) == _comparable(perl_output("all", key, response, "none"))
    status, ours, _ = run_cli(capsys, "all", key, response)
    assert _blocks(_comparable(ours)) == _blocks(_comparable(perl_output("all", key, response)))


COREFUD = Path(__file__).parent / "fixtures" / "corefud"

# `corefscore score` forms that print the table without NumPy, each beside its files.
PLAIN_SCORE_FORMS = {
    "conll2012": [EXAMPLES / "key.conll", EXAMPLES / "response.conll"],
    "crac": [COREFUD / "key.conllu", COREFUD / "response.conllu", "--preset", "crac"],
    "either-rule-some-metrics": [EXAMPLES / "key.conll", EXAMPLES / "response.conll", "--blanc-rule", "either",
                                 "--metrics", "muc,blanc,lea,kk"],
    "repeats": ["TC-A.key", "TC-A-9.response"],
}


@pytest.mark.parametrize("form", sorted(PLAIN_SCORE_FORMS))
def test_score_table_imports_no_numpy_and_prints_what_the_result_gives(form, reference_dir):
    # The plain table is computed from the engine's counts in Python (no NumPy in the process); --per-doc goes
    # through the NumPy Result and prints the same table before the documents', with the same warnings.
    argv = [str(reference_dir / a) if str(a).startswith("TC-") else str(a) for a in PLAIN_SCORE_FORMS[form]]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT, env.get("PYTHONPATH", "")])
    code = (
        "import sys; from corefscore import cli; "
        f"status = cli.main(['score', *{argv!r}]); "
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'pandas', 'matplotlib')); "
        "print(status, heavy, 'argparse' in sys.modules, file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    *warnings, last = proc.stderr.strip().split("\n")
    # `score KEY RESPONSE` alone is parsed without argparse; any option goes through it.
    assert last == f"0 [] {any(str(a).startswith('-') for a in argv)}"
    with_numpy = run_process("score", *argv, "--per-doc")
    assert with_numpy.returncode == 0, with_numpy.stderr
    table = proc.stdout
    assert "\nmuc  " in table
    assert with_numpy.stdout.startswith(table) and len(with_numpy.stdout) > len(table)
    assert warnings == [w for w in with_numpy.stderr.strip().split("\n") if w]
    if form == "repeats":
        assert warnings and "is repeated" in warnings[-1]


# The score_files options of each PLAIN_SCORE_FORMS form (the command line reports repeats itself: "ignore").
PLAIN_SCORE_KWARGS = {
    "conll2012": {},
    "crac": {"preset": "crac"},
    "either-rule-some-metrics": {"blanc_rule": "either", "metrics": ["muc", "blanc", "lea", "kk"]},
    "repeats": {},
}


@pytest.mark.parametrize("per_doc", [False, True])
@pytest.mark.parametrize("form", sorted(PLAIN_SCORE_FORMS))
def test_score_json_imports_no_numpy_and_is_the_results_to_dict(form, per_doc, reference_dir):
    # `score --json` writes Result.to_dict's schema from the engine's counts in Python: the same values (floats
    # bit for bit) and warnings as score_files(...).to_dict(), with no NumPy in the process.
    argv = [str(reference_dir / a) if str(a).startswith("TC-") else str(a) for a in PLAIN_SCORE_FORMS[form]]
    flags = ["--json", *(["--per-doc"] if per_doc else [])]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT, env.get("PYTHONPATH", "")])
    code = (
        "import sys; from corefscore import cli; "
        f"status = cli.main(['score', *{argv!r}, *{flags!r}]); "
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'pandas', 'matplotlib')); "
        "print(status, heavy, file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    *warnings, last = proc.stderr.strip().split("\n")
    assert last == "0 []"
    got = json.loads(proc.stdout)
    want = corefscore.score_files(argv[0], argv[1], duplicates="ignore", **PLAIN_SCORE_KWARGS[form])
    assert got == json.loads(json.dumps(want.to_dict(per_doc=per_doc)))
    assert ("documents" in got) == per_doc
    assert warnings == [f"corefscore: warning: {w}" for w in got["warnings"]]
    if form == "repeats":
        assert warnings and "is repeated" in warnings[0]


def test_datasets_table_imports_no_numpy_and_agrees_with_the_json(tmp_path):
    pairs = [str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"),
             str(COREFUD / "key.conllu"), str(COREFUD / "response.conllu")]
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT, env.get("PYTHONPATH", "")])
    code = (
        "import sys; from corefscore import cli; "
        f"status = cli.main(['score', '--datasets', *{pairs!r}, '--metrics', 'muc,bcub,ceafe,blanc']); "
        "print(status, sorted(m for m in sys.modules if m.split('.')[0] == 'numpy'), file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0 and proc.stderr.strip().split("\n")[-1] == "0 []", proc.stderr
    as_json = json.loads(run_process("score", "--datasets", *pairs, "--metrics", "muc,bcub,ceafe,blanc",
                                     "--json").stdout)
    macro = proc.stdout.split("macro average")[1]
    for m, s in as_json["macro"]["metrics"].items():
        assert f"{m:<13}" + "".join(f"{100 * s[q]:.2f}".rjust(10) for q in ("recall", "precision", "f1")) in macro
    assert f"{100 * as_json['macro']['conll_f1']:.2f}" in macro.split("CoNLL F1")[1]
    for name, d in as_json["datasets"].items():
        block = proc.stdout.split(f"dataset {name}\n")[1]
        assert f"{100 * d['metrics']['muc']['f1']:.2f}" in block.split("\nmuc")[1].split("\n")[0]


def test_totals_are_the_results_scores_bit_for_bit():
    # _report.Totals (the NumPy-free table) against Result on counts with fractions, many documents, both BLANC
    # rules, sides without links: the same floats, not merely close ones.
    import numpy as np
    from corefscore._report import Totals
    from corefscore._result import Result

    template = corefscore.score([["a", "b", "c"], ["d", "e"]], [["a", "b"], ["c", "d", "e"]])
    columns, metrics = template.columns, corefscore.metric_names()
    rng = np.random.default_rng(7)
    for n_docs in (1, 3, 177, 1000):
        counts = rng.integers(0, 50, (n_docs, len(columns))) / rng.integers(1, 7, (n_docs, len(columns)))
        counts[rng.random(counts.shape) < 0.2] = 0.0
        for rule in ("key", "either"):
            result = Result(counts, columns, [str(i) for i in range(n_docs)], metrics, blanc_rule=rule)
            totals = Totals(counts.ravel().tolist(), n_docs, columns, metrics, rule)
            assert totals.metrics == result.metrics
            for m in result.metrics:
                got, want = totals[m], result[m]
                assert (got.recall, got.precision, got.f1) == (want.recall, want.precision, want.f1), (n_docs, m)
            assert totals.conll_f1 == result.conll_f1


def test_drop_in_imports_no_numpy_pandas_or_matplotlib():
    # The drop-in form must start fast: no NumPy, pandas or matplotlib in the process.
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join([PACKAGE_PARENT, env.get("PYTHONPATH", "")])
    code = (
        "import sys; from corefscore import cli; "
        f"status = cli.main(['all', {str(EXAMPLES / 'key.conll')!r}, {str(EXAMPLES / 'response.conll')!r}, 'none']); "
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'pandas', 'matplotlib')); "
        "print(status, heavy, file=sys.stderr)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.strip().split("\n")[-1] == "0 []"
    assert "====== TOTALS =======" in proc.stdout


def _imported_modules(*argv: str) -> tuple[set[str], subprocess.CompletedProcess]:
    """The modules a fresh ``python -X importtime ARGV`` imports, and the finished process."""
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", *argv], capture_output=True, text=True, timeout=120, check=False
    )
    names = {
        line.rsplit("|", 1)[1].strip()
        for line in proc.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }
    return names, proc


def test_installed_command_runs_the_drop_in_form_and_imports_little():
    # The installed `corefscore` script (pip points its first line at this
    # interpreter) prints what `python -m corefscore` prints, and imports
    # nothing heavy beyond what the interpreter's own start-up imports
    # (site and any .pth hooks of the environment): no re (which pip's
    # console-script wrapper would import), no collections, NumPy, typing or
    # threading.
    # pip puts it beside the interpreter's scripts, or the user's with --user.
    places = [Path(sysconfig.get_path("scripts")), Path(sysconfig.get_path("scripts", f"{os.name}_user"))]
    script = next((p / "corefscore" for p in places if (p / "corefscore").is_file()), places[0] / "corefscore")
    assert script.is_file(), f"{script} missing: install the package first (make install)"
    assert script.read_text(encoding="utf-8").startswith("#!"), "pip rewrites the first line to the interpreter"
    argv = ["all", str(EXAMPLES / "key.conll"), str(EXAMPLES / "response.conll"), "none"]
    baseline, _ = _imported_modules("-c", "pass")
    used, proc = _imported_modules(str(script), *argv)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout == run_process(*argv).stdout
    assert "====== TOTALS =======" in proc.stdout
    added = used - baseline
    assert "corefscore.cli" in added
    heavy = {"re", "collections", "importlib", "numpy", "typing", "threading", "argparse", "json"}
    assert not added & heavy, sorted(added & heavy)


@pytest.mark.parametrize(
    ("flags", "kwargs", "changes"),
    [
        (["--singletons", "exclude"], {"singletons": "exclude"}, True),
        (["--link-weights", "1,0.5,0.25,0.1"], {"link_weights": (1, 0.5, 0.25, 0.1)}, True),
        (["--da-weights", "0.7,0.2,0.1", "--da-greedy"], {"da_weights": (0.7, 0.2, 0.1), "da_greedy": True}, False),
        (["--workers", "1", "--format", "conll2012"], {"workers": 1, "format": "conll2012"}, False),
    ],
)
def test_options_reach_the_engine(flags, kwargs, changes, capsys):
    import corefscore

    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    status, out, err = run_cli(capsys, "score", key, response, "--json", *flags)
    assert status == 0, err
    got = json.loads(out)["metrics"]
    assert got == corefscore.score_files(key, response, duplicates="ignore", **kwargs).to_dict()["metrics"]
    default = corefscore.score_files(key, response, duplicates="ignore").to_dict()["metrics"]
    assert (got != default) == changes


def test_blanc_rule_option(tmp_path, capsys):
    # Key: three singletons (no coreference link, three non-coreference links); response: {a, b}, {c}.
    # The "key" rule scores the non-coreference half alone: R = 2/3, P = 2/2. The "either" rule
    # also counts the coreference half (R = 0, P = 0/1) and averages: R = 1/3, P = 1/2, F1 = (0 + 0.8) / 2.
    key, response = tmp_path / "key.conll", tmp_path / "response.conll"
    key.write_text(BEGIN + "d1\t0\t0\ta\t(1)\nd1\t0\t1\tb\t(2)\nd1\t0\t2\tc\t(3)\n#end document\n")
    response.write_text(BEGIN + "d1\t0\t0\ta\t(1)\nd1\t0\t1\tb\t(1)\nd1\t0\t2\tc\t(2)\n#end document\n")
    blanc = {}
    for rule in ("key", "either"):
        status, out, _ = run_cli(capsys, "score", key, response, "--json", "--metrics", "blanc", "--blanc-rule", rule)
        assert status == 0
        blanc[rule] = json.loads(out)["metrics"]["blanc"]
    assert (blanc["key"]["recall"], blanc["key"]["precision"]) == pytest.approx((2 / 3, 1.0))
    assert blanc["key"]["f1"] == pytest.approx(0.8)
    assert (blanc["either"]["recall"], blanc["either"]["precision"]) == pytest.approx((1 / 3, 0.5))
    assert blanc["either"]["f1"] == pytest.approx(0.4)
    _, text, _ = run_cli(capsys, "blanc", key, response, "none")
    assert "BLANC: Recall: (0.666666666666667 / 1) 66.66%\tPrecision: (1 / 1) 100%\tF1: 80%" in text
    _, text, _ = run_cli(capsys, "blanc", key, response, "none", "--blanc-rule", "either")
    assert "BLANC: Recall: (0.333333333333333 / 1) 33.33%\tPrecision: (0.5 / 1) 50%\tF1: 40%" in text


def test_singletons_exclude_in_drop_in_mode(capsys):
    key, response = EXAMPLES / "key.conll", EXAMPLES / "response.conll"
    _, keep, _ = run_cli(capsys, "all", key, response, "none")
    _, excl, _ = run_cli(capsys, "all", key, response, "none", "--singletons", "exclude")
    _, js, _ = run_cli(capsys, "score", key, response, "--json", "--singletons", "exclude")
    muc = parse_totals(excl)["muc"]["Identification of Mentions"]
    assert float(muc[1]) == json.loads(js)["metrics"]["mentions"]["recall_den"]
    assert keep != excl


def _rounded_numbers(line: str) -> str:
    """A totals line with its numerators and denominators at 12 significant digits.

    Perl adds documents in hash order, different on every run, so the 15th
    digit of a totals numerator can differ between two Perl runs (and from
    ours, added in key-file order); its percentages cannot.
    """
    return re.sub(r"\((\S+) / (\S+)\)", lambda m: f"({float(m.group(1)):.12g} / {float(m.group(2)):.12g})", line)


@needs_perl
def test_dropin_text_equals_perl_on_300_random_pairs(tmp_path, capsys):
    """Every per-document line equal to Perl's; totals equal but for the 15th digit of a numerator."""
    if shutil.which("go") is None:
        pytest.skip("go is needed to run the pair generator (gocore/internal/randconll)")
    listing = subprocess.run(
        ["go", "run", "./gocore/internal/randconll/cmd/randconll", "-dir", str(tmp_path), "-from", "1", "-n", "300"],
        capture_output=True, text=True, cwd=REPO, timeout=600, check=True,
    ).stdout.split("\n")
    pairs = [ln.split() for ln in listing if ln.strip()]
    assert len(pairs) == 300
    for key, response in pairs:
        _, ours, _ = run_cli(capsys, "all", key, response)
        mine, perl = _blocks(_comparable(ours)), _blocks(_comparable(perl_output("all", key, response)))
        assert [b for b, _ in mine] == [b for b, _ in perl], (key, response)
        assert [[_rounded_numbers(t) for t in totals] for _, totals in mine] == \
            [[_rounded_numbers(t) for t in totals] for _, totals in perl], (key, response)


def test_dropin_prints_the_reference_sums_fixed_case(tmp_path, capsys):
    """Key {t0..t4} plus four singletons, response {t0, t1, t2}: Perl's B-cubed recall is (1.8 / 9) 19.99%."""
    cells = ["(0)"] * 5 + ["(1)", "(2)", "(3)", "(4)"]
    resp_cells = ["(0)"] * 3 + ["-"] * 6
    for name, col in (("key", cells), ("response", resp_cells)):
        rows = [f"doc\t0\t{i}\tw{i}\t" + "\t".join(["_"] * 7) + f"\t{c}" for i, c in enumerate(col)]
        (tmp_path / f"{name}.conll").write_text("#begin document (doc); part 000\n" + "\n".join(rows) +
                                                "\n\n#end document\n")
    _, out, _ = run_cli(capsys, "bcub", tmp_path / "key.conll", tmp_path / "response.conll", "none")
    assert "Recall: (1.8 / 9) 19.99%" in out
    exact = corefscore.score_files(tmp_path / "key.conll", tmp_path / "response.conll")
    assert exact["bcub"].recall_num == pytest.approx(1.8) and exact["bcub"].recall_num != 1.7999999999999998
