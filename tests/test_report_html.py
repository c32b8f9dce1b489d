"""The HTML report (corefscore.report_html): static checks and a real browser.

The browser tests drive Chromium through Playwright's Python package (no
downloaded browser: Debian's ``chromium`` is used through ``executable_path``).
They find the browser in ``COREFSCORE_CHROMIUM`` or as ``chromium``,
``chromium-browser`` or ``google-chrome`` on PATH, and skip with a message
when Playwright or a browser is missing. The screenshot of
the command line's report on the bundled example goes to
``COREFSCORE_ARTIFACTS`` (a ``.png`` path, or a directory that gets
``report.png``; default ``artifacts/report.png``), that of the synthetic
report beside it (``report-synthetic.png``).
"""

from __future__ import annotations

import json
import os
import random
import re
import shutil
import zlib
from pathlib import Path

import pytest
from corefscore.report_html import KK_CATEGORIES, render_report

# ---------------------------------------------------------------------------
# Synthetic data: short novel-like documents with entities and errors that
# follow from how the response was made.

_PEOPLE = [
    (["Elizabeth", "Bennet"], "she", "her"),
    (["Mr.", "Darcy"], "he", "his"),
    (["Jane"], "she", "her"),
    (["Mr.", "Bingley"], "he", "his"),
    (["Mrs.", "Bennet"], "she", "her"),
    (["Charlotte", "Lucas"], "she", "her"),
]
_PLACES = [["the", "old", "house"], ["Netherfield", "Park"], ["the", "village"], ["the", "garden"], ["Longbourn"]]
_VERBS = ["walked to", "spoke of", "looked at", "thought of", "returned to", "smiled at", "wrote about"]
_FILL = ["in the evening", "with some warmth", "without a word", "for a long while", "at last", "again"]


def synthetic_document(rng: random.Random, name: str, n_sentences: int) -> tuple[dict, dict]:
    """A document and, per system, its response entities, errors and scores."""
    sentences: list[list[str]] = []
    key: dict[int, list[list[int]]] = {}
    tok = 0
    people = rng.sample(range(len(_PEOPLE)), 4)
    places = rng.sample(range(len(_PLACES)), 3)
    for _ in range(n_sentences):
        words: list[str] = []
        p, q = rng.choice(people), rng.choice(people + [100 + x for x in places])
        # subject: a name or a pronoun
        subj = _PEOPLE[p][0] if rng.random() < 0.5 or p not in key else [_PEOPLE[p][1].capitalize()]
        key.setdefault(p, []).append([tok, tok + len(subj) - 1])
        words += subj
        tok += len(subj)
        verb = rng.choice(_VERBS).split()
        words += verb
        tok += len(verb)
        if q >= 100:
            obj = _PLACES[q - 100]
        else:
            obj = _PEOPLE[q][0] if q not in key or rng.random() < 0.4 else [_PEOPLE[q][2], "friend"]
        if q < 100 and obj[-1] == "friend":  # "her friend": the possessive is the mention
            key.setdefault(q, []).append([tok, tok])
        else:
            key.setdefault(q, []).append([tok, tok + len(obj) - 1])
        words += obj
        tok += len(obj)
        fill = rng.choice(_FILL).split()
        words += [*fill, "."]
        tok += len(fill) + 1
        sentences.append(words)
    key_entities = [sorted(v) for v in key.values()]
    systems = {}
    for sys_i, sysname in enumerate(("coref-A", "coref-B")):
        srng = random.Random(zlib.crc32(f"{name}/{sysname}".encode()))
        resp = [list(map(list, e)) for e in key_entities]
        errors = []
        for ei, e in enumerate(resp):
            if len(e) > 2 and srng.random() < 0.4 + 0.2 * sys_i:
                m = e.pop()
                errors.append(
                    {"category": "missing_mention", "mentions": [m], "key_entities": [ei], "response_entities": [ei]}
                )
            if len(e) > 2 and srng.random() < 0.3:
                m = e.pop(1)
                resp.append([m])
                errors.append(
                    {
                        "category": "divided_entity",
                        "mentions": [m],
                        "key_entities": [ei],
                        "response_entities": [len(resp) - 1],
                    }
                )
            if len(e) > 1 and e[0][1] > e[0][0] and srng.random() < 0.3:
                old = e[0]
                e[0] = [old[0] + 1, old[1]]
                errors.append(
                    {"category": "span_error", "mentions": [e[0], old], "key_entities": [ei], "response_entities": [ei]}
                )
        if len(resp) > 2 and srng.random() < 0.7:
            a, b = 0, 1
            moved = resp[b]
            resp[a] = sorted(resp[a] + moved)
            resp[b] = []
            errors.append(
                {"category": "conflated_entities", "mentions": moved, "key_entities": [b], "response_entities": [a]}
            )
        resp = [e for e in resp if e]
        systems[sysname] = {
            "entities": resp,
            "errors": errors,
            "scores": {m: round(srng.uniform(0.45, 0.95), 4) for m in ("muc", "bcub", "ceafe", "lea")},
        }
    doc = {"name": name, "sentences": sentences, "key": key_entities}
    return doc, systems


