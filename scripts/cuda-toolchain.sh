#!/usr/bin/env bash
# Installs nvcc (CUDA 11.8) from Debian's non-free component. Idempotent.
# Used by `make cuda-toolchain` and by .ci/run so that the cuda build cannot rot.
set -euo pipefail

if command -v nvcc >/dev/null 2>&1; then
	echo "cuda-toolchain: $(nvcc --version | tail -1)"
	exit 0
fi

SUDO=""
if [ "$(id -u)" != "0" ]; then SUDO="sudo"; fi

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

export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends nvidia-cuda-toolkit >/dev/null
echo "cuda-toolchain: $(nvcc --version | tail -1)"
