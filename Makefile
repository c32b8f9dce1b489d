# corefscore: build, test, benchmark and package.
# `make demo` and `make test` set everything up themselves on a fresh machine
# (Go, a C compiler, Python 3.9+ with pip).

PYTHON ?= python3
GO ?= go
LIB := python/corefscore/libcorefscore.so

.PHONY: all build install demo test test-go test-python lint bench wheel sdist clean

all: build

# The shared library, built straight into the package (what setup.py does too).
build:
	$(GO) build -trimpath -buildmode=c-shared -ldflags="-s -w" -o $(LIB) ./capi
	rm -f python/corefscore/libcorefscore.h

# Editable install with the test and notebook extras (plots and pandas are tested); builds the library through setup.py.
install:
	$(PYTHON) -m pip install -e '.[test,notebook]'

# Score the bundled example corpus with every metric and print the table.
demo: install
	$(PYTHON) -m corefscore score examples/key.conll examples/response.conll

test: install test-go test-python

test-go:
	$(GO) vet ./...
	$(GO) test ./...

test-python:
	$(PYTHON) -m pytest -q tests

lint:
	gofmt -l . | (! grep .)
	$(GO) vet ./...
	$(PYTHON) -m ruff check python tests bench

bench: install
	$(GO) test -run '^$$' -bench . -benchmem ./gocore/...
	$(PYTHON) bench/python_corpus.py

wheel:
	$(PYTHON) -m pip wheel --no-deps -w dist .

sdist:
	$(PYTHON) -m build --sdist

clean:
	rm -rf build dist *.egg-info python/*.egg-info $(LIB) python/corefscore/libcorefscore.h