def synthetic_data(n_docs: int = 6, n_sentences: int = 14, n_systems: int = 2, seed: int = 7) -> dict:
    rng = random.Random(seed)
    sysnames = ["coref-A", "coref-B"][:n_systems]
    documents = []
    for i in range(n_docs):
        doc, per_sys = synthetic_document(rng, f"novel_{i:03d}_chapter_one", n_sentences)
        doc["responses"] = {s: per_sys[s]["entities"] for s in sysnames}
        doc["errors"] = {s: per_sys[s]["errors"] for s in sysnames}
        doc["scores"] = {s: per_sys[s]["scores"] for s in sysnames}
        documents.append(doc)
    metrics = ["muc", "bcub", "ceafe", "lea"]
    scores = {}
    for si, s in enumerate(sysnames):
        scores[s] = {}
        for mi, m in enumerate(metrics):
            r, p = 0.61 + 0.031 * mi + 0.02 * si, 0.72 - 0.017 * mi + 0.01 * si
            f = 2 * r * p / (r + p)
            scores[s][m] = {
                "recall": r,
                "precision": p,
                "f1": f,
                "recall_ci": [r - 0.021, r + 0.019],
                "precision_ci": [p - 0.018, p + 0.02],
                "f1_ci": [f - 0.015, f + 0.016],
            }
    counts = {s: {c: 0 for c in KK_CATEGORIES} for s in sysnames}
    for s in sysnames:
        for d in documents:
            for e in d["errors"][s]:
                counts[s][e["category"]] += 1
        counts[s]["extra_entity"] = 3 + len(s)  # categories the generator does not make
        counts[s]["extra_mention"] = 11
        counts[s]["missing_entity"] = 7
    types = ("name", "nominal", "pronoun")
    links = {}
    for si, s in enumerate(sysnames):
        links[s] = {
            f"{side}.{a}_{b}": (7 * ai + 3 * bi + 5 * si + (side == "precision")) % 23
            for side in ("recall", "precision")
            for ai, a in enumerate(types)
            for bi, b in enumerate(types)
        }
        for side in ("recall", "precision"):
            links[s][side + "_errors"] = sum(v for k, v in links[s].items() if k.startswith(side + "."))
    return {
        "title": "Synthetic novels: coref-A vs coref-B",
        "subtitle": "key: synthetic/*.conll",
        "systems": sysnames,
        "metrics": metrics,
        "confidence": 0.95,
        "scores": scores,
        "error_counts": counts,
        "link_counts": links,
        "documents": documents,
    }


# ---------------------------------------------------------------------------
# Static checks.


def test_self_contained():
    data = synthetic_data()
    data["documents"][0]["sentences"][0][0] = "</script><script>alert(1)</script>"
    page = render_report(data)
    assert page.startswith("<!DOCTYPE html>")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", page), "no external resource"
    assert "http://" not in page and "https://" not in page
    # the page's data, each document's body and the viewer's script
    assert page.count("</script>") == 2 + len(data["documents"]), "a word cannot close the data script"
    assert _bodies(page)[0]["w"].split(" ")[0] == "</script><script>alert(1)</script>"


def _bodies(page: str) -> dict[int, dict]:
    """The documents embedded in a page (text and mentions), by document index."""
    found = re.findall(r'<script type="application/json" id="[^"]+-doc-(\d+)">(.*?)</script>', page, re.S)
    return {int(i): json.loads(b) for i, b in found}


def test_fragment_ids_unique():
    data = synthetic_data(n_docs=1)
    a, b = render_report(data, full_page=False), render_report(data, full_page=False)
    ida = re.search(r'class="cfs-report" id="([^"]+)"', a).group(1)
    idb = re.search(r'class="cfs-report" id="([^"]+)"', b).group(1)
    assert ida != idb
    assert "<html" not in a


@pytest.mark.parametrize(
    "data, message",
    [
        ([], "must be a dict"),
        ({"documents": []}, "systems"),
        ({"systems": ["a", "b", "c"], "documents": []}, "1 or 2"),
        ({"systems": ["a", "a"], "documents": []}, "distinct"),
        ({"systems": ["a"], "documents": [{}]}, "name"),
    ],
)
def test_bad_data(data, message):
    with pytest.raises((TypeError, ValueError), match=message):
        render_report(data)


def test_nan_scores_render():
    data = synthetic_data(n_docs=1, n_systems=1)
    data["scores"]["coref-A"]["muc"]["f1"] = float("nan")
    page = render_report(data)
    assert "NaN" not in page.split('id="')[-1]  # the JSON stays valid


