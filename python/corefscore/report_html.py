"""One self-contained HTML report: scores, per-document scores, errors, a document viewer.

:func:`render_report` turns plain data (dicts, lists, numbers and strings; it
imports nothing from corefscore) into ONE HTML file with inline CSS and
JavaScript: no network, no CDN, no server. It works opened from ``file://``
and inside a notebook output cell (``render_report(data, full_page=False)``
gives a fragment whose ids are unique to it, so several reports can share a
page).

The page stays small whatever the input: the scores, the per-document table
and the chart are one JSON block; each document's words, mentions and errors
are a second, compact block of its own (the words as one string separated by
spaces, the mentions as delta-coded integers, the error categories as
indices), parsed only when the document is opened. Documents are embedded in
order while the page stays under :data:`PAGE_LIMIT` (24,000,000 bytes): a
document that does not fit whole keeps its first words (as many as fit, with
the mentions and errors inside them), and later documents keep their rows in
the tables but not their text; the viewer says so. A document is drawn 2,000
words at a time, with buttons for the previous and next window and the next
error, so drawing costs the same for a page of text and for a book.

The report has four parts:

- the CoNLL F1 of each system in one line, then the score table: recall,
  precision and F1 per metric and system (the CoNLL F1 first), with the
  bootstrap interval of each when given; with two systems and a
  ``comparison``, B - A, its interval and its p-value per metric;
- the per-document table, sortable by any column (click a header), with two
  systems a B - A column of the first metric (the CoNLL F1); clicking a row
  opens the document;
- the errors by category as an inline SVG bar chart, one bar per category
  and system (two systems side by side);
- the document viewer: the words with the key's entities on the left and a
  system's entities on the right, one colour per entity (a response entity
  takes the colour of the key entity it shares most mentions with; grey for
  one-mention entities), mentions involved in an error underlined in their
  category's colour, and the document's errors listed below. Clicking a
  mention highlights its entity on both sides: its mentions on the same side
  and, on the other side, the same mentions (strong) and the other mentions
  of the entities that hold them (light).

The ``data`` schema
-------------------
Every key is optional except ``systems`` and ``documents`` (which may be an
empty list). Spans are ``[start, end]`` token indices with an inclusive end,
tokens counted from 0 across the whole document (sentence breaks are not
tokens), as in the CoNLL readers and the Python span convention::

    {
      "title": "LitBank: coref-A vs coref-B",     # page heading
      "subtitle": "key: litbank/*.conll",          # one line under it
      "systems": ["coref-A", "coref-B"],           # 1 or 2 names, the order of every table
      "metrics": ["muc", "bcub", "ceafe", ...],    # rows of the score table, columns of
                                                   # the per-document table (default: the
                                                   # keys of scores[systems[0]] in order)
      "confidence": 0.95,                          # the intervals' level, for the caption
      "scores": {                                  # corpus scores, fractions in [0, 1]
        "coref-A": {
          "muc": {"recall": 0.71, "precision": 0.80, "f1": 0.75,
                  "recall_ci": [0.69, 0.73],       # optional bootstrap intervals
                  "precision_ci": [0.78, 0.82],
                  "f1_ci": [0.73, 0.77]},
          ...},
        ...},
      # scores[system]["conll"] = {"f1": ..., "f1_ci": [...]}: the CoNLL F1, the table's first row
      "comparison": {                              # two systems: B - A as `corefscore compare` gives it
        "method": "permutation", "quantity": "f1", "n": 1000, "seed": 0, "confidence": 0.95,
        "metrics": {"conll": {"difference": 0.012, "low": -0.003, "high": 0.027, "p_value": 0.11}, ...}},
      "categories": ["span_error", ...],           # chart order; default the seven
                                                   # Kummerfeld-Klein categories
      "error_counts": {                            # corpus totals per category and system
        "coref-A": {"span_error": 12, "missing_entity": 40, ...}, ...},
      "link_counts": {                             # Martschat-Strube link errors by
        "coref-A": {"recall_errors": 410,          # (anaphor type, antecedent type): the
                    "precision_errors": 380,       # engine's "ms" columns without "ms."
                    "recall.pronoun_name": 91, ...}, ...},
      "documents": [
        {"name": "1023_bleak_house",
         "sentences": [["It", "was", ...], ...],   # words per sentence
         "key": [[[0, 1], [7, 7]], ...],           # entities, each a list of mention spans
         "responses": {"coref-A": [[[0, 1]], ...], ...},
         "scores": {"coref-A": {"muc": 0.71, ..., "conll": 0.68}, ...},   # per-document F1 per metric
         "errors": {"coref-A": [
             {"category": "divided_entity",        # a category name
              "mentions": [[7, 7]],                # spans involved
              "key_entities": [0],                 # indices into "key"
              "response_entities": [3]},           # indices into responses[system]
             ...], ...}},
        ...]
    }

A document's words and mentions may also be given as columns, the form
:func:`corefscore.report.report_data` gives (no Python object per word or
mention; :func:`nested_document` turns it into the form above)::

    {"name": "1023_bleak_house",
     "words_utf8": b"It was ...",             # the words' UTF-8 bytes back to back
     "word_offsets": [0, 2, 5, ...],          # word w is bytes o[w] .. o[w + 1] - 1 (n + 1 numbers)
     "sentence_ends": [12, 30, ...],          # each sentence's end (exclusive word index)
     "n_words": 48213,                        # optional: the document's words when only the first
                                              # ones are given (default: all are)
     "key_mentions": [[0, 1, 0], [7, 7, 0], ...],         # rows start, end, entity (arrays welcome)
     "response_mentions": {"coref-A": [[0, 1, 0], ...]},
     "scores": ..., "errors": ...}                        # as above

A system's errors in a document may also be given as columns, the form
:func:`corefscore.report.report_data` gives (one list or array per field instead of a
dict per error; much cheaper to build and to embed for thousands of
errors)::

    {"category": ["divided_entity", ...],   # one name per error
     "mentions": [7, 7, 12, 14, ...],       # the errors' spans, flat: start, end, start, end, ...
     "mention_offsets": [0, 2, 6, ...],     # error r's spans: mentions[o[r]:o[r + 1]]
     "key_entities": [0, ...], "key_offsets": [0, 1, ...],               # optional, likewise
     "response_entities": [3, ...], "response_offsets": [0, 1, ...]}     # (-1: absent from that side)

Only the categories and the spans are drawn (the entity fields are not
embedded in the page).

Category names are those of the engine: the seven of Kummerfeld & Klein
(``span_error``, ``conflated_entities``, ``extra_mention``, ``extra_entity``,
``divided_entity``, ``missing_mention``, ``missing_entity``) and the two of
Martschat & Strube (``recall_error``, ``precision_error``); others are shown
with a neutral colour. Numbers in the tables are percentages with two
decimals; each cell carries the input number in its ``data-value``
attribute.

Example
-------
>>> html = render_report({"systems": ["A"], "documents": []})
>>> html.startswith("<!DOCTYPE html>") and "http" not in html.split("<body")[1]
True
"""

from __future__ import annotations

import html as _html
import json
import math
import re
import uuid
from typing import Any

__all__ = ["CATEGORY_COLOURS", "KK_CATEGORIES", "PAGE_LIMIT", "nested_document", "render_report"]

#: The seven categories of Kummerfeld & Klein (2013), in the engine's order.
KK_CATEGORIES = (
    "span_error",
    "conflated_entities",
    "extra_mention",
    "extra_entity",
    "divided_entity",
    "missing_mention",
    "missing_entity",
)

#: One colour per error category (chart bars share the system colours; these
#: mark mentions in the viewer and the legend).
CATEGORY_COLOURS = {
    "span_error": "#8e44ad",
    "conflated_entities": "#c0392b",
    "extra_mention": "#e67e22",
    "extra_entity": "#d35400",
    "divided_entity": "#2471a3",
    "missing_mention": "#17a589",
    "missing_entity": "#117864",
    "recall_error": "#2e86c1",
    "precision_error": "#cb4335",
}

_SYSTEM_COLOURS = ("#3b6fb6", "#e08a2c")


def _pct(x: Any) -> str:
    """A fraction as a percentage with two decimals ("n/a" for None: nothing to count; "" when not finite)."""
    if x is None:
        return "n/a"
    try:
        v = float(x)
    except (TypeError, ValueError):
        return ""
    if not math.isfinite(v):
        return "–"
    return f"{100 * v:.2f}"


