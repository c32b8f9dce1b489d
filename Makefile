# corefscore: build, test, benchmark and package.
#
# `make demo`, `make test` and `make test-torch` set everything up themselves on a fresh machine. They need Go (go.mod),
# a C compiler and Python 3.9+ with its venv module, and install the rest into the project's own
# virtual environment .venv: the interpreter they are started with (PYTHON) only creates it. They
# install only what changed since the last run: stamp files in .venv record what was installed,
# and the library is rebuilt only when a Go source, go.mod or the header changed. pip is quiet
# unless it fails (its log is then printed).
#
# `make wheels` builds manylinux_2_17 wheels for x86_64 and aarch64 and an sdist into dist/, with
# its own build environment .venv-build (zig from the ziglang package as cgo's C compiler, auditwheel,
# build, wheel): no container, and nothing newer than glibc 2.17 is linked.

PYTHON ?= python3
GO ?= go
VENV ?= .venv
BUILD_VENV ?= .venv-build
WHEEL_VENV ?= .venv-wheel

PY := $(VENV)/bin/python
BPY := $(BUILD_VENV)/bin/python
WPY := $(WHEEL_VENV)/bin/python
LIB := python/corefscore/libcorefscore.so
VERSION := $(shell sed -n 's/^__version__ = "\(.*\)"$$/\1/p' python/corefscore/_version.py)

# What the library is built from: a change to one of these rebuilds it, nothing else does.
GO_SOURCES := go.mod go.sum capi/corefscore.h $(shell find capi gocore -name '*.go' ! -name '*_test.go')
# What an install is made from: a change to one of these reinstalls.
PACKAGING := pyproject.toml setup.py

# Run a pip command with its output in a log that is printed only if it fails.
# $(call quiet_pip,VENV,ARGS)
quiet_pip = $(1)/bin/python -m pip install $(2) > $(1)/pip.log 2>&1 || \
	{ cat $(1)/pip.log; echo "error: pip install failed (log: $(1)/pip.log)" >&2; exit 1; }

# pytest, failing with a message when it collected no test (exit 5): with tests/ present that means a
# broken checkout or path, never a pass. $(call pytest,PYTHON,ARGS)
pytest = $(1) -m pytest -q $(2) tests || { status=$$?; \
	if [ $$status -eq 5 ]; then echo "error: pytest collected no test" >&2; fi; exit $$status; }

# The build tools of `make wheels`, pinned: the wheels depend on the zig and auditwheel versions.
BUILD_TOOLS := ziglang==0.17.1 auditwheel==6.8.2 build==1.6.1 wheel==0.48.0 'setuptools>=77'
# The platform tag and the glibc the wheels are linked against (manylinux2014 = manylinux_2_17).
GLIBC := 2.17
MANYLINUX := manylinux_2_17
MANYLINUX2014 := manylinux2014
WHEEL_ARCHES := x86_64 aarch64
HOST_ARCH := $(shell uname -m)
goarch_x86_64 := amd64
goarch_aarch64 := arm64

WHEEL_TARGETS := $(addprefix wheel-,$(WHEEL_ARCHES))

.PHONY: all build demo test test-all test-go test-python test-torch lint bench wheels wheel $(WHEEL_TARGETS) sdist test-wheel \
	clean distclean

all: build

# ---- the development environment (.venv) -----------------------------------------------------

$(PY):
	@echo "creating the virtual environment $(VENV) (with $(PYTHON): $$($(PYTHON) -c 'import sys; print(sys.executable)'))"
	@$(PYTHON) -m venv $(VENV) || { echo "error: '$(PYTHON) -m venv' failed; on Debian/Ubuntu install python3-venv" >&2; exit 1; }

# corefscore itself, editable, with NumPy: what `make demo` needs.
$(VENV)/.installed: $(PACKAGING) | $(PY)
	@echo "installing corefscore (editable) into $(VENV)"
	@$(call quiet_pip,$(VENV),-e .)
	@touch $@

# The same with the test extra (pytest, ruff, dask, pandas, matplotlib, playwright): no torch, ~0.4 GB.
# --no-compile: Python compiles what the tests import when they import it; compiling every installed
# module up front took ~0.1 GB and a share of the install time.
$(VENV)/.installed-test: $(PACKAGING) | $(PY)
	@echo "installing corefscore (editable) with its test extra into $(VENV)"
	@$(call quiet_pip,$(VENV),--no-compile -e '.[test]')
	@touch $@ $(VENV)/.installed