def test_litbank_sized_file():
    """100 documents x 2,000 words with 2 systems stays far below 20 MB."""
    data = synthetic_data(n_docs=100, n_sentences=230, seed=3)
    words = sum(len(s) for s in data["documents"][0]["sentences"])
    assert words >= 1900
    size = len(render_report(data).encode())
    assert size < 20 * 2**20, f"{size / 2**20:.1f} MB"


# ---------------------------------------------------------------------------
# Browser.


def _browser_path() -> str | None:
    env = os.environ.get("COREFSCORE_CHROMIUM")
    if env:
        return env if Path(env).exists() else None
    for name in ("chromium", "chromium-browser", "google-chrome"):
        p = shutil.which(name)
        if p:
            return p
    return None


def _artifact_path(suffix: str = "") -> Path:
    """The screenshot's path: COREFSCORE_ARTIFACTS (a .png, or a directory), ``suffix`` before ".png"."""
    target = Path(os.environ.get("COREFSCORE_ARTIFACTS", "artifacts/report.png"))
    if target.suffix.lower() != ".png":
        target = target / "report.png"
    target = target.with_name(target.stem + suffix + ".png")
    target.parent.mkdir(parents=True, exist_ok=True)
    return target


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip(
        "playwright.sync_api", reason="the browser tests need Playwright (pip install playwright)"
    )
    path = _browser_path()
    if path is None:
        pytest.skip("no Chromium found (apt-get install chromium, or set COREFSCORE_CHROMIUM)")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=path, args=["--no-sandbox", "--allow-file-access-from-files"])
        yield b
        b.close()


@pytest.fixture
def page_of(browser, tmp_path):
    """Open a report from file:// and collect console errors and page errors."""
    opened = []

    def open_report(data, width=1360, height=1000):
        path = tmp_path / "report.html"
        path.write_text(render_report(data), encoding="utf-8")
        page = browser.new_page(viewport={"width": width, "height": height})
        problems: list[str] = []
        page.on(
            "console",
            lambda m: problems.append(f"console {m.type}: {m.text}") if m.type in ("error", "warning") else None,
        )
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on(
            "request",
            lambda r: (
                problems.append(f"request: {r.url}") if not r.url.startswith(("file:", "data:", "about:")) else None
            ),
        )
        page.goto(path.as_uri())
        page.wait_for_selector(".cfs-key-text .m")
        opened.append(page)
        return page, problems

    yield open_report
    for p in opened:
        p.close()


