#!/usr/bin/env bash
# Installs nvcc (CUDA 11.8) from Debian's non-free component, and
# pkg-config. Idempotent.
# Used by `make cuda-toolchain` and by .ci/run so that the cuda build cannot rot.
set -euo pipefail

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

# cgo finds the kernel library through pkg-config (g16cuda.pc).
if ! command -v pkg-config >/dev/null 2>&1; then
	$SUDO apt-get update -qq
	$SUDO apt-get install -y -qq --no-install-recommends pkg-config >/dev/null
fi

if command -v nvcc >/dev/null 2>&1; then
	echo "cuda-toolchain: $(nvcc --version | tail -1)"
	exit 0
fi

# Enable contrib and non-free on every Debian source that lists only main.
for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
	[ -f "$f" ] || continue
	if grep -q '^Components: main$' "$f"; then
		$SUDO sed -i 's/^Components: main$/Components: main contrib non-free non-free-firmware/' "$f"
	fi
	if grep -Eq '^deb .* main$' "$f"; then
		$SUDO sed -i -E 's/^(deb .* main)$/\1 contrib non-free non-free-firmware/' "$f"
	fi
done

$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >/dev/null
echo "cuda-toolchain: $(nvcc --version | tail -1)"