def _esc(s: Any) -> str:
    """Text for HTML, lone surrogates (a str from bytes decoded with surrogateescape) shown as U+FFFD."""
    return _html.escape(_LONE_SURROGATE.sub("\ufffd", str(s)), quote=True)


def _validate(data: Any) -> None:
    if not isinstance(data, dict):
        raise TypeError(f"`data` must be a dict; got {type(data).__name__} instead.")
    systems = data.get("systems")
    if not isinstance(systems, list) or not 1 <= len(systems) <= 2 or not all(isinstance(s, str) for s in systems):
        raise ValueError(f"`data['systems']` must be a list of 1 or 2 names; got {systems!r} instead.")
    if len(set(systems)) != len(systems):
        raise ValueError(f"`data['systems']` must be distinct names; got {systems!r} instead.")
    docs = data.get("documents", [])
    if not isinstance(docs, list):
        raise ValueError(f"`data['documents']` must be a list; got {type(docs).__name__} instead.")
    for i, d in enumerate(docs):
        if not isinstance(d, dict) or "name" not in d:
            raise ValueError(f"`data['documents'][{i}]` must be a dict with a 'name'; got {d!r:.80} instead.")


def _metrics_of(data: dict) -> list[str]:
    if data.get("metrics"):
        return list(data["metrics"])
    scores = data.get("scores") or {}
    first = scores.get(data["systems"][0]) or {}
    if first:
        return list(first)
    for d in data.get("documents", []):
        s = (d.get("scores") or {}).get(data["systems"][0])
        if s:
            return list(s)
    return []


#: The name of the CoNLL score (the mean F1 of MUC, B-cubed and CEAF_e) in ``scores`` and ``comparison``.
CONLL = "conll"


def _ci_html(ci: Any) -> str:
    if ci is None or len(ci) != 2:
        return ""
    return f'<span class="cfs-ci" data-lo="{_esc(ci[0])}" data-hi="{_esc(ci[1])}">[{_pct(ci[0])}, {_pct(ci[1])}]</span>'


def _signed_pct(x: Any) -> str:
    text = _pct(x)
    return text if not text or text.startswith("-") else "+" + text


def _lead(data: dict) -> str:
    """The CoNLL F1 of each system (and B - A with its p-value) in one line above the tables."""
    scores = data.get("scores") or {}
    parts = []
    for s in data["systems"]:
        conll = (scores.get(s) or {}).get(CONLL)
        if conll and conll.get("f1") is not None:
            ci = conll.get("f1_ci")
            interval = f" [{_pct(ci[0])}, {_pct(ci[1])}]" if ci is not None and len(ci) == 2 else ""
            parts.append(f'<span class="cfs-lead-sys" data-system="{_esc(s)}" data-value="{_esc(conll["f1"])}">'
                         f'{_esc(s)}: <b>{_pct(conll["f1"])}</b>{interval}</span>')
    if not parts:
        return ""
    diff = ((data.get("comparison") or {}).get("metrics") or {}).get(CONLL)
    if diff is not None and len(data["systems"]) == 2:
        parts.append(f'<span class="cfs-lead-diff" data-value="{_esc(diff["difference"])}">B - A: '
                     f'<b>{_signed_pct(diff["difference"])}</b> [{_signed_pct(diff["low"])}, '
                     f'{_signed_pct(diff["high"])}], p = {diff["p_value"]:.4f}</span>')
    return f'<p class="cfs-lead">CoNLL F1 (%) · {" · ".join(parts)}</p>'


def _score_table(data: dict, metrics: list[str]) -> str:
    systems = data["systems"]
    scores = data.get("scores") or {}
    if not scores:
        return '<p class="cfs-muted">No corpus scores were given.</p>'
    comparison = data.get("comparison") if len(systems) == 2 else None
    compared = (comparison or {}).get("metrics") or {}
    head1 = "".join(f'<th colspan="3" class="cfs-sys" style="--sys:{_SYSTEM_COLOURS[i]}">{_esc(s)}</th>' for i, s in enumerate(systems))
    head2 = "".join('<th class="num">Recall</th><th class="num">Precision</th><th class="num">F1</th>' for _ in systems)
    if comparison:
        level = comparison.get("confidence")
        ci_label = f"{100 * float(level):g}% CI" if level is not None else "CI"
        head1 += f'<th colspan="3" class="cfs-diff-head">B - A ({_esc(comparison.get("quantity", "f1"))})</th>'
        head2 += f'<th class="num">B - A</th><th class="num">{_esc(ci_label)}</th><th class="num">p-value</th>'
    has_conll = any(CONLL in (scores.get(s) or {}) for s in systems)
    rows = []
    for m in ([CONLL] if has_conll else []) + [m for m in metrics if m != CONLL]:
        cells = []
        for s in systems:
            sc = (scores.get(s) or {}).get(m) or {}
            for part in ("recall", "precision", "f1"):
                v = sc.get(part)
                value_attr = f' data-value="{_esc(v)}"' if v is not None else ""
                cls = "num f1" if part == "f1" else "num"
                cells.append(f'<td class="{cls}" data-system="{_esc(s)}" data-metric="{_esc(m)}" data-part="{part}"{value_attr}>'
                             f'<span class="cfs-v">{_pct(v)}</span>{_ci_html(sc.get(part + "_ci"))}</td>')
        if comparison:
            c = compared.get(m)
            if c is None:
                cells.append('<td class="num"></td>' * 3)
            else:
                cells.append(f'<td class="num cfs-diff" data-metric="{_esc(m)}" data-part="difference" data-value="{_esc(c["difference"])}">{_signed_pct(c["difference"])}</td>'
                             f'<td class="num cfs-diff-ci" data-metric="{_esc(m)}" data-part="interval" data-lo="{_esc(c["low"])}" data-hi="{_esc(c["high"])}">[{_signed_pct(c["low"])}, {_signed_pct(c["high"])}]</td>'
                             f'<td class="num cfs-p" data-metric="{_esc(m)}" data-part="p_value" data-value="{_esc(c["p_value"])}">{c["p_value"]:.4f}</td>')
        label = "CoNLL F1" if m == CONLL else m
        rows.append(f'<tr class="{"cfs-conll" if m == CONLL else ""}" data-metric="{_esc(m)}"><th scope="row">{_esc(label)}</th>{"".join(cells)}</tr>')
    level = data.get("confidence")
    caption = "Corpus scores (%)"
    if level is not None:
        caption += f"; brackets: {100 * float(level):g}% bootstrap interval"
    if has_conll:
        caption += "; CoNLL F1: the mean F1 of muc, bcub and ceafe"
    if comparison:
        how = "approximate randomisation" if comparison.get("method") == "permutation" else "paired bootstrap"
        caption += (f"; B - A: paired bootstrap interval, two-sided p-value by {how}, {comparison.get('n')} rounds, "
                    f"seed {comparison.get('seed')} (as corefscore compare)")
    return (f'<table class="cfs-table cfs-scores"><caption>{_esc(caption)}</caption>'
            f'<thead><tr><th rowspan="2">Metric</th>{head1}</tr><tr>{head2}</tr></thead>'
            f'<tbody>{"".join(rows)}</tbody></table>')