def test_browser_report(page_of):
    data = synthetic_data()
    page, problems = page_of(data)

    # Score table: each number is the input, shown as a percentage.
    cells = page.query_selector_all(".cfs-scores td[data-metric]")
    assert len(cells) == len(data["metrics"]) * len(data["systems"]) * 3
    for td in cells:
        s, m, part = td.get_attribute("data-system"), td.get_attribute("data-metric"), td.get_attribute("data-part")
        want = data["scores"][s][m][part]
        assert float(td.get_attribute("data-value")) == want
        assert td.query_selector(".cfs-v").inner_text() == f"{100 * want:.2f}"
        lo, hi = data["scores"][s][m][part + "_ci"]
        assert td.query_selector(".cfs-ci").inner_text() == f"[{100 * lo:.2f}, {100 * hi:.2f}]"

    # Chart: one bar per category and system, with the input counts.
    bars = page.query_selector_all("svg.cfs-chart rect.bar")
    assert len(bars) == len(KK_CATEGORIES) * len(data["systems"])
    for bar in bars:
        want = data["error_counts"][bar.get_attribute("data-system")][bar.get_attribute("data-category")]
        assert float(bar.get_attribute("data-value")) == want
    assert {b.get_attribute("data-category") for b in bars} == set(KK_CATEGORIES)

    # Link errors by mention type: a 3 x 3 table per system and direction.
    links = page.query_selector_all(".cfs-links td[data-link]")
    assert len(links) == 9 * 2 * len(data["systems"])
    for td in links:
        want = data["link_counts"][td.get_attribute("data-system")][td.get_attribute("data-link")]
        assert float(td.get_attribute("data-value")) == want
        assert td.inner_text() == f"{want:g}"

    # Per-document table: one row per document, sortable by a metric.
    rows = page.query_selector_all(".cfs-docs tbody tr")
    assert len(rows) == len(data["documents"])
    header = page.locator(".cfs-docs thead th", has_text="bcub (coref-B)")
    header.click()  # descending first
    names = page.eval_on_selector_all(".cfs-docs tbody tr td.name", "tds => tds.map(t => t.textContent)")
    want = sorted(data["documents"], key=lambda d: -d["scores"]["coref-B"]["bcub"])
    assert names == [d["name"] for d in want]
    header.click()
    names = page.eval_on_selector_all(".cfs-docs tbody tr td.name", "tds => tds.map(t => t.textContent)")
    assert names == [d["name"] for d in reversed(want)]

    # Choosing a document shows its words, key and response.
    pick = 3
    doc = data["documents"][pick]
    page.select_option(".cfs-doc-select", str(pick))
    text = page.inner_text(".cfs-key-text")
    words = [w for s in doc["sentences"] for w in s]
    assert " ".join(words[:6]) in re.sub(r"\s*\d+\s*", " ", text).replace("  ", " ") or words[0] in text
    for w in set(words):
        assert w in text
    key_mentions = page.query_selector_all(".cfs-key-text .m")
    assert len(key_mentions) == sum(len(e) for e in doc["key"])
    resp_mentions = page.query_selector_all(".cfs-resp-text .m")
    assert len(resp_mentions) == sum(len(e) for e in doc["responses"]["coref-A"])

    # Clicking a mention highlights its entity on both sides.
    big = max(range(len(doc["key"])), key=lambda i: len(doc["key"][i]))
    page.click(f'.cfs-key-text .m[data-e="{big}"] >> nth=0')
    lit_key = page.eval_on_selector_all(".cfs-key-text .m.hl", "ns => ns.map(n => [+n.dataset.s, +n.dataset.t])")
    assert sorted(lit_key) == sorted(map(list, doc["key"][big]))
    lit_resp = page.eval_on_selector_all(".cfs-resp-text .m.hl", "ns => ns.map(n => [+n.dataset.s, +n.dataset.t])")
    resp_spans = {tuple(s) for e in doc["responses"]["coref-A"] for s in e}
    assert sorted(lit_resp) == sorted(list(s) for s in map(tuple, doc["key"][big]) if s in resp_spans)
    assert lit_resp, "the entity has mentions in the response"

    # Errors are marked on mentions, in their category's colour.
    err_spans = {tuple(s) for r in doc["errors"]["coref-A"] for s in r["mentions"]}
    marked = page.eval_on_selector_all(
        ".cfs-key-text .m.err, .cfs-resp-text .m.err", "ns => ns.map(n => [+n.dataset.s, +n.dataset.t])"
    )
    assert {tuple(m) for m in marked} <= err_spans
    assert len(page.query_selector_all(".cfs-errs li")) == len(doc["errors"]["coref-A"])

    # The second system.
    page.select_option(".cfs-sys-select", "coref-B")
    assert page.inner_text(".cfs-resp-title") == "coref-B"
    assert len(page.query_selector_all(".cfs-resp-text .m")) == sum(len(e) for e in doc["responses"]["coref-B"])

    # A screenshot of the whole report with an entity highlighted.
    page.click(f'.cfs-key-text .m[data-e="{big}"] >> nth=0')
    shot = _artifact_path("-synthetic")
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert problems == []


def test_browser_litbank_sized(page_of, capsys):
    """A LitBank-sized report opens and draws a document; times are reported, not asserted."""
    data = synthetic_data(n_docs=100, n_sentences=230, seed=3)
    page, problems = page_of(data)
    loaded = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
    # Drawing a document, layout included, measured inside the page.
    drawn = page.evaluate(
        """() => { const s = document.querySelector('.cfs-doc-select'); const t = performance.now();
                   s.value = '57'; s.dispatchEvent(new Event('change')); document.body.offsetHeight;
                   return performance.now() - t; }"""
    )
    # The document is longer than a window: the first 2,000 words are drawn, then the next ones.
    doc = data["documents"][57]
    n_words = sum(len(s) for s in doc["sentences"])
    assert n_words > 2000

    def overlapping(a, z):
        return sum(1 for e in doc["key"] for s, t in e if s < z and t >= a)

    assert page.eval_on_selector_all(".cfs-key-text .m", "ns => ns.length") == overlapping(0, 2000)
    assert page.inner_text(".cfs-win-label") == f"words 1–2000 of {n_words}"
    page.click(".cfs-win-next")
    assert page.inner_text(".cfs-win-label") == f"words 2001–{min(4000, n_words)} of {n_words}"
    assert page.eval_on_selector_all(".cfs-key-text .m", "ns => ns.length") == overlapping(2000, 4000)
    assert problems == []
    with capsys.disabled():
        print(
            f"\n[report] LitBank-sized ({len(render_report(data).encode()) / 2**20:.1f} MB): "
            f"page loaded at {loaded:.0f} ms, a document drawn in {drawn:.0f} ms"
        )


def test_browser_one_system(page_of):
    data = synthetic_data(n_docs=2, n_systems=1)
    page, problems = page_of(data)
    assert len(page.query_selector_all("svg.cfs-chart rect.bar")) == len(KK_CATEGORIES)
    assert not page.is_visible(".cfs-sys-select")
    assert problems == []


