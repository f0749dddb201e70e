#!/usr/bin/env bash
# Builds libg16cuda (the kernels of backend/cuda/kernels, for sm_90: H100
# and H200; GENCODE names other targets) and installs it with its pkg-config
# file into the tree-local prefix backend/cuda/kernels/build
# (lib/libg16cuda.a, include/g16cuda/, lib/pkgconfig/g16cuda.pc), through
# the same installer a module depending on g16 runs
# (cmd/g16-cuda-install). Used by `make cuda` and `make gpu-bundle`;
# needs nvcc (`make cuda-toolchain`). The Makefile's targets set
# PKG_CONFIG_PATH to the prefix; elsewhere, source the line this prints.
# NVCC, GENCODE, NVCC_EXTRA, NVCC_THREADS and NVCC_JOBS are the installer's
# (see its doc): e.g. NVCC_EXTRA="-Xptxas -v" for the register report,
# GENCODE="-gencode arch=compute_80,code=sm_80" for an A100. CUDA_VERBOSE=1
# prints each unit's compile time. Objects are cached under
# backend/cuda/kernels/build/obj by their sources and flags: a rebuild
# compiles only the units whose sources changed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=backend/cuda/kernels/build
mkdir -p "$out/obj"
export GENCODE="${GENCODE:--gencode arch=compute_90,code=sm_90}"
go run ./cmd/g16-cuda-install ${CUDA_VERBOSE:+-v} -prefix "$out" -build "$out/obj" >/dev/null
echo "build-cuda: $out/lib/libg16cuda.a"
echo "export PKG_CONFIG_PATH=$(pwd)/$out/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
