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
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import Any

from . import _api, _engine, report_html, stats

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
                title: str | None = None, **options: Any) -> dict[str, Any]:
    """The ``data`` of :func:`render_report` for a key file and one or two response files.

    Scores are those of :func:`corefscore.score_files` with the same options;
    intervals are percentile bootstrap intervals over documents
    (``n_bootstrap`` resamples, ``seed``); errors are those of
    :func:`corefscore.analyze_files`. Documents are the key's, in its order.
    """
    if not 1 <= len(response_paths) <= 2:
        raise ValueError(f"a report compares one or two responses with the key; got {len(response_paths)}")
    systems = list(names) if names is not None else _system_names(response_paths)
    clusters_field = options.get("clusters_field")
    opts = _engine.options(format=format, clusters_field=clusters_field)
    shared = {k: options[k] for k in ("singletons", "duplicates", "clusters_field") if options.get(k) is not None}
    # The Go calls release the GIL: the files are read, scored and analysed concurrently.
    with ThreadPoolExecutor(max_workers=4) as pool:
        key_future = pool.submit(_engine.read_documents, key_path, 0, opts)
        jobs = [(pool.submit(_api.score_files, key_path, path, format=format, **options),
                 pool.submit(_api.analyze_files, key_path, path, format=format, name=system, **shared),
                 pool.submit(_engine.read_documents, path, 1, opts, False))
                for system, path in zip(systems, response_paths)]
        key_docs = key_future.result()
        done = [(a.result(), b.result(), c.result()) for a, b, c in jobs]
    data: dict[str, Any] = {
        "title": title or f"{os.path.basename(os.fspath(key_path))}: " + " vs ".join(systems),
        "subtitle": f"key: {os.fspath(key_path)}; " + "; ".join(
            f"{s}: {os.fspath(p)}" for s, p in zip(systems, response_paths)),
        "systems": systems, "confidence": confidence, "scores": {}, "error_counts": {}, "link_counts": {},
    }
    docs = [{"name": d["name"], "sentences": _sentences(d), "key": d["entities"], "responses": {}, "scores": {},
             "errors": {}} for d in key_docs]
    for system, (result, analysis, resp_docs) in zip(systems, done):
        metrics = [m for m in result.metrics if m in result]
        data.setdefault("metrics", metrics)
        iv = stats.bootstrap(result, n=n_bootstrap, confidence=confidence, seed=seed) if n_bootstrap else None
        table = {}
        for m in metrics:
            s = result[m]
            row = {"recall": s.recall, "precision": s.precision, "f1": s.f1}
            if iv is not None and m in iv:
                for q, interval in iv[m].items():
                    row[f"{q}_ci"] = [interval.low, interval.high]
            table[m] = row
        data["scores"][system] = table
        per_doc = result.per_document()
        data["error_counts"][system] = {c: analysis.counts[c] for c in report_html.KK_CATEGORIES}
        links = {"recall_errors": analysis.counts["recall_error"],
                 "precision_errors": analysis.counts["precision_error"]}
        for e in analysis.errors:
            if e.types:
                k = f"{e.category.split('_')[0]}.{e.types[0]}_{e.types[1]}"
                links[k] = links.get(k, 0) + 1
        data["link_counts"][system] = links
        resp = {d["name"]: d["entities"] for d in resp_docs}
        by_doc = analysis.by_document()
        for i, doc in enumerate(docs):
            doc["responses"][system] = resp.get(doc["name"], [])
            if i < len(per_doc):
                doc["scores"][system] = {m: per_doc[i][m].f1 for m in metrics if m in per_doc[i]}
            doc["errors"][system] = [
                {"category": e.category, "mentions": [list(m) for m in e.mentions],
                 "key_entities": [k for k in e.key_entities if k >= 0],
                 "response_entities": [r for r in e.response_entities if r >= 0]}
                for e in by_doc.get(doc["name"], [])]
    data["documents"] = docs
    return data


def _sentences(doc: dict) -> list[list[str]]:
    words, out, start = doc["words"], [], 0
    for end in doc["sentence_ends"]:
        out.append(words[start:end])
        start = end
    if start < len(words):
        out.append(words[start:])
    return out


def write_report(output: Any, key_path: Any, response_paths: Sequence[Any], **kwargs: Any) -> dict[str, Any]:
    """Write the report of :func:`report_data` to ``output`` (one HTML file); returns the data."""
    data = report_data(key_path, response_paths, **kwargs)
    with open(output, "w", encoding="utf-8") as f:
        f.write(report_html.render_report(data))
    return data