def test_browser_two_fragments(browser, tmp_path):
    """Two fragments on one page (as in a notebook) work independently."""
    a = synthetic_data(n_docs=2, n_systems=1, seed=1)
    b = synthetic_data(n_docs=3, n_systems=2, seed=2)
    path = tmp_path / "notebook.html"
    path.write_text(
        "<!DOCTYPE html><html><head><meta charset='utf-8'></head><body><h1>notebook</h1>"
        + render_report(a, full_page=False)
        + "<p>cell 2</p>"
        + render_report(b, full_page=False)
        + "</body></html>",
        encoding="utf-8",
    )
    page = browser.new_page()
    problems: list[str] = []
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.goto(path.as_uri())
    roots = page.query_selector_all(".cfs-report")
    assert len(roots) == 2
    assert len(roots[0].query_selector_all(".cfs-docs tbody tr")) == 2
    assert len(roots[1].query_selector_all(".cfs-docs tbody tr")) == 3
    roots[1].query_selector(".cfs-key-text .m").click()
    assert roots[1].query_selector_all(".m.hl")
    assert not roots[0].query_selector_all(".m.hl")
    assert problems == []
    page.close()


def test_browser_cli_report(browser, tmp_path):
    """`corefscore report` on the bundled example, opened from file:// (what the issue asks a browser to check)."""
    import corefscore
    from corefscore import cli

    examples = Path(__file__).resolve().parent.parent / "examples"
    key, resp = examples / "key.conll", examples / "response.conll"
    out = tmp_path / "report.html"
    assert cli.main(["report", str(key), str(resp), "-o", str(out)]) == 0
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: problems.append(r.url) if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(out.as_uri())
    page.wait_for_selector(".cfs-key-text .m")

    # The score table equals score_files; it leads with the CoNLL F1 and its bootstrap interval.
    result = corefscore.score_files(key, resp)
    _check_conll_row(page, "response.conll", result, corefscore.bootstrap(result, n=1000, seed=0))
    cells = page.query_selector_all('.cfs-scores td[data-metric]:not([data-metric="conll"])')
    assert len(cells) == 3 * len(result.metrics)
    for td in cells:
        m, part = td.get_attribute("data-metric"), td.get_attribute("data-part")
        want = getattr(result[m], part)
        assert float(td.get_attribute("data-value")) == pytest.approx(want, abs=1e-12)
        assert td.query_selector(".cfs-v").inner_text() == f"{100 * want:.2f}"

    # One bar per category, with the analysis' counts.
    analysis = corefscore.analyze_files(key, resp)
    bars = page.query_selector_all("svg.cfs-chart rect.bar")
    assert sorted(b.get_attribute("data-category") for b in bars) == sorted(KK_CATEGORIES)
    for b in bars:
        assert float(b.get_attribute("data-value")) == analysis.counts[b.get_attribute("data-category")]

    # Choosing a document shows its words.
    page.select_option(".cfs-doc-select", "1")
    text = page.inner_text(".cfs-key-text")
    for word in ("Dear", "Anna", "Paris", "brother", "beautiful"):
        assert word in text
    assert "John" not in text

    # Clicking a mention highlights its entity on both sides.
    first = page.query_selector(".cfs-key-text .m")
    entity = first.get_attribute("data-e")
    first.click()
    lit = page.eval_on_selector_all(".cfs-key-text .m.hl", "ns => ns.map(n => n.dataset.e)")
    assert lit and set(lit) == {entity}
    assert len(lit) == len(page.query_selector_all(f'.cfs-key-text .m[data-e="{entity}"]'))
    assert page.query_selector_all(".cfs-resp-text .m.hl")

    page.select_option(".cfs-doc-select", "0")
    page.click('.cfs-key-text .m[data-e="0"] >> nth=0')
    shot = _artifact_path()
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert problems == []
    page.close()


def _check_conll_row(page, system, result, intervals):
    """The first row of the score table is the CoNLL F1 of ``system``, with its interval; the lead line says it."""
    first = page.query_selector(".cfs-scores tbody tr")
    assert first.get_attribute("data-metric") == "conll"
    assert first.query_selector("th").inner_text() == "CoNLL F1"
    f1 = first.query_selector(f'td[data-system="{system}"][data-part="f1"]')
    assert float(f1.get_attribute("data-value")) == pytest.approx(result.conll_f1, abs=1e-12)
    assert f1.query_selector(".cfs-v").inner_text() == f"{100 * result.conll_f1:.2f}"
    ci = f1.query_selector(".cfs-ci")
    want = intervals["conll"]["f1"]
    assert float(ci.get_attribute("data-lo")) == pytest.approx(want.low, abs=1e-12)
    assert float(ci.get_attribute("data-hi")) == pytest.approx(want.high, abs=1e-12)
    lead = page.query_selector(f'.cfs-lead-sys[data-system="{system}"]')
    assert float(lead.get_attribute("data-value")) == pytest.approx(result.conll_f1, abs=1e-12)
    assert f"{100 * result.conll_f1:.2f}" in lead.inner_text()


