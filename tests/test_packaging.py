"""Packaging: the build says clearly what is missing; the metadata keeps NumPy the only dependency."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest
from _helpers import REPO

tomllib = pytest.importorskip("tomllib")  # Python >= 3.11


def _build_ext(env_extra: dict[str, str], tmp_path) -> subprocess.CompletedProcess:
    env = dict(os.environ, **env_extra)
    return subprocess.run(
        [sys.executable, "setup.py", "-q", "build_ext", "--build-lib", str(tmp_path), "--build-temp", str(tmp_path)],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_build_without_go_says_so(tmp_path):
    out = _build_ext({"GO": "definitely-not-a-go-binary"}, tmp_path)
    assert out.returncode != 0
    assert "building corefscore needs Go" in out.stderr


def test_build_without_a_c_compiler_says_so(tmp_path):
    out = _build_ext({"CC": "definitely-not-a-compiler"}, tmp_path)
    if "needs Go" in out.stderr:
        pytest.skip("Go is not installed here")
    assert out.returncode != 0
    assert "needs a C compiler for cgo" in out.stderr


def test_metadata():
    meta = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert meta["dependencies"] == ["numpy>=1.21"]
    # The command is a plain script (pip rewrites its "#!python" line), not a
    # console-script entry point, whose wrapper would import re at start-up.
    assert "scripts" not in meta
    script = REPO / "python" / "scripts" / "corefscore"
    assert script.read_text(encoding="utf-8").startswith("#!python\n")
    assert 'scripts=["python/scripts/corefscore"]' in (REPO / "setup.py").read_text()
    assert "include python/scripts/corefscore" in (REPO / "MANIFEST.in").read_text()
    assert {"test", "notebook"} <= set(meta["optional-dependencies"])
    assert {"pandas", "matplotlib"} <= set(meta["optional-dependencies"]["notebook"])


def _is_elf(data: bytes) -> bool:
    return data[:4] == b"\x7fELF"


def test_no_elf_file_is_tracked():
    """Build outputs (the shared library, a stray `go build ./capi` binary) stay out of git."""
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True).stdout
    elves = []
    for name in listed.decode().split("\0"):
        path = REPO / name
        if name and path.is_file():
            with open(path, "rb") as f:
                if _is_elf(f.read(4)):
                    elves.append(name)
    assert elves == []


def test_no_elf_file_in_the_sdist(tmp_path):
    """The sdist carries the Go sources, never a build output, whatever lies in the work tree."""
    import tarfile

    if not (REPO / "python" / "corefscore").is_dir():  # make test-wheel's tree: the installed wheel, no sources
        pytest.skip("the package sources are not in this tree (the wheel's test run); make test builds the sdist")
    stray = REPO / "capi" / "capi"  # what `go build ./capi` leaves behind
    made = not stray.exists()
    if made:
        stray.write_bytes(b"\x7fELF stray build output")
    try:
        out = subprocess.run([sys.executable, "setup.py", "-q", "sdist", "--dist-dir", str(tmp_path)], cwd=REPO,
                             capture_output=True, text=True, timeout=300)
    finally:
        if made:
            stray.unlink()
    assert out.returncode == 0, out.stderr[-2000:]
    (sdist,) = tmp_path.glob("*.tar.gz")
    with tarfile.open(sdist) as tar:
        members = [m for m in tar.getmembers() if m.isfile()]
        assert any(m.name.endswith("capi/exports.go") for m in members)
        elves = [m.name for m in members if _is_elf(tar.extractfile(m).read(4))]
    assert elves == []
