#!/usr/bin/env bash
# Builds everything a GPU machine without Go needs into gpu-bundle/ (git-ignored):
# the cuda-tagged test binaries (xz-compressed) (backend/cuda and every other package with a
# //go:build cuda test file), the g16 command when cmd/g16 exists, and run.sh.
# Used by `make gpu-bundle`. Needs nvcc and Go; builds the kernels first
# unless SKIP_CUDA_BUILD=1.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
out=gpu-bundle
if [ "${SKIP_CUDA_BUILD:-0}" != 1 ]; then
	bash scripts/build-cuda.sh
fi
# make cuda's tree-local install of libg16cuda and g16cuda.pc.
export PKG_CONFIG_PATH="$root/backend/cuda/kernels/build/lib/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
rm -rf "$out"
mkdir -p "$out"

# Packages with cuda-tagged tests, backend/cuda first.
pkgs=$(grep -rl --include='*_test.go' '^//go:build cuda' . | grep -v "^./$out/" | xargs -n1 dirname | sort -u |
	awk '$0=="./backend/cuda"{print "0 " $0; next} {print "1 " $0}' | sort | cut -d' ' -f2)
list=()
for p in $pkgs; do
	name=$(echo "${p#./}" | tr '/' '_')
	go test -c -tags cuda -ldflags='-s -w' -o "$out/$name.test" "$p"
	list+=("$name:${p#./}")
	echo "gpu-bundle: $out/$name.test ($p)"
done
if [ -d cmd/g16 ]; then
	go build -tags cuda -ldflags='-s -w' -o "$out/g16" ./cmd/g16
	echo "gpu-bundle: $out/g16"
fi
# The witness solver's benchmarks (not run by run.sh; symbols kept for
# -test.cpuprofile): cd solver/bls12381 && "$bin/solver.test" -test.run '^$' -test.bench Solve
go test -c -ldflags='-s -w' -o "$out/solver.test" ./solver/bls12381
echo "gpu-bundle: $out/solver.test"

