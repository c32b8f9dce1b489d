"""Seeded random CoNLL-UA key/response pairs, for the UA tests and bench/ua_bench.py.

A key document has nested (never crossing, never repeated) markables in entities,
some non-referring (-Pseudo), plural entities whose antecedents (2-4 entities) name
them with ElementOf, Min spans, bridging pairs and a discourse deixis column; the
response perturbs it (markables dropped or added, entities merged and split,
antecedents changed, spans moved inside their key markable).
"""
from __future__ import annotations

import random

HEADER = "# global.columns = ID FORM LEMMA UPOS XPOS FEATS HEAD DEPREL DEPS MISC IDENTITY BRIDGING DISCOURSE_DEIXIS"


def _spans(rng: random.Random, n_tokens: int, n: int, taken: set | None = None) -> list[tuple[int, int]]:
    """Up to n spans that neither cross nor repeat each other (or those of ``taken``)."""
    out: list[tuple[int, int]] = list(taken or ())
    new = []
    for _ in range(n * 4):
        if len(new) >= n:
            break
        s = rng.randrange(n_tokens)
        e = min(n_tokens - 1, s + rng.choice([0, 0, 0, 1, 1, 2, 3]))
        if any((s, e) == x or (x[0] < s <= x[1] < e) or (s < x[0] <= e < x[1]) for x in out):
            continue
        out.append((s, e))
        new.append((s, e))
    return new


class _Doc:
    def __init__(self, n_tokens: int):
        self.n_tokens = n_tokens
        self.marks: list[dict] = []  # span, entity, element_of, min, id
        self.bridges: list[tuple[str, str]] = []
        self.deixis: list[dict] = []


