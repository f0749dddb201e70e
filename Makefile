# g16 — make help lists the targets.

GO      ?= go
PKGS    := ./...
BUNDLE  := gpu-bundle

# make cuda installs libg16cuda and g16cuda.pc into this tree-local prefix;
# cgo finds them through pkg-config.
CUDA_PREFIX := $(CURDIR)/backend/cuda/kernels/build
export PKG_CONFIG_PATH := $(CUDA_PREFIX)/lib/pkgconfig$(if $(PKG_CONFIG_PATH),:$(PKG_CONFIG_PATH))

# make cuda compiles the kernels for sm_90 (H100, H200) alone, what CI and
# the GPU bundle need; GENCODE names other targets, e.g.
#   make cuda GENCODE="-gencode arch=compute_80,code=sm_80"
# make cuda-install (an adopter's install) compiles sm_90, sm_80 and
# compute_80 PTX unless GENCODE is set.

.PHONY: help generate generate-check test race fuzz soak test-short bench lint lint-cuda cuda-install vectors vectors-check cuda-toolchain cuda test-cuda-host test-cuda gpu-bundle build clean

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-15s %s\n", $$1, $$2}'

build: ## build the g16 command into bin/
	$(GO) build -o bin/g16 ./cmd/g16

test: ## run every test on the CPU backend (what CI runs)
	$(GO) test -count=1 -timeout 15m $(PKGS)

# internal/stdcircuits only compiles and solves gnark circuits, one at a
# time; under the race detector its big circuits take minutes.
RACE_PKGS = $(shell $(GO) list ./... | grep -v /internal/stdcircuits)
race: ## the tests in -short mode under the race detector, all packages but internal/stdcircuits (CI)
	$(GO) test -count=1 -short -race -timeout 20m $(RACE_PKGS)

soak: ## 1000 proofs through ProveBatch on the CPU backend: heap, goroutines and device memory flat (CI)
	G16_SOAK=1000 $(GO) test -count=1 -run '^TestSoak$$' -v -timeout 15m ./groth16

# Each fuzz target runs for a count of executions, not a duration: with a
# duration, Go 1.26's fuzz coordinator can report its own deadline as a
# failure ("context deadline exceeded", no input written; golang/go#75804).
# The counts are about 10 s of each target on a 2-core machine. FUZZTIME=30s
# (or 5000x) runs every target for that instead.
FUZZ_R1CS ?= 50000x
FUZZ_PK ?= 10000x
FUZZ_WITNESS ?= 50000x
FUZZ_HEADER ?= 70000x
FUZZ_CONTRACT ?= 130000x
fuzz: ## run each fuzz target for a fixed count of executions (about 10s each; CI)
	$(GO) test -run XXX -fuzz '^FuzzDecodeR1CS$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_R1CS)) ./internal/gnarkio
	$(GO) test -run XXX -fuzz '^FuzzReadProvingKey$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_PK)) ./internal/gnarkio
	$(GO) test -run XXX -fuzz '^FuzzReadWitness$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_WITNESS)) ./internal/gnarkio
	$(GO) test -run XXX -fuzz '^FuzzWitnessHeader$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_HEADER)) ./groth16/internal/bls12381
	$(GO) test -run XXX -fuzz '^FuzzContract$$' -fuzztime $(or $(FUZZTIME),$(FUZZ_CONTRACT)) ./backend/cpu

test-short: ## the tests in -short mode
	$(GO) test -count=1 -short $(PKGS)

bench: build ## g16 bench at 2^16 constraints, ours beside gnark
	./bin/g16 bench --size 2^16

lint: ## gofmt and go vet (without the cuda tag; lint-cuda adds it)
	@out="$$(gofmt -l .)"; if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

lint-cuda: cuda ## go vet with the cuda tag (needs the kernel library: make cuda)
	$(GO) vet -tags cuda $(PKGS)

generate: ## write the per-curve packages from their BLS12-381 references (internal/generator)
	$(GO) run ./internal/generator

generate-check: ## fail when a generated per-curve package differs from what the generator writes
	$(GO) run ./internal/generator -check

vectors: ## regenerate the checked-in test vectors
	$(GO) run ./internal/testvectors/gen

vectors-check: ## check that regenerating the vectors reproduces the checked-in files
	$(GO) run ./internal/testvectors/gen -check

cuda-toolchain: ## install nvcc (Debian's nvidia-cuda-toolkit, non-free); idempotent
	bash scripts/cuda-toolchain.sh

cuda: ## build libg16cuda (GENCODE's targets, default sm_90) and install it with g16cuda.pc into backend/cuda/kernels/build
	bash scripts/build-cuda.sh

cuda-install: ## build libg16cuda and install it into PREFIX (default /usr/local if writable, else ~/.local)
	$(GO) run ./cmd/g16-cuda-install $(if $(PREFIX),-prefix $(PREFIX))

test-cuda-host: cuda ## run the CUDA kernels' host emulation against gnark (no GPU needed)
	$(GO) test -count=1 -tags cuda -run 'Host' ./backend/cuda/...

test-cuda: cuda ## run the cuda-tagged tests (needs a GPU)
	$(GO) test -count=1 -tags cuda ./backend/cuda/... ./groth16/...

gpu-bundle: cuda ## build cuda test binaries and g16 into gpu-bundle/ for a GPU machine without Go
	SKIP_CUDA_BUILD=1 bash scripts/gpu-bundle.sh

clean: ## remove build outputs
	rm -rf bin $(BUNDLE) backend/cuda/kernels/build
