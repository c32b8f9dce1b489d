"""Print the UA scorer's counts as JSON, for tests/test_ua.py.

Run with a Python that has NumPy and SciPy (and udapi for the CorefUD scorer):
``python tests/ua_peer_counts.py SCORER_DIR KEY RESPONSE MODE [paper|middle]`` where MODE
is one of default, remove_singletons_split, remove_split_antecedent,
only_split_antecedent, keep_non_referring_bridging, evaluate_discourse_deixis, min, or
conll (the UA scorer's CoNLL-2012 reader, for the files of its tests/ folder). It
imports the scorer's modules from SCORER_DIR (the UA scorer's ``coval``, or the CorefUD
scorer's ``scorer`` package, its UA scorer v2.0) and prints, per metric, its summed
(recall_num, recall_den, precision_num, precision_den) over documents, and the names of
the documents scored.
With ``paper``, every cluster is reordered to put its split antecedent first: in that
order the scorer's LEA and BLANC weight each link with a split antecedent once by its
alignment score, the reading of Paun et al. (2022) that corefscore follows.
With ``middle``, the split antecedent is moved to the middle of its cluster instead, an
order the scorer's sets can produce, to show what its LEA and BLANC then give.
"""
import json
import os
import sys

scorer_dir, key_path, resp_path, mode = sys.argv[1:5]
paper = "paper" in sys.argv[5:]
middle = "middle" in sys.argv[5:]
sys.path.insert(0, scorer_dir)
# The CorefUD scorer (github ufal/corefud-scorer) carries the UA scorer v2.0 as its ``scorer`` package.
COREFUD = os.path.isdir(os.path.join(scorer_dir, "scorer", "ua"))

if COREFUD:
    from scorer.eval import evaluator
    from scorer.ua.reader import UAReader
else:
    from coval.eval import evaluator
    from coval.ua import reader

MODES = {
    "default": {},
    "remove_singletons_split": {"keep_singletons": False, "keep_split_antecedent": False},
    "remove_split_antecedent": {"keep_split_antecedent": False},
    "only_split_antecedent": {"only": True},
    "keep_non_referring_bridging": {"keep_non_referring": True, "keep_bridging": True},
    "evaluate_discourse_deixis": {"dd": True},
    "min": {"use_min": True},
    "conll": {},
}
m = MODES[mode]



def _reorder(original):
    def reorder(*args, **kwargs):
        clusters, *rest = original(*args, **kwargs)
        for c in clusters:
            c.sort(key=lambda x: not x.is_split_antecedent)
            if middle and c and c[0].is_split_antecedent:
                c.insert(len(c) // 2, c.pop(0))
        return (clusters, *rest)
    return reorder


if mode == "conll":  # the UA scorer's CoNLL-2012 road (its tests/ folder): no singletons removed, no NP filter
    from coval.conll import reader as conll_reader

    infos = conll_reader.get_coref_infos(key_path, resp_path, False, False, True)
    nonref = bridging = {}
elif COREFUD:
    if paper or middle:
        UAReader.process_clusters = _reorder(UAReader.process_clusters)
    ua = UAReader(keep_singletons=m.get("keep_singletons", True),
                  keep_split_antecedents=m.get("keep_split_antecedent", True) or m.get("only", False),
                  keep_bridging=m.get("keep_bridging", False), keep_non_referring=m.get("keep_non_referring", False),
                  evaluate_discourse_deixis=m.get("dd", False))
    ua.get_coref_infos(key_path, resp_path)
    infos = ua.doc_discourse_deixis_infos if m.get("dd") else ua.doc_coref_infos
    nonref, bridging = ua.doc_non_referring_infos, ua.doc_bridging_infos
else:
    if paper or middle:
        reader.process_clusters = _reorder(reader.process_clusters)
    infos, nonref, bridging = reader.get_coref_infos(
        key_path, resp_path, m.get("keep_singletons", True), m.get("keep_split_antecedent", True),
        m.get("keep_bridging", False), m.get("keep_non_referring", False), m.get("dd", False), m.get("use_min", False))
out = {"documents": list(infos)}
metrics = {"muc": evaluator.muc, "bcub": evaluator.b_cubed, "ceafe": evaluator.ceafe, "ceafm": evaluator.ceafm,
           "lea": evaluator.lea, "blanc.coref": evaluator.blancc, "blanc.noncoref": evaluator.blancn}
for name, metric in metrics.items():
    ev = evaluator.Evaluator(metric)
    for doc in infos:
        ev.update(infos[doc])
    pn, pd, rn, rd = ev.split_antecedent_counter if m.get("only") else ev.get_counts()
    out[name] = [float(rn), float(rd), float(pn), float(pd)]
if m.get("keep_non_referring"):
    tp = fn = fp = 0
    for k, s in nonref.values():
        tp += sum(1 for x in k if x in s)
        fn += sum(1 for x in k if x not in s)
        fp += sum(1 for x in s if x not in k)
    out["non_referring"] = [tp, tp + fn, tp, tp + fp]
if m.get("keep_bridging"):
    ar, fbm, fbe = evaluator.evaluate_bridgings(bridging)
    out["bridging_scores"] = [list(ar), list(fbm), list(fbe)]
print(json.dumps(out))
