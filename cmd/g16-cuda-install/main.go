// Command g16-cuda-install builds libg16cuda, the CUDA kernels of g16's
// cuda backend, and installs it with a pkg-config file, so that a module
// depending on g16 builds with -tags cuda:
//
//	go run github.com/g16prover/g16/cmd/g16-cuda-install [-prefix DIR]
//	export PKG_CONFIG_PATH=DIR/lib/pkgconfig   # unless DIR is a pkg-config default
//	go build -tags cuda ./...
//
// It compiles the kernel sources compiled into it (the version of g16 the
// calling module requires) with nvcc in a temporary directory, never in the
// module cache, and installs
//
//	DIR/lib/libg16cuda.a
//	DIR/include/g16cuda/*.h
//	DIR/lib/pkgconfig/g16cuda.pc
//
// The library carries the identity of its sources (kernels.ID), which
// package cuda checks when it opens a GPU, so that a library left from
// another g16 version is refused rather than misused.
//
// The .pc file links the static CUDA runtime from the directory nvcc itself
// uses (its -dryrun LIBRARIES line), so no machine path is written into g16.
// The default DIR is /usr/local when it is writable, else $HOME/.local.
//
// Environment: NVCC (the compiler, default nvcc on PATH), GENCODE (replaces
// the -gencode targets: sm_90 and sm_80 code, compute_80 PTX), NVCC_EXTRA
// (more nvcc flags), NVCC_THREADS (nvcc --threads, default 0: all),
// NVCC_JOBS (units compiled at once, default the CPUs). -v prints each
// unit's compile time.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/g16prover/g16/backend/cuda/kernels"
)

func main() {
	if err := run(os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "g16-cuda-install: %v\n", err)
		os.Exit(1)
	}
}

const defaultGencode = "-gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80"

func run(args []string, stdout, stderr io.Writer) error {
	fl := flag.NewFlagSet("g16-cuda-install", flag.ContinueOnError)
	fl.SetOutput(stderr)
	prefix := fl.String("prefix", defaultPrefix(), "install under this directory (lib/, include/g16cuda/, lib/pkgconfig/)")
	keep := fl.String("build", "", "compile in this directory and keep the objects (default: a temporary directory, removed)")
	verbose := fl.Bool("v", false, "print each unit's compile time")
	if err := fl.Parse(args); err != nil {
		return err
	}
	if fl.NArg() > 0 {
		return fmt.Errorf("unexpected argument %q", fl.Arg(0))
	}
	nvcc, err := exec.LookPath(envOr("NVCC", "nvcc"))
	if err != nil {
		return fmt.Errorf("nvcc not found (%v): install the CUDA toolkit, or set NVCC", err)
	}
	prefixAbs, err := filepath.Abs(*prefix)
	if err != nil {
		return err
	}

	build := *keep
	if build == "" {
		if build, err = os.MkdirTemp("", "g16cuda-build-"); err != nil {
			return err
		}
		defer os.RemoveAll(build)
	}
	src := filepath.Join(build, "src")
	if err := writeSources(src); err != nil {
		return err
	}
	var log io.Writer
	if *verbose {
		log = stderr
	}
	lib, err := compile(nvcc, src, build, stderr, log)
	if err != nil {
		return err
	}
	cudaLib, err := cudartDir(nvcc, src)
	if err != nil {
		return err
	}

	libDir := filepath.Join(prefixAbs, "lib")
	incDir := filepath.Join(prefixAbs, "include", "g16cuda")
	pcDir := filepath.Join(libDir, "pkgconfig")
	for _, d := range []string{libDir, incDir, pcDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := copyFile(lib, filepath.Join(libDir, "libg16cuda.a")); err != nil {
		return err
	}
	headers, err := fs.Glob(kernels.Sources, "*.h")
	if err != nil {
		return err
	}
	for _, h := range headers {
		if err := copyFile(filepath.Join(src, h), filepath.Join(incDir, h)); err != nil {
			return err
		}
	}
	pc := filepath.Join(pcDir, "g16cuda.pc")
	if err := os.WriteFile(pc, []byte(pkgConfig(prefixAbs, cudaLib)), 0o644); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "g16-cuda-install: installed %s, %s and %s\n", filepath.Join(libDir, "libg16cuda.a"), incDir, pc)
	if !onSearchPath(pcDir) {
		fmt.Fprintf(stdout, "g16-cuda-install: before go build -tags cuda, run:\n\texport PKG_CONFIG_PATH=%s${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}\n", pcDir)
	}
	return nil
}

