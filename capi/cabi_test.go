package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestCABI builds the shared library and testdata/abi_check.c, a C program
// that calls it through corefscore.h with good and bad arguments (n_docs
// beyond the offsets, overflowing lengths, NULL buffers with a capacity, a
// wild pointer, a set cancel flag, missing files), and requires every check
// to pass and the process to survive. Skipped without gcc.
func TestCABI(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the shared library")
	}
	gcc, err := exec.LookPath("gcc")
	if err != nil {
		t.Skip("gcc not found: the C ABI check needs it")
	}
	dir := t.TempDir()
	lib := filepath.Join(dir, "libcorefscore.so")
	build := exec.Command("go", "build", "-trimpath", "-buildmode=c-shared", "-o", lib, ".")
	out, err := build.CombinedOutput()
	require.NoError(t, err, "%s", out)
	bin := filepath.Join(dir, "abi_check")
	cc := exec.Command(gcc, "-Wall", "-Werror", "-I.", "-o", bin, filepath.Join("testdata", "abi_check.c"),
		"-L"+dir, "-lcorefscore", "-Wl,-rpath,"+dir)
	out, err = cc.CombinedOutput()
	require.NoError(t, err, "%s", out)
	key, resp := filepath.Join("..", "examples", "key.conll"), filepath.Join("..", "examples", "response.conll")
	run := exec.Command(bin, key, resp)
	run.Env = os.Environ()
	out, err = run.CombinedOutput()
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		if strings.HasPrefix(line, "FAIL") {
			t.Error(line)
		}
	}
	require.NoError(t, err, "%s", out)
	require.Contains(t, string(out), "0 failures")
}
