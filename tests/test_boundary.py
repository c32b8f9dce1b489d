"""The boundary a user touches: each input that once gave a silent wrong number or a hang (issue 10).

Every test here gives the right number or a clear error naming what is
wrong, and bounds its own time.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time

import corefscore
import numpy as np
import pytest
from _helpers import REPO
from corefscore import CorefScoreInputError

KEY = [[(0, 1), (3, 3), (12, 12)], [(7, 8)], [(14, 15), (27, 27)]]
RESPONSE = [[(0, 1), (3, 3)], [(7, 8), (14, 15)], [(12, 12), (30, 30)]]


def _env():
    env = dict(os.environ)
    env["PYTHONPATH"] = (
        os.path.dirname(os.path.dirname(os.path.abspath(corefscore.__file__)))
        + os.pathsep
        + str(REPO / "tests")
        + os.pathsep
        + env.get("PYTHONPATH", "")
    )
    return env


# -- mentions compare by value --------------------------------------------------------------


@pytest.mark.parametrize("make", ["numpy scalars", "numpy 1-d arrays", "lists"])
def test_array_like_mentions_compare_by_value(make):
    conv = {"numpy scalars": lambda m: (np.int64(m[0]), np.int32(m[1])), "numpy 1-d arrays": np.array, "lists": list}[
        make
    ]
    key = [[conv(m) for m in c] for c in KEY]
    response = [[conv(m) for m in c] for c in KEY]  # distinct objects, equal values
    r = corefscore.score(key, response)
    assert r["muc"].f1 == 1.0 and r.conll_f1 == 1.0
    assert (
        corefscore.score(key, [[conv(m) for m in c] for c in RESPONSE]).to_dict()["metrics"]
        == corefscore.score(KEY, RESPONSE).to_dict()["metrics"]
    )


def test_a_two_dimensional_array_as_a_mention_is_refused_with_its_position():
    with pytest.raises(TypeError, match=r"`key` of document 0, cluster 0, mention 1"):
        corefscore.score([[(0, 1), np.zeros((2, 2), dtype=int)]], [[(0, 1)]])


def test_unhashable_mentions_are_refused_naming_the_position():
    with pytest.raises(TypeError, match="cluster 1, mention 0"):
        corefscore.score([[1], [{"a": 1}]], [[1]])


# -- score_labels --------------------------------------------------------------------------


def test_score_labels_refuses_arrays_of_different_lengths():
    with pytest.raises(ValueError, match=r"one label per mention of `labels_true` \(4\); got 3"):
        corefscore.score_labels([0, 0, 1, 1], [0, 0, 1])


# -- mention types and weights --------------------------------------------------------------


def test_partial_mention_types_are_an_error_naming_the_untyped_mention():
    key = [["Clinton", "she", "her"], ["the car"]]
    types = {"Clinton": "name", "she": "pronoun", "her": "pronoun"}  # "the car" has none
    with pytest.raises(CorefScoreInputError) as info:
        corefscore.score(key, key, mention_types=types)
    assert info.value.mention == "the car" and info.value.kind == "missing_types"
    assert "'the car'" in str(info.value)


@pytest.mark.parametrize(
    "option,value",
    [
        ("link_weights", (0, 0, 0, 0)),
        ("da_weights", (0, 0, 0)),
        ("link_weights", (1, float("nan"), 1, 1)),
        ("da_weights", (0.5, 0.5)),
    ],
)
def test_weights_that_mean_nothing_are_refused(option, value):
    with pytest.raises(CorefScoreInputError) as info:
        corefscore.score(KEY, RESPONSE, **{option: value})
    assert info.value.option == option and f"`{option}`" in str(info.value)


def test_link_weights_are_scale_invariant_up_to_the_largest_float():
    key = [["Clinton", "she", "her"], ["the car"]]
    types = {"Clinton": "name", "she": "pronoun", "her": "pronoun", "the car": "nominal"}
    response = [["Clinton"], ["she", "her"], ["the car"]]
    ones = corefscore.score(key, response, mention_types=types, link_weights=(1, 1, 1, 1))
    huge = corefscore.score(key, response, mention_types=types, link_weights=(1e308,) * 4)
    for m in ("lmuc", "lbcub", "lceafm", "lceafe"):
        assert (huge[m].recall, huge[m].precision, huge[m].f1) == (ones[m].recall, ones[m].precision, ones[m].f1)


# -- files ---------------------------------------------------------------------------------


def _jsonl(path, docs):
    path.write_text("".join(json.dumps(d) + "\n" for d in docs))
    return path


def test_jsonlines_predicted_clusters_are_read_for_responses(tmp_path):
    clusters = [[[0, 1], [3, 3]], [[5, 6], [8, 8]]]
    key = _jsonl(tmp_path / "key.jsonl", [{"doc_key": "a", "clusters": clusters}])
    resp = _jsonl(tmp_path / "resp.jsonl", [{"doc_key": "a", "predicted_clusters": clusters}])
    assert corefscore.score_files(key, resp)["muc"].f1 == 1.0


def test_jsonlines_with_both_fields_is_ambiguous_unless_told(tmp_path):
    gold, pred = [[[0, 1], [3, 3]]], [[[0, 1]], [[3, 3]]]
    key = _jsonl(tmp_path / "key.jsonl", [{"doc_key": "a", "clusters": gold}])
    resp = _jsonl(tmp_path / "resp.jsonl", [{"doc_key": "a", "clusters": gold, "predicted_clusters": pred}])
    with pytest.raises(CorefScoreInputError, match=r"clusters_field|clusters-field"):
        corefscore.score_files(key, resp)
    assert corefscore.score_files(key, resp, clusters_field="predicted_clusters")["muc"].recall == 0.0
    assert corefscore.score_files(key, resp, clusters_field="clusters")["muc"].recall == 1.0


def test_jsonlines_without_clusters_is_an_error_naming_the_line(tmp_path):
    key = _jsonl(tmp_path / "key.jsonl", [{"doc_key": "a", "clusters": [[[0, 1]]]}])
    resp = _jsonl(tmp_path / "resp.jsonl", [{"doc_key": "a", "clusters": []}, {"doc_key": "b", "spans": []}])
    with pytest.raises(CorefScoreInputError) as info:
        corefscore.score_files(key, resp)
    assert info.value.line == 2 and info.value.side == "response"


def test_document_names_with_newlines_and_nul_do_not_shift_documents(tmp_path):
    names = ["a\nb", "c\0d", "e"]
    key_docs = [{"doc_key": n, "clusters": [[[i, i], [i + 5, i + 5]]]} for i, n in enumerate(names)]
    resp_docs = [dict(key_docs[0]), {"doc_key": names[1], "clusters": []}, dict(key_docs[2])]
    r = corefscore.score_files(_jsonl(tmp_path / "k.jsonl", key_docs), _jsonl(tmp_path / "r.jsonl", resp_docs))
    assert r.doc_names == names
    assert [d["muc"].recall for d in r.per_document()] == [1.0, 0.0, 1.0]
    same = corefscore.score_corpus(
        dict(zip(names, [d["clusters"] for d in key_docs])), dict(zip(names, [d["clusters"] for d in resp_docs]))
    )
    assert same.doc_names == names and (same.counts_matrix == r.counts_matrix).all()


def _conll(path, rows, name="doc"):
    lines = [f"#begin document ({name}); part 000"]
    lines += [f"{name}\t0\t{i}\tw{i}\t" + "\t".join(["_"] * 7) + f"\t{cell}" for i, cell in enumerate(rows)]
    path.write_text("\n".join([*lines, "", "#end document", ""]))
    return path


def test_a_coreference_item_that_is_not_a_number_is_skipped_with_a_warning(tmp_path):
    key = _conll(tmp_path / "key.conll", ["(1", "1)", "(2)", "-"])
    resp = _conll(tmp_path / "resp.conll", ["(1", "1)", "(abc)", "(2)"])
    r = corefscore.score_files(key, resp)
    assert r["mentions"].precision_den == 2  # (abc) is not a mention, as in the reference scorer
    assert any("not a number" in w and "resp.conll, line 4" in w for w in r.warnings), r.warnings


def test_missing_files_raise_file_not_found(tmp_path):
    with pytest.raises(FileNotFoundError) as info:
        corefscore.score_files(tmp_path / "nope.conll", REPO / "examples" / "key.conll")
    assert info.value.filename == str(tmp_path / "nope.conll")


def _run(code, timeout=60):
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=_env(),
        timeout=timeout,
        cwd=REPO,
    )


@pytest.mark.skipif(not os.path.exists("/proc/self/status"), reason="needs /proc (Linux)")
def test_a_huge_repeated_cell_stays_within_memory(tmp_path):
    path = _conll(tmp_path / "rep.conll", ["(1)|" * 2_500_000 + "(1)", "-"])
    assert path.stat().st_size > 10_000_000
    # VmHWM is the peak of this process's own memory; ru_maxrss would also count the parent's peak before
    # exec (Linux keeps it), and a pytest process that imported torch is larger than the bound.
    out = _run(
        f"""
        import warnings, corefscore
        warnings.simplefilter("ignore")
        r = corefscore.score_files({str(path)!r}, {str(path)!r})
        peak = next(ln.split()[1] for ln in open("/proc/self/status") if ln.startswith("VmHWM:"))
        print(r.n_duplicates, r["mentions"].recall_den, peak)
    """,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    n_dups, mentions, peak_kb = (float(x) for x in out.stdout.split())
    assert mentions == 1 and n_dups == 2 * 2_500_000  # every repetition counted, on both sides
    assert peak_kb < 300 * 1024


@pytest.mark.skipif(not os.path.exists("/dev/zero"), reason="needs /dev/zero")
def test_dev_zero_is_refused_not_read_forever():
    # The child's timeout is the bound (a read of /dev/zero never ends); how soon the refusal comes is
    # a measurement, not a test's assertion.
    out = _run(
        """
        import corefscore
        try:
            corefscore.score_files("/dev/zero", "/dev/zero", format="conll2012")
        except corefscore.CorefScoreInputError as exc:
            print("refused", exc)
    """,
        timeout=30,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    word, message = out.stdout.split(maxsplit=1)
    assert word == "refused" and "/dev/zero" in message


# -- fork and Ctrl-C -----------------------------------------------------------------------

FORK_POOL = """
import multiprocessing as mp, sys, time
import corefscore