// defaultPrefix is /usr/local when this user may write there, else
// $HOME/.local.
func defaultPrefix() string {
	if p := os.Getenv("G16CUDA_PREFIX"); p != "" {
		return p
	}
	if f, err := os.CreateTemp("/usr/local", ".g16cuda-probe-*"); err == nil {
		f.Close()
		os.Remove(f.Name())
		return "/usr/local"
	}
	if home, err := os.UserHomeDir(); err == nil {
		return filepath.Join(home, ".local")
	}
	return "/usr/local"
}

func envOr(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// writeSources writes the embedded kernel sources into dir, which holds
// nothing else afterwards: compile builds every .cu file there, and one
// left from other sources (a kept -build directory) would be linked too.
func writeSources(dir string) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	return fs.WalkDir(kernels.Sources, ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := kernels.Sources.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dir, path), data, 0o644)
	})
}

// compile builds every .cu file of src into an object in out, NVCC_JOBS
// units at a time (default: the CPUs), and archives them into
// out/libg16cuda.a. Objects are kept in out/cache under a key of what
// produced them (objectKey): a unit whose sources, flags and compiler are
// unchanged since an earlier build in the same out is not compiled again
// (nvcc's messages, such as -Xptxas -v reports, are printed only for the
// units compiled). log (nil: none) gets each unit's compile time.
func compile(nvcc, src, out string, stderr, log io.Writer) (string, error) {
	units, err := filepath.Glob(filepath.Join(src, "*.cu"))
	if err != nil || len(units) == 0 {
		return "", fmt.Errorf("no kernel sources in %s (%v)", src, err)
	}
	flags := []string{"-std=c++17", "-O3", "--threads", envOr("NVCC_THREADS", "0"),
		"-Xcompiler", "-fPIC", "-Xcompiler", "-Wall", "-Xcompiler", "-Wno-unknown-pragmas"}
	flags = append(flags, strings.Fields(envOr("GENCODE", defaultGencode))...)
	flags = append(flags, strings.Fields(os.Getenv("NVCC_EXTRA"))...)
	idFlag := "-DG16_SOURCES_ID=" + kernels.ID()
	// The compiler's identity goes into every object's key (objectKey).
	version, err := exec.Command(nvcc, "--version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("%s --version: %v\n%s", nvcc, err, version)
	}
	cache := filepath.Join(out, "cache")
	if err := os.MkdirAll(cache, 0o755); err != nil {
		return "", err
	}
	jobs := runtime.NumCPU()
	if v := os.Getenv("NVCC_JOBS"); v != "" {
		if jobs, err = strconv.Atoi(v); err != nil || jobs < 1 {
			return "", fmt.Errorf("NVCC_JOBS=%q: want a positive count of units", v)
		}
	}
	// Each unit's key and the bytes of the sources it reads (its weight:
	// the heaviest start first, so that the longest compile does not
	// start last).
	type unit struct {
		i      int
		flags  []string
		key    string
		weight int64
	}
	var todo []unit
	objs := make([]string, len(units))
	errs := make([]error, len(units))
	for i, u := range units {
		objs[i] = filepath.Join(out, strings.TrimSuffix(filepath.Base(u), ".cu")+".o")
		// Only sources_id.cu reads the sources ID; the other units'
		// objects do not depend on it.
		unitFlags := flags
		if filepath.Base(u) == "sources_id.cu" {
			unitFlags = append(append([]string{}, flags...), idFlag)
		}
		key, weight, err := objectKey(src, filepath.Base(u), unitFlags, version)
		if err != nil {
			return "", err
		}
		cached := filepath.Join(cache, key+".o")
		if _, err := os.Stat(cached); err == nil {
			if err := copyFile(cached, objs[i]); err != nil {
				return "", err
			}
			continue
		}
		todo = append(todo, unit{i, unitFlags, key, weight})
	}
	sort.SliceStable(todo, func(a, b int) bool { return todo[a].weight > todo[b].weight })
	queue := make(chan unit)
	var logMu sync.Mutex
	var wg sync.WaitGroup
	for range min(jobs, len(todo)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for c := range queue {
				u := units[c.i]
				cmd := exec.Command(nvcc, append(append([]string{}, c.flags...), "-c", u, "-o", objs[c.i])...)
				var buf bytes.Buffer
				cmd.Stdout, cmd.Stderr = &buf, &buf
				start := time.Now()
				err := cmd.Run()
				if log != nil {
					logMu.Lock()
					fmt.Fprintf(log, "g16-cuda-install: %s compiled in %.1f s\n", filepath.Base(u), time.Since(start).Seconds())
					logMu.Unlock()
				}
				if err != nil {
					errs[c.i] = fmt.Errorf("nvcc %s: %v\n%s", filepath.Base(u), err, buf.String())
					continue
				}
				if buf.Len() > 0 {
					logMu.Lock()
					fmt.Fprintf(stderr, "%s", buf.String())
					logMu.Unlock()
				}
				errs[c.i] = copyFile(objs[c.i], filepath.Join(cache, c.key+".o"))
			}
		}()
	}
	for _, c := range todo {
		queue <- c
	}
	close(queue)
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		return "", err
	}
	lib := filepath.Join(out, "libg16cuda.a")
	os.Remove(lib)
	if b, err := exec.Command("ar", append([]string{"rcs", lib}, objs...)...).CombinedOutput(); err != nil {
		return "", fmt.Errorf("ar: %v\n%s", err, b)
	}
	return lib, nil
}

