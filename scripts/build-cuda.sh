#!/usr/bin/env bash
# Builds libg16cuda (the kernels of backend/cuda/kernels: sm_90 and sm_80
# code, compute_80 PTX) and installs it with its pkg-config file into the
# tree-local prefix backend/cuda/kernels/build (lib/libg16cuda.a,
# include/g16cuda/, lib/pkgconfig/g16cuda.pc), through the same installer a
# module depending on g16 runs (cmd/g16-cuda-install). Used by `make cuda`;
# needs nvcc (`make cuda-toolchain`). The Makefile's targets set
# PKG_CONFIG_PATH to the prefix; elsewhere, source the line this prints.
# NVCC, GENCODE, NVCC_EXTRA and NVCC_THREADS are the installer's (see its
# doc): e.g. NVCC_EXTRA="-Xptxas -v" for the register report.
set -euo pipefail
cd "$(dirname "$0")/.."
out=backend/cuda/kernels/build
mkdir -p "$out/obj"
go run ./cmd/g16-cuda-install -prefix "$out" -build "$out/obj" >/dev/null
echo "build-cuda: $out/lib/libg16cuda.a"
echo "export PKG_CONFIG_PATH=$(pwd)/$out/lib/pkgconfig\${PKG_CONFIG_PATH:+:\$PKG_CONFIG_PATH}"
