"""The C ABI v4 through ctypes: lazy loading, the version check, and bad calls that must not crash.

A C caller can pass lengths that do not match its buffers; the library checks
every length it can see and turns a bad pointer within declared lengths into
CS_INTERNAL (``debug.SetPanicOnFault``) instead of killing the process.
"""

from __future__ import annotations

import ctypes
import os
import subprocess
import sys
import textwrap

import corefscore
import numpy as np
import pytest
from _helpers import REPO
from corefscore import _lib


def _env():
    """The environment of a child Python that imports the same corefscore as this process."""
    env = dict(os.environ)
    parent = os.path.dirname(os.path.dirname(os.path.abspath(corefscore.__file__)))
    env["PYTHONPATH"] = parent + os.pathsep + env.get("PYTHONPATH", "")
    return env


def _child(code: str, timeout: float = 60) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        cwd=REPO,
        env=_env(),
        timeout=timeout,
    )


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs /proc/self/maps (Linux)")
def test_import_loads_neither_the_library_nor_numpy():
    out = _child("""
        import sys, corefscore, corefscore.cli
        assert "libcorefscore" not in open("/proc/self/maps").read(), "library mapped at import"
        assert "numpy" not in sys.modules, "numpy imported at import"
        corefscore.score([[1, 2]], [[1, 2]])
        assert "libcorefscore" in open("/proc/self/maps").read()
        print("ok")
    """)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


@pytest.mark.parametrize("problem", ["version", "missing", "not a library"])
def test_a_bad_library_raises_import_error_naming_the_path(problem, tmp_path):
    if problem == "missing":
        path = tmp_path / "nowhere.so"
    elif problem == "not a library":
        path = tmp_path / "libfake.so"
        path.write_bytes(b"not an ELF file")
    else:
        path = _lib.library_path()
    out = _child(f"""
        import os; os.environ["COREFSCORE_LIBRARY"] = {str(path)!r}
        import corefscore, corefscore._lib as lib
        lib.ABI_VERSION = {999 if problem == "version" else "lib.ABI_VERSION"}
        try:
            corefscore.score([[1]], [[1]])
        except ImportError as exc:
            print(exc)
    """)
    assert out.returncode == 0, out.stderr
    assert str(path) in out.stdout


def test_columns_and_metrics_come_from_the_engine():
    cols = _lib.columns()
    assert cols[0] == "mentions.recall_num" and "muc.recall_num" in cols
    metrics = _lib.metric_names()
    assert metrics[:2] == ("mentions", "muc")
    assert [c.partition(".")[0] for c in cols if c.partition(".")[0] not in metrics] == []


def _i64(values):
    return np.ascontiguousarray(values, dtype=np.int64)


class RawCall:
    """One cs_score_batch call whose arguments a test can spoil one at a time."""

    def __init__(self, n_docs=2):
        self.n_docs = n_docs
        self.offsets = _i64(np.arange(n_docs + 1) * 2)
        self.mentions = _i64(np.arange(2 * n_docs))
        self.clusters = _i64(np.zeros(2 * n_docs))
        self.length = 2 * n_docs
        self.counts = np.zeros((n_docs, len(_lib.columns())))
        self.counts_ptr = self.counts.ctypes.data
        self.counts_len = self.counts.size

    def run(self):
        side = _lib.CsSide(
            self.offsets.ctypes.data if self.offsets is not None else None,
            self.mentions.ctypes.data,
            self.clusters.ctypes.data,
            None,
            self.length,
        )
        err, report = _lib.CsError(), _lib.CsReport()
        status = _lib.lib().cs_score_batch(
            ctypes.c_int64(self.n_docs),
            ctypes.byref(side),
            ctypes.byref(side),
            None,
            ctypes.c_int64(0),
            None,
            ctypes.c_void_p(self.counts_ptr),
            ctypes.c_int64(self.counts_len),
            None,
            ctypes.c_int64(0),
            None,
            ctypes.c_int64(0),
            ctypes.byref(report),
            ctypes.byref(err),
        )
        return status, err


def test_a_good_raw_call_scores():
    call = RawCall()
    status, _ = call.run()
    assert status == _lib.CS_OK
    muc = _lib.columns().index("muc.recall_den")
    assert call.counts[:, muc].tolist() == [1.0, 1.0]


def _spoil(call, how):
    if how == "n_docs larger than the offsets":
        call.n_docs += 1000
    elif how == "negative length":
        call.length = -1
    elif how == "offsets not ending at length":
        call.offsets = _i64([0, 2, 3])
    elif how == "decreasing offsets":
        call.offsets = _i64([0, 5, 4])
    elif how == "counts NULL with room declared":
        call.counts_ptr = None
    elif how == "counts too short":
        call.counts_len -= 1
    elif how == "rows times columns overflows":
        call.n_docs = 1 << 62
        call.counts_len = -(1 << 62)
    elif how == "NULL offsets":
        call.offsets = None


SPOILS = [
    "n_docs larger than the offsets",
    "negative length",
    "offsets not ending at length",
    "decreasing offsets",
    "counts NULL with room declared",
    "counts too short",
    "rows times columns overflows",
    "NULL offsets",
]


