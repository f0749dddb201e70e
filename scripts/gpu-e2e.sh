#!/usr/bin/env bash
# End-to-end GPU run: the cuda-tagged groth16 tests (proofs on the GPU
# against gnark and the CPU backend, the batch fallback, several GPUs) and
# g16 bench at several sizes. Run on the GPU machine from the repository
# root, with a bundle made by scripts/gpu-bundle.sh:
#   bash scripts/gpu-e2e.sh BUNDLE_DIR [STEP...]
# Steps: tests sanitize bench20 bench22 batch22 bench24 gpus (default: all but gpus).
# Logs go to $OUT (or ./e2e-logs).
set -uo pipefail
bundle=$(cd "$1" && pwd)
shift
repo=$(pwd)
logs=${OUT:-$repo/e2e-logs}
mkdir -p "$logs"
bin=${TMPDIR:-/tmp}/g16-e2e
mkdir -p "$bin"
for f in "$bundle"/*.gz; do
	n=$(basename "${f%.gz}")
	gzip -dc "$f" >"$bin/$n" && chmod +x "$bin/$n"
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$logs/smi.txt" 2>&1
cat "$logs/smi.txt"
rc=0
step() { # name, log, command...
	local name=$1 log=$2
	shift 2
	echo "== $name: $*"
	local t0=$SECONDS
	"$@" >"$logs/$log" 2>&1
	local r=$?
	grep -E '^(--- |ok|FAIL|PASS|panic|=+ ERROR SUMMARY)|^ *(phase|total|ours|solve|upload|H |MSM|assemble|prover|gnark|g16|byte|partitions|staged|host|staging|compute|cuda|cpu)' "$logs/$log" | tail -n 40
	echo "== $name: exit $r, $((SECONDS - t0)) s"
	[ $r -eq 0 ] || rc=1
}
steps=${*:-tests sanitize bench20 bench22 batch22 bench24}
for s in $steps; do
	case $s in
	tests) (cd "$repo/groth16" && step "groth16 cuda tests" groth16.log "$bin/groth16.test" -test.v -test.timeout 15m -test.run 'CUDA') ;;
	sanitize) (cd "$repo/groth16" && step "compute-sanitizer memcheck, small proofs" sanitize.log compute-sanitizer --tool memcheck --error-exitcode 9 --leak-check no "$bin/groth16.test" -test.v -test.short -test.run 'TestCUDAProveMatchesGnark|TestCUDABatchFallback') ;;
	bench20) step "bench 2^20" bench20.log "$bin/g16" bench --backend cuda --size 2^20 --keys random --proofs 3 ;;
	bench22) step "bench 2^22" bench22.log "$bin/g16" bench --backend cuda --size 2^22 --keys random --proofs 1 --compare-cpu=false ;;
	batch22) step "batch 10 x 2^22" batch22.log "$bin/g16" bench --backend cuda --size 2^22 --keys random --partitions 10 --no-gnark --compare-cpu=false --trace "$logs/trace22.json" ;;
	bench24) step "bench 2^24" bench24.log "$bin/g16" bench --backend cuda --size 2^24 --keys random --proofs 2 --no-gnark --compare-cpu=false ;;
	gpus) step "batch 10 x 2^22, 1 and 2 GPUs" gpus22.log "$bin/g16" bench --backend cuda --size 2^22 --keys random --partitions 10 --gpus 1,2 --no-gnark --compare-cpu=false ;;
	esac
done
exit $rc
