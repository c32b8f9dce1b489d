"""The report embeds its data so that no string of the input can end the script or change the page (issue 20).

Words and document names such as ``<!--``, ``</script>``, ``<script>``, ``]]>`` and U+2028/2029 go through the
whole road (CoNLL-2012 files, the engine's reader, the report's page); the embedded JSON block must parse back to
the same strings, and the page must hold no script element beyond its own. The browser test
(tests/test_report_html.py) renders pages in Chromium.
"""

from __future__ import annotations

import json
import re

import pytest
from corefscore.report import write_report
from corefscore.report_html import _esc, _json_for_script

HOSTILE = ["<!--", "</script>", "<script>alert(1)</script>", "]]>", "\u2028", "\u2029", "-->", "&amp;", "</"]


def _conll(path, name, words, coref):
    lines = [f"#begin document ({name}); part 000"]
    for i, (w, c) in enumerate(zip(words, coref)):
        lines.append(f"{name}\t0\t{i}\t{w}\t-\t-\t-\t-\t-\t-\t*\t{c}")
    path.write_text("\n".join([*lines, "", "#end document", ""]), encoding="utf-8")


def _embedded(page: str) -> list:
    blocks = re.findall(r'<script type="application/json"[^>]*>(.*?)</script>', page, flags=re.S)
    return [json.loads(b) for b in blocks]


def _strings(x) -> list[str]:
    if isinstance(x, str):
        return [x]
    if isinstance(x, dict):
        return [s for k, v in x.items() for s in (*_strings(k), *_strings(v))]
    if isinstance(x, (list, tuple)):
        return [s for v in x for s in _strings(v)]
    return []


def test_hostile_words_and_names_stay_data(tmp_path):
    words = [*HOSTILE, "fine"]
    coref = ["(0"] + ["-"] * (len(words) - 3) + ["0)", "(1)"]
    name = "doc</script><!--"
    key, resp, out = tmp_path / "key.conll", tmp_path / "resp.conll", tmp_path / "report.html"
    _conll(key, name, words, coref)
    _conll(resp, name, words, ["(0)"] + ["-"] * (len(words) - 2) + ["(1)"])
    write_report(out, key, [resp])
    page = out.read_text(encoding="utf-8")
    blocks = _embedded(page)
    assert blocks, "no embedded data"
    # a document's words are embedded as one string, separated by spaces
    strings = set(_strings(blocks)) | {w for b in blocks if "w" in b for w in b["w"].split(" ")}
    for w in HOSTILE:
        assert w in strings, f"{w!r} did not come back from the embedded JSON"
    assert any(name in s for s in strings)
    # The page's own scripts only: every "<script" of the page is one the report wrote.
    assert page.count("<script") == page.count("</script>") == len(blocks) + page.count("<script>")


@pytest.mark.parametrize("text", [*HOSTILE, "\ud800", "a\udfffb", "\U0001f600 ok"])
def test_json_for_script_round_trips_and_hides_markup(text):
    embedded = _json_for_script({"k": text, text: [text]})
    assert "<" not in embedded and ">" not in embedded and "\u2028" not in embedded
    assert json.loads(embedded) == {"k": text, text: [text]}
    embedded.encode("utf-8")  # lone surrogates are escapes, not characters


def test_html_text_never_holds_a_lone_surrogate():
    assert _esc("a\ud800<b") == "a\ufffd&lt;b"
    _esc("x\udfff").encode("utf-8")


def test_long_strings_and_lists_written_in_pieces_are_the_same(monkeypatch):
    """A huge document's text and integer lists are written a piece at a time (so that Ctrl-C is handled between
    two pieces); the pieces join up to exactly what one call writes, escapes cut nowhere."""
    import numpy as np
    from corefscore import report_html

    text = "".join(HOSTILE) * 40 + "\ud800\udfffé\"\\"
    values = np.arange(-50, 1000, 7)
    whole, ints = _json_for_script(text), report_html._int_list(values)
    monkeypatch.setattr(report_html, "_CHUNK", 7)
    assert report_html._json_for_script(text) == whole
    assert report_html._int_list(values) == ints == json.dumps(values.tolist(), separators=(",", ":"))
    assert json.loads(whole.replace("\\ud800", "").replace("\\udfff", "")) == text.replace("\ud800", "").replace(
        "\udfff", "")
