"""Seeded CoNLL-2012 test fixtures: perturbed copies of real files and synthetic corpora as files.

Used by the command-line tests and benchmarks (``tests/test_cli*.py``,
``bench/cli_bench.py``); not part of the public API.

:func:`perturb_conll_file` rewrites only the coreference column (the last one)
of a CoNLL-2012 file, so the perturbed file has the same documents and tokens
as the original and can be scored against it. The perturbation, per document,
drawn from ``random.Random(seed)``:

- ``drop``: each mention is removed with this probability;
- ``shift``: each mention's end moves one token right (when that stays in the
  document and does not hit another mention's span);
- ``move``: each mention moves to another random cluster;
- ``split``: each cluster gives half of its mentions to a new cluster;
- ``merge``: each cluster is merged into another random cluster;
- ``add``: ``add * n_mentions`` spurious one-token mentions at random free
  tokens, each joining a random cluster.

Mentions are read with the reference scorer's bracket rules (a closing
bracket closes the last opened mention of its entity).
"""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterable, Sequence
from typing import Any

_ITEM = re.compile(r"\((\d+)\)|\((\d+)|(\d+)\)")

#: Default perturbation rates.
RATES = {"drop": 0.08, "shift": 0.03, "move": 0.05, "split": 0.10, "merge": 0.10, "add": 0.08}

Mention = tuple[int, int, int]  # (start, end, cluster)


def _is_begin(line: str) -> bool:
    return re.match(r"#\s*begin document ", line) is not None


def _is_end(line: str) -> bool:
    return re.search(r"#\s*end document", line) is not None


def read_mentions(lines: Sequence[str]) -> list[tuple[int, int, int, list[Mention]]]:
    """Documents of a CoNLL-2012 file: ``(begin line index, end line index, n_tokens, mentions)``."""
    docs = []
    begin = -1
    pos = 0
    open_: dict[int, list[int]] = {}
    mentions: list[Mention] = []
    for i, raw in enumerate(lines):
        line = raw.rstrip("\r\n")
        if begin < 0:
            if _is_begin(line):
                begin, pos, open_, mentions = i, 0, {}, []
            continue
        if _is_end(line):
            docs.append((begin, i, pos, mentions))
            begin = -1
            continue
        if not line.strip():
            continue
        cell = line.split("\t")[-1] if "\t" in line else line.split()[-1]
        for single, opening, _ in _ITEM.findall(cell):
            if single:
                mentions.append((pos, pos, int(single)))
            elif opening:
                open_.setdefault(int(opening), []).append(pos)
        for _, _, closing in _ITEM.findall(cell):
            if closing:
                stack = open_.get(int(closing))
                if stack:
                    mentions.append((stack.pop(), pos, int(closing)))
        pos += 1
    return docs