cat >"$out/run.sh" <<RUN
#!/usr/bin/env bash
# Runs the bundled cuda tests, compute-sanitizer on the small ones, and the
# MSM benchmarks. Logs go to \$OUT (or ./logs). Run from anywhere inside a
# copy of the repository (each test binary runs in its package directory, so
# testdata is found).
#   run.sh [test|sanitize|bench|bench-bn254|table|sha|all]...   (default: all; sha and bench-bn254 are not in all)
# Environment: TEST_BINS (names of the test binaries to run, default all), TEST_RUN (regexp, default all tests), TEST_FLAGS (e.g. -test.short),
# BENCH (regexp, default the MSM, NTT and QuotientStep benchmarks), BENCHTIME (default 3x), plus the
# G16_* variables of backend/cuda/bench_test.go (bench-bn254: G16_BENCH_LOGS, G16_BENCH_COPIES, G16_BENCH_NTT_LOGS of
# backend/cuda/internal/bls12381/kernels_cuda_test.go).
set -uo pipefail
here=\$(cd "\$(dirname "\$0")" && pwd)
repo=\$(cd "\$here/.." && pwd)
logs=\${OUT:-\$here/logs}
mkdir -p "\$logs"
# The binaries travel xz-compressed (gzip -9 left them over the 64 MiB a
# device call carries); unpack them next to the logs' machine, with xz or,
# where it is missing, Python's lzma module.
bin=\${TMPDIR:-/tmp}/g16-gpu-bundle
mkdir -p "\$bin"
for f in "\$here"/*.xz; do
	n=\$(basename "\${f%.xz}")
	if command -v xz >/dev/null; then
		xz -dc "\$f" >"\$bin/\$n"
	else
		python3 -c 'import lzma, shutil, sys; shutil.copyfileobj(lzma.open(sys.argv[1]), sys.stdout.buffer)' "\$f" >"\$bin/\$n"
	fi && chmod +x "\$bin/\$n"
done
bins="${list[*]}"
rc=0
step() { # name, log, command...
	local name=\$1 log=\$2; shift 2
	echo "== \$name: \$*"
	local t0=\$SECONDS
	"\$@" >"\$logs/\$log" 2>&1
	local r=\$?
	tail -n 25 "\$logs/\$log"
	echo "== \$name: exit \$r, \$((SECONDS - t0)) s"
	[ \$r -eq 0 ] || rc=1
}
modes=\${*:-all}
for mode in \$modes; do
	case \$mode in
	test | all)
		for b in \$bins; do
			name=\${b%%:*} dir=\${b#*:}
			case " \${TEST_BINS:-\$name} " in *" \$name "*) ;; *) continue ;; esac
			(cd "\$repo/\$dir" && step "test \$name" "test-\$name.log" "\$bin/\$name.test" -test.v -test.timeout 30m \${TEST_FLAGS:-} -test.run "\${TEST_RUN:-.}")
		done
		;;
	esac
	case \$mode in
	sanitize | all)
		(cd "\$repo/backend/cuda" && step "compute-sanitizer memcheck" sanitize.log \\
			compute-sanitizer --tool memcheck --error-exitcode 9 --leak-check no \\
			"\$bin/backend_cuda.test" -test.v -test.short \\
			-test.run 'TestFieldDevice|TestFieldWideDevice|TestFieldsDevice|TestMSMSmall|TestNTT\$|TestNTTShapes|TestNTTRoundTrip|TestNTTErrors|TestQuotientStep')
		(cd "\$repo/backend/cuda/internal/bn254" && step "compute-sanitizer memcheck, BN254" sanitize-bn254.log \\
			compute-sanitizer --tool memcheck --error-exitcode 9 --leak-check no \\
			"\$bin/backend_cuda_internal_bn254.test" -test.v -test.short \\
			-test.run 'TestMSM\$|TestNTT\$|TestQuotientStep|TestTableMSM\$|TestContract')
		;;
	esac
	case \$mode in
	table | all)
		(cd "\$repo/backend/cuda" && G16_MSM_TABLE=1 step "MSM table" table.log \\
			"\$bin/backend_cuda.test" -test.v -test.timeout 30m -test.run TestMSMTable)
		;;
	esac
	case \$mode in
	sha)
		(cd "\$repo/backend/cuda" && G16_MSM_SHA=1 step "MSM sha256 shape" sha.log \\
			"\$bin/backend_cuda.test" -test.v -test.timeout 10m -test.run TestMSMShaTimed)
		;;
	esac
	case \$mode in
	bench-bn254)
		(cd "\$repo/backend/cuda/internal/bn254" && step "benchmarks, BN254" bench-bn254.log \\
			"\$bin/backend_cuda_internal_bn254.test" -test.run XXX_NONE -test.bench "\${BENCH:-BenchmarkMSM|BenchmarkNTT}" -test.benchtime "\${BENCHTIME:-3x}")
		;;
	esac
	case \$mode in
	bench)
		(cd "\$repo/backend/cuda" && step "benchmarks" bench.log \\
			"\$bin/backend_cuda.test" -test.run XXX_NONE -test.bench "\${BENCH:-BenchmarkMSM|BenchmarkNTT\$|BenchmarkQuotientStep}" -test.benchtime "\${BENCHTIME:-3x}")
		;;
	esac
done
exit \$rc
RUN
chmod +x "$out/run.sh"
xz -9 -T0 "$out"/*.test
[ ! -f "$out/g16" ] || xz -9 -T0 "$out/g16"
size=$(du -sb "$out" | cut -f1)
echo "gpu-bundle: $out is $((size / 1048576)) MiB"
if [ "$size" -gt $((64 << 20)) ]; then
	echo "gpu-bundle: over 64 MiB" >&2
	exit 1
fi