def _error_chart(data: dict) -> str:
    """Grouped bar chart as inline SVG: one group per category, one bar per system."""
    systems = data["systems"]
    counts = data.get("error_counts") or {}
    cats = list(data.get("categories") or KK_CATEGORIES)
    if not counts:
        return '<p class="cfs-muted">No error counts were given.</p>'
    vmax = max([float((counts.get(s) or {}).get(c, 0) or 0) for s in systems for c in cats] + [1.0])
    # A round axis maximum: 1, 2 or 5 times a power of ten.
    p = 10 ** math.floor(math.log10(vmax))
    top = next(k * p for k in (1, 2, 5, 10) if k * p >= vmax)
    row_h, bar_h, gap = 34, 11 if len(systems) == 2 else 16, 2
    label_w, plot_w, right = 150, 420, 60
    height = 28 + row_h * len(cats) + 24
    width = label_w + plot_w + right
    out = [f'<svg class="cfs-chart" role="img" aria-label="Errors by category" viewBox="0 0 {width} {height}" '
           f'width="{width}" height="{height}">']
    y0 = 28
    for k in range(6):  # grid and axis labels
        x = label_w + plot_w * k / 5
        out.append(f'<line x1="{x:.1f}" y1="{y0 - 6}" x2="{x:.1f}" y2="{y0 + row_h * len(cats)}" class="grid"/>')
        out.append(f'<text x="{x:.1f}" y="{y0 - 10}" class="axis" text-anchor="middle">{top * k / 5:g}</text>')
    for ci, c in enumerate(cats):
        y = y0 + ci * row_h
        out.append(f'<text x="{label_w - 10}" y="{y + row_h / 2 + 4:.1f}" class="cat" text-anchor="end">{_esc(c.replace("_", " "))}</text>')
        out.append(f'<rect x="{label_w - 6}" y="{y + row_h / 2 - 5:.1f}" width="3" height="10" fill="{CATEGORY_COLOURS.get(c, "#888")}"/>')
        total_h = bar_h * len(systems) + gap * (len(systems) - 1)
        for si, s in enumerate(systems):
            v = float((counts.get(s) or {}).get(c, 0) or 0)
            w = plot_w * v / top
            by = y + (row_h - total_h) / 2 + si * (bar_h + gap)
            out.append(f'<rect class="bar" data-category="{_esc(c)}" data-system="{_esc(s)}" data-value="{v:g}" '
                       f'x="{label_w}" y="{by:.1f}" width="{w:.1f}" height="{bar_h}" rx="2" fill="{_SYSTEM_COLOURS[si]}">'
                       f'<title>{_esc(s)}: {v:g} {_esc(c.replace("_", " "))}</title></rect>')
            out.append(f'<text x="{label_w + w + 5:.1f}" y="{by + bar_h - 2:.1f}" class="val">{v:g}</text>')
    out.append("</svg>")
    legend = "".join(f'<span class="cfs-key"><i style="background:{_SYSTEM_COLOURS[i]}"></i>{_esc(s)}</span>' for i, s in enumerate(systems))
    return f'<div class="cfs-legend">{legend}</div>{"".join(out)}'


_TYPES = ("name", "nominal", "pronoun")


def _link_table(data: dict) -> str:
    """Martschat-Strube link errors: a 3 x 3 table (anaphor x antecedent type) per direction and system."""
    links = data.get("link_counts") or {}
    if not links:
        return ""
    blocks = []
    for s in data["systems"]:
        lc = links.get(s) or {}
        for side in ("recall", "precision"):
            total = lc.get(side + "_errors")
            head = "".join(f'<th class="num">{t}</th>' for t in _TYPES)
            body = []
            for a in _TYPES:
                cells = []
                for b in _TYPES:
                    v = lc.get(f"{side}.{a}_{b}")
                    value = "" if v is None else f' data-value="{_esc(v)}"'
                    shown = "" if v is None else f"{float(v):g}"
                    cells.append(f'<td class="num" data-system="{_esc(s)}" data-link="{side}.{a}_{b}"{value}>{shown}</td>')
                body.append(f'<tr><th scope="row">{a}</th>{"".join(cells)}</tr>')
            title = f'{_esc(s)}: {side} errors' + (f" ({float(total):g})" if total is not None else "")
            blocks.append(f'<table class="cfs-table cfs-links"><caption>{title}</caption>'
                          f'<thead><tr><th></th>{head}</tr></thead><tbody>{"".join(body)}</tbody></table>')
    return ('<h3 class="cfs-h3">Link errors by mention type</h3>'
            '<p class="cfs-hint">Martschat &amp; Strube (2014): edges of each entity\'s spanning tree cut by the other side; '
            'rows: the type of the later mention (anaphor); columns: the type of its antecedent.</p>'
            f'<div class="cfs-links-grid">{"".join(blocks)}</div>')


# What may not appear raw inside a <script> element, written as JSON's own \uXXXX escapes (valid JSON, so
# the page's JSON.parse reads the same strings): "<" (so no "</script>", "<!--" or "<script" can end or change
# the script), ">" and "&" for good measure, U+2028/2029 (line ends to some JavaScript parsers) and lone
# surrogates (not encodable as UTF-8).
_SCRIPT_UNSAFE = re.compile("[<>&\u2028\u2029\ud800-\udfff]")
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")


#: Characters of a long string, and integers of a long list, written by one call: a signal's handler (Ctrl-C)
#: runs between two such calls, so building the page of a huge document stays interruptible at once.
_CHUNK = 1 << 18


def _json_for_script(obj: Any) -> str:
    """JSON safe inside <script type="application/json">: no input string can end the element or change the page."""
    if isinstance(obj, str) and len(obj) > _CHUNK:  # escapes are per character: the pieces' JSON joins up
        return '"' + "".join([_json_for_script(obj[i:i + _CHUNK])[1:-1] for i in range(0, len(obj), _CHUNK)]) + '"'
    s = json.dumps(obj, ensure_ascii=False, separators=(",", ":"), allow_nan=False, default=_json_default)
    return _SCRIPT_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", s)


def _json_default(o: Any) -> Any:
    # NumPy scalars and arrays, without importing NumPy.
    if hasattr(o, "tolist"):
        return o.tolist()
    if hasattr(o, "item"):
        return o.item()
    raise TypeError(f"report data must be JSON-like; got {type(o).__name__}")


def _errors_payload(errors: Any, categories: list[str]) -> dict:
    """A system's errors in a document as the page embeds them: category indices, flat spans, offsets into them.

    ``errors`` is either form of the schema (a list of dicts, or columns);
    ``categories`` gets any category name it does not hold yet.
    """
    if isinstance(errors, dict):
        names, flat, offsets = errors.get("category", []), errors.get("mentions", []), errors.get("mention_offsets", [0])
    else:
        names, flat, offsets = [], [], [0]
        for r in errors:
            names.append(r.get("category"))
            for sp in r.get("mentions") or []:
                flat.extend((sp[0], sp[1]))
            offsets.append(len(flat))
    index = {c: i for i, c in enumerate(categories)}
    codes = []
    for c in names:
        if c not in index:
            index[c] = len(categories)
            categories.append(c)
        codes.append(index[c])
    return {"c": codes, "m": _ints(flat), "o": _ints(offsets)}


def _ints(x: Any) -> Any:
    import numpy as np

    return np.asarray(x, np.int64).reshape(-1)


#: The most a page may weigh (bytes); documents' text is embedded, in order, while it stays under this.
PAGE_LIMIT = 24_000_000
_PAGE_OVERHEAD = 200_000  # the markup, style and script around the data
_MIN_BODY = 64_000  # less room than this left: the document is not embedded at all


def _as_columns(doc: dict, systems: list[str]) -> dict:
    """A document's words and mentions in the columnar form, from either form of the schema.

    Columns: ``words_utf8`` (the words' UTF-8 bytes back to back) with
    ``word_offsets`` (word w is bytes o[w] .. o[w + 1] - 1), ``sentence_ends``
    (exclusive word ends), ``key_mentions`` and ``response_mentions[system]``
    (rows start, end, entity). The nested form (``sentences``, ``key``,
    ``responses``) is converted here; it is meant for small documents.
    """
    import numpy as np

    if "words_utf8" in doc:
        return doc
    words = [w for sent in doc.get("sentences") or [] for w in sent]
    encoded = [str(w).encode("utf-8", "surrogatepass") for w in words]
    lengths = np.fromiter((len(b) for b in encoded), np.int64, len(encoded))

    def rows(entities: Any) -> Any:
        out = [(s[0], s[1], i) for i, e in enumerate(entities or []) for s in e]
        return np.asarray(out, np.int64).reshape(-1, 3)

    return {"words_utf8": b"".join(encoded), "word_offsets": np.concatenate([[0], np.cumsum(lengths)]),
            "sentence_ends": np.cumsum([len(s) for s in doc.get("sentences") or []], dtype=np.int64),
            "key_mentions": rows(doc.get("key")),
            "response_mentions": {s: rows((doc.get("responses") or {}).get(s)) for s in systems}}


