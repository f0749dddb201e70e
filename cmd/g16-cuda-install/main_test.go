package main

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/g16prover/g16/backend/cuda/kernels"
)

// TestPkgConfigFile: pkg-config reads the .pc file the installer writes
// and gives the flags cgo needs: the library under the prefix, the CUDA
// runtime from the directory found beside nvcc, the headers.
func TestPkgConfigFile(t *testing.T) {
	pc, err := exec.LookPath("pkg-config")
	if err != nil {
		t.Skip("pkg-config not installed")
	}
	prefix := t.TempDir()
	dir := filepath.Join(prefix, "lib", "pkgconfig")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "g16cuda.pc"), []byte(pkgConfig(prefix, "/opt/cuda-x/lib64")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(pc, "--cflags", "--libs", "g16cuda")
	cmd.Env = append(os.Environ(), "PKG_CONFIG_PATH="+dir)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pkg-config: %v\n%s", err, out)
	}
	for _, want := range []string{"-I" + filepath.Join(prefix, "include", "g16cuda"), "-L" + filepath.Join(prefix, "lib"), "-lg16cuda", "-L/opt/cuda-x/lib64", "-lcudart_static"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("pkg-config output %q lacks %q", out, want)
		}
	}
	if !onSearchPathWith(dir, dir) {
		t.Errorf("a directory on PKG_CONFIG_PATH is not seen as searched")
	}
}

func onSearchPathWith(pathEnv, dir string) bool {
	old := os.Getenv("PKG_CONFIG_PATH")
	os.Setenv("PKG_CONFIG_PATH", pathEnv)
	defer os.Setenv("PKG_CONFIG_PATH", old)
	return onSearchPath(dir)
}

// TestSourcesEmbedded: the installer carries every kernel source of the
// tree, so that what it builds is what cgo's headers describe.
func TestSourcesEmbedded(t *testing.T) {
	tree, err := filepath.Glob("../../backend/cuda/kernels/*")
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, p := range tree {
		switch filepath.Ext(p) {
		case ".cu", ".cuh", ".h":
			want++
			data, err := fs.ReadFile(kernels.Sources, filepath.Base(p))
			if err != nil {
				t.Errorf("%s not embedded: %v", filepath.Base(p), err)
				continue
			}
			disk, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if string(data) != string(disk) {
				t.Errorf("%s: embedded copy differs from the tree", filepath.Base(p))
			}
		}
	}
	if want < 5 {
		t.Fatalf("only %d kernel sources in the tree", want)
	}
}

// TestWriteSourcesReplaces: writing the sources into a directory that holds
// a .cu file of other sources leaves only the embedded ones there.
func TestWriteSourcesReplaces(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "src")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	stale := filepath.Join(dir, "stale_unit.cu")
	if err := os.WriteFile(stale, []byte("// not ours\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := writeSources(dir); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(stale); !os.IsNotExist(err) {
		t.Errorf("stale_unit.cu still in the source directory (%v)", err)
	}
	got, err := filepath.Glob(filepath.Join(dir, "*.cu"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := fs.Glob(kernels.Sources, "*.cu")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) || len(want) == 0 {
		t.Errorf("%d .cu files written, want the %d embedded", len(got), len(want))
	}
}

// TestObjectKey: a unit's key follows the files it includes, directly or
// not, its flags and the compiler, and nothing else.
func TestObjectKey(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("a.cu", "#include \"b.cuh\"\n#include <cub/cub.cuh>\nint a;\n")
	write("b.cuh", "  #  include \"c.cuh\"\nint b;\n")
	write("c.cuh", "int c;\n")
	write("d.cuh", "int d;\n")
	key := func(flags []string, version string) string {
		t.Helper()
		k, _, err := objectKey(dir, "a.cu", flags, []byte(version))
		if err != nil {
			t.Fatal(err)
		}
		return k
	}
	base := key([]string{"-O3"}, "nvcc 1")
	// The weight is the bytes of the unit and the files of ours it includes
	// (a.cu, b.cuh, c.cuh; not d.cuh, not the toolkit's header).
	if _, w, _ := objectKey(dir, "a.cu", nil, nil); w != int64(len("#include \"b.cuh\"\n#include <cub/cub.cuh>\nint a;\n")+len("  #  include \"c.cuh\"\nint b;\n")+len("int c;\n")) {
		t.Errorf("weight %d, want the bytes of a.cu, b.cuh and c.cuh", w)
	}
	if key([]string{"-O3"}, "nvcc 1") != base {
		t.Fatal("the same inputs gave two keys")
	}
	write("d.cuh", "int d2;\n")
	if key([]string{"-O3"}, "nvcc 1") != base {
		t.Fatal("a header the unit does not include changed its key")
	}
	for _, c := range []struct {
		what    string
		change  func()
		flags   []string
		version string
	}{
		{"the flags", func() {}, []string{"-O2"}, "nvcc 1"},
		{"the compiler", func() {}, []string{"-O3"}, "nvcc 2"},
		{"an indirect include", func() { write("c.cuh", "int c2;\n") }, []string{"-O3"}, "nvcc 1"},
		{"a direct include", func() { write("b.cuh", "#include \"c.cuh\"\nint b2;\n") }, []string{"-O3"}, "nvcc 1"},
		{"the unit", func() { write("a.cu", "#include \"b.cuh\"\nint a2;\n") }, []string{"-O3"}, "nvcc 1"},
	} {
		c.change()
		k := key(c.flags, c.version)
		if k == base {
			t.Errorf("changing %s left the key unchanged", c.what)
		}
		base = key([]string{"-O3"}, "nvcc 1")
	}
	if _, _, err := objectKey(dir, "missing.cu", nil, nil); err == nil {
		t.Error("a missing unit gave a key")
	}
}
