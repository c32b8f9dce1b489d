"""Issue 20's smaller items: a user mistake costs no gigabytes, names print on one line, threads and dict keys
never give two documents one name, mappings pair as files do."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import corefscore
import pytest
from corefscore import Scorer, score_corpus

REPO = Path(__file__).resolve().parents[1]


def _env() -> dict[str, str]:
    return dict(os.environ, PYTHONPATH=str(REPO / "python") + os.pathsep + os.environ.get("PYTHONPATH", ""))


@pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is KiB on Linux only")
@pytest.mark.parametrize("mistake", ["[huge]", "huge", "[[(0, 1)] * 5_000_000]|5"])
def test_a_huge_wrong_value_is_refused_before_it_is_copied(mistake):
    """A 100 MB string as a cluster or a side, or a 5M-mention key with a response that is an int: refused
    before any copy or per-mention work (peak memory: the value itself plus the interpreter)."""
    key, _, response = mistake.partition("|")
    code = (
        "import resource, corefscore\n"
        "huge = 'x' * 100_000_000\n"
        f"key, response = {key}, {response or '[[(0, 1)]]'}\n"
        "base = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss\n"
        "try:\n    corefscore.score(key, response)\n"
        "except TypeError as e:\n"
        "    print(type(e).__name__, base, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=_env(), cwd=REPO,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    name, before, after = out.stdout.split()
    assert name == "InputTypeError"
    assert int(after) - int(before) < 50 * 1024, f"{(int(after) - int(before)) / 1024:.0f} MB more for a refusal"


def test_dict_keys_that_print_alike_are_refused():
    with pytest.raises(ValueError, match=r"keys 1 and '1'"):
        score_corpus({1: [[(0, 1)]], "1": [[(2, 3)]]}, {1: [[(0, 1)]], "1": [[(2, 3)]]})


def test_mappings_pair_as_files_do():
    with pytest.raises(ValueError, match="no document name in common"):
        score_corpus({"a": [[(0, 1)]]}, {"b": [[(0, 1)]]})
    r = score_corpus({"a": [[(0, 1)]]}, {"b": [[(0, 1)]]}, allow_disjoint=True)
    assert r.doc_names == ["a"] and r["mentions"].recall == 0.0
    keys = {f"d{i}": [[(0, 1)]] for i in range(10)}
    r = score_corpus(keys, {"d0": [[(0, 1)]], "x": [[(5, 5)]]})
    assert len(r.warnings) == 2, r.warnings
    assert r.warnings[0].startswith('9 of 10 key documents are not in the response ("d1", "d2", "d3" and 6 more)')
    assert r.warnings[1].startswith('1 of 2 response documents is not in the key ("x")')


def test_a_scorer_shared_by_threads_names_every_document_once():
    scorer = Scorer(metrics="muc")
    barrier = threading.Barrier(8)

    def feed():
        barrier.wait()
        for _ in range(500):
            scorer.update([[(0, 1), (2, 2)]], [[(0, 1)], [(2, 2)]])

    threads = [threading.Thread(target=feed) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    names = scorer.compute().doc_names
    assert len(names) == 4000 and len(set(names)) == 4000
    assert sorted(names, key=int) == [str(i) for i in range(4000)]


def test_a_name_with_a_newline_is_printed_on_one_line(tmp_path):
    key, resp = tmp_path / "key.jsonl", tmp_path / "resp.jsonl"
    for path in (key, resp):
        path.write_text(json.dumps({"doc_key": "a\nb\x00c", "clusters": [[[0, 0], [1, 1]]]}) + "\n"
                        + json.dumps({"doc_key": "second", "clusters": [[[0, 0]]]}) + "\n")
    r = corefscore.score_files(key, resp)
    assert r.doc_names[0] == "a\nb\x00c"  # the name itself is kept, any bytes
    for argv in (["score", str(key), str(resp), "--per-doc"], ["muc", str(key), str(resp)]):
        out = subprocess.run([sys.executable, "-m", "corefscore", *argv], capture_output=True, text=True,
                             env=_env(), cwd=REPO, timeout=120)
        assert out.returncode == 0, out.stderr
        lines = out.stdout.splitlines()
        assert any("a\\nb\\x00c" in line for line in lines), out.stdout
        assert not any(line.strip() in ("a", "b\x00c", "b\x00c:") for line in lines)