# (a variable: a comma written inside $(call ...) would split its arguments)
TEST_TORCH_EXTRAS := .[test,torch]
# The torch extra on top (torch, torchmetrics, lightning), only for `make test-torch`: PyPI's torch for
# Linux x86_64 is the CUDA build, ~5 GB with its nvidia-* wheels and minutes of pip.
$(VENV)/.installed-torch: $(VENV)/.installed-test
	@echo "installing the torch extra (torch, torchmetrics, lightning) into $(VENV); torch alone is ~2.5 min the first time"
	@$(call quiet_pip,$(VENV),--no-compile -e '$(TEST_TORCH_EXTRAS)')
	@touch $@

# The shared library, built straight into the package (what setup.py's build_ext does too).
$(LIB): $(GO_SOURCES)
	$(GO) build -trimpath -buildmode=c-shared -ldflags="-s -w" -o $(LIB) ./capi
	@rm -f python/corefscore/libcorefscore.h

build: $(LIB)

# Score the bundled example corpus with every metric and print the table.
demo: $(VENV)/.installed $(LIB)
	@$(PY) -m corefscore score examples/key.conll examples/response.conll

test: test-go test-python

# Every test: the suite without GPU frameworks, then the torch tests (the README's second command).
test-all: test test-torch

test-go:
	$(GO) vet ./...
	$(GO) test ./...

# Every Python test but those marked `torch` (pyproject.toml): no GPU framework to install.
test-python: $(VENV)/.installed-test $(LIB)
	$(call pytest,$(PY),-m "not torch")

# The tests marked `torch` (torch, torchmetrics, Lightning, DDP), with the torch extra installed first;
# COREFSCORE_TEST_TORCH=1 turns a missing torch module into an error instead of a skip.
test-torch: $(VENV)/.installed-torch $(LIB)
	COREFSCORE_TEST_TORCH=1 $(call pytest,$(PY),-m torch)

lint: $(VENV)/.installed-test
	gofmt -l . | (! grep .)
	$(GO) vet ./...
	$(PY) -m ruff check python tests bench

bench: $(VENV)/.installed $(LIB)
	$(GO) test -run '^$$' -bench . -benchmem ./gocore/...
	$(PY) bench/python_corpus.py

# ---- wheels and sdist (.venv-build) ---------------------------------------------------------

$(BUILD_VENV)/.installed: Makefile
	@test -x $(BPY) || $(PYTHON) -m venv $(BUILD_VENV)
	@echo "installing the build tools into $(BUILD_VENV): $(BUILD_TOOLS)"
	@$(call quiet_pip,$(BUILD_VENV),$(BUILD_TOOLS))
	@touch $@

# cgo's C compiler for one architecture: zig cc against glibc $(GLIBC)'s symbols.
build/zig/cc-%: $(BUILD_VENV)/.installed
	@mkdir -p $(@D)
	@printf '#!/bin/sh\nexec "%s" -m ziglang cc -target %s-linux-gnu.%s "$$@"\n' "$(CURDIR)/$(BPY)" $* $(GLIBC) > $@
	@chmod +x $@

wheels: sdist $(WHEEL_TARGETS)
	@ls -l dist

# The wheel of this machine's architecture.
wheel: wheel-$(HOST_ARCH)