def work(i):
    return corefscore.score([[(i, i), (i + 1, i + 1)]], [[(i, i)], [(i + 1, i + 1)]])["muc"].recall

if __name__ == "__main__":
    docs = [[[(j, j), (j + 1, j + 1)]] for j in range(1000)]
    corefscore.score_corpus(docs, docs)  # the parent has scored: its Go runtime is running
    outcomes = []
    for trial in range(20):
        try:
            with mp.get_context("fork").Pool(4) as pool:
                outcomes.append(("ok", pool.map(work, range(8))))
        except corefscore.ForkedProcessError as exc:
            outcomes.append(("refused", str(exc)))
    print(len(outcomes), outcomes[0][0], "spawn" in outcomes[0][1] if outcomes[0][0] == "refused" else "")
"""


def test_a_forked_pool_after_scoring_fails_fast_and_names_spawn(tmp_path):
    script = tmp_path / "forkpool.py"
    script.write_text(FORK_POOL)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=_env(), timeout=240)
    assert out.returncode == 0, out.stderr[-3000:]
    n, outcome, names_spawn = out.stdout.split() + [""] * (3 - len(out.stdout.split()))
    assert n == "20"
    assert outcome == "ok" or (outcome == "refused" and names_spawn == "True")


FORK_AFTER_PER_CALL = """
import os, sys
import corefscore

