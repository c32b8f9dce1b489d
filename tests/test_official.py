"""The reference tools' own numbers (issue 23): CEAF_e ties as the CoNLL scorer breaks them, an empty response file.

The expected lines were printed once by the reference scorer v8.01; with ``COREFSCORE_REFERENCE_SCORER`` set,
the tests also run it and compare whole outputs.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from _helpers import HAVE_PERL, REFERENCE_SCORER
from corefscore import cli

#: Key and response cells of the 8-token document whose optimal CEAF_e alignments tie (issue 23).
TIED_KEY = "(3)(1)(5)(2)(3)(0)(0)(4)"
TIED_RESPONSE = "(1)(0)(3)(3)(2)(0)(2)(1)"
#: What the reference printed for it; another optimal alignment prints 62.49% and 49.99%.
TIED_CEAFE = "Coreference: Recall: (2.5 / 6) 41.66%\tPrecision: (2.5 / 4) 62.5%\tF1: 50%"


def write_cells(path: Path, cells: str, name: str = "(doc); part 000") -> Path:
    """A one-document CoNLL-2012 file: a token per cell such as ``(3)`` or ``-``."""
    items = re.findall(r"\(\d+\)|-", cells)
    rows = [f"doc\t0\t{i}\tw{i}\t" + "\t".join(["_"] * 7) + f"\t{c}" for i, c in enumerate(items)]
    path.write_text(f"#begin document {name}\n" + "\n".join(rows) + "\n\n#end document\n")
    return path


def run(capsys, *argv) -> tuple[int, str, str]:
    status = cli.main([str(a) for a in argv])
    out = capsys.readouterr()
    return status, out.out, out.err


def perl(*argv) -> str:
    return subprocess.run(["perl", str(REFERENCE_SCORER), *map(str, argv)], capture_output=True, text=True,
                          timeout=300, check=True).stdout


def comparable(text: str) -> list[str]:
    """Output lines without the version line and the reference's verbose entity dumps."""
    return [ln for ln in text.split("\n")[1:] if not re.match(r"(====> |File |Entity \d+:)", ln)]


def test_tied_ceafe_prints_the_reference_line(tmp_path, capsys):
    key, response = write_cells(tmp_path / "key", TIED_KEY), write_cells(tmp_path / "response", TIED_RESPONSE)
    status, out, _ = run(capsys, "ceafe", key, response, "none")
    assert status == 0
    assert TIED_CEAFE in out.split("\n")
    if HAVE_PERL:
        for name in ("none", None):
            argv = ["ceafe", key, response] + ([name] if name else [])
            _, ours, _ = run(capsys, *argv)
            assert comparable(ours) == comparable(perl(*argv))


def test_empty_response_file_scores_zero_with_one_warning(tmp_path, capsys):
    key = write_cells(tmp_path / "key", TIED_KEY)
    for blank in ("", "\n \n"):
        response = tmp_path / "response"
        response.write_text(blank)
        status, out, err = run(capsys, "all", key, response, "none")
        assert status == 0
        assert err.count("warning") == 1 and "response file is empty" in err
        assert "Coreference: Recall: (0 / 6) 0%\tPrecision: (0 / 0) 0%\tF1: 0%" in out  # ceafe: 6 key entities
        assert "Non-coreference links: Recall: (0 / 26) 0%\tPrecision: (0 / 0) 0%\tF1: 0%" in out
        if HAVE_PERL:
            assert comparable(out) == comparable(perl("all", key, response, "none"))
            _, ours, _ = run(capsys, "muc", key, response)
            assert comparable(ours) == comparable(perl("muc", key, response))
        status, out, err = run(capsys, "score", key, response, "--json")
        assert status == 0 and "response file is empty" in err


def test_empty_key_file_is_still_an_error(tmp_path, capsys):
    key = tmp_path / "key"
    key.write_text("")
    status, out, err = run(capsys, "all", key, write_cells(tmp_path / "response", TIED_RESPONSE))
    assert status == 2 and out == "" and "empty file" in err


def test_dependent_strict_is_an_option_of_the_api_and_the_command_line(capsys):
    """``zero_match="dependent-strict"`` (the alignment alone) is accepted everywhere; a bad value names all three."""
    import corefscore

    fixture = Path(__file__).parent / "fixtures" / "corefud"
    key, response = fixture / "key.conllu", fixture / "response.conllu"
    strict = corefscore.score_files(key, response, zero_match="dependent-strict")
    assert strict.counts["mentions"]["recall_num"] == corefscore.score_files(
        key, response, zero_match="dependent").counts["mentions"]["recall_num"]
    status, out, _ = run(capsys, "score", key, response, "--zero-match", "dependent-strict", "--json")
    assert status == 0 and '"muc"' in out
    with pytest.raises(corefscore.CorefScoreInputError, match="dependent-strict"):
        corefscore.score_files(key, response, zero_match="by_id")
