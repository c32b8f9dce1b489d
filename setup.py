"""Build the Go shared library into the package (pip install ., pip install -e ., wheels).

The only compiled part of corefscore is ``libcorefscore.so``, a c-shared Go
library that does not depend on the CPython ABI, so the wheel is tagged
``py3-none-<platform>``. Building needs Go (see go.mod) and a C compiler (cgo).

``go build`` runs with this process's environment, so ``GO`` (the go command),
``CC``, ``GOOS``/``GOARCH`` and ``CGO_*`` choose the toolchain and the target:
``make wheels`` cross-compiles this way with ``zig cc`` (see the Makefile).
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:  # setuptools >= 70.1 ships bdist_wheel itself
    from setuptools.command.bdist_wheel import bdist_wheel
except ImportError:  # pragma: no cover - older setuptools
    try:
        from wheel.bdist_wheel import bdist_wheel
    except ImportError:  # no wheel support here: only `setup.py build_ext` can run
        bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
LIBRARY = "libcorefscore.so"


class GoExtension(Extension):
    """The Go package ``./capi`` built with ``-buildmode=c-shared``."""

    def __init__(self, name: str, package: str) -> None:
        super().__init__(name, sources=[])
        self.package = package


class build_go(build_ext):
    """build_ext that runs ``go build -buildmode=c-shared`` instead of a C compiler."""

    def get_ext_filename(self, ext_name: str) -> str:
        # corefscore.libcorefscore -> corefscore/libcorefscore.so (no CPython ABI suffix).
        return os.path.join(*ext_name.split(".")[:-1], LIBRARY)

    def run(self) -> None:
        for ext in self.extensions:
            self.build_go(ext)

    def build_go(self, ext: GoExtension) -> None:
        go = shutil.which(os.environ.get("GO", "go"))
        if go is None:
            sys.exit(
                "error: building corefscore needs Go (https://go.dev/dl/, version in go.mod) on PATH; "
                "`go` was not found. Install Go, or set GO=/path/to/go, then retry."
            )
        cc = os.environ.get("CC")
        compilers = [cc] if cc else ["cc", "gcc", "clang"]
        if not any(shutil.which(c.split()[0]) for c in compilers):
            sys.exit(
                "error: building corefscore needs a C compiler for cgo (gcc or clang); none of "
                f"{', '.join(compilers)} was found on PATH. Install one (e.g. `apt-get install gcc`) and retry."
            )
        out = os.path.abspath(self.get_ext_fullpath(ext.name))
        os.makedirs(os.path.dirname(out), exist_ok=True)
        cmd = [go, "build", "-trimpath", "-buildmode=c-shared", "-ldflags=-s -w", "-o", out, ext.package]
        env = dict(os.environ, CGO_ENABLED="1")
        print(shlex.join(cmd), flush=True)
        subprocess.run(cmd, cwd=HERE, env=env, check=True)
        header = os.path.splitext(out)[0] + ".h"
        if os.path.exists(header):
            os.remove(header)


COMMANDS: dict[str, type] = {"build_ext": build_go}

if bdist_wheel is not None:

    class bdist_wheel_py3(bdist_wheel):
        """Tag the wheel py3-none-<platform>: the library does not use the CPython ABI."""

        def get_tag(self) -> tuple[str, str, str]:
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    COMMANDS["bdist_wheel"] = bdist_wheel_py3


def _readme() -> dict[str, str]:
    path = os.path.join(HERE, "README.md")
    if not os.path.exists(path):  # the readme is dynamic: always give one
        return {
            "long_description": "corefscore: fast, exact coreference evaluation.",
            "long_description_content_type": "text/plain",
        }
    with open(path, encoding="utf-8") as f:
        return {"long_description": f.read(), "long_description_content_type": "text/markdown"}


setup(
    **_readme(),
    ext_modules=[GoExtension("corefscore.libcorefscore", "./capi")],
    # A plain script, not a console-script entry point: see its docstring.
    scripts=["python/scripts/corefscore"],
    cmdclass=COMMANDS,
)