corefscore.score([[(0, 1), (3, 4)]], [[(0, 1)]])  # the per-call road's per-thread state now exists
pid = os.fork()
if pid == 0:
    try:
        corefscore.score([[(0, 1), (3, 4)]], [[(0, 1)]])
        os._exit(3)
    except corefscore.ForkedProcessError:
        os._exit(0)
_, status = os.waitpid(pid, 0)
print(os.waitstatus_to_exitcode(status))
"""


def test_a_child_forked_after_the_per_call_road_is_refused_not_hung(tmp_path):
    script = tmp_path / "forkpercall.py"
    script.write_text(FORK_AFTER_PER_CALL)
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, env=_env(), timeout=120)
    assert out.returncode == 0, out.stderr[-3000:]
    assert out.stdout.split() == ["0"], out.stdout


def _big_pair(tmp_path, n_mentions=200_000, seed=0):
    rng = np.random.default_rng(seed)
    paths = []
    for side in ("key", "response"):
        ids = rng.integers(0, n_mentions // 10, size=n_mentions)
        rows = [f"big\t0\t{i}\tw\t" + "\t".join(["_"] * 7) + f"\t({c})" for i, c in enumerate(ids.tolist())]
        p = tmp_path / f"{side}.conll"
        p.write_text("#begin document (big); part 000\n" + "\n".join(rows) + "\n\n#end document\n")
        paths.append(p)
    return paths


def _default_sigint():
    """In a child about to be interrupted: SIGINT's default action, even when the test runner ignores SIGINT
    (a suite started as a background job does, and the child would ignore it too)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs /proc (Linux)")
