"""Memory follows the input (issue 20): the command line's peak RSS, read from a child process's rusage.

Each test runs ``python -m corefscore score KEY RESPONSE [mode]`` as a child process and asserts that its peak
resident memory stays within ``fixtures.memory.bound``: the floor (the same command on a one-mention pair) plus
``PER_INPUT_BYTE`` times the input size plus ``ALLOWANCE``, the bound the README states. The nested case
(``fixtures.nested``: 16,000 mentions over the same last words, 1.7 MB in all) peaked at 2.06 GB before mentions
were held as bounds; its bound is about 75 MB.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from _helpers import DATA, REPO
from fixtures.memory import bound, cli, run_child, write_tiny_pair
from fixtures.nested import write_nested_conll2012, write_nested_conllu
from fixtures.perturb import perturb_conll_file

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="ru_maxrss is read as KiB, as Linux reports it")

NESTED = 16_000


@pytest.fixture(scope="module")
def env() -> dict[str, str]:
    """The child's environment: this tree's package, no GC tuning from the caller."""
    out = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "GOGC", "GOMEMLIMIT")}
    out.update(PYTHONPATH=str(REPO / "python"), OPENBLAS_NUM_THREADS="1")
    return out


@pytest.fixture(scope="module")
def floor(tmp_path_factory, env) -> int:
    """The peak RSS of ``score`` on a one-mention pair: what every run costs whatever its input."""
    key, resp = write_tiny_pair(tmp_path_factory.mktemp("tiny"))
    return min(run_child(cli("score", str(key), str(resp)), env).peak for _ in range(2))


@pytest.fixture(scope="module")
def nested(tmp_path_factory) -> Path:
    d = tmp_path_factory.mktemp("nested")
    write_nested_conllu(d / "key.conllu", NESTED)
    write_nested_conllu(d / "response.conllu", NESTED, response=True)
    write_nested_conll2012(d / "key.conll", NESTED)
    write_nested_conll2012(d / "response.conll", NESTED, response=True)
    return d


def _check(floor: int, env: dict[str, str], key: Path, resp: Path, *mode: str) -> None:
    size = key.stat().st_size + resp.stat().st_size
    run = run_child(cli("score", str(key), str(resp), *mode), env)
    assert "CoNLL F1" in run.stdout
    limit = bound(floor, size)
    assert run.peak <= limit, (
        f"peak RSS {run.peak / 2**20:.0f} MiB scoring {size / 2**20:.1f} MiB of input {' '.join(mode)}; "
        f"bound {limit / 2**20:.0f} MiB (floor {floor / 2**20:.0f} MiB)")


@pytest.mark.parametrize("mode", [(), ("--match", "partial"), ("--match", "head"), ("--preset", "crac")],
                         ids=["exact", "partial", "head", "crac"])
def test_nested_conllu_memory_is_linear(floor, env, nested, mode):
    _check(floor, env, nested / "key.conllu", nested / "response.conllu", *mode)


def test_nested_conll2012_memory_is_linear(floor, env, nested):
    _check(floor, env, nested / "key.conll", nested / "response.conll")


def test_litbank_conll2012_memory(floor, env, tmp_path):
    files = sorted((DATA / "litbank").glob("*.conll"))
    if not files:
        pytest.skip(f"{DATA / 'litbank'} not found (the tests read ../shared beside the repository)")
    key, resp = tmp_path / "key.conll", tmp_path / "response.conll"
    with key.open("wb") as out:
        for f in files:
            data = f.read_bytes()
            out.write(data if data.endswith(b"\n") else data + b"\n")
    perturb_conll_file(key, resp, seed=1)
    _check(floor, env, key, resp)


def test_nested_case_is_what_it_claims(nested):
    """The fixture's mentions nest as documented: n(n+1)/2 words in all, in a file linear in n."""
    from fixtures.nested import _spans

    spans = _spans(NESTED, response=False)
    assert len(spans) == NESTED
    assert sum(last - first + 1 for first, last, _ in spans) == NESTED * (NESTED + 3) // 2
    assert (nested / "key.conllu").stat().st_size < 100 * NESTED