var includeLine = regexp.MustCompile(`(?m)^\s*#\s*include\s+"([^"]+)"`)

// objectKey is the hex SHA-256 of what unit's object is made from: the
// compiler's version text, the flags, and the name and contents of unit
// and of every file of src it includes, directly or not ("..." includes;
// the toolkit's own headers go with the compiler's version); and weight,
// the bytes of those files.
func objectKey(src, unit string, flags []string, version []byte) (key string, weight int64, err error) {
	h := sha256.New()
	h.Write(version)
	for _, f := range flags {
		h.Write([]byte(f))
		h.Write([]byte{0})
	}
	seen := map[string]bool{}
	queue := []string{unit}
	for len(queue) > 0 {
		name := queue[0]
		queue = queue[1:]
		if seen[name] {
			continue
		}
		seen[name] = true
		data, err := os.ReadFile(filepath.Join(src, name))
		if err != nil {
			if name == unit {
				return "", 0, err
			}
			continue // not one of ours: a toolkit header
		}
		weight += int64(len(data))
		h.Write([]byte(name))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
		for _, m := range includeLine.FindAllSubmatch(data, -1) {
			queue = append(queue, string(m[1]))
		}
	}
	return hex.EncodeToString(h.Sum(nil)), weight, nil
}

// cudartDir is the directory holding the static CUDA runtime
// (libcudart_static.a) that nvcc links with: the first of the -L
// directories of its -dryrun LIBRARIES line that has it, else the lib64
// beside nvcc's bin.
func cudartDir(nvcc, src string) (string, error) {
	var dirs []string
	units, _ := filepath.Glob(filepath.Join(src, "*.cu"))
	if len(units) > 0 {
		out, _ := exec.Command(nvcc, "-dryrun", "-o", filepath.Join(filepath.Dir(src), "dryrun"), units[0]).CombinedOutput()
		re := regexp.MustCompile(`LIBRARIES=(.*)`)
		for _, m := range re.FindAllStringSubmatch(string(out), -1) {
			for _, f := range strings.Fields(m[1]) {
				f = strings.Trim(f, `"`)
				if d, ok := strings.CutPrefix(f, "-L"); ok {
					dirs = append(dirs, d)
				}
			}
		}
	}
	if real, err := filepath.EvalSymlinks(nvcc); err == nil {
		root := filepath.Dir(filepath.Dir(real))
		dirs = append(dirs, filepath.Join(root, "lib64"), filepath.Join(root, "lib"))
	}
	for _, d := range dirs {
		if _, err := os.Stat(filepath.Join(d, "libcudart_static.a")); err == nil {
			return d, nil
		}
	}
	return "", fmt.Errorf("libcudart_static.a not found beside %s (looked in %s)", nvcc, strings.Join(dirs, ", "))
}

// pkgConfig is the g16cuda.pc file for a library installed under prefix.
func pkgConfig(prefix, cudaLib string) string {
	return fmt.Sprintf(`prefix=%s
libdir=${prefix}/lib
includedir=${prefix}/include/g16cuda
cudalibdir=%s

Name: g16cuda
Description: CUDA kernels of g16's BLS12-381 Groth16 prover (cuda backend)
Version: 1
Cflags: -I${includedir}
Libs: -L${libdir} -lg16cuda -L${cudalibdir} -lcudart_static -lstdc++ -lm -ldl -lpthread -lrt
`, prefix, cudaLib)
}

// onSearchPath reports whether pkg-config finds .pc files in dir without
// help: dir is on PKG_CONFIG_PATH or pkg-config's own default path.
func onSearchPath(dir string) bool {
	var paths []string
	paths = append(paths, filepath.SplitList(os.Getenv("PKG_CONFIG_PATH"))...)
	if out, err := exec.Command(envOr("PKG_CONFIG", "pkg-config"), "--variable", "pc_path", "pkg-config").Output(); err == nil {
		paths = append(paths, filepath.SplitList(strings.TrimSpace(string(out)))...)
	}
	for _, p := range paths {
		if filepath.Clean(p) == filepath.Clean(dir) {
			return true
		}
	}
	return false
}

func copyFile(from, to string) error {
	data, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	tmp := to + ".tmp"
	if err := os.WriteFile(tmp, data, 0o644); err != nil {
		return err
	}
	return os.Rename(tmp, to)
}