def nested_document(doc: dict) -> dict:
    """A document of the columnar form (what :func:`corefscore.report.report_data` gives) in the nested form.

    ``sentences`` (words per sentence), ``key`` and ``responses[system]``
    (entities as lists of ``(start, end)`` spans, numbered as in the file);
    for tests and for looking at a small document, not for large ones.
    """
    cols = doc
    raw, offsets = bytes(cols["words_utf8"]), [int(o) for o in cols["word_offsets"]]
    words = [raw[offsets[w]:offsets[w + 1]].decode("utf-8", "replace") for w in range(len(offsets) - 1)]
    sentences, start = [], 0
    for end in [int(e) for e in cols["sentence_ends"]] + [len(words)]:
        if end > start:
            sentences.append(words[start:end])
        start = max(start, end)

    def entities(rows: Any) -> list[list[tuple[int, int]]]:
        out: list[list[tuple[int, int]]] = []
        for s, e, k in (tuple(int(v) for v in r) for r in rows):
            out.extend([] for _ in range(k + 1 - len(out)))
            out[k].append((s, e))
        return [sorted(e) for e in out]

    rest = {k: v for k, v in doc.items() if k not in ("words_utf8", "word_offsets", "sentence_ends",
                                                          "key_mentions", "response_mentions")}
    return {**rest, "sentences": sentences, "key": entities(cols["key_mentions"]),
            "responses": {s: entities(m) for s, m in cols["response_mentions"].items()}}


def _document_body(cols: dict, errors: dict, systems: list[str], budget: int) -> str | None:
    """A document's text, mentions and errors as the JSON of its own script element, at most ``budget`` bytes.

    The whole document when it fits; else its first words, as many as fit
    (with the mentions and errors inside them); None when not even
    ``_MIN_BODY`` bytes are left. Fields: ``n`` (words in the document),
    ``shown`` (words embedded), ``w`` (the words joined by spaces; a space
    inside a word becomes U+00A0), ``s`` (sentence ends), ``k`` and
    ``r[system]`` (mentions sorted by start, flat: start minus the previous
    start, end minus start, entity), ``e[system]`` (errors: ``c`` category
    indices, ``m`` flat spans, ``o`` offsets into ``m``).
    """
    import numpy as np

    if budget < _MIN_BODY:
        return None
    offsets = np.asarray(cols["word_offsets"], np.int64)
    n = len(offsets) - 1  # the words given; the document may have more (n_words), which are never shown
    sides = [np.asarray(cols["key_mentions"], np.int64).reshape(-1, 3)] + [
        np.asarray((cols.get("response_mentions") or {}).get(s, ()), np.int64).reshape(-1, 3) for s in systems]
    # An estimate of the JSON bytes of the first t words: their bytes, a separator each, about 14 bytes a
    # mention and 20 an error's span (its end's word counts).
    # Only the words whose bytes alone fit are weighed: a huge document's tail costs no memory here.
    most = min(n, int(np.searchsorted(offsets, budget, side="right")))

    def ending_before(ends: Any) -> Any:  # [t]: how many of ``ends`` are < t, for t = 0 .. most
        return np.concatenate([[0], np.cumsum(np.bincount(np.clip(ends, 0, most), minlength=most + 1)[:most])])

    last_word = np.concatenate([m[:, 1] for m in sides])
    error_ends = np.concatenate([np.asarray(e["m"], np.int64)[1::2] for e in errors.values()] + [[]]).astype(np.int64)
    cost = offsets[:most + 1] + np.arange(most + 1) + 14 * ending_before(last_word) + 20 * ending_before(error_ends)
    shown = int(np.searchsorted(cost, budget - 1000, side="right")) - 1
    best = None
    for _ in range(4):  # the estimate corrected by the size it gave: escapes make it low, few mentions high
        shown = max(0, min(shown, n))
        body = _body_json(cols, offsets, sides, errors, systems, max(n, int(cols.get("n_words", n))), shown)
        size = len(body.encode("utf-8"))
        if size <= budget:
            best = body
            more = min(n, int(shown * budget / max(size, 1) * 0.97))
            if shown == n or size > 0.9 * budget or more <= shown:
                break
            shown = more
        elif best is not None:  # the larger try did not fit: keep the one that did
            break
        else:
            shown = int(shown * budget / size * 0.9)
    return best


def _body_json(cols: dict, offsets: Any, sides: list, errors: dict, systems: list[str], n: int, shown: int) -> str:
    import numpy as np

    raw = np.frombuffer(cols["words_utf8"], np.uint8, count=int(offsets[shown]))
    if (raw == 32).any():  # a word with a space: the space is shown as U+00A0, so that spaces separate words
        buf = bytes(raw)
        text = " ".join(buf[offsets[w]:offsets[w + 1]].decode("utf-8", "replace").replace(" ", "\u00a0")
                        for w in range(shown))
    else:  # the words laid out with a space after each but the last (a space ends any invalid UTF-8 before it)
        text = np.insert(raw, offsets[1:shown], 32).tobytes().decode("utf-8", "replace")
    ends = np.asarray(cols["sentence_ends"], np.int64)
    ends = ends[ends < shown]
    if shown and (not len(ends) or ends[-1] < shown):
        ends = np.append(ends, shown)

    def mentions(m: Any) -> str:
        m = m[m[:, 1] < shown]
        m = m[np.lexsort((m[:, 2], -m[:, 1], m[:, 0]))]
        return _int_list(np.stack([np.diff(m[:, 0], prepend=0), m[:, 1] - m[:, 0], m[:, 2]], axis=1))

    def errors_of(e: dict) -> str:
        kept = _errors_within(e, shown)
        return f'{{"c":{_int_list(kept["c"])},"m":{_int_list(kept["m"])},"o":{_int_list(kept["o"])}}}'

    # Written by hand: only the strings need JSON's escapes (and the script's), the long integer lists do not.
    return (f'{{"n":{n},"shown":{shown},"w":{_json_for_script(text)},"s":{_int_list(ends)},'
            f'"k":{mentions(sides[0])},'
            f'"r":{{{",".join(f"{_json_for_script(s)}:{mentions(m)}" for s, m in zip(systems, sides[1:]))}}},'
            f'"e":{{{",".join(f"{_json_for_script(s)}:{errors_of(e)}" for s, e in errors.items())}}}}}')


def _int_list(values: Any) -> str:
    """Integers as a JSON list."""
    import numpy as np

    v = np.asarray(values, np.int64).ravel()
    return "[" + ",".join([",".join(map(str, v[i:i + _CHUNK].tolist())) for i in range(0, len(v), _CHUNK)]) + "]"


