#!/usr/bin/env bash
# Compiles backend/cuda/kernels into the static library
# backend/cuda/kernels/build/libg16cuda.a (sm_90 and sm_80 code, compute_80
# PTX), which the cgo side links with the static CUDA runtime.
# Used by `make cuda`; needs nvcc (`make cuda-toolchain`).
# The targets compile in parallel (--threads, NVCC_THREADS=1 to serialise).
# GENCODE replaces the targets; NVCC_EXTRA adds flags (e.g. NVCC_EXTRA="-Xptxas -v" for the register report).
set -euo pipefail
cd "$(dirname "$0")/.."
src=backend/cuda/kernels
out=$src/build
mkdir -p "$out"
NVCC=${NVCC:-nvcc}
# GENCODE may narrow the targets for a quicker build while developing.
# shellcheck disable=SC2206
gencode=(${GENCODE:--gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=sm_80 -gencode arch=compute_80,code=compute_80})
flags=(-std=c++17 -O3 --threads "${NVCC_THREADS:-0}" -Xcompiler -fPIC -Xcompiler -Wall -Xcompiler -Wno-unknown-pragmas "${gencode[@]}")
# shellcheck disable=SC2206
extra=(${NVCC_EXTRA:-})
objs=()
pids=()
for f in "$src"/*.cu; do
	o="$out/$(basename "${f%.cu}").o"
	objs+=("$o")
	"$NVCC" "${flags[@]}" "${extra[@]}" -c "$f" -o "$o" &
	pids+=($!)
done
for p in "${pids[@]}"; do wait "$p"; done
rm -f "$out/libg16cuda.a"
ar rcs "$out/libg16cuda.a" "${objs[@]}"
echo "build-cuda: $out/libg16cuda.a"
