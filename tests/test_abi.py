"""The C ABI: lazy loading, the ABI version check, and bad input straight through ctypes.

The ctypes tests call ``cs_score_batch`` with inconsistent lengths, offsets
and NULL pointers that the library can detect, and check that an error
status and a NUL-terminated message come back instead of a crash.
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


@pytest.fixture
def fresh_lib(monkeypatch):
    """Forget the loaded library before and after the test (the handle itself stays mapped)."""
    _lib._reset()
    yield monkeypatch
    monkeypatch.undo()
    _lib._reset()


@pytest.mark.skipif(not os.path.exists("/proc/self/maps"), reason="needs /proc/self/maps (Linux)")
def test_import_does_not_load_the_library():
    code = textwrap.dedent(
        """
        import corefscore, corefscore._lib as lib
        maps = open("/proc/self/maps").read()
        assert lib._lib is None, "library loaded at import"
        assert "libcorefscore" not in maps, "library mapped at import"
        corefscore.score([[1, 2]], [[1, 2]])
        assert "libcorefscore" in open("/proc/self/maps").read()
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=_env(), timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"


def _env():
    """The environment of a child Python that imports the same corefscore as this process."""
    env = dict(os.environ)
    parent = os.path.dirname(os.path.dirname(os.path.abspath(corefscore.__file__)))
    env["PYTHONPATH"] = parent + os.pathsep + env.get("PYTHONPATH", "")
    return env


def test_abi_version_mismatch_raises_import_error_naming_the_path(fresh_lib):
    fresh_lib.setattr(_lib, "ABI_VERSION", 999)
    path = _lib.library_path()
    with pytest.raises(
        ImportError, match=r"implements ABI version 1, but this Python package needs version 999"
    ) as info:
        _lib.lib()
    assert path in str(info.value)
    with pytest.raises(ImportError, match="ABI version"):
        corefscore.score([[1]], [[1]])


def test_missing_library_raises_import_error_naming_the_path(fresh_lib, tmp_path):
    missing = tmp_path / "nowhere" / "libcorefscore.so"
    fresh_lib.setenv(_lib.LIBRARY_ENV, str(missing))
    with pytest.raises(ImportError, match=r"shared library was not found at .*nowhere/libcorefscore.so"):
        _lib.lib()


def test_not_a_library_raises_import_error(fresh_lib, tmp_path):
    bogus = tmp_path / "libcorefscore.so"
    bogus.write_bytes(b"not an ELF file")
    fresh_lib.setenv(_lib.LIBRARY_ENV, str(bogus))
    with pytest.raises(ImportError, match=r"cannot load the shared library .*libcorefscore.so"):
        _lib.lib()


def test_columns_come_from_the_engine():
    cols = _lib.columns()
    lib = _lib.lib()
    assert len(cols) == lib.cs_num_columns()
    assert "muc.recall_num" in cols and "blanc.coref.precision_den" in cols
    needed = ctypes.c_int64(0)
    small = ctypes.create_string_buffer(8)
    assert lib.cs_columns(small, 8, ctypes.byref(needed)) == _lib.CS_BUFFER_TOO_SMALL
    assert needed.value == len("\n".join(cols)) + 1


# -- cs_score_batch through ctypes with bad input -----------------------------

NCOL = len(_lib.columns())


def _arr(values, dtype=np.int64):
    return np.ascontiguousarray(values, dtype=dtype)


def _call(n_docs, key, resp, *, counts_len=None, names=None, options=None, err_len=256, dups_cap=4):
    """Raw call; sides are dicts of arrays (or None for a NULL side). Returns (status, message)."""
    keep = []

    def side(d):
        if d is None:
            return None
        s = _lib.Side()
        for field in ("offsets", "mentions", "clusters", "types"):
            a = d.get(field)
            if a is not None:
                keep.append(a)
                setattr(s, field, a.ctypes.data)
        s.length = d.get("length", 0 if d.get("mentions") is None else len(d["mentions"]))
        keep.append(s)
        return ctypes.addressof(s)

    counts = np.zeros(max(n_docs, 0) * NCOL + 8)
    counts_len = max(n_docs, 0) * NCOL if counts_len is None else counts_len
    dups = np.zeros(dups_cap * _lib.DUPLICATE_FIELDS + 1, dtype=np.int64)
    n_dups = ctypes.c_int64(0)
    err = ctypes.create_string_buffer(max(err_len, 1))
    opt = options if options is not None else _lib.make_options()
    status = _lib.lib().cs_score_batch(
        n_docs,
        side(key),
        side(resp),
        names,
        len(names) if names else 0,
        ctypes.addressof(opt),
        counts.ctypes.data,
        counts_len,
        dups.ctypes.data,
        dups_cap,
        ctypes.addressof(n_dups),
        ctypes.addressof(err) if err_len > 0 else None,
        err_len,
    )
    return status, err.value.decode()