def test_browser_cli_report_two_systems_agrees_with_compare(browser, tmp_path, capsys):
    """A two-system report: the CoNLL F1 row, and B - A, its interval and p-value equal `corefscore compare`'s."""
    import corefscore
    from corefscore import cli

    examples = Path(__file__).resolve().parent.parent / "examples"
    key, a = examples / "key.conll", examples / "response.conll"
    b = tmp_path / "system_b.conll"  # the key as system B: a better system on every metric
    b.write_bytes(key.read_bytes())
    out = tmp_path / "report.html"
    settings = ["--n", "500", "--seed", "3", "--confidence", "0.9"]
    assert cli.main(["report", str(key), str(a), str(b), "-o", str(out), *settings]) == 0
    assert capsys.readouterr().out == f"wrote {out} (2 documents, response.conll vs system_b.conll)\n"
    assert cli.main(["compare", str(key), str(a), str(b), "--json", *settings]) == 0
    compared = json.loads(capsys.readouterr().out)["metrics"]

    page = browser.new_page(viewport={"width": 1500, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.goto(out.as_uri())
    page.wait_for_selector(".cfs-key-text .m")

    result_a = corefscore.score_files(key, a)
    _check_conll_row(page, "response.conll", result_a, corefscore.bootstrap(result_a, n=500, seed=3, confidence=0.9))
    assert "conll" in compared
    for metric, want in compared.items():
        row = page.query_selector(f'.cfs-scores tbody tr[data-metric="{metric}"]')
        assert row is not None, metric
        diff = row.query_selector('td[data-part="difference"]')
        assert float(diff.get_attribute("data-value")) == pytest.approx(want["difference"], abs=1e-12)
        assert diff.inner_text() == f"{100 * want['difference']:+.2f}"
        ci = row.query_selector('td[data-part="interval"]')
        assert float(ci.get_attribute("data-lo")) == pytest.approx(want["low"], abs=1e-12)
        assert float(ci.get_attribute("data-hi")) == pytest.approx(want["high"], abs=1e-12)
        p_value = row.query_selector('td[data-part="p_value"]')
        assert float(p_value.get_attribute("data-value")) == want["p_value"]
        assert p_value.inner_text() == f"{want['p_value']:.4f}"
    lead = page.query_selector(".cfs-lead-diff")
    assert float(lead.get_attribute("data-value")) == pytest.approx(compared["conll"]["difference"], abs=1e-12)
    assert f"p = {compared['conll']['p_value']:.4f}" in lead.inner_text()

    # The per-document table sorts by the difference of the CoNLL F1 (B - A), largest first.
    header = page.query_selector('.cfs-docs thead th:has-text("CoNLL F1 (B - A)")')
    header.click()
    shown = [float(td.get_attribute("data-value")) for td in page.query_selector_all(".cfs-docs tbody td.cfs-doc-diff")]
    per_a = {d.doc_names[0]: d.conll_f1 for d in result_a.per_document()}
    want_diffs = sorted((1.0 - f for f in per_a.values()), reverse=True)
    assert shown == pytest.approx(want_diffs, abs=1e-12)
    assert problems == []
    page.close()


# ---------------------------------------------------------------------------
# A report of one huge document, and one of hostile strings, through the command line's road (issue 20).


@pytest.fixture(scope="module")
def huge_report(tmp_path_factory):
    """`corefscore report` on one synthetic 200k-mention document (about 2.4M words): the page's path."""
    from corefscore import cli
    from fixtures.perturb import write_synthetic_corpus

    d = tmp_path_factory.mktemp("huge")
    key, resp = write_synthetic_corpus(d, seed=0, n_docs=1, n_mentions=200_000, n_entities=45_685)
    out = d / "report.html"
    assert cli.main(["report", key, resp, "-o", str(out), "--n", "100"]) == 0
    return out


def test_huge_document_page_stays_small(huge_report):
    """The page stays under 25 MB; it holds the document's first words, as many as fit, and says how many."""
    from corefscore.report_html import PAGE_LIMIT

    size = huge_report.stat().st_size
    assert size < min(PAGE_LIMIT, 25 * 10**6), f"{size / 1e6:.1f} MB"
    body = _bodies(huge_report.read_text(encoding="utf-8"))[0]
    assert body["n"] > 2_000_000 and 0 < body["shown"] <= body["n"]
    words = body["w"].split(" ")
    assert len(words) == body["shown"] and words[:3] == ["w0", "w1", "w2"]
    assert len(body["k"]) > 3 * 100_000, "the mentions inside the embedded words are there"


def test_the_engine_keeps_only_the_words_asked_for():
    """words_limit: the key's first words only, at most that many bytes; every document still counts all its words."""
    from corefscore import _api, report

    examples = Path(__file__).resolve().parent.parent / "examples"
    key, resp = examples / "key.conll", examples / "response.conll"
    full = _api._report_files(key, resp)[2]
    assert len(full["words"]) > 60
    for limit in (1, 40, len(full["words"]) - 1):
        cut = _api._report_files(key, resp, words_limit=limit)[2]
        n = len(cut["word_offsets"]) - 1
        assert cut["word_offsets"][n] <= limit and n < len(full["word_offsets"]) - 1
        assert list(cut["word_offsets"]) == list(full["word_offsets"][:n + 1])
        assert cut["words"][:cut["word_offsets"][n]] == full["words"][:cut["word_offsets"][n]]
        assert list(cut["sentence_ends"]) == list(full["sentence_ends"])
        whole = [len(d["word_offsets"]) - 1 for d in report._documents(full)]
        assert [d["n_words"] for d in report._documents(cut)] == whole
        assert [d["n_words"] for d in report._documents(full)] == whole
    with pytest.raises(ValueError, match="words_limit"):
        _api._report_files(key, resp, words_limit=0)


def _open(browser, path, viewport=(1360, 1000)):
    page = browser.new_page(viewport={"width": viewport[0], "height": viewport[1]})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"{m.type}: {m.text}") if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("request", lambda r: problems.append(r.url) if not r.url.startswith(("file:", "data:", "about:")) else None)
    return page, problems


def test_browser_huge_document(browser, huge_report, capsys):
    """The 200k-mention page opens, draws its first window, moves by windows and jumps to the next error."""
    page, problems = _open(browser, huge_report)
    page.goto(huge_report.as_uri())
    page.wait_for_selector(".cfs-key-text .m")
    loaded = page.evaluate("() => performance.getEntriesByType('navigation')[0].loadEventEnd")
    body = _bodies(huge_report.read_text(encoding="utf-8"))[0]
    assert len(page.query_selector_all(".cfs-docs tbody tr")) == 1
    assert page.is_visible(".cfs-window")
    assert page.inner_text(".cfs-win-label") == f"words 1–2000 of {body['shown']}"
    assert "w0 w1 w2" in re.sub(r"\s+", " ", page.inner_text(".cfs-key-text"))
    assert page.is_visible(".cfs-doc-note") and f"{body['n']}" in page.inner_text(".cfs-doc-note")
    first_window = page.eval_on_selector_all(".cfs-key-text .m", "ns => ns.length")
    assert first_window > 0
    assert page.is_disabled(".cfs-win-prev")

    moved = page.evaluate("""() => { const t = performance.now(); document.querySelector('.cfs-win-next').click();
                                      document.body.offsetHeight; return performance.now() - t; }""")
    assert page.inner_text(".cfs-win-label") == f"words 2001–4000 of {body['shown']}"
    assert "w2000 w2001" in re.sub(r"\s+", " ", page.inner_text(".cfs-key-text"))
    starts = page.eval_on_selector_all(".cfs-key-text .m", "ns => ns.map(n => +n.dataset.t)")
    assert starts and min(starts) >= 2000, "the mentions drawn reach into the window"

    # The next error after word 4000: its window is drawn and its mention marked.
    page.click(".cfs-win-err")
    label = page.inner_text(".cfs-win-label")
    first = int(re.match(r"words (\d+)–", label).group(1))
    assert first > 2000
    assert page.query_selector_all(".cfs-key-text .m.err, .cfs-resp-text .m.err")
    page.click(".cfs-win-prev")
    assert page.inner_text(".cfs-win-label").startswith(f"words {max(1, first - 2000)}–")
    assert problems == []
    with capsys.disabled():
        print(f"\n[report] 200k mentions ({huge_report.stat().st_size / 2**20:.1f} MB): loaded and first window "
              f"drawn at {loaded:.0f} ms; next window drawn in {moved:.0f} ms")
    page.close()


HOSTILE_WORDS = ["<!--", "</script>", "<script>window.cfsPwned=1</script>", "]]>", "\u2028", "\u2029", "-->", "&amp;"]


def test_browser_hostile_strings(browser, tmp_path):
    """Words and document names that could end a script or a comment are shown as text, and nothing runs."""
    from corefscore import cli

    def conll(path, docs):
        lines = []
        for name, coref in docs:
            lines.append(f"#begin document ({name}); part 000")
            words = [*HOSTILE_WORDS, "fine"]
            lines += [f"{name}\t0\t{i}\t{w}\t-\t-\t-\t-\t-\t-\t*\t{c}" for i, (w, c) in enumerate(zip(words, coref))]
            lines += ["", "#end document"]
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")

    n = len(HOSTILE_WORDS) + 1
    names = ["a</script><script>window.cfsPwned=2</script>", "b<!--\u2028\u2029]]>"]
    key, resp, out = tmp_path / "key.conll", tmp_path / "resp.conll", tmp_path / "report.html"
    conll(key, [(m, ["(0"] + ["-"] * (n - 3) + ["0)", "(1)"]) for m in names])
    conll(resp, [(m, ["(0)"] + ["-"] * (n - 2) + ["(1)"]) for m in names])
    assert cli.main(["report", str(key), str(resp), "-o", str(out), "--n", "50"]) == 0
    page, problems = _open(browser, out)
    page.goto(out.as_uri())
    page.wait_for_selector(".cfs-key-text .m")
    shown = page.eval_on_selector_all(".cfs-docs tbody td.name", "tds => tds.map(t => t.textContent)")
    assert shown == [f"({m}); part 000" for m in names]
    assert page.evaluate("() => window.cfsPwned") is None
    for i in (0, 1):
        page.select_option(".cfs-doc-select", str(i))
        words = page.eval_on_selector(".cfs-key-text p", "p => p.textContent")
        for w in HOSTILE_WORDS:
            assert w in words, (w, words)
        assert len(page.query_selector_all(".cfs-key-text .m")) == 2
    assert problems == []
    page.close()


def test_page_limit_cuts_documents_in_order(monkeypatch):
    """Under a small page limit: whole documents first, then one cut to its first words, then none; within limit."""
    from corefscore import report_html

    data = synthetic_data(n_docs=6, n_systems=2, n_sentences=120, seed=5)
    full = render_report(data)
    whole = _bodies(full)
    head, sizes = _embedded_sizes(full)
    monkeypatch.setattr(report_html, "_MIN_BODY", 2_000)
    limit = head + report_html._PAGE_OVERHEAD + sizes[0] + sizes[1] + sizes[2] // 2
    monkeypatch.setattr(report_html, "PAGE_LIMIT", limit)
    page = render_report(data)
    assert len(page.encode()) <= limit
    bodies = _bodies(page)
    assert bodies[0] == whole[0] and bodies[1] == whole[1]
    cut = bodies[2]
    assert 0 < cut["shown"] < cut["n"] == whole[2]["n"]
    assert cut["w"].split(" ") == whole[2]["w"].split(" ")[:cut["shown"]]
    assert set(bodies) == {0, 1, 2}, "later documents keep their table rows only"
    # The cut document's mentions are those of the whole one that end inside the words kept.
    def spans(flat):
        out, pos = [], 0
        for i in range(0, len(flat), 3):
            pos += flat[i]
            out.append((pos, pos + flat[i + 1], flat[i + 2]))
        return out
    assert spans(cut["k"]) == [m for m in spans(whole[2]["k"]) if m[1] < cut["shown"]]
    assert sum(len(e["c"]) for e in cut["e"].values()) < sum(len(e["c"]) for e in whole[2]["e"].values())


def _embedded_sizes(page: str) -> tuple[int, list[int]]:
    """The bytes of a page's table data and of each document's embedded block."""
    head = re.search(r'<script type="application/json" id="[^"]+-data">(.*?)</script>', page, re.S).group(1)
    docs = re.findall(r'<script type="application/json" id="[^"]+-doc-\d+">(.*?)</script>', page, re.S)
    return len(head.encode()), [len(b.encode()) for b in docs]


def test_browser_documents_beyond_the_page_limit(page_of, monkeypatch):
    """A document whose text is not in the page: its row is there, the viewer says why and draws nothing."""
    from corefscore import report_html

    data = synthetic_data(n_docs=4, n_systems=1, n_sentences=120, seed=6)
    head, sizes = _embedded_sizes(render_report(data))
    monkeypatch.setattr(report_html, "_MIN_BODY", sizes[1] + 1)
    monkeypatch.setattr(report_html, "PAGE_LIMIT", head + report_html._PAGE_OVERHEAD + sizes[0] + sizes[1])
    page, problems = page_of(data)
    assert len(page.query_selector_all(".cfs-docs tbody tr")) == 4
    assert not page.is_visible(".cfs-doc-note")
    page.select_option(".cfs-doc-select", "3")
    assert page.is_visible(".cfs-doc-note") and "not in the page" in page.inner_text(".cfs-doc-note")
    assert page.query_selector_all(".cfs-key-text .m") == []
    page.select_option(".cfs-doc-select", "0")
    assert page.query_selector_all(".cfs-key-text .m") and not page.is_visible(".cfs-doc-note")
    assert problems == []


def test_lone_surrogates_in_words_and_names():
    """A word or name holding a lone surrogate (a str decoded with surrogateescape) gives a valid UTF-8 page."""
    data = synthetic_data(n_docs=1, n_systems=1)
    doc = data["documents"][0]
    doc["name"] = "a\udfffb"
    doc["sentences"][0][0] = "x\ud800y"
    page = render_report(data)
    page.encode("utf-8")  # no lone surrogate left as a character
    words = _bodies(page)[0]["w"].split(" ")
    assert words[0].startswith("x") and words[0].endswith("y") and "\ufffd" in words[0]
    assert words[1:4] == doc["sentences"][0][1:4]
    head = re.search(r'<script type="application/json" id="[^"]+-data">(.*?)</script>', page, re.S).group(1)
    assert json.loads(head)["documents"][0]["name"] == "a\udfffb"
