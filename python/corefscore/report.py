"""The report of a key file against one or two response files, as one self-contained HTML file.

:func:`report_data` gathers everything :func:`corefscore.report_html.render_report`
draws: corpus scores with bootstrap intervals (:func:`corefscore.stats.bootstrap`),
per-document scores, the error analyses (:func:`corefscore.analyze_files`) and
each document's words with the key's and the responses' entities, all read in
Go (each file parsed once per call). :func:`write_report` writes the file;
``corefscore report KEY RESPONSE [RESPONSE_B] -o report.html`` calls it.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

from . import _analysis, _api, report_html, stats

__all__ = ["report_data", "write_report"]


def _system_names(responses: Sequence[Any]) -> list[str]:
    names = [os.path.basename(os.fspath(r)) for r in responses]
    if len(set(names)) < len(names):
        names = [os.fspath(r) for r in responses]
    if len(set(names)) < len(names):
        names = [f"{n} ({i + 1})" for i, n in enumerate(names)]
    return names


def report_data(key_path: Any, response_paths: Sequence[Any], *, names: Sequence[str] | None = None,
                n_bootstrap: int = 1000, confidence: float = 0.95, seed: Any = 0, format: str | None = None,
                title: str | None = None, method: str = "permutation", **options: Any) -> dict[str, Any]:
    """The ``data`` of :func:`render_report` for a key file and one or two response files.

    Scores are those of :func:`corefscore.score_files` with the same options,
    the CoNLL F1 first; intervals are percentile bootstrap intervals over
    documents (``n_bootstrap`` resamples, ``seed``). With two responses,
    ``comparison`` holds B - A on F1 per metric, its interval and p-value:
    :func:`corefscore.stats.compare_results` with ``method``, ``n=n_bootstrap``,
    ``seed`` and ``confidence``, what ``corefscore compare`` computes with the
    same ``--method --n --seed --confidence``. Errors are those of
    :func:`corefscore.analyze_files` with the same options (the files read,
    paired and compared as for scoring). Documents are the key's, in its
    order. Each file is read once (``cs_score_files`` with every output:
    scores, errors and documents from one read); with two responses the two
    are read concurrently.
    """
    if not 1 <= len(response_paths) <= 2:
        raise ValueError(f"a report compares one or two responses with the key; got {len(response_paths)}")
    systems = list(names) if names is not None else _system_names(response_paths)

    def run(path: Any, system: str) -> tuple:
        # Only the words the page can hold cross from the engine: none beyond the page's size is ever shown.
        return _api._report_files(key_path, path, format=format, name=system, words_limit=report_html.PAGE_LIMIT,
                                  **options)

    done = _concurrently([lambda p=p, s=s: run(p, s) for s, p in zip(systems, response_paths)])
    data: dict[str, Any] = {
        "title": title or f"{os.path.basename(os.fspath(key_path))}: " + " vs ".join(systems),
        "subtitle": f"key: {os.fspath(key_path)}; " + "; ".join(
            f"{s}: {os.fspath(p)}" for s, p in zip(systems, response_paths)),
        "systems": systems, "confidence": confidence, "scores": {}, "error_counts": {}, "link_counts": {},
    }
    docs = _documents(done[0][2])
    for system, (result, analysis, _, resp_raw) in zip(systems, done):
        metrics = [m for m in result.metrics if m in result]
        data.setdefault("metrics", metrics)
        iv = stats.bootstrap(result, n=n_bootstrap, confidence=confidence, seed=seed) if n_bootstrap else None
        table = {}
        for m in metrics:
            shown = result[m].shown()  # None: nothing to count, shown as n/a (no interval either)
            row = dict(zip(("recall", "precision", "f1"), shown or (None,) * 3))
            if iv is not None and m in iv and shown is not None:
                for q, interval in iv[m].items():
                    row[f"{q}_ci"] = [interval.low, interval.high]
            table[m] = row
        if result.conll_f1 is not None:
            table[stats.CONLL] = {"f1": result.conll_f1}
            if iv is not None and stats.CONLL in iv:
                table[stats.CONLL]["f1_ci"] = [iv[stats.CONLL]["f1"].low, iv[stats.CONLL]["f1"].high]
        data["scores"][system] = table
        per_doc = result.per_document()
        data["error_counts"][system] = {c: analysis.counts[c] for c in report_html.KK_CATEGORIES}
        by_doc, links = _errors(analysis)
        data["link_counts"][system] = links
        # The engine returns the response documents in key order, each the one scoring paired with that key document.
        resp = _mention_tables(resp_raw)
        for i, doc in enumerate(docs):
            doc["response_mentions"][system] = resp[i]
            if i < len(per_doc):
                doc["scores"][system] = {m: per_doc[i][m].f1 if per_doc[i][m].counted else None
                                         for m in metrics if m in per_doc[i]}
                if per_doc[i].conll_f1 is not None:
                    doc["scores"][system][stats.CONLL] = per_doc[i].conll_f1
            doc["errors"][system] = by_doc.get(doc["name"], [])
    data["documents"] = docs
    if len(done) == 2 and n_bootstrap:
        cmp = stats.compare_results(done[0][0], done[1][0], method=method, n=n_bootstrap, seed=seed,
                                    confidence=confidence)
        data["comparison"] = {k: v for k, v in cmp.to_dict().items() if k != "metrics"}
        data["comparison"]["metrics"] = {m: {"difference": c.difference, "low": c.low, "high": c.high,
                                             "p_value": c.p_value} for m, c in cmp.table.items()}
    return data


def _concurrently(calls: list) -> list:
    """The results of calls (the Go calls release the GIL), the first in this thread; the first error is raised."""
    results: list[Any] = [None] * len(calls)
    errors: list[BaseException | None] = [None] * len(calls)

    def run(i: int) -> None:
        try:
            results[i] = calls[i]()
        except BaseException as exc:  # re-raised in the calling thread
            errors[i] = exc

    threads = [threading.Thread(target=run, args=(i,)) for i in range(1, len(calls))]
    for t in threads:
        t.start()
    run(0)
    for t in threads:
        t.join()
    for exc in errors:
        if exc is not None:
            raise exc
    return results


_LINK_TYPES = (None, "name", "nominal", "pronoun")


def _errors(analysis: _analysis.Analysis) -> tuple[dict[str, dict | list], dict[str, int]]:
    """Per document name, its errors in the columnar form of the report's schema; and the link error counts.

    The columns (see :mod:`corefscore.report_html`): ``category`` (one name
    per error), ``mentions`` (the errors' spans, flat: start, end, start,
    end, ...) with ``mention_offsets`` (error ``r``'s spans are
    ``mentions[o[r]:o[r + 1]]``), and likewise ``key_entities`` and
    ``response_entities`` with their offsets (-1: the mention is absent from
    that side). The link counts are ``recall_errors``, ``precision_errors``
    and, where non-zero, ``"recall.nominal_name"`` and the like (anaphor
    type, antecedent type). Built from the engine's arrays, with no Python
    object per error.
    """
    links: dict[str, int] = {"recall_errors": analysis.counts["recall_error"],
                             "precision_errors": analysis.counts["precision_error"]}
    raw = analysis._engine_arrays()
    if raw is None:  # the records exist already: the list form
        by_doc: dict[str, dict | list] = {}
        for e in analysis.errors:
            if e.types:
                k = f"{e.category.split('_')[0]}.{e.types[0]}_{e.types[1]}"
                links[k] = links.get(k, 0) + 1
            by_doc.setdefault(e.document, []).append(  # type: ignore[union-attr]
                {"category": e.category, "mentions": [list(m) for m in e.mentions],
                 "key_entities": [k for k in e.key_entities if k >= 0],
                 "response_entities": [r for r in e.response_entities if r >= 0]})
        return by_doc, links
    import numpy as np

    cat = raw["category"].astype(np.int64)
    types = raw["types"].astype(np.int64)
    link = (cat >= 8) & (types[:, 0] > 0) & (types[:, 1] > 0)
    cells = np.bincount(((cat[link] - 8) * 9 + (types[link, 0] - 1) * 3 + types[link, 1] - 1), minlength=18)
    for j in np.flatnonzero(cells).tolist():
        side = "recall" if j < 9 else "precision"
        links[f"{side}.{_LINK_TYPES[j % 9 // 3 + 1]}_{_LINK_TYPES[j % 3 + 1]}"] = int(cells[j])
    names = [_analysis.CATEGORIES[c - 1] for c in cat.tolist()]
    packed = raw["mentions"]
    spans = np.stack([packed >> 32, packed & 0xFFFFFFFF], axis=1)
    mo, ko, ro = raw["mention_offsets"], raw["key_offsets"], raw["response_offsets"]
    ks, rs = raw["key_entities"], raw["response_entities"]
    # Records come in document order: document d's are bounds[d] .. bounds[d + 1] - 1.
    bounds = np.searchsorted(raw["doc"], np.arange(len(raw["names"]) + 1)).tolist()
    out: dict[str, dict | list] = {}
    for d, name in enumerate(raw["names"]):
        a, b = bounds[d], bounds[d + 1]
        # NumPy arrays, not lists: a list holds a Python int per value (36 bytes, not 8), which for the errors
        # of a million-mention document is hundreds of MB, and the page converts them back to arrays anyway.
        out[name] = {"category": names[a:b],
                     "mentions": spans[mo[a]:mo[b]].ravel(),
                     "mention_offsets": (mo[a:b + 1] - mo[a]) * 2,
                     "key_entities": ks[ko[a]:ko[b]], "key_offsets": ko[a:b + 1] - ko[a],
                     "response_entities": rs[ro[a]:ro[b]],
                     "response_offsets": ro[a:b + 1] - ro[a]}
    return out, links


def _mention_tables(raw: dict) -> list[Any]:
    """Each document's mentions as one (n, 3) array of start, end (inclusive) and entity, in the reader's order."""
    import numpy as np

    ms, mo = raw["mentions"], raw["mention_offsets"].tolist()
    table = np.stack([ms["start"], ms["end"], ms["cluster"]], axis=1).astype(np.int64) if len(ms) else (
        np.zeros((0, 3), np.int64))
    return [table[mo[d]:mo[d + 1]] for d in range(len(raw["names"]))]


def _documents(raw: dict) -> list[dict[str, Any]]:
    """The key's documents in the report's columnar form, straight from the engine's arrays.

    Each document's words stay the file's UTF-8 bytes with offsets and its
    mentions one integer array (see :mod:`corefscore.report_html`): no Python
    object per word or per mention, so a document of millions of words costs
    a few array slices here; the page decides how much of it to embed.
    """
    import numpy as np

    text, wo = raw["words"], np.asarray(raw["word_offsets"], np.int64)
    wd, sd = raw["word_docs"].tolist(), raw["sentence_docs"].tolist()
    ends = np.asarray(raw["sentence_ends"], np.int64)
    docs = []
    for d, (name, mentions) in enumerate(zip(raw["names"], _mention_tables(raw))):
        first, last = wd[d], wd[d + 1]
        base = int(wo[first]) if last > first else 0
        # The engine may keep only a document's first words (words_limit); its sentences still count them all.
        n_words = int(ends[sd[d + 1] - 1]) if sd[d + 1] > sd[d] else last - first
        docs.append({"name": name, "n_words": max(n_words, last - first),
                     "words_utf8": memoryview(text)[base:int(wo[last])] if last > first else b"",
                     # (a view when the document starts the buffer: no copy of one huge document's offsets)
                     "word_offsets": (wo[first:last + 1] - base if base else wo[first:last + 1]) if last > first
                     else np.zeros(1, np.int64),
                     "sentence_ends": ends[sd[d]:sd[d + 1]],
                     "key_mentions": mentions, "response_mentions": {}, "scores": {}, "errors": {}})
    return docs


def write_report(output: Any, key_path: Any, response_paths: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
    """Write the report of :func:`report_data` to ``output`` (one HTML file); returns the data."""
    data = report_data(key_path, response_paths, **kwargs)
    page = report_html.render_report(data)  # before the file is opened: an interrupted report leaves none
    with open(output, "w", encoding="utf-8") as f:
        f.write(page)
    return data