def perturb_mentions(mentions: Sequence[Mention], n_tokens: int, rng: random.Random, **rates: float) -> list[Mention]:
    """A seeded system response made from one document's key mentions (see the module doc)."""
    r = {**RATES, **rates}
    out = [list(m) for m in mentions]
    clusters = sorted({m[2] for m in out})
    top = (max(clusters) + 1) if clusters else 0
    # Split and merge clusters.
    for c in clusters:
        if rng.random() < r["split"]:
            members = [m for m in out if m[2] == c]
            for m in members[len(members) // 2 :]:
                m[2] = top
            top += 1
    ids = sorted({m[2] for m in out})
    into = {c: (rng.choice(ids) if rng.random() < r["merge"] else c) for c in ids}
    for m in out:
        m[2] = into[m[2]]
    # Move single mentions.
    ids = sorted({m[2] for m in out})
    for m in out:
        if ids and rng.random() < r["move"]:
            m[2] = rng.choice(ids)
    # Shift ends and drop mentions.
    taken = {(m[0], m[1]) for m in out}
    kept = []
    for m in out:
        if rng.random() < r["shift"] and m[1] + 1 < n_tokens and (m[0], m[1] + 1) not in taken:
            taken.discard((m[0], m[1]))
            m[1] += 1
            taken.add((m[0], m[1]))
        if rng.random() < r["drop"]:
            taken.discard((m[0], m[1]))
            continue
        kept.append(m)
    # Add spurious one-token mentions.
    ids = sorted({m[2] for m in kept}) or [0]
    for _ in range(int(r["add"] * len(mentions))):
        t = rng.randrange(n_tokens) if n_tokens else 0
        if n_tokens and (t, t) not in taken:
            taken.add((t, t))
            kept.append([t, t, rng.choice(ids)])
    return [(s, e, c) for s, e, c in kept]


def coref_cells(n_tokens: int, mentions: Iterable[Mention]) -> list[str]:
    """The coreference column of a document: one cell per token (``-`` when empty)."""
    opens: list[list[str]] = [[] for _ in range(n_tokens)]
    singles: list[list[str]] = [[] for _ in range(n_tokens)]
    closes: list[list[str]] = [[] for _ in range(n_tokens)]
    # Longer mentions open first and close last, so nested spans stay balanced.
    for s, e, c in sorted(mentions, key=lambda m: (m[0], -m[1])):
        if s == e:
            singles[s].append(f"({c})")
        else:
            opens[s].append(f"({c}")
            closes[e].insert(0, f"{c})")
    return ["|".join(o + x + c) or "-" for o, x, c in zip(opens, singles, closes)]


def perturb_conll_file(src: Any, dst: Any, seed: int = 0, **rates: float) -> None:
    """Write ``dst``: ``src`` with each document's coreference column perturbed (seeded).

    Every other column, comment and blank line is kept; a token line whose
    coreference cell was empty gets ``-``.
    """
    with open(src, encoding="utf-8") as f:
        lines = f.read().split("\n")
    rng = random.Random(seed)
    for begin, end, n_tokens, mentions in read_mentions(lines):
        cells = coref_cells(n_tokens, perturb_mentions(mentions, n_tokens, rng, **rates))
        t = 0
        for i in range(begin + 1, end):
            line = lines[i]
            if not line.strip() or line.startswith("#"):
                continue
            sep = "\t" if "\t" in line else " "
            cols = line.rstrip("\r").split(sep)
            cols[-1] = cells[t]
            lines[i] = sep.join(cols)
            t += 1
    with open(dst, "w", encoding="utf-8") as f:
        f.write("\n".join(lines))


def write_conll(path: Any, docs: Sequence[tuple[str, int, Iterable[Mention]]], sentence: int = 20) -> None:
    """Write documents ``(name, n_tokens, mentions)`` as a CoNLL-2012 file.

    Columns: document name, part, token index, word, and the coreference
    column; a blank line every ``sentence`` tokens.
    """
    out = []
    for name, n_tokens, mentions in docs:
        out.append(f"#begin document ({name}); part 000")
        for t, cell in enumerate(coref_cells(n_tokens, mentions)):
            if t and t % sentence == 0:
                out.append("")
            out.append(f"{name}\t0\t{t % sentence}\tw{t}\t{cell}")
        out.append("")
        out.append("#end document")
    with open(path, "w", encoding="utf-8") as f:
        f.write("\n".join(out) + "\n")


def write_synthetic_corpus(directory: Any, seed: int = 0, **sizes: Any) -> tuple[str, str]:
    """Write :func:`corefscore.synthetic.synthetic_corpus` (CoNLL-2012-test-sized) as two files.

    Returns the paths of the key and the response file (``key.conll`` and
    ``response.conll`` in ``directory``). Both files give every document the
    same number of tokens (one past the last mention of either side).
    """
    import numpy as np

    from .synthetic import synthetic_corpus

    corpus = synthetic_corpus(seed=seed, **sizes)
    key_docs, resp_docs = [], []
    for name, k, r in zip(corpus.names, corpus.key, corpus.response):
        ks = np.asarray(k.mentions).tolist()
        rs = np.asarray(r.mentions).tolist()
        n_tokens = max(e for _, e in ks + rs) + 1
        key_docs.append((name, n_tokens, [(s, e, c) for (s, e), c in zip(ks, np.asarray(k.clusters).tolist())]))
        resp_docs.append((name, n_tokens, [(s, e, c) for (s, e), c in zip(rs, np.asarray(r.clusters).tolist())]))
    key_path = os.path.join(directory, "key.conll")
    resp_path = os.path.join(directory, "response.conll")
    write_conll(key_path, key_docs)
    write_conll(resp_path, resp_docs)
    return key_path, resp_path
