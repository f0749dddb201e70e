// Package kernels holds the CUDA sources of libg16cuda, the native half of
// package cuda, so that the installer (cmd/g16-cuda-install) can build the
// library outside the source tree, from the module as `go get` fetched it.
package kernels

import "embed"

// Sources are the kernel sources: the .cu files to compile, the .cuh
// headers they include, and the C headers (g16cuda.h, ntt.h) that cgo sees.
//
//go:embed *.cu *.cuh *.h
var Sources embed.FS