def _good(n=3):
    return {"offsets": _arr([0, n]), "mentions": _arr(range(n)), "clusters": _arr([0] * n)}


def test_raw_good_call_succeeds():
    assert _call(1, _good(), _good()) == (0, "")


BAD_CALLS = {
    "negative n_docs": lambda: _call(-1, _good(), _good(), counts_len=0),
    "NULL key side": lambda: _call(1, None, _good()),
    "NULL response side": lambda: _call(1, _good(), None),
    "NULL offsets": lambda: _call(1, {"mentions": _arr([1]), "clusters": _arr([0])}, _good()),
    "NULL mentions with length": lambda: _call(
        1, {"offsets": _arr([0, 2]), "clusters": _arr([0, 0]), "length": 2}, _good()
    ),
    "NULL clusters with length": lambda: _call(
        1, {"offsets": _arr([0, 2]), "mentions": _arr([0, 1]), "length": 2}, _good()
    ),
    "negative length": lambda: _call(
        1, {"offsets": _arr([0, 0]), "mentions": _arr([0]), "clusters": _arr([0]), "length": -1}, _good()
    ),
    "offsets end past length": lambda: _call(1, {**_good(), "offsets": _arr([0, 5])}, _good()),
    "offsets start not 0": lambda: _call(1, {**_good(), "offsets": _arr([1, 3])}, _good()),
    "offsets decrease": lambda: _call(
        3, {**_good(), "offsets": _arr([0, 3, 2, 3])}, {**_good(), "offsets": _arr([0, 1, 2, 3])}
    ),
    "counts too small": lambda: _call(1, _good(), _good(), counts_len=NCOL - 1),
    "counts too large": lambda: _call(1, _good(), _good(), counts_len=NCOL + 1),
    "names count mismatch": lambda: _call(1, _good(), _good(), names=b"a\nb"),
    "negative cluster id": lambda: _call(1, {**_good(), "clusters": _arr([0, -1, 0])}, _good()),
    "type code out of range": lambda: _call(1, {**_good(), "types": _arr([1, 9, 1], np.int8)}, _good()),
    "singletons option": lambda: _call(1, _good(), _good(), options=_lib.make_options(singletons=7)),
    "duplicates option": lambda: _call(1, _good(), _good(), options=_lib.make_options(duplicates=-1)),
    "metrics mask beyond the metrics": lambda: _call(1, _good(), _good(), options=_lib.make_options(metrics=1 << 63)),
}


@pytest.mark.parametrize("case", sorted(BAD_CALLS))
def test_raw_bad_call_returns_an_error_status(case):
    status, message = BAD_CALLS[case]()
    assert status == _lib.CS_INVALID_INPUT, (case, status, message)
    assert message, case


def test_raw_bad_call_without_error_buffer_or_with_a_tiny_one():
    status, message = _call(1, _good(), _good(), counts_len=1, err_len=0)
    assert status == _lib.CS_INVALID_INPUT and message == ""
    status, message = _call(1, _good(), _good(), counts_len=1, err_len=1)
    assert status == _lib.CS_INVALID_INPUT and message == ""  # truncated to the NUL alone
    status, message = _call(1, _good(), _good(), counts_len=1, err_len=12)
    assert status == _lib.CS_INVALID_INPUT and len(message) == 11


def test_raw_duplicates_beyond_capacity_report_the_total():
    side = {"offsets": _arr([0, 6]), "mentions": _arr([1, 1, 1, 1, 1, 2]), "clusters": _arr([0, 1, 2, 3, 4, 0])}
    status, _ = _call(1, side, _good(), dups_cap=2)
    assert status == 0


def test_check_maps_status_codes_to_exceptions():
    buf = ctypes.create_string_buffer(b"boom")
    _lib._check(_lib.CS_OK, buf)
    with pytest.raises(corefscore.CorefScoreInputError, match="boom"):
        _lib._check(_lib.CS_INVALID_INPUT, buf)
    assert issubclass(corefscore.CorefScoreInputError, ValueError)
    with pytest.raises(OSError, match="boom"):
        _lib._check(_lib.CS_IO, buf)
    with pytest.raises(RuntimeError, match=r"internal error.*boom"):
        _lib._check(_lib.CS_INTERNAL, buf)


def test_import_does_not_import_numpy():
    """`import corefscore` (and the command line module) stays light: NumPy comes with the first score."""
    code = textwrap.dedent(
        """
        import sys
        import corefscore, corefscore.cli, corefscore._lib
        assert "numpy" not in sys.modules, "numpy imported at import time"
        assert corefscore.__version__
        corefscore.score([[1, 2]], [[1, 2]])
        assert "numpy" in sys.modules
        print("ok")
        """
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=REPO, env=_env(), timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "ok"