def _errors_within(e: dict, shown: int) -> dict:
    """The errors whose spans all lie in the first ``shown`` words."""
    import numpy as np

    codes, flat, offsets = np.asarray(e["c"], np.int64), e["m"], e["o"]
    if not len(codes):
        return {"c": codes, "m": flat, "o": [0]}
    outside = np.concatenate([[0], np.cumsum(flat[1::2] >= shown)])  # spans beyond, before each span
    keep = outside[offsets[1:] // 2] == outside[offsets[:-1] // 2]
    spans = np.repeat(keep, np.diff(offsets) // 2)
    m = flat.reshape(-1, 2)[spans].ravel()
    kept = np.diff(offsets)[keep]
    return {"c": codes[keep], "m": m, "o": np.concatenate([[0], np.cumsum(kept)])}


def _clean(x: Any) -> Any:
    """Non-finite floats to None, recursively (JSON has no NaN)."""
    if isinstance(x, float):
        return x if math.isfinite(x) else None
    if isinstance(x, dict):
        return {k: _clean(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_clean(v) for v in x]
    if hasattr(x, "tolist"):
        return _clean(x.tolist())
    return x


_CSS = r"""
.cfs-report{--ink:#1f2430;--muted:#6b7280;--line:#e3e6eb;--bg:#fff;--soft:#f6f7f9;--accent:#3b6fb6;
 font:14px/1.45 -apple-system,BlinkMacSystemFont,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;color:var(--ink);background:var(--bg);
 max-width:1280px;margin:0 auto;padding:20px 24px 40px}
.cfs-report *{box-sizing:border-box}
.cfs-report h1{font-size:22px;margin:0 0 2px;font-weight:650;letter-spacing:-.01em}
.cfs-report h2{font-size:16px;margin:28px 0 10px;font-weight:650;border-bottom:1px solid var(--line);padding-bottom:6px}
.cfs-report .cfs-sub{color:var(--muted);margin:0 0 8px}
.cfs-report .cfs-lead{font-size:16px;margin:4px 0 10px}
.cfs-report .cfs-lead>span{margin-right:14px;white-space:nowrap}
.cfs-report .cfs-table tr.cfs-conll th,.cfs-report .cfs-table tr.cfs-conll td{font-weight:600;border-bottom:2px solid var(--line,#d8dce2)}
.cfs-report .cfs-table th.cfs-diff-head{text-align:center;border-bottom:3px solid #888}
.cfs-report .cfs-muted{color:var(--muted)}
.cfs-report .cfs-grid{display:grid;grid-template-columns:minmax(0,1.25fr) minmax(0,1fr);gap:28px;align-items:start}
@media (max-width:1000px){.cfs-report .cfs-grid{grid-template-columns:1fr}}
.cfs-report .cfs-grid.cfs-two{grid-template-columns:minmax(0,1fr)}
.cfs-report .cfs-scores-wrap{overflow-x:auto}
.cfs-report table.cfs-table{border-collapse:collapse;width:100%;font-variant-numeric:tabular-nums}
.cfs-report .cfs-table caption{caption-side:bottom;text-align:left;color:var(--muted);font-size:12px;padding-top:6px}
.cfs-report .cfs-table th,.cfs-report .cfs-table td{padding:5px 8px;border-bottom:1px solid var(--line);text-align:left;white-space:nowrap}
.cfs-report .cfs-table thead th{font-weight:600;color:#374151;background:var(--soft);font-size:12.5px}
.cfs-report .cfs-table .num{text-align:right}
.cfs-report .cfs-table td.f1 .cfs-v{font-weight:650}
.cfs-report .cfs-table th.cfs-sys{text-align:center;border-bottom:3px solid var(--sys)}
.cfs-report .cfs-ci{display:block;color:var(--muted);font-size:11px;line-height:1.1}
.cfs-report .cfs-docs-wrap{max-height:360px;overflow:auto;border:1px solid var(--line);border-radius:6px}
.cfs-report .cfs-docs thead th{position:sticky;top:0;cursor:pointer;user-select:none;z-index:1}
.cfs-report .cfs-docs thead th:hover{color:var(--accent)}
.cfs-report .cfs-docs thead th[aria-sort=ascending]::after{content:" ▲";font-size:10px}
.cfs-report .cfs-docs thead th[aria-sort=descending]::after{content:" ▼";font-size:10px}
.cfs-report .cfs-docs tbody tr{cursor:pointer}
.cfs-report .cfs-docs tbody tr:hover{background:#eef3fb}
.cfs-report .cfs-docs tbody tr.sel{background:#dfe9f7}
.cfs-report .cfs-docs td.name{max-width:320px;overflow:hidden;text-overflow:ellipsis}
.cfs-report .cfs-chart{max-width:100%;height:auto;display:block}
.cfs-report .cfs-chart text{font-size:12px;fill:#374151}
.cfs-report .cfs-chart .axis{fill:var(--muted);font-size:11px}
.cfs-report .cfs-chart .val{fill:#4b5563;font-size:11px}
.cfs-report .cfs-chart .grid{stroke:#eceef2}
.cfs-report .cfs-legend{display:flex;gap:16px;flex-wrap:wrap;margin:0 0 6px;font-size:12.5px}
.cfs-report .cfs-key{display:inline-flex;align-items:center;gap:6px}
.cfs-report .cfs-key i{display:inline-block;width:12px;height:12px;border-radius:3px}
.cfs-report .cfs-key i.u{height:0;border-bottom:3px solid;border-radius:0;width:16px}
.cfs-report .cfs-toolbar{display:flex;gap:14px;align-items:center;flex-wrap:wrap;margin-bottom:10px}
.cfs-report select{font:inherit;padding:4px 6px;border:1px solid #cfd4dc;border-radius:5px;background:#fff;max-width:420px}
.cfs-report .cfs-window{gap:10px;align-items:center;margin:0 0 8px;font-size:13px}
.cfs-report .cfs-window:not([style*="none"]){display:flex}
.cfs-report .cfs-window button{font:inherit;padding:3px 10px;border:1px solid #cfd4dc;border-radius:5px;background:#fff;cursor:pointer}
.cfs-report .cfs-window button:disabled{color:#b0b6bf;cursor:default}
.cfs-report .cfs-panes{display:grid;grid-template-columns:1fr 1fr;gap:14px}
.cfs-report .cfs-pane{border:1px solid var(--line);border-radius:6px;overflow:hidden;background:#fff}
.cfs-report .cfs-pane h3{margin:0;font-size:13px;font-weight:650;padding:7px 12px;background:var(--soft);border-bottom:1px solid var(--line)}
.cfs-report .cfs-pane h3 small{font-weight:400;color:var(--muted);margin-left:6px}
.cfs-report .cfs-text{max-height:62vh;min-height:120px;overflow:auto;padding:10px 14px;line-height:2.05;font-size:14.5px;font-family:Georgia,"Times New Roman",serif}
.cfs-report .cfs-text p{margin:0 0 6px;padding-left:30px;position:relative}
.cfs-report .cfs-text p .sn{position:absolute;left:0;top:0;width:24px;text-align:right;color:#b0b6bf;font:11px/2.7 -apple-system,Segoe UI,sans-serif;user-select:none}
.cfs-report .m{--c:#ddd;--cb:#999;background:color-mix(in srgb,var(--c) 55%,transparent);border:1px solid var(--cb);border-radius:4px;padding:1px 2px;
 margin:0 1px;cursor:pointer;-webkit-box-decoration-break:clone;box-decoration-break:clone;transition:background .1s}
.cfs-report .m .m{margin:0}
.cfs-report .m>sub{font:600 9px/1 -apple-system,Segoe UI,sans-serif;color:var(--cb);margin-left:1px;vertical-align:-2px}
.cfs-report .m.single{--c:#eceef1;--cb:#c2c7cf}
.cfs-report .m.err{text-decoration:underline;text-decoration-color:var(--ec);text-decoration-thickness:2.5px;text-underline-offset:4px}
.cfs-report .m.err>sub::after{content:"●";color:var(--ec);margin-left:1px}
.cfs-report .m.hl{background:var(--c);outline:2.5px solid #111827;outline-offset:0}
.cfs-report .m.hl2{outline:2px dashed #374151;outline-offset:0}
.cfs-report .cfs-dim .m:not(.hl):not(.hl2){opacity:.45}
.cfs-report .cfs-errs{margin-top:12px;max-height:220px;overflow:auto;border:1px solid var(--line);border-radius:6px;padding:6px 10px;font-size:13px}
.cfs-report .cfs-errs li{list-style:none;padding:2px 0;cursor:pointer}
.cfs-report .cfs-errs li:hover{color:var(--accent)}
.cfs-report .cfs-errs ul{margin:0;padding:0}
.cfs-report .cfs-errs b{display:inline-block;min-width:150px;font-weight:600}
.cfs-report .cfs-hint{color:var(--muted);font-size:12px}
.cfs-report .cfs-h3{font-size:13.5px;margin:18px 0 2px;font-weight:650}
.cfs-report .cfs-links-grid{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:10px 18px}
.cfs-report table.cfs-links caption{caption-side:top;color:#374151;font-weight:600;font-size:12.5px;padding:0 0 3px}
.cfs-report table.cfs-links th,.cfs-report table.cfs-links td{padding:3px 7px;font-size:12.5px}
"""

_JS = r"""
(function(){
"use strict";
var ROOT=document.getElementById("__ROOT__");
var DATA=JSON.parse(document.getElementById("__ROOT__-data").textContent);
var CAT_COLOURS=__CATCOLOURS__, CATS=DATA.categories||[];
var systems=DATA.systems, docs=DATA.documents||[], metrics=DATA.metrics||[];
function $(sel){return ROOT.querySelector(sel);}
function el(tag,cls,text){var e=document.createElement(tag);if(cls)e.className=cls;if(text!=null)e.textContent=text;return e;}
function pct(x){return x==null?"n/a":!isFinite(x)?"":(100*x).toFixed(2);}

// ---- per-document table
var docTable=$(".cfs-docs"), docBody=docTable.querySelector("tbody");
var cols=[{key:"name",label:"Document",num:false}];
// The CoNLL F1 first when the documents have it; with two systems, B - A of it (else of the first metric).
var hasConll=docs.some(function(d){var s=(d.scores||{})[systems[0]];return s&&s.conll!=null;});
var docMetrics=(hasConll?["conll"]:[]).concat(metrics.filter(function(m){return m!=="conll";}));
function metricLabel(m){return m==="conll"?"CoNLL F1":m;}
if(systems.length===2&&docMetrics.length){var dm=docMetrics[0];
  cols.push({key:"d:"+dm,label:metricLabel(dm)+" (B - A)",num:true,diff:true,metric:dm});}
systems.forEach(function(s){docMetrics.forEach(function(m){cols.push({key:"s:"+s+":"+m,label:metricLabel(m)+(systems.length>1?" ("+s+")":""),num:true,sys:s,metric:m});});});
systems.forEach(function(s){cols.push({key:"e:"+s,label:"errors"+(systems.length>1?" ("+s+")":""),num:true,sys:s,errors:true});});
function cellValue(d,c){
  if(c.key==="name")return d.name;
  if(c.errors){var e=(d.ne||{})[c.sys];return e==null?null:e;}
  if(c.diff){var sa=(d.scores||{})[systems[0]],sb=(d.scores||{})[systems[1]];
    return sa&&sb&&sa[c.metric]!=null&&sb[c.metric]!=null?sb[c.metric]-sa[c.metric]:null;}
  var s=(d.scores||{})[c.sys];return s&&s[c.metric]!=null?s[c.metric]:null;
}
var KK=["span_error","conflated_entities","extra_mention","extra_entity","divided_entity","missing_mention","missing_entity"];
function isKK(c){return KK.indexOf(c)>=0;}
var headRow=el("tr");
cols.forEach(function(c,i){var th=el("th",c.num?"num":"",c.label);th.dataset.col=i;th.title="Sort by "+c.label;headRow.appendChild(th);});
docTable.querySelector("thead").appendChild(headRow);
var rows=docs.map(function(d,i){
  var tr=el("tr");tr.dataset.doc=i;
  cols.forEach(function(c){var v=cellValue(d,c);var td=el("td",c.num?"num":"name");
    if(c.num){td.textContent=c.errors?(v==null?"":String(v)):(c.diff&&v!=null&&v>=0?"+":"")+pct(v);if(v!=null)td.dataset.value=v;if(c.diff)td.className="num cfs-doc-diff";}else{td.textContent=v;td.title=v;}
    tr.appendChild(td);});
  tr.addEventListener("click",function(){showDoc(i,true);});
  return tr;});
rows.forEach(function(r){docBody.appendChild(r);});
var sortState={col:-1,dir:1};
headRow.addEventListener("click",function(ev){
  var th=ev.target.closest("th");if(!th)return;var ci=+th.dataset.col,c=cols[ci];
  sortState.dir=(sortState.col===ci)?-sortState.dir:(c.num?-1:1);sortState.col=ci;
  Array.prototype.forEach.call(headRow.children,function(h){h.removeAttribute("aria-sort");});
  th.setAttribute("aria-sort",sortState.dir>0?"ascending":"descending");
  var order=docs.map(function(d,i){return i;});
  order.sort(function(a,b){var x=cellValue(docs[a],c),y=cellValue(docs[b],c);
    if(x==null&&y==null)return a-b;if(x==null)return 1;if(y==null)return -1;
    var r=c.num?(x-y):String(x).localeCompare(String(y));return r!==0?r*sortState.dir:a-b;});
  order.forEach(function(i){docBody.appendChild(rows[i]);});
});

// ---- document viewer
// Each document's text and mentions sit in their own JSON script element, parsed when the document is first
// opened: words as one string (split on spaces), sentence ends, and per side the mentions as flat integers
// (start minus the previous start, end minus start, entity), sorted by start. A document is drawn WINDOW words
// at a time, so drawing costs the same for a page of text and for a book.
var WINDOW=2000;
var docSel=$(".cfs-doc-select"), sysSel=$(".cfs-sys-select");
docs.forEach(function(d,i){var o=el("option",null,d.name);o.value=i;docSel.appendChild(o);});
systems.forEach(function(s){var o=el("option",null,s);o.value=s;sysSel.appendChild(o);});
if(systems.length<2)sysSel.parentNode.style.display="none";
docSel.addEventListener("change",function(){showDoc(+docSel.value,false);});
sysSel.addEventListener("change",function(){showDoc(+docSel.value,false);});
var keyPane=$(".cfs-key-text"), respPane=$(".cfs-resp-text"), errBox=$(".cfs-errs");
var winBar=$(".cfs-window"), winLabel=$(".cfs-win-label"), docNote=$(".cfs-doc-note");
var current=null, bodies={};

function golden(i){return (i*137.508+200)%360;}
function spanId(s,e){return s*67108864+e;}

function decodeMentions(flat){
  var n=flat.length/3,S=new Int32Array(n),E=new Int32Array(n),N=new Int32Array(n),pos=0,maxEnt=-1;
  for(var i=0;i<n;i++){pos+=flat[3*i];S[i]=pos;E[i]=pos+flat[3*i+1];N[i]=flat[3*i+2];if(N[i]>maxEnt)maxEnt=N[i];}
  var size=new Int32Array(maxEnt+1);for(i=0;i<n;i++)size[N[i]]++;
  var count=0;for(i=0;i<=maxEnt;i++)if(size[i])count++;
  return {s:S,e:E,ent:N,size:size,count:count};
}

function bodyOf(i){
  if(i in bodies)return bodies[i];
  var node=document.getElementById("__ROOT__-doc-"+i),b=null;
  if(node){var raw=JSON.parse(node.textContent);
    b={n:raw.n,shown:raw.shown,text:raw.w,marks:[0],ends:raw.s,key:decodeMentions(raw.k),resp:{},errs:{},rawResp:raw.r,rawErrs:raw.e||{}};}
  bodies[i]=b;return b;
}
// Words a..z-1 of a document. The text is not split whole (millions of words cost a second): the offset of
// every MARK-th word is found once, when first needed, and a window's words are read from the one before it.
var MARK=1024;
function wordsOf(b,a,z){
  var text=b.text,marks=b.marks,k=Math.min(a/MARK|0,Math.ceil(b.shown/MARK)-1);
  while(marks.length<=k){var at=marks[marks.length-1];for(var j=0;j<MARK;j++)at=text.indexOf(" ",at)+1;marks.push(at);}
  var pos=marks[Math.max(k,0)];for(var w=Math.max(k,0)*MARK;w<a;w++)pos=text.indexOf(" ",pos)+1;
  var out=[];for(;w<z;w++){var end=text.indexOf(" ",pos);if(end<0)end=text.length;out.push(text.slice(pos,end));pos=end+1;}
  return out;
}
function respOf(b,sys){if(!(sys in b.resp))b.resp[sys]=decodeMentions((b.rawResp||{})[sys]||[]);return b.resp[sys];}

// a system's errors: [{category, mentions: [[start, end], ...]}], and the sorted starts of their mentions
function errorsOf(b,sys){
  if(sys in b.errs)return b.errs[sys];
  var e=b.rawErrs[sys]||{c:[],m:[],o:[0]},list=[],starts=[];
  for(var r=0;r<e.c.length;r++){var ms=[];for(var j=e.o[r];j<e.o[r+1];j+=2){ms.push([e.m[j],e.m[j+1]]);starts.push(e.m[j]);}
    list.push({category:CATS[e.c[r]],mentions:ms});}
  starts.sort(function(x,y){return x-y;});
  b.errs[sys]={list:list,starts:starts};return b.errs[sys];
}

function entityColours(key,resp){
  // key entity i: hue by rank among multi-mention entities; response entity j:
  // the hue of the key entity it shares most mentions with.
  // (-1: no colour; hues in the order of the entities' first mentions)
  var kc=new Float64Array(key.size.length).fill(-1),rank=0,owner=new Map(),i;
  for(i=0;i<key.s.length;i++){var k=key.ent[i];if(key.size[k]>1&&kc[k]<0)kc[k]=golden(rank++);owner.set(spanId(key.s[i],key.e[i]),k);}
  var rc=new Float64Array(resp.size.length).fill(-1),votes=new Map();
  for(i=0;i<resp.s.length;i++){var j=resp.ent[i];if(resp.size[j]<2)continue;var o=owner.get(spanId(resp.s[i],resp.e[i]));
    if(o!=null&&kc[o]>=0){var v=votes.get(j);if(!v){v=new Map();votes.set(j,v);}v.set(o,(v.get(o)||0)+1);}}
  for(i=0;i<resp.s.length;i++){j=resp.ent[i];if(resp.size[j]<2||rc[j]>=0)continue;var best=-1,bv=0,vs=votes.get(j);
    if(vs)vs.forEach(function(c,kk){if(c>bv||(c===bv&&kk<best)){bv=c;best=kk;}});
    rc[j]=best>=0?kc[best]:golden(rank++);}
  return [kc,rc];
}

function renderSide(pane,b,side,ms,colours,errs,a,z){
  // Mentions overlapping words a..z-1 as nested spans; a crossing mention is closed and reopened, a mention
  // running over a sentence break continues in the next paragraph, one cut by the window is drawn to its edge.
  var starts={},list=[],i;
  for(i=0;i<ms.s.length;i++){if(ms.s[i]<z&&ms.e[i]>=a)list.push(i);}
  list.sort(function(x,y){var sx=Math.max(ms.s[x],a),sy=Math.max(ms.s[y],a);return sx-sy||ms.e[y]-ms.e[x]||ms.ent[x]-ms.ent[y];});
  list.forEach(function(m){var s=Math.max(ms.s[m],a);(starts[s]=starts[s]||[]).push(m);});
  var html=[],stack=[];
  function open(m){
    var ent=ms.ent[m],c=colours[ent],size=ms.size[ent],cls="m"+(size<2?" single":""),style="";
    if(c>=0)style="--c:hsl("+c.toFixed(0)+",78%,84%);--cb:hsl("+c.toFixed(0)+",55%,40%)";
    var ec=errs[ms.s[m]+","+ms.e[m]],title=(side==="k"?"key":"response")+" entity "+(ent+1)+" ("+size+" mention"+(size>1?"s":"")+")";
    if(ec){cls+=" err";style+=";--ec:"+(CAT_COLOURS[ec[0]]||"#888");title+=": "+ec.map(function(x){return x.replace(/_/g," ");}).join(", ");}
    html.push('<span class="'+cls+'" data-side="'+side+'" data-e="'+ent+'" data-s="'+ms.s[m]+'" data-t="'+ms.e[m]+'" style="'+style+'" title="'+title+'">');
  }
  function close(m){html.push('<sub>'+(ms.size[ms.ent[m]]>1?(ms.ent[m]+1):"")+'</sub></span>');}
  function esc(w){return w.replace(/&/g,"&amp;").replace(/</g,"&lt;").replace(/>/g,"&gt;");}
  var words=wordsOf(b,a,z),ends=b.ends,si=0;while(si<ends.length&&ends[si]<=a)si++;
  var tok=a;
  for(;tok<z;si++){
    var stop=si<ends.length?Math.min(ends[si],z):z;
    html.push('<p><span class="sn">'+(si+1)+'</span>');
    stack.forEach(open);
    for(;tok<stop;tok++){
      (starts[tok]||[]).forEach(function(m){open(m);stack.push(m);});
      html.push(esc(words[tok-a]));
      var endsHere=function(m){return Math.min(ms.e[m],z-1)===tok;};
      if(stack.some(endsHere)){
        var reopen=[];
        while(stack.some(endsHere)){var top=stack.pop();close(top);if(!endsHere(top))reopen.unshift(top);}
        reopen.forEach(function(m){open(m);stack.push(m);});
      }
      html.push(" ");
    }
    for(var k=stack.length-1;k>=0;k--)close(stack[k]);
    html.push('</p>');
  }
  pane.innerHTML=html.join("");
}

function errorIndex(list){
  var byMention={};
  list.forEach(function(r){r.mentions.forEach(function(s){var k=s[0]+","+s[1];(byMention[k]=byMention[k]||[]);if(byMention[k].indexOf(r.category)<0)byMention[k].push(r.category);});});
  return byMention;
}

// the first word of the sentence holding word t
function sentenceStart(b,t){var lo=0,hi=b.ends.length;while(lo<hi){var mid=(lo+hi)>>1;if(b.ends[mid]<=t)lo=mid+1;else hi=mid;}return lo?b.ends[lo-1]:0;}

function showDoc(i,scroll){
  var d=docs[i];if(!d)return;
  docSel.value=i;
  rows.forEach(function(r){r.classList.toggle("sel",+r.dataset.doc===i);});
  var b=bodyOf(i),sys=sysSel.value||systems[0];
  $(".cfs-resp-title").textContent=sys;
  current=null;
  if(!b){keyPane.innerHTML=respPane.innerHTML="";errBox.innerHTML="";winBar.style.display="none";
    $(".cfs-key-count").textContent=$(".cfs-resp-count").textContent="";
    docNote.textContent="This document's text is not in the page: the page holds documents' text up to its size limit, in the key's order; its scores and error counts are in the tables.";
    docNote.style.display="";return;}
  var resp=respOf(b,sys),errs=errorsOf(b,sys);
  current={doc:i,b:b,sys:sys,key:b.key,resp:resp,errs:errs,col:entityColours(b.key,resp),ei:errorIndex(errs.list),a:0};
  $(".cfs-key-count").textContent=b.key.count+" entities";
  $(".cfs-resp-count").textContent=resp.count+" entities";
  docNote.style.display=b.shown<b.n?"":"none";
  if(b.shown<b.n)docNote.textContent="The page holds the first "+b.shown+" of this document's "+b.n+" words (its size limit); mentions and errors beyond them are not drawn.";
  showWindow(0);
  renderErrors();
  if(scroll)$(".cfs-viewer").scrollIntoView({behavior:"instant",block:"start"});
}

function showWindow(a){
  var c=current,n=c.b.shown;a=Math.max(0,Math.min(a,Math.max(0,n-1)));
  var z=Math.min(n,a+WINDOW);c.a=a;c.z=z;
  renderSide(keyPane,c.b,"k",c.key,c.col[0],c.ei,a,z);
  renderSide(respPane,c.b,"r",c.resp,c.col[1],c.ei,a,z);
  winBar.style.display=n>WINDOW?"":"none";
  winLabel.textContent="words "+(a+1)+"–"+z+" of "+n;
  $(".cfs-win-prev").disabled=a<=0;$(".cfs-win-next").disabled=z>=n;
  $(".cfs-win-err").disabled=nextError(z)<0;
  keyPane.scrollTop=respPane.scrollTop=0;
}
function nextError(t){var st=current.errs.starts,lo=0,hi=st.length;while(lo<hi){var mid=(lo+hi)>>1;if(st[mid]<t)lo=mid+1;else hi=mid;}
  return lo<st.length&&st[lo]<current.b.shown?st[lo]:-1;}
// the window holding word t, starting at its sentence (or at t when the sentence is longer than a window)
function windowAt(t){var s=sentenceStart(current.b,t);return t-s<WINDOW?s:t;}
$(".cfs-win-prev").addEventListener("click",function(){showWindow(current.a-WINDOW);});
$(".cfs-win-next").addEventListener("click",function(){showWindow(current.z);});
$(".cfs-win-err").addEventListener("click",function(){var t=nextError(current.z);if(t<0)return;showWindow(windowAt(t));
  var node=keyPane.querySelector('.m.err[data-s="'+t+'"]')||respPane.querySelector('.m.err[data-s="'+t+'"]');if(node)node.scrollIntoView({block:"center"});});

function renderErrors(){
  var c=current;
  function text(s){return wordsOf(c.b,s[0],Math.min(s[1]+1,s[0]+40)).join(" ")+(s[1]-s[0]>=40?" …":"");}
  errBox.innerHTML="";
  var errs=c.errs.list.filter(function(r){return r.mentions.every(function(s){return s[1]<c.b.shown;});});
  var kk=errs.filter(function(r){return isKK(r.category);});
  if(!errs.length){errBox.appendChild(el("p","cfs-muted","No errors in this document."));return;}
  var ul=el("ul");var shown=kk.length?kk:errs;
  shown.slice(0,500).forEach(function(r){
    var li=el("li");var b=el("b",null,r.category.replace(/_/g," "));b.style.color=CAT_COLOURS[r.category]||"#555";
    li.appendChild(b);li.appendChild(document.createTextNode(r.mentions.map(function(s){return "“"+text(s)+"”";}).join(", ")));
    li.addEventListener("click",function(){var s=r.mentions[0];if(!s)return;
      if(s[0]<current.a||s[0]>=current.z)showWindow(windowAt(s[0]));
      var node=ROOT.querySelector('.m[data-s="'+s[0]+'"][data-t="'+s[1]+'"]');if(node){highlight(node);node.scrollIntoView({block:"center"});}});
    ul.appendChild(li);});
  errBox.appendChild(ul);
  if(shown.length>500)errBox.appendChild(el("p","cfs-muted",(shown.length-500)+" more not listed."));
}

function highlight(node){
  ROOT.querySelectorAll(".m.hl,.m.hl2").forEach(function(n){n.classList.remove("hl","hl2");});
  var side=node.dataset.side,e=+node.dataset.e;
  var own=side==="k"?current.key:current.resp,other=side==="k"?current.resp:current.key;
  var spans=new Set(),i;for(i=0;i<own.s.length;i++)if(own.ent[i]===e)spans.add(spanId(own.s[i],own.e[i]));
  var otherEnts=new Set();for(i=0;i<other.s.length;i++)if(spans.has(spanId(other.s[i],other.e[i])))otherEnts.add(other.ent[i]);
  var ownPane=side==="k"?keyPane:respPane,otherPane=side==="k"?respPane:keyPane;
  ownPane.querySelectorAll('.m[data-e="'+e+'"]').forEach(function(n){n.classList.add("hl");});
  otherPane.querySelectorAll(".m").forEach(function(n){
    if(spans.has(spanId(+n.dataset.s,+n.dataset.t)))n.classList.add("hl");else if(otherEnts.has(+n.dataset.e))n.classList.add("hl2");});
  keyPane.classList.add("cfs-dim");respPane.classList.add("cfs-dim");
}
function clearHighlight(){ROOT.querySelectorAll(".m.hl,.m.hl2").forEach(function(n){n.classList.remove("hl","hl2");});
  keyPane.classList.remove("cfs-dim");respPane.classList.remove("cfs-dim");}
[keyPane,respPane].forEach(function(p){p.addEventListener("click",function(ev){
  var m=ev.target.closest(".m");if(m&&p.contains(m)){ev.stopPropagation();highlight(m);}else clearHighlight();});});
// proportional scroll sync between the panes
var syncing=false;
[[keyPane,respPane],[respPane,keyPane]].forEach(function(pr){pr[0].addEventListener("scroll",function(){
  if(syncing){syncing=false;return;}var a=pr[0],b=pr[1],r=a.scrollTop/Math.max(1,a.scrollHeight-a.clientHeight);
  syncing=true;b.scrollTop=r*(b.scrollHeight-b.clientHeight);});});
if(docs.length)showDoc(0,false);
})();
"""


def render_report(data: dict, *, full_page: bool = True) -> str:
    """Render ``data`` (see the module docstring for its schema) as one HTML file.

    Parameters
    ----------
    data : dict
        Plain data: ``systems`` (1 or 2 names) and ``documents`` at least.
    full_page : bool, default True
        A whole ``<!DOCTYPE html>`` document; False gives a fragment (style,
        markup and script under one root element with a unique id) for a
        notebook output cell.

    Returns
    -------
    str
        The HTML, self-contained: no external resource is referenced.

    Examples
    --------
    The score table shows each number as a percentage and keeps the input
    number in ``data-value``:

    >>> html = render_report({"systems": ["A"], "metrics": ["muc"],
    ...     "scores": {"A": {"muc": {"recall": 0.5, "precision": 1.0, "f1": 2 / 3}}},
    ...     "documents": []})
    >>> '<span class="cfs-v">66.67</span>' in html
    True
    """
    _validate(data)
    # Only numbers that are scores can be non-finite: the documents' words,
    # spans and errors are left as they are.
    docs = data.get("documents", [])
    data = _clean({k: v for k, v in data.items() if k != "documents"})
    metrics = _metrics_of(data)
    root = "cfs-" + uuid.uuid4().hex[:10]
    systems = data["systems"]
    categories = list(CATEGORY_COLOURS)
    errors = [{s: _errors_payload(e, categories) for s, e in (d.get("errors") or {}).items()} for d in docs]
    kk = [categories.index(c) for c in KK_CATEGORIES]
    payload = {
        "systems": systems,
        "metrics": metrics,
        "categories": categories,
        "documents": [{"name": d["name"], **({"scores": _clean(d["scores"])} if "scores" in d else {}),
                       "ne": {s: sum(e["c"].count(c) for c in kk) for s, e in errs.items()}}
                      for d, errs in zip(docs, errors)],
    }
    head = _json_for_script(payload)
    budget = PAGE_LIMIT - len(head.encode("utf-8")) - _PAGE_OVERHEAD
    bodies = []
    for i, (d, errs) in enumerate(zip(docs, errors)):
        body = _document_body(_as_columns(d, systems), errs, systems, budget)
        if body is None:
            break  # documents are embedded in the key's order while the page has room
        budget -= len(body.encode("utf-8"))
        bodies.append(f'<script type="application/json" id="{root}-doc-{i}">{body}</script>')
    title = data.get("title") or "Coreference evaluation report"
    subtitle = data.get("subtitle") or ""
    n_docs = len(docs)
    legend = "".join(
        f'<span class="cfs-key"><i class="u" style="border-color:{col}"></i>{_esc(c.replace("_", " "))}</span>'
        for c, col in CATEGORY_COLOURS.items() if c in KK_CATEGORIES
    )
    body = f"""<div class="cfs-report" id="{root}">
<style>{_CSS}</style>
<h1>{_esc(title)}</h1>
<p class="cfs-sub">{_esc(subtitle) + " · " if subtitle else ""}{n_docs} document{"s" if n_docs != 1 else ""} · system{"s" if len(systems) > 1 else ""}: {", ".join(_esc(s) for s in systems)}</p>
<div class="cfs-grid{" cfs-two" if len(systems) > 1 else ""}">
<section><h2>Scores</h2>{_lead(data)}<div class="cfs-scores-wrap">{_score_table(data, metrics)}</div>
{_link_table(data)}</section>
<section><h2>Errors by category</h2>{_error_chart(data)}
<p class="cfs-hint">Kummerfeld &amp; Klein (2013) categories: the operations that turn the response into the key.</p></section>
</div>
<section><h2>Documents</h2>
<p class="cfs-hint">F1 (%) per document; click a column to sort, a row to open the document.</p>
<div class="cfs-docs-wrap"><table class="cfs-table cfs-docs"><thead></thead><tbody></tbody></table></div>
</section>
<section class="cfs-viewer"><h2>Document viewer</h2>
<div class="cfs-toolbar">
<label>Document <select class="cfs-doc-select" aria-label="document"></select></label>
<label>System <select class="cfs-sys-select" aria-label="system"></select></label>
<span class="cfs-hint">Click a mention to highlight its entity on both sides.</span>
</div>
<div class="cfs-legend">{legend}<span class="cfs-key"><i style="background:#eceef1;border:1px solid #c2c7cf"></i>one-mention entity</span></div>
<p class="cfs-doc-note cfs-hint" style="display:none"></p>
<div class="cfs-window" style="display:none"><button type="button" class="cfs-win-prev">◀ previous</button>
<span class="cfs-win-label"></span><button type="button" class="cfs-win-next">next ▶</button>
<button type="button" class="cfs-win-err">next error ▶</button></div>
<div class="cfs-panes">
<div class="cfs-pane"><h3>Key<small class="cfs-key-count"></small></h3><div class="cfs-text cfs-key-text"></div></div>
<div class="cfs-pane"><h3>Response: <span class="cfs-resp-title"></span><small class="cfs-resp-count"></small></h3><div class="cfs-text cfs-resp-text"></div></div>
</div>
<div class="cfs-errs"></div>
</section>
<script type="application/json" id="{root}-data">{head}</script>
{"".join(bodies)}
<script>{_JS.replace("__ROOT__", root).replace("__CATCOLOURS__", json.dumps(CATEGORY_COLOURS))}</script>
</div>"""
    if not full_page:
        return body
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{_esc(title)}</title>
<style>html,body{{margin:0;background:#fff}}</style>
</head><body>
{body}
</body></html>
"""