# One wheel: setup.py cross-compiles the library (GOARCH, CC=zig cc; linked by zig, the library
# keeps its debug sections despite -ldflags=-s, hence --strip-all) and bdist_wheel tags it
# linux_<arch>; `auditwheel show` must find no library to graft (libc and libpthread, which the
# policy allows, are fine) and only symbols that glibc 2.17 has, then `wheel tags` retags it manylinux_2_17 (= manylinux2014) into dist/. Not `auditwheel
# repair`: it refuses a wheel of another architecture than the machine's (its --plat choices are
# the host's), and with nothing to graft its only work would be this retag.
$(WHEEL_TARGETS): wheel-%: build/zig/cc-%
	rm -rf build/lib* build/bdist* build/wheels/$* dist/corefscore-$(VERSION)-*_$*.whl
	GO=$(GO) CC=$(CURDIR)/build/zig/cc-$* CGO_ENABLED=1 GOOS=linux GOARCH=$(goarch_$*) CGO_LDFLAGS=-Wl,--strip-all \
		$(BPY) -m build --wheel --no-isolation -C--build-option=--plat-name=linux_$* --outdir build/wheels/$* .
	$(BPY) -m auditwheel show build/wheels/$*/corefscore-$(VERSION)-py3-none-linux_$*.whl | tee build/wheels/$*/show.txt
	@! tr '\n' ' ' < build/wheels/$*/show.txt | grep -q 'external shared libraries are required' || \
		{ echo "error: the $* library needs a shared library outside the manylinux policy (above)" >&2; exit 1; }
	@glibc=$$(tr '\n' ' ' < build/wheels/$*/show.txt | sed -n 's/.*platform tag: *"manylinux_2_\([0-9]*\)_.*/\1/p'); \
		test -n "$$glibc" && test "$$glibc" -le $(subst 2.,,$(GLIBC)) || \
		{ echo "error: the $* library needs glibc 2.$$glibc, newer than $(GLIBC) (above)" >&2; exit 1; }
	$(BPY) -m wheel tags --remove --platform-tag $(MANYLINUX)_$*.$(MANYLINUX2014)_$* \
		build/wheels/$*/corefscore-$(VERSION)-py3-none-linux_$*.whl
	@mkdir -p dist && mv build/wheels/$*/corefscore-$(VERSION)-py3-none-*manylinux*_$*.whl dist/
	$(BPY) -m auditwheel show dist/corefscore-$(VERSION)-py3-none-*manylinux*_$*.whl

sdist: $(BUILD_VENV)/.installed
	rm -f dist/corefscore-$(VERSION).tar.gz
	$(BPY) -m build --sdist --no-isolation --outdir dist .

# The test suite against the installed wheel of this machine's architecture, in its own venv
# (.venv-wheel: created on first use, so fresh on CI; the wheel is reinstalled every time, its runtime
# dependencies only when missing) and in a copy of the repository without python/corefscore
# (build/wheeltest): no test, nor a child process that a test starts with PYTHONPATH=python, can
# import the sources instead. The test tools (pytest, torch, dask, ...) are not installed a second
# time: a .pth file appends .venv's site-packages to .venv-wheel's path, after its own, as plain
# directories (.venv's own .pth files, the editable install's among them, are not read). torch with
# its nvidia-* wheels is 5 GB: twice was more than CI's disk had. setuptools is the exception: the
# venv's own older copy would shadow .venv's, and tests/test_packaging.py runs setup.py (>= 77).
WHEEL_TREE := build/wheeltest/corefscore
HOST_WHEEL = $$(ls dist/corefscore-$(VERSION)-*_$(HOST_ARCH).whl)
SITE_PACKAGES := import sysconfig; print("\n".join(dict.fromkeys(sysconfig.get_paths()[k] for k in ("purelib", "platlib"))))
test-wheel: wheel $(VENV)/.installed-test
	rm -rf build/wheeltest
	@test -x $(WPY) || $(PYTHON) -m venv $(WHEEL_VENV)
	@echo "installing $(HOST_WHEEL) into $(WHEEL_VENV), with the test tools of $(VENV)"
	@$(call quiet_pip,$(WHEEL_VENV),"$(HOST_WHEEL)" 'setuptools>=77')
	@$(call quiet_pip,$(WHEEL_VENV),--force-reinstall --no-deps "$(HOST_WHEEL)")
	@$(PY) -c '$(SITE_PACKAGES)' > "$$($(WPY) -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')/corefscore-test-tools.pth"
	@mkdir -p $(WHEEL_TREE)/python
	@for f in $$(ls -A); do case "$$f" in .git|.venv*|build|dist|python) ;; *) cp -R "$$f" $(WHEEL_TREE)/ ;; esac; done
	@cp -R python/scripts $(WHEEL_TREE)/python/
	@ln -s "$(abspath ../shared)" build/wheeltest/shared
	cd $(WHEEL_TREE) && $(abspath $(WPY)) -c 'import corefscore, os, sys; d = os.path.dirname(corefscore.__file__); \
		print("testing", d); sys.exit(0 if d.startswith(sys.prefix) else "error: not the installed wheel")'
	cd $(WHEEL_TREE) && $(call pytest,$(abspath $(WPY)))

clean:
	rm -rf build dist *.egg-info python/*.egg-info $(LIB) python/corefscore/libcorefscore.h

# clean, and the three virtual environments.
distclean: clean
	rm -rf $(VENV) $(BUILD_VENV) $(WHEEL_VENV)