def test_ctrl_c_interrupts_a_long_score_files_at_once(tmp_path):
    key, resp = _big_pair(tmp_path)
    child = subprocess.Popen(
        [
            sys.executable,
            "-c",
            textwrap.dedent(f"""
        import sys, time, corefscore
        print("ready", flush=True)
        deadline = time.monotonic() + 60
        try:
            while time.monotonic() < deadline:
                corefscore.score_files({str(key)!r}, {str(resp)!r}, workers=1)
        except KeyboardInterrupt:
            print("interrupted", time.monotonic(), flush=True)
            time.sleep(2)
    """),
        ],
        stdout=subprocess.PIPE,
        text=True,
        env=_env(),
        cwd=REPO,
        preexec_fn=_default_sigint,
    )
    try:
        assert child.stdout.readline().strip() == "ready"
        time.sleep(1.5)  # well inside the engine (parsing, or the alignments)
        child.send_signal(signal.SIGINT)
        word, when = child.stdout.readline().split()
        assert word == "interrupted"  # the latency is measured in bench/cancel_latency.py, not asserted
        time.sleep(max(0.0, float(when) + 0.5 - time.monotonic()))
        before = _cpu_seconds(child.pid)
        time.sleep(0.5)
        assert _cpu_seconds(child.pid) - before < 0.1  # idle: the abandoned work has stopped
    finally:
        child.kill()
        child.wait(10)


# -- the command line ----------------------------------------------------------------------


def _cli(*argv, timeout=60):
    return subprocess.run([sys.executable, "-m", "corefscore", *map(str, argv)], capture_output=True, text=True,
                          env=_env(), timeout=timeout, cwd=REPO)


def test_cli_missing_file_says_no_such_file(tmp_path):
    out = _cli("all", tmp_path / "nope.conll", REPO / "examples" / "key.conll", "none")
    assert out.returncode == 2
    assert out.stderr.strip() == f"corefscore: error: {tmp_path / 'nope.conll'}: no such file"


def test_cli_duplicates_raise_names_file_line_and_tokens_in_flag_terms(tmp_path):
    key = _conll(tmp_path / "key.conll", ["(1)|(1)", "-"])
    out = _cli("muc", key, key, "--duplicates", "raise")
    assert out.returncode == 2 and "Traceback" not in out.stderr
    message = out.stderr.strip()
    assert f"{key}:2" in message and "tokens 0-0" in message and "--duplicates warn" in message, message
    assert "duplicates=" not in message and "capi" not in message and "gocore" not in message, message


