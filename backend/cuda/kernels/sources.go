// Package kernels holds the CUDA sources of libg16cuda, the native half of
// package cuda, so that the installer (cmd/g16-cuda-install) can build the
// library outside the source tree, from the module as `go get` fetched it.
package kernels

import (
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"io/fs"
	"sort"
)

// Sources are the kernel sources: the .cu files to compile, the .cuh
// headers they include, and the C headers (g16cuda.h, ntt.h) that cgo sees.
//
//go:embed *.cu *.cuh *.h
var Sources embed.FS

// ID identifies Sources: "s" and the first 16 bytes, in hex, of the
// SHA-256 of every file's name and contents in name order. The installer
// compiles it into the library (g16_sources_id), and package cuda refuses
// a library whose ID differs from its own.
func ID() string {
	names, err := fs.Glob(Sources, "*")
	if err != nil {
		panic("kernels: internal error: " + err.Error())
	}
	sort.Strings(names)
	h := sha256.New()
	for _, n := range names {
		data, err := Sources.ReadFile(n)
		if err != nil {
			panic("kernels: internal error: " + err.Error())
		}
		h.Write([]byte(n))
		h.Write([]byte{0})
		h.Write(data)
		h.Write([]byte{0})
	}
	return "s" + hex.EncodeToString(h.Sum(nil)[:16])
}