@pytest.mark.parametrize("how", SPOILS)
def test_a_bad_raw_call_returns_an_error_not_a_crash(how):
    code = f"""
        import sys; sys.path.insert(0, {str(REPO / "tests")!r})
        from test_abi import RawCall, _spoil
        call = RawCall(); _spoil(call, {how!r})
        status, err = call.run()
        print(status, err.kind, err.message.decode())
    """
    out = _child(code)  # in a child: a crash would take this process down
    assert out.returncode == 0, out.stderr[-2000:]
    status, kind = (int(x) for x in out.stdout.split()[:2])
    assert status in (_lib.CS_INVALID_INPUT, _lib.CS_INTERNAL), out.stdout
    assert _lib.ERR_KINDS[kind] in ("argument", "internal"), out.stdout
    assert status != _lib.CS_OK and out.stdout.split(maxsplit=2)[2].strip()


def test_a_bad_pointer_within_declared_lengths_is_an_internal_error():
    """Offsets at the very end of a mapping: reading one entry too many faults, which the library recovers."""
    code = f"""
        import ctypes, mmap, sys; sys.path.insert(0, {str(REPO / "tests")!r})
        import numpy as np
        from test_abi import RawCall
        page = mmap.PAGESIZE
        libc = ctypes.CDLL(None)
        libc.mmap.restype = ctypes.c_void_p
        libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
        base = libc.mmap(None, 2 * page, 3, 0x22, -1, 0)
        libc.mprotect(ctypes.c_void_p(base + page), page, 0)  # the second page faults
        call = RawCall(1)
        ptr = base + page - 16  # two int64 offsets end exactly at the protected page
        ctypes.memmove(ptr, np.array([0, 2], dtype=np.int64).ctypes.data, 16)
        call.n_docs = 3  # the library reads offsets[0..3]: past the mapping
        call.counts = np.zeros((3, call.counts.shape[1])); call.counts_ptr = call.counts.ctypes.data
        call.counts_len = call.counts.size
        call.offsets = np.ctypeslib.as_array((ctypes.c_int64 * 2).from_address(ptr))
        status, err = call.run()
        print(status)
    """
    out = _child(code)
    assert out.returncode == 0, out.stderr[-2000:]
    assert int(out.stdout.split()[0]) in (_lib.CS_INTERNAL, _lib.CS_INVALID_INPUT)


def test_an_option_error_names_the_option():
    with pytest.raises(_lib.EngineError) as info:
        _lib.options_new([("singletons", "keep"), ("duplicates", "sometimes")])
    assert info.value.kind == "option" and info.value.option == 1
    with pytest.raises(_lib.EngineError) as info:
        _lib.options_new([("no_such_option", "1")])
    assert info.value.kind == "option" and info.value.option == 0


def test_file_results_are_freed_and_not_reused():
    key = str(REPO / "examples" / "key.conll")
    opts = _lib.options_new([])
    out, err = _lib.CsFilesResult(), _lib.CsError()
    cdll = _lib.lib()
    status = cdll.cs_score_files(key.encode(), key.encode(), opts, None, ctypes.byref(out), ctypes.byref(err))
    assert status == _lib.CS_OK
    handle = ctypes.c_int64(out.scores)
    assert handle.value > 0 and out.n_docs > 0
    assert out.report.analysis == out.key_documents == out.response_documents == 0  # outputs: scores by default
    small = np.zeros(1)
    status = cdll.cs_take_result(handle, small.ctypes.data, 0, None, 0, None, 0, None, 0, None, 0, ctypes.byref(err))
    assert status == _lib.CS_BUFFER_TOO_SMALL  # the result is kept
    cdll.cs_free(handle)
    status = cdll.cs_take_result(handle, None, 0, None, 0, None, 0, None, 0, None, 0, ctypes.byref(err))
    assert status != _lib.CS_OK  # freed: the handle is no longer valid


def _header_functions() -> list[str]:
    import re

    text = (REPO / "capi" / "corefscore.h").read_text()
    return re.findall(r"^(?:int32_t|void) (cs_\w+)\(", text, flags=re.M)


def test_the_header_is_small_and_every_function_is_declared_to_ctypes():
    import re

    names = _header_functions()
    assert len(names) < 20, names  # ABI v3 had 20: a new need is an option, not a function
    cdll = _lib.lib()
    for name in names:
        assert getattr(cdll, name).argtypes is not None, f"{name} has no ctypes argtypes"
    version = re.search(r"#define CS_ABI_VERSION (\d+)", (REPO / "capi" / "corefscore.h").read_text())
    assert int(version.group(1)) == _lib.ABI_VERSION


def test_one_free_for_every_kind_of_handle():
    key = str(REPO / "examples" / "key.conll").encode()
    opts = _lib.options_new([("outputs", "scores,analysis,key_documents,response_documents")])
    out, err = _lib.CsFilesResult(), _lib.CsError()
    cdll = _lib.lib()
    assert cdll.cs_score_files(key, key, opts, None, ctypes.byref(out), ctypes.byref(err)) == _lib.CS_OK
    handles = [opts, out.scores, out.report.analysis, out.key_documents, out.response_documents]
    assert min(handles) > 0 and len(set(handles)) == len(handles)
    for h in handles:
        _lib.free(h)
    buffers = _lib.CsAnalysisBuffers()
    assert cdll.cs_take_analysis(out.report.analysis, ctypes.byref(buffers), ctypes.byref(err)) != _lib.CS_OK