@pytest.mark.parametrize("problem", ["bom", "cr"])
def test_cli_bom_and_cr_line_endings_get_a_message_that_says_so(tmp_path, problem):
    path = _conll(tmp_path / "key.conll", ["(1", "1)"])
    text = path.read_text()
    if problem == "bom":
        path.write_bytes(b"\xef\xbb\xbf" + text.encode())
        out = _cli("muc", path, path, "none")
        assert out.returncode == 0 and "byte order mark" in out.stderr, out.stderr  # skipped, with a warning
    else:
        path.write_bytes(text.replace("\n", "\r").encode())
        out = _cli("muc", path, path, "none")
        assert out.returncode == 2 and "CR" in out.stderr and "Traceback" not in out.stderr, out.stderr


def test_cli_bad_option_values_speak_flags(tmp_path):
    key = REPO / "examples" / "key.conll"
    out = _cli("score", key, key, "--link-weights", "0,0,0,0")
    assert out.returncode == 2 and "--link-weights" in out.stderr and "Traceback" not in out.stderr, out.stderr


@pytest.mark.skipif(not os.path.exists("/proc/self/stat"), reason="needs /proc (Linux)")
def test_cli_ctrl_c_exits_130_without_a_traceback(tmp_path):
    key, resp = _big_pair(tmp_path, n_mentions=200_000, seed=1)
    child = subprocess.Popen([sys.executable, "-m", "corefscore", "all", str(key), str(resp), "none"],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=REPO,
                             preexec_fn=_default_sigint)
    time.sleep(1.5)
    child.send_signal(signal.SIGINT)
    try:
        _, err = child.communicate(timeout=60)  # a hang guard, not a timing
    finally:
        child.kill()
    assert child.returncode == 130 and "Traceback" not in err, err


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="needs FIFOs")
@pytest.mark.parametrize("argv", [["score"], ["all"], ["score_files"]])
def test_ctrl_c_ends_a_read_of_a_fifo_nobody_writes(tmp_path, argv):
    """Opening a FIFO without a writer blocks in the kernel; Ctrl-C still ends the command and score_files."""
    fifo = tmp_path / "response.conll"
    os.mkfifo(fifo)
    key = REPO / "examples" / "key.conll"
    if argv == ["score_files"]:
        cmd = [sys.executable, "-c", "import corefscore, sys\ntry:\n    corefscore.score_files(sys.argv[1], "
               "sys.argv[2])\nexcept KeyboardInterrupt:\n    sys.exit(130)", str(key), str(fifo)]
    else:
        cmd = [sys.executable, "-m", "corefscore", *argv, str(key), str(fifo), *(["none"] if argv == ["all"] else [])]
    child = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=_env(), cwd=REPO,
                             preexec_fn=_default_sigint)
    time.sleep(1.5)  # the child is waiting in the FIFO's open by now
    child.send_signal(signal.SIGINT)
    try:
        _, err = child.communicate(timeout=60)  # a bound on the test (it would hang forever), not a timing
    finally:
        child.kill()
    assert child.returncode == 130 and "Traceback" not in err, err


def test_reference_totals_is_refused_where_rows_are_returned():
    """``sums="reference-totals"`` makes only the totals the reference's (a tied document's CEAF_e row may
    hold any of its optimal alignments' sums), so a call that returns per-document rows refuses it; the
    totals-only drop-in form asks for it (``tests/test_cli_corpora.py`` checks its totals)."""
    key, resp = REPO / "examples" / "key.conll", REPO / "examples" / "response.conll"
    one = [[(0, 1), (3, 3)]]
    for call in (lambda: corefscore.score_files(key, resp, sums="reference-totals"),
                 lambda: corefscore.score(one, one, sums="reference-totals"),
                 lambda: corefscore.score_corpus([one], [one], sums="reference-totals"),
                 lambda: corefscore.Scorer(sums="reference-totals")):
        with pytest.raises(ValueError, match="sums='reference'"):
            call()
    assert corefscore.score_files(key, resp, sums="reference").conll_f1 is not None
