#!/usr/bin/env bash
# End-to-end GPU run: the cuda-tagged groth16 tests (proofs on the GPU
# against gnark and the CPU backend, the batch fallback, several GPUs) and
# g16 bench at several sizes. Run on the GPU machine from the repository
# root, with a bundle made by scripts/gpu-bundle.sh:
#   bash scripts/gpu-e2e.sh BUNDLE_DIR [STEP...]
# Steps: tests examples sanitize bench20 bench22 batch22 bench24 gpus sha256 sha256batch cpusha256 ecdsa service solver
# limit25 batch24limit big25s stream25 big26 big27 big27s porep24 porepsweep porepbatch porep27 porepcpu
# porepb2 porepbatch27 porepbatch26s
# (default: all but gpus, solver, the std circuits sha256, sha256batch, cpusha256, ecdsa, and the
# large sizes limit25, batch24limit, big25s, stream25, big26, big27, big27s: each of those is one command
# of several minutes; the big ones poll nvidia-smi for the device's peak;
# limit25 and batch24limit keep their circuit and random key in $G16_KEYS, so
# a second run skips the compile; big26 and big27 do not: their random keys
# are drawn straight into the GPU's memory, with no host copy, and they run
# under timeout, 150 s and 240 s; big25s is 2^25 under a 16 GiB device limit,
# its key's host copy drawn in the run, beside an unlimited backend whose
# proof it must equal byte for byte, under timeout 120 s; stream25 is the
# limited backend alone, for its host memory, under timeout 90 s; big27s
# is 2^27 so, its 72 GiB host copy beside the prover's state, under
# timeout 300 s). The porep steps (issue 26) prove the PoRep-shaped circuit:
# porep24 at 2^24 (tail 10%), porepsweep at 2^24 with tails 5, 25 and 50%,
# porepbatch ten 2^24 partitions, each keeping its circuit and random key in
# $G16_KEYS, so that later steps of the lease reuse them; porep27 one 2^27
# partition, its random key drawn on the device (at most 420 s); porepcpu
# the CPU backend at 2^22 beside gnark under /usr/bin/time -v if present (host memory
# and solve on this host's cores); porepb2 one 2^24 proof with B2 on the
# host's cores (--b2 host) and one with it on the device (--b2 device), the
# figures the cost model of groth16/b2place.go rests on, with one seed, so
# that the two proofs' sha256 lines must match (run after porep24:
# it reuses its circuit and key); porepbatch27 ten 2^27 partitions, key
# resident, drawn on the device with no host copy, one worker (three
# partitions' vectors in flight, about 21 GiB each; with two workers the
# pool would take five, and ProveBatch holds no more than the host's
# memory has room for) (at most 560 s); porepbatch26s ten 2^26 partitions
# under a 16 GiB device limit, the key streamed from its host copy (at 2^27
# that copy, 47 GiB, leaves room for about three partitions' vectors in
# the host's 128 GiB, and ProveBatch holds at most that many); each reports the host's peak RSS and the device's,
# and writes its trace.
# Logs go to $OUT (or ./e2e-logs). The std circuits' gnark setup keys are
# cached in $G16_KEYS (default $TMPDIR/g16-keys), outside $OUT: sha256batch
# after sha256 in one run reuses the key.
set -uo pipefail
bundle=$(cd "$1" && pwd)
shift
repo=$(pwd)
logs=${OUT:-$repo/e2e-logs}
mkdir -p "$logs"
bin=${TMPDIR:-/tmp}/g16-e2e
mkdir -p "$bin"
# The bundle's binaries are xz-compressed (scripts/gpu-bundle.sh): xz, or
# Python's lzma module where xz is missing.
for f in "$bundle"/*.xz; do
	n=$(basename "${f%.xz}")
	if command -v xz >/dev/null; then
		xz -dc "$f" >"$bin/$n"
	else
		python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "$f" >"$bin/$n"
	fi && chmod +x "$bin/$n"
done
nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv >"$logs/smi.txt" 2>&1
cat "$logs/smi.txt"
keys=${G16_KEYS:-${TMPDIR:-/tmp}/g16-keys}
rc=0
step() { # name, log, command...
	local name=$1 log=$2
	shift 2
	echo "== $name: $*"
	local t0=$SECONDS
	"$@" >"$logs/$log" 2>&1
	local r=$?
	grep -E '^(--- |ok|FAIL|PASS|panic|Benchmark|=+ ERROR SUMMARY)|^ *(phase|total|ours|solve|commit|upload|H |MSM|assemble|prover|gnark|g16|byte|partitions|staged|host|staging|compute|cuda|cpu|compile|keys|setup|memory|proofs sha256|device|nvidia-smi)|^[0-9]+ +(ProveBatch|service|proofs per prover)|^(median|every service|MISMATCH|R1CS)|Maximum resident set size|Elapsed \(wall' "$logs/$log" | tail -n 40
	echo "== $name: exit $r, $((SECONDS - t0)) s"
	[ $r -eq 0 ] || rc=1
}
# timev runs a command under /usr/bin/time -v (its peak RSS and wall
# lines), or plainly where that is missing: g16 bench prints its own peak
# RSS either way.
timev() {
	if [ -x /usr/bin/time ]; then
		/usr/bin/time -v "$@"
	else
		"$@"
	fi
}
# smipeak runs a command while nvidia-smi polls GPU 0's memory every 0.2 s,
# and appends the peak it saw to the command's output.
smipeak() {
	local f
	f=$(mktemp)
	nvidia-smi --id=0 --query-gpu=memory.used --format=csv,noheader,nounits -lms 200 >"$f" 2>/dev/null &
	local pid=$!
	"$@"
	local r=$?
	kill "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	echo "nvidia-smi: GPU 0 peak memory used $(sort -n "$f" | tail -n 1) MiB (polled every 0.2 s)"
	rm -f "$f"
	return $r
}
steps=${*:-tests examples sanitize bench20 bench22 batch22 bench24}
for s in $steps; do
	case $s in
	tests) (cd "$repo/groth16" && step "groth16 cuda tests" groth16.log "$bin/groth16.test" -test.v -test.timeout 15m -test.run 'CUDA') ;;
	examples)
		(cd "$repo/groth16" && step "groth16 examples (ExampleNewProver_cuda on the GPUs)" examples-groth16.log "$bin/groth16.test" -test.v -test.timeout 5m -test.run 'Example')
		(cd "$repo/backend/cuda" && step "cuda examples" examples-cuda.log "$bin/backend_cuda.test" -test.v -test.timeout 5m -test.run 'Example')
		;;
	sanitize) (cd "$repo/groth16" && step "compute-sanitizer memcheck, small proofs" sanitize.log compute-sanitizer --tool memcheck --error-exitcode 9 --leak-check no "$bin/groth16.test" -test.v -test.short -test.run 'TestCUDAProveMatchesGnark|TestCUDABatchFallback') ;;
	bench20) step "bench 2^20" bench20.log "$bin/g16" bench --backend cuda --size 2^20 --keys random --proofs 3 ;;
	bench22) step "bench 2^22" bench22.log "$bin/g16" bench --backend cuda --size 2^22 --keys random --proofs 1 --compare-cpu=false ;;
	batch22) step "batch 10 x 2^22" batch22.log "$bin/g16" bench --backend cuda --size 2^22 --keys random --partitions 10 --no-gnark --compare-cpu=false --trace "$logs/trace22.json" ;;
	bench24) step "bench 2^24" bench24.log "$bin/g16" bench --backend cuda --size 2^24 --keys random --proofs 2 --no-gnark --compare-cpu=false ;;
	sha256) step "sha256 of 1100 bytes, gnark setup key" sha256.log "$bin/g16" bench --backend cuda --circuit sha256 --msg-bytes 1100 --keydir "$keys" --proofs 3 ;;
	sha256batch)
		step "sha256 1100 B, ProveBatch of 10, default solvers" sha256batch.log "$bin/g16" bench --backend cuda --circuit sha256 --msg-bytes 1100 --keydir "$keys" --partitions 10 --compare-cpu=false
		for n in 4 12; do
			step "sha256 1100 B, ProveBatch of 10, --solvers $n" "sha256batch-s$n.log" "$bin/g16" bench --backend cuda --circuit sha256 --msg-bytes 1100 --keydir "$keys" --partitions 10 --compare-cpu=false --no-gnark --solvers "$n"
		done
		;;
	solver) # the witness solver beside gnark's on 1 to 16 cores, and a CPU profile of ours on 16 (the bundle's solver.test keeps its symbols)
		(cd "$repo/solver/bls12381" && step "witness solvers, sha256-400B and ecdsa, 1-16 cores" solver.log "$bin/solver.test" -test.run '^$' -test.bench 'Solve/circuit=' -test.cpu 1,2,4,8,16 -test.benchtime 5x -test.benchmem)
		(cd "$repo/solver/bls12381" && step "witness solver, CPU profile on 16 cores" solverprof.log "$bin/solver.test" -test.run '^$' -test.bench 'Solve/circuit=sha256-400B/solver=g16' -test.cpu 16 -test.benchtime 10x -test.cpuprofile "$logs/solver-g16-16.prof")
		(cd "$repo/solver/bls12381" && step "witness solver, concurrent solves sharing 16 cores or each on all 16" solverconc.log "$bin/solver.test" -test.run '^$' -test.bench 'ConcurrentSolves' -test.cpu 16 -test.benchtime 4x)
		;;
	cpusha256) step "sha256 of 1100 bytes on the CPU backend, its chosen and its frugal schedule, random key" cpusha256.log env GOGC=100 timeout 90 "$bin/g16" bench --backend cpu --circuit sha256 --msg-bytes 1100 --keys random --proofs 2 --cpu-frugal ;;
	ecdsa) step "ecdsa secp256k1, 1 signature, gnark setup key" ecdsa.log "$bin/g16" bench --backend cuda --circuit ecdsa --signatures 1 --keydir "$keys" --proofs 3 ;;
	service)
		step "service beside ProveBatch, 64 jobs of 2^16" service16.log "$bin/g16" loadtest --backend cuda --size 2^16 --jobs 64 --rounds 3 --log-level warn
		for b in 16 64; do
			step "service beside ProveBatch, 64 jobs of 2^16, batches of $b" "service16-b$b.log" "$bin/g16" loadtest --backend cuda --size 2^16 --jobs 64 --rounds 3 --max-batch "$b" --log-level warn --cpuprofile "$logs/service16-b$b.prof"
		done
		step "service beside ProveBatch, 16 jobs of 2^20" service20.log "$bin/g16" loadtest --backend cuda --size 2^20 --jobs 16 --rounds 3 --log-level warn
		;;
	limit25) step "2^25 under a 16 GiB limit, beside an unlimited backend" limit25.log smipeak "$bin/g16" bench --backend cuda --size 2^25 --keys random --proofs 1 --no-gnark --compare-cpu=false --warmup=false --device-memory 16GiB --cache "$keys" ;;
	batch24limit) step "batch 10 x 2^24 under a 16 GiB limit, beside an unlimited backend" batch24limit.log smipeak "$bin/g16" bench --backend cuda --size 2^24 --keys random --partitions 10 --no-gnark --compare-cpu=false --device-memory 16GiB --cache "$keys" ;;
	big25s) step "2^25 under a 16 GiB limit, the key's host copy drawn in the run, beside an unlimited backend (at most 120 s)" big25s.log smipeak timeout 120 "$bin/g16" bench --backend cuda --size 2^25 --keys random --proofs 1 --no-gnark --compare-cpu=false --warmup=false --device-memory 16GiB ;;
	stream25) step "2^25 under a 16 GiB limit alone, the key's host copy drawn in the run (at most 90 s)" stream25.log smipeak timeout 90 "$bin/g16" bench --backend cuda --size 2^25 --keys random --proofs 1 --no-gnark --compare-cpu=false --warmup=false --device-memory 16GiB --compare-unlimited=false ;;
	big26) step "2^26, random key drawn on the device (at most 150 s)" big26.log smipeak timeout 150 "$bin/g16" bench --backend cuda --size 2^26 --keys random --proofs 1 --no-gnark --compare-cpu=false --warmup=false ;;
	big27) step "2^27, random key drawn on the device (at most 240 s)" big27.log smipeak timeout 240 "$bin/g16" bench --backend cuda --size 2^27 --keys random --proofs 1 --no-gnark --compare-cpu=false --warmup=false ;;
	big27s) step "2^27 under a 16 GiB limit alone, the key's host copy drawn in the run (at most 300 s)" big27s.log smipeak timeout 300 "$bin/g16" bench --backend cuda --size 2^27 --keys random --proofs 1 --no-gnark --compare-cpu=false --warmup=false --device-memory 16GiB --compare-unlimited=false ;;
	porep24) step "porep 2^24, tail 10%" porep24.log "$bin/g16" bench --backend cuda --circuit porep --size 2^24 --keys random --proofs 3 --no-gnark --compare-cpu=false --cache "$keys" ;;
	porepsweep)
		for t in 0.05 0.25 0.5; do
			step "porep 2^24, tail $t" "porep24-tail$t.log" "$bin/g16" bench --backend cuda --circuit porep --size 2^24 --porep-tail "$t" --keys random --proofs 2 --no-gnark --compare-cpu=false --cache "$keys"
		done
		;;
	porepbatch) step "porep batch 10 x 2^24, tail 10%" porepbatch24.log "$bin/g16" bench --backend cuda --circuit porep --size 2^24 --keys random --partitions 10 --no-gnark --compare-cpu=false --cache "$keys" --trace "$logs/trace-porep24.json" ;;
	porep27) step "porep 2^27, tail 10%, random key drawn on the device (at most 420 s)" porep27.log smipeak timeout 420 "$bin/g16" bench --backend cuda --circuit porep --size 2^27 --keys random --proofs 1 --no-gnark --compare-cpu=false --warmup=false ;;
	porepb2)
		for b in host device; do
			step "porep 2^24, tail 10%, B2 on the $b" "porep24-b2$b.log" "$bin/g16" bench --backend cuda --circuit porep --size 2^24 --keys random --proofs 2 --no-gnark --compare-cpu=false --cache "$keys" --b2 "$b" --seed 26
		done
		;;
	porepbatch27) step "porep batch 10 x 2^27, tail 10%, key drawn on the device, one worker (at most 560 s)" porepbatch27.log smipeak timeout 560 "$bin/g16" bench --backend cuda --circuit porep --size 2^27 --keys random --partitions 10 --workers 1 --no-gnark --compare-cpu=false --trace "$logs/trace-porep27.json" ;;
	porepbatch26s) step "porep batch 10 x 2^26, tail 10%, under a 16 GiB device limit, key streamed, one worker (at most 560 s)" porepbatch26s.log smipeak timeout 560 "$bin/g16" bench --backend cuda --circuit porep --size 2^26 --keys random --partitions 10 --workers 1 --no-gnark --compare-cpu=false --device-memory 16GiB --compare-unlimited=false --trace "$logs/trace-porep26s.json" ;;
	porepcpu) step "porep 2^22 on the CPU backend beside gnark, host memory" porepcpu22.log timev "$bin/g16" bench --backend cpu --circuit porep --size 2^22 --keys random --proofs 1 --warmup=false ;;
	gpus) step "batch 10 x 2^22, 1 and 2 GPUs" gpus22.log "$bin/g16" bench --backend cuda --size 2^22 --keys random --partitions 10 --gpus 1,2 --no-gnark --compare-cpu=false ;;
	esac
done
exit $rc