def _key(rng: random.Random, n_tokens: int) -> _Doc:
    d = _Doc(n_tokens)
    spans = _spans(rng, n_tokens, rng.randint(6, 16))
    n_entities = max(1, len(spans) // 2)
    for i, sp in enumerate(spans):
        ent = str(rng.randrange(n_entities))
        if rng.random() < 0.1:
            ent = f"{i}-Pseudo"
        mn = None
        if sp[1] > sp[0] and rng.random() < 0.6:
            a = rng.randint(sp[0], sp[1])
            mn = (a, rng.randint(a, sp[1]))
        d.marks.append({"span": sp, "entity": ent, "element_of": [], "min": mn, "id": f"m{i}"})
    _plurals(rng, d)
    referring = [m for m in d.marks if not m["entity"].endswith("-Pseudo")]
    for _ in range(rng.randint(0, 3)):
        a, b = rng.sample(d.marks, 2) if len(d.marks) >= 2 else (None, None)
        if a is not None:
            d.bridges.append((a["id"], b["id"]))
    dd = _spans(rng, n_tokens, rng.randint(0, 5))
    for i, sp in enumerate(dd):
        d.deixis.append({"span": sp, "entity": f"d{rng.randrange(max(1, len(dd) // 2))}", "element_of": [],
                         "min": None, "id": f"dd{i}"})
    del referring
    return d


def _plurals(rng: random.Random, d: _Doc) -> None:
    """Make some entities plurals of 2-4 others (acyclic: a plural is never an antecedent)."""
    entities = sorted({m["entity"] for m in d.marks if not m["entity"].endswith("-Pseudo")})
    rng.shuffle(entities)
    if len(entities) < 3:
        return
    n_plural = rng.randint(0, min(2, len(entities) // 3))
    plurals, rest = entities[:n_plural], entities[n_plural:]
    for p in plurals:
        for ante in rng.sample(rest, min(len(rest), rng.randint(2, 4))):
            marks = [m for m in d.marks if m["entity"] == ante]
            m = rng.choice(marks)
            m["element_of"].append(p)


def _response(rng: random.Random, key: _Doc) -> _Doc:
    d = _Doc(key.n_tokens)
    entity_map = {}
    kept_ids = set()
    for m in key.marks:
        if rng.random() < 0.12:
            continue
        ent = m["entity"]
        if ent not in entity_map:
            r = rng.random()
            entity_map[ent] = ent if r < 0.7 else (f"r{rng.randrange(4)}" if r < 0.9 else f"{ent}-Pseudo")
        new_ent = entity_map[ent] if rng.random() < 0.85 else f"s{rng.randrange(3)}"
        span = m["span"]
        if rng.random() < 0.15 and span[1] > span[0]:
            span = (span[0] + 1, span[1]) if rng.random() < 0.5 else (span[0], span[1] - 1)
        el = [entity_map.get(p, p) for p in m["element_of"] if rng.random() < 0.85]
        d.marks.append({"span": span, "entity": new_ent, "element_of": el, "min": None, "id": m["id"]})
        kept_ids.add(m["id"])
    # Spans must stay unique and nested on the response side too.
    seen, ok = [], []
    for m in sorted(d.marks, key=lambda m: (m["span"][0], -m["span"][1])):
        s, e = m["span"]
        if any((s, e) == x or (x[0] < s <= x[1] < e) or (s < x[0] <= e < x[1]) for x in seen):
            continue
        seen.append((s, e))
        ok.append(m)
    d.marks = ok
    for i, sp in enumerate(_spans(rng, key.n_tokens, rng.randint(0, 3), set(seen))):
        d.marks.append({"span": sp, "entity": str(rng.randrange(6)), "element_of": [], "min": None, "id": f"x{i}"})
    ids = {m["id"] for m in d.marks}
    # A plural whose antecedents are its own elements would be a cycle: drop such ElementOf.
    _break_cycles(d)
    d.bridges = [b for b in key.bridges if b[0] in ids and b[1] in ids and rng.random() < 0.8]
    if rng.random() < 0.5 and len(d.marks) >= 2:
        a, b = rng.sample(d.marks, 2)
        d.bridges.append((a["id"], b["id"]))
    d.deixis = [dict(m, entity=m["entity"] if rng.random() < 0.8 else "d9") for m in key.deixis if rng.random() < 0.9]
    return d


def _break_cycles(d: _Doc) -> None:
    children: dict[str, set] = {}
    for m in d.marks:
        for p in m["element_of"]:
            children.setdefault(p, set()).add(m["entity"])

    def reaches(a: str, b: str, seen: set) -> bool:
        if a == b:
            return True
        seen.add(a)
        return any(reaches(c, b, seen) for c in children.get(a, ()) if c not in seen)

    for m in d.marks:
        keep = []
        for p in m["element_of"]:
            if not reaches(m["entity"], p, set()):
                keep.append(p)
                children.setdefault(p, set()).add(m["entity"])
        m["element_of"] = keep


def _column(marks: list[dict], n_tokens: int, with_min: bool) -> list[str]:
    cells = [""] * n_tokens
    # Open outer markables first; close inner ones first.
    order = sorted(marks, key=lambda m: (m["span"][0], -m["span"][1]))
    closes: dict[int, list] = {}
    for m in order:
        s, e = m["span"]
        attrs = f"EntityID={m['entity']}|MarkableID={m['id']}"
        if with_min and m.get("min"):
            attrs += f"|Min={m['min'][0] + 1},{m['min'][1] + 1}"
        if m["element_of"]:
            attrs += "|ElementOf=" + ",".join(m["element_of"])
        if s == e:
            cells[s] += "(" + attrs + ")"
        else:
            cells[s] += "(" + attrs
            closes.setdefault(e, []).append(m)
    for t, ms in closes.items():
        cells[t] = ")" * len(ms) + cells[t]
    return [c or "_" for c in cells]


def _write(doc: _Doc, name: str, with_min: bool) -> list[str]:
    ident = _column(doc.marks, doc.n_tokens, with_min)
    deixis = _column(doc.deixis, doc.n_tokens, False)
    bridging = ["_"] * doc.n_tokens
    start = {m["id"]: m["span"][0] for m in doc.marks}
    last = {}
    for ana, ant in doc.bridges:
        last[ana] = ant
    for ana, ant in last.items():
        t = start[ana]
        bridging[t] = (bridging[t] if bridging[t] != "_" else "") + f"(MarkableID={ana}|MentionAnchor={ant})"
    lines = [f"# newdoc id = {name}"]
    for t in range(doc.n_tokens):
        if t % 8 == 0:
            lines.append(f"# sent_id = {name}-{t // 8}")
        lines.append("\t".join([str(t % 8 + 1), f"w{t}"] + ["_"] * 8 + [ident[t], bridging[t], deixis[t]]))
    lines.append("")
    return lines


def random_pair(seed: int, n_docs: int) -> tuple[str, str]:
    """The text of a key file and of a response file with n_docs documents each."""
    rng = random.Random(seed)
    key, resp = [HEADER], [HEADER]
    for i in range(n_docs):
        n_tokens = rng.randint(12, 40)
        k = _key(rng, n_tokens)
        r = _response(rng, k)
        key += _write(k, f"doc{i}", True)
        resp += _write(r, f"doc{i}", False)
    return "\n".join(key) + "\n", "\n".join(resp) + "\n"
