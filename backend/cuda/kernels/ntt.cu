// The number-theoretic transform over Fr, and the quotient step of H.
//
// A transform of size n = 2^L is split into P passes of k_0 + … + k_{P−1} = L
// radix-2 stages, each pass one kernel launch whose blocks do their stages in
// shared memory. The split is the four-step (Bailey) one, applied
// recursively. For the DIF form (natural in, bit-reversed out), write the
// input index i = i1·S + i0 with i1 < 2^k, i0 < S = 2^(L−k), and the output
// index j = j1 + 2^k·j2. Since ω^(S·2^k) = 1,
//
//   y_{j1 + 2^k j2} = Σ_{i0} ω^(2^k·i0·j2) · [ ω^(i0·j1) · Σ_{i1} x_{i1·S+i0} ω^(S·i1·j1) ]
//
// so the first pass does, for every i0, a size-2^k DFT over i1 (roots of
// order 2^k) followed by the twiddle ω^(i0·j1); what is left is S-point DFTs
// over i0, one for each j1, with root ω^(2^k): the same problem, smaller.
// Done in place with the inner DFT in DIF order, the value for j1 lands at
// offset bitrev_k(j1)·S, and the whole lands bit-reversed, as DIF should.
// Pass p therefore works on contiguous sub-problems of size N_p = 2^(L_p)
// (L_0 = L, L_{p+1} = L_p − k_p), with S_p = 2^(L_p − k_p) columns each, and
// ends with the twiddle ω_p^(i0·j1), ω_p = ω^(n/N_p). The last pass has
// S = 1 and no twiddle.
//
// The DIT form (bit-reversed in, natural out) is the transpose of DIF: the
// DIF map on memory is P·F (F the DFT matrix, P the bit reversal), whose
// transpose F·P is exactly "read bit-reversed, write natural" since F and P
// are symmetric. Transposing reverses the order of everything: the passes
// run last to first, each applies its twiddle first, then its stages from the
// shortest distance up with the transposed butterfly (a, b) → (a + w·b, a − w·b).
//
// Twiddles come from small tables built by the caller: the roots of order
// 2^12 for the stages inside a pass; for the twiddles between passes,
// ω^e = lo[e mod 2^W]·hi[e >> W] (two tables of about √n entries) in the
// first pass, whose roots have order n, and one direct table of the roots of
// order up to 2^18 in the later passes. Coset scaling uses the same windowed
// form and is fused into the first pass's loads (forward) or the last pass's
// stores (inverse); the inverse's plain 1/n is folded into the first pass's
// twiddle table.
//
// Shared memory holds each element as 16-byte vectors in planes (two for
// the scalars of 8 limbs, three for BW6-761's 12; vecs below), so that
// consecutive threads touch consecutive 16-byte words.
//
// Cost. Inside a pass, k stages take (k − 1)/2 multiplications an element
// (the stage at distance 1 has w = 1); the first pass's twiddle takes two
// (window, then apply), a later pass's one, a coset's scale two. At 2^24
// (passes of 8, 8, 8 stages) that is 13.5 Fr multiplications an element for
// an inverse DIF and 15.5 for a forward DIT on a coset. The kernels are
// bound by them: on an H200 each multiplication an element cost about
// 0.54 ms at 2^24 (the time followed the count within 1% between variants),
// and field.cuh's multiplication is about 560 SASS instructions (IMAD.HI,
// IMAD, IMAD.X and IADD3.X for each 32-bit mad.cc). The data moves through
// DRAM once a pass: 3 GB at 2^24, 0.8 ms at 3.97 TB/s, overlapped.
#include <algorithm>
#include <cstring>
#include <vector>

#include "device.cuh"
#include "curves.cuh"
#include "ntt.h"

using g16::fail;
using g16::guard;

namespace g16 {

namespace {

// The default pass shape: at most 10 stages a pass, blocks of 2^10
// elements (32 KiB of shared memory) and 128 threads. On an H200 at 2^24
// (inverse DIF) it ran in 7.17 ms against 7.39 ms for 2^11 elements and
// 256 threads, 8.06 ms for two passes of 12 stages (2^12 elements, 512
// threads), 7.25 ms for 256 threads (BenchmarkNTTShapes).
const int kDefaultMaxK = 10;
const int kDefaultLogBlock = 10;
const int kDefaultThreads = 128;
const int kMaxThreads = 512;

// bitrev reverses the low `bits` bits of x.
G16_HD uint32_t bitrev(uint32_t x, uint32_t bits) {
	if (bits == 0) return 0;
#ifdef __CUDA_ARCH__
	return __brev(x) >> (32 - bits);
#else
	uint32_t r = 0;
	for (uint32_t b = 0; b < bits; b++) r |= ((x >> b) & 1) << (bits - 1 - b);
	return r;
#endif
}

// An element of the scalar field Fr is V = vecs<Fr> vectors of 16 bytes
// (2 for the fields of 8 limbs, 3 for BW6-761's 12), vector v holding limbs
// 4v to 4v + 3: in global memory (data and tables) the V vectors of an
// element are consecutive; in shared memory they lie in V planes of one
// vector an element, so that consecutive threads touch consecutive words.
template <class Fr>
constexpr int vecs = sizeof(Fr) / 16;

// elem reads the element whose vector v is at p[v·stride]; put writes it.
template <class Fr>
G16_HD Fr elem(const uint4* p, size_t stride) {
	static_assert(sizeof(Fr) == 16 * vecs<Fr> && Fr::N == 4 * vecs<Fr>, "scalars of whole 16-byte vectors");
	Fr r;
#pragma unroll
	for (int v = 0; v < vecs<Fr>; v++) {
		uint4 q = p[v * stride];
		r.v[4 * v] = q.x, r.v[4 * v + 1] = q.y, r.v[4 * v + 2] = q.z, r.v[4 * v + 3] = q.w;
	}
	return r;
}
template <class Fr>
G16_HD void put(uint4* p, size_t stride, const Fr& a) {
#pragma unroll
	for (int v = 0; v < vecs<Fr>; v++) p[v * stride] = make_uint4(a.v[4 * v], a.v[4 * v + 1], a.v[4 * v + 2], a.v[4 * v + 3]);
}

// ld_table reads entry i of a read-only table of fr.Elements.
template <class Fr>
G16_HD Fr ld_table(const uint4* t, uint32_t i) {
	const uint4* p = t + (size_t)vecs<Fr> * i;
	Fr r;
#pragma unroll
	for (int v = 0; v < vecs<Fr>; v++) {
#ifdef __CUDA_ARCH__
		uint4 q = __ldg(p + v);
#else
		uint4 q = p[v];
#endif
		r.v[4 * v] = q.x, r.v[4 * v + 1] = q.y, r.v[4 * v + 2] = q.z, r.v[4 * v + 3] = q.w;
	}
	return r;
}

// ntt_pass is one pass: the block/thread-level work, written once for the
// device kernel and the host emulation. A block holds 2^B elements: all 2^k
// rows i1 of C = 2^(B−k) consecutive columns (combinations of sub-problem
// and i0); shared-memory slot e holds row e >> logC of column e mod C.
// Fr is the curve's scalar field.
template <class Fr>
struct ntt_pass {
	uint4* data;
	const uint4* roots;
	const uint4* tw_lo;
	const uint4* tw_hi; // the first pass's may have a constant folded in
	const uint4* direct;
	const uint4* sc_lo;
	const uint4* sc_hi;
	Fr scale_c;
	uint32_t L, Lp, k, logC, B, log_roots, win, log_direct;
	uint32_t twiddle;   // 1: this pass has a twiddle (S > 1)
	uint32_t use_direct; // 1: its twiddles come from direct
	uint32_t dit;       // 1: transposed (DIT) pass
	uint32_t scale_in;  // 0 none, 1 constant, 2 table: on the loads
	uint32_t scale_out; // the same on the stores
	uint32_t nthreads;  // threads a block

	// index maps local slot e of block blk to its global index, and gives
	// its row i1 and column offset i0.
	G16_HD size_t index(uint32_t blk, uint32_t e, uint32_t& i0, uint32_t& i1) const {
		i1 = e >> logC;
		size_t c = ((size_t)blk << logC) | (e & ((1u << logC) - 1));
		uint32_t logS = Lp - k;
		i0 = (uint32_t)(c & ((1u << logS) - 1));
		size_t sub = c >> logS;
		return (sub << Lp) | ((size_t)i1 << logS) | i0;
	}

	G16_HD Fr window(const uint4* lo, const uint4* hi, uint32_t e) const {
		return ld_table<Fr>(lo, e & ((1u << win) - 1)) * ld_table<Fr>(hi, e >> win);
	}

	// tw is the twiddle of the element in row i1, column i0: ω_p^(i0·j1)
	// with j1 = bitrev_k(i1), its DFT index after the in-place DIF stages.
	G16_HD Fr tw(uint32_t i0, uint32_t i1) const {
		uint32_t e = i0 * bitrev(i1, k); // < 2^Lp
		if (use_direct) return ld_table<Fr>(direct, e << (log_direct - Lp));
		return window(tw_lo, tw_hi, e << (L - Lp));
	}

	// scaled applies scaling mode to x, at global position g of the input
	// (at_input) or of the output. The factor depends on the element's
	// natural index, which is g where memory is in natural order (DIF input,
	// DIT output) and bitrev_L(g) where it is bit-reversed.
	G16_HD Fr scaled(const Fr& x, uint32_t mode, size_t g, bool at_input) const {
		if (mode == 1) return x * scale_c;
		uint32_t i = (dit != 0) == at_input ? bitrev((uint32_t)g, L) : (uint32_t)g;
		return x * window(sc_lo, sc_hi, i);
	}

	G16_HD void load(uint32_t blk, uint32_t tid, uint32_t T, uint4* sm) const {
		for (uint32_t e = tid; e < (1u << B); e += T) {
			uint32_t i0, i1;
			size_t g = index(blk, e, i0, i1);
			Fr x = elem<Fr>(data + (size_t)vecs<Fr> * g, 1);
			if (scale_in) x = scaled(x, scale_in, g, true);
			if (dit && twiddle) x = x * tw(i0, i1);
			put(sm + e, (size_t)1 << B, x);
		}
	}

	// stage does every butterfly at distance 2^logh (in rows) of the block.
	G16_HD void stage(uint32_t logh, uint32_t tid, uint32_t T, uint4* sm) const {
		const uint32_t cmask = (1u << logC) - 1, hmask = (1u << logh) - 1;
		for (uint32_t q = tid; q < (1u << (B - 1)); q += T) {
			uint32_t r = q >> logC;
			uint32_t j = r & hmask;
			uint32_t row = ((r >> logh) << (logh + 1)) | j;
			uint32_t ia = (row << logC) | (q & cmask);
			uint32_t ib = ia + (1u << (logh + logC));
			const size_t ps = (size_t)1 << B; // the planes' stride
			Fr a = elem<Fr>(sm + ia, ps);
			Fr b = elem<Fr>(sm + ib, ps);
			// w = ω_{2h}^j, a root of order 2h = 2^(logh+1).
			if (!dit) {
				Fr s = a + b;
				Fr d = a - b;
				if (logh) d = d * ld_table<Fr>(roots, j << (log_roots - 1 - logh));
				put(sm + ia, ps, s);
				put(sm + ib, ps, d);
			} else {
				if (logh) b = b * ld_table<Fr>(roots, j << (log_roots - 1 - logh));
				Fr s = a + b;
				Fr d = a - b;
				put(sm + ia, ps, s);
				put(sm + ib, ps, d);
			}
		}
	}

	G16_HD void store(uint32_t blk, uint32_t tid, uint32_t T, const uint4* sm) const {
		for (uint32_t e = tid; e < (1u << B); e += T) {
			uint32_t i0, i1;
			size_t g = index(blk, e, i0, i1);
			Fr x = elem<Fr>(sm + e, (size_t)1 << B);
			if (!dit && twiddle) x = x * tw(i0, i1);
			if (scale_out) x = scaled(x, scale_out, g, false);
			put(data + (size_t)vecs<Fr> * g, 1, x);
		}
	}

	uint32_t blocks() const { return 1u << (L - B); }
	uint32_t threads() const { return std::min<uint32_t>(nthreads, 1u << (B - 1)); }
	size_t smem() const { return (size_t)vecs<Fr> << B << 4; } // V planes of 2^B uint4
};

template <class Fr>
__global__ void __launch_bounds__(kMaxThreads) ntt_pass_kernel(ntt_pass<Fr> p) {
	extern __shared__ uint4 sm[];
	p.load(blockIdx.x, threadIdx.x, blockDim.x, sm);
	__syncthreads();
	if (!p.dit) {
		for (int logh = (int)p.k - 1; logh >= 0; logh--) {
			p.stage((uint32_t)logh, threadIdx.x, blockDim.x, sm);
			__syncthreads();
		}
	} else {
		for (uint32_t logh = 0; logh < p.k; logh++) {
			p.stage(logh, threadIdx.x, blockDim.x, sm);
			__syncthreads();
		}
	}
	p.store(blockIdx.x, threadIdx.x, blockDim.x, sm);
}

// run_host emulates one launch of pass p: each loop over tid is the code
// between two barriers.
template <class Fr>
void run_host(const ntt_pass<Fr>& p) {
	std::vector<uint4> sm((size_t)vecs<Fr> << p.B);
	uint32_t T = p.threads();
	for (uint32_t blk = 0; blk < p.blocks(); blk++) {
		for (uint32_t t = 0; t < T; t++) p.load(blk, t, T, sm.data());
		for (uint32_t u = 0; u < p.k; u++) {
			uint32_t logh = p.dit ? u : p.k - 1 - u;
			for (uint32_t t = 0; t < T; t++) p.stage(logh, t, T, sm.data());
		}
		for (uint32_t t = 0; t < T; t++) p.store(blk, t, T, sm.data());
	}
}

// plan checks args and returns the passes in execution order.
template <class Fr>
std::vector<ntt_pass<Fr>> plan(void* data, const g16_ntt_args& a) {
	if (a.log_n < 0 || a.log_n > G16_NTT_MAX_LOG) fail(G16_INVALID, "ntt: log_n out of range");
	uint32_t L = (uint32_t)a.log_n;
	std::vector<ntt_pass<Fr>> out;
	if (L == 0) return out; // every variant is the identity on one element
	int max_k = a.max_k ? a.max_k : kDefaultMaxK;
	int log_block = a.log_block ? a.log_block : kDefaultLogBlock;
	int threads = a.threads ? a.threads : kDefaultThreads;
	if (threads < 32 || threads > kMaxThreads || (threads & (threads - 1)) != 0)
		fail(G16_INVALID, "ntt: threads must be a power of two in [32, 512]");
	if (max_k < 1 || log_block < 1 || max_k > log_block || log_block > 12)
		fail(G16_INVALID, "ntt: need 1 ≤ max_k ≤ log_block ≤ 12");
	if (a.log_roots < 1 || a.log_roots > a.log_n || !a.roots) fail(G16_INVALID, "ntt: bad roots table");
	if (a.win < 0 || a.win > a.log_n || !a.tw_lo || !a.tw_hi) fail(G16_INVALID, "ntt: bad twiddle tables");
	if (a.scale < 0 || a.scale > 2) fail(G16_INVALID, "ntt: unknown scale mode");
	if (a.scale == 2 && (!a.sc_lo || !a.sc_hi)) fail(G16_INVALID, "ntt: missing scale tables");
	if (a.direct && (a.log_direct < 0 || a.log_direct >= a.log_n)) fail(G16_INVALID, "ntt: bad direct table");
	if (!data) fail(G16_INVALID, "ntt: no data");

	uint32_t B = std::min<uint32_t>(L, (uint32_t)log_block);
	uint32_t kmax = std::min<uint32_t>({(uint32_t)max_k, B, (uint32_t)a.log_roots});
	uint32_t P = (L + kmax - 1) / kmax;

	ntt_pass<Fr> base;
	std::memset((void*)&base, 0, sizeof base);
	base.data = (uint4*)data;
	base.roots = (const uint4*)a.roots;
	base.tw_lo = (const uint4*)a.tw_lo;
	base.tw_hi = (const uint4*)a.tw_hi;
	base.direct = (const uint4*)a.direct;
	base.log_direct = a.direct ? (uint32_t)a.log_direct : 0;
	base.sc_lo = (const uint4*)a.sc_lo;
	base.sc_hi = (const uint4*)a.sc_hi;
	static_assert(sizeof base.scale_c.v <= sizeof a.scale_c, "ntt.h's scale_c holds an element");
	std::memcpy(base.scale_c.v, a.scale_c, sizeof base.scale_c.v);
	base.L = L;
	base.B = B;
	base.log_roots = (uint32_t)a.log_roots;
	base.win = (uint32_t)a.win;
	base.dit = a.dit ? 1 : 0;
	base.nthreads = (uint32_t)threads;

	uint32_t Lp = L;
	for (uint32_t p = 0; p < P; p++) {
		ntt_pass<Fr> q = base;
		q.k = L / P + (p < L % P ? 1 : 0);
		q.Lp = Lp;
		q.logC = B - q.k;
		q.twiddle = Lp > q.k;
		q.use_direct = q.twiddle && q.direct && Lp <= q.log_direct;
		Lp -= q.k;
		out.push_back(q);
	}
	// The first DIF pass (p = 0) has Lp = L > log_direct, so it reads the
	// windows, where the constant can be folded.
	bool fold = a.scale == 1 && a.tw_hi0 && P > 1;
	if (fold) out[0].tw_hi = (const uint4*)a.tw_hi0;
	if (base.dit) std::reverse(out.begin(), out.end());
	if (!fold) {
		if (a.scale_out)
			out.back().scale_out = (uint32_t)a.scale;
		else
			out.front().scale_in = (uint32_t)a.scale;
	}
	return out;
}

template <class Fr>
G16_HD void quotient_one(uint4* a, const uint4* b, const uint4* c, size_t i, const Fr& z) {
	const size_t at = (size_t)vecs<Fr> * i;
	Fr x = elem<Fr>(a + at, 1) * elem<Fr>(b + at, 1);
	x = (x - elem<Fr>(c + at, 1)) * z;
	put(a + at, 1, x);
}

template <class Fr>
__global__ void __launch_bounds__(kDefaultThreads) quotient_kernel(uint4* a, const uint4* b, const uint4* c, size_t n,
                                                                   Fr z) {
	size_t stride = (size_t)gridDim.x * blockDim.x;
	for (size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) quotient_one(a, b, c, i, z);
}

// aligned_copy is a 16-byte aligned host copy of Go memory (8-byte aligned
// at least), written back by put.
struct aligned_copy {
	std::vector<uint4> v;
	aligned_copy(const void* src, size_t bytes) : v((bytes + 15) / 16) {
		if (src) std::memcpy(v.data(), src, bytes);
	}
	uint4* p() { return v.data(); }
};

} // namespace
} // namespace g16

using g16::ntt_pass;
using g16::with_scalars;

extern "C" g16_status g16_ntt(g16_device* dev, void* stream, void* data, const g16_ntt_args* args) {
	return guard([&] {
		if (!dev) fail(G16_INVALID, "cuda: no device");
		if (!args) fail(G16_INVALID, "ntt: no arguments");
		if (((uintptr_t)data & 15) != 0) fail(G16_INVALID, "ntt: data is not 16-byte aligned");
		with_scalars(args->curve, "ntt", [&](auto zero) {
			typedef decltype(zero) Fr;
			std::vector<ntt_pass<Fr>> passes = g16::plan<Fr>(data, *args);
			if (passes.empty()) return;
			dev->use();
			cudaStream_t st = stream ? (cudaStream_t)stream : dev->internal;
			size_t smem = passes[0].smem();
			G16_CK(dev->ord, cudaFuncSetAttribute(g16::ntt_pass_kernel<Fr>,
			                                      cudaFuncAttributeMaxDynamicSharedMemorySize, (int)smem));
			for (const ntt_pass<Fr>& p : passes) {
				g16::ntt_pass_kernel<Fr><<<p.blocks(), p.threads(), p.smem(), st>>>(p);
				G16_CK(dev->ord, cudaGetLastError());
			}
		});
	});
}

extern "C" g16_status g16_ntt_table_new(g16_device* dev, const void* src, int64_t bytes, void** ptr) {
	return guard([&] {
		if (!dev) fail(G16_INVALID, "cuda: no device");
		if (bytes <= 0 || !src) fail(G16_INVALID, "ntt: empty table");
		dev->use();
		void* p = nullptr;
		G16_CK(dev->ord, cudaMalloc(&p, (size_t)bytes));
		// On the internal stream, then wait for that stream alone: the
		// table must be in place before a kernel on any stream reads it.
		cudaError_t e = cudaMemcpyAsync(p, src, (size_t)bytes, cudaMemcpyHostToDevice, dev->internal);
		if (e == cudaSuccess) e = cudaStreamSynchronize(dev->internal);
		if (e != cudaSuccess) {
			cudaFree(p);
			g16::fail_cuda(e, "cudaMemcpyAsync(table)", __FILE__, __LINE__, dev->ord);
		}
		*ptr = p;
	});
}

extern "C" g16_status g16_ntt_table_free(g16_device* dev, void* ptr) {
	return guard([&] {
		if (!dev) fail(G16_INVALID, "cuda: no device");
		dev->use();
		G16_CK(dev->ord, cudaFree(ptr));
	});
}

extern "C" g16_status g16_host_ntt(void* data, const g16_ntt_args* args) {
	return guard([&] {
		if (!args) fail(G16_INVALID, "ntt: no arguments");
		const g16_ntt_args& a = *args;
		if (a.log_n < 0 || a.log_n > 24) fail(G16_INVALID, "host ntt: log_n out of range");
		with_scalars(a.curve, "ntt", [&](auto zero) {
			typedef decltype(zero) Fr;
			const size_t el = sizeof(Fr);
			size_t n = (size_t)1 << a.log_n;
			size_t nr = a.log_roots >= 1 ? (size_t)1 << (a.log_roots - 1) : 0;
			size_t nlo = (size_t)1 << std::max(a.win, 0), nhi = (size_t)1 << std::max(a.log_n - a.win, 0);
			g16::aligned_copy d(data, n * el), r(a.roots, nr * el), tl(a.tw_lo, nlo * el), th(a.tw_hi, nhi * el);
			g16::aligned_copy sl(a.scale == 2 ? a.sc_lo : nullptr, nlo * el);
			g16::aligned_copy sh(a.scale == 2 ? a.sc_hi : nullptr, nhi * el);
			g16::aligned_copy th0(a.tw_hi0, nhi * el);
			size_t nd = a.direct && a.log_direct >= 0 && a.log_direct < 31 ? (size_t)1 << a.log_direct : 0;
			g16::aligned_copy dd(a.direct, nd * el);
			g16_ntt_args b = a;
			b.roots = a.roots ? r.p() : nullptr;
			b.tw_lo = a.tw_lo ? tl.p() : nullptr;
			b.tw_hi = a.tw_hi ? th.p() : nullptr;
			b.tw_hi0 = a.tw_hi0 ? th0.p() : nullptr;
			b.direct = a.direct ? dd.p() : nullptr;
			b.sc_lo = a.scale == 2 && a.sc_lo ? sl.p() : nullptr;
			b.sc_hi = a.scale == 2 && a.sc_hi ? sh.p() : nullptr;
			for (const ntt_pass<Fr>& p : g16::plan<Fr>(d.p(), b)) g16::run_host(p);
			std::memcpy(data, d.p(), n * el);
		});
	});
}

extern "C" g16_status g16_quotient(g16_device* dev, void* stream, int curve, void* a, const void* b, const void* c,
                                   int64_t n, const void* z_inv) {
	return guard([&] {
		if (!dev) fail(G16_INVALID, "cuda: no device");
		if (n < 0) fail(G16_INVALID, "quotient: negative length");
		if ((((uintptr_t)a | (uintptr_t)b | (uintptr_t)c) & 15) != 0)
			fail(G16_INVALID, "quotient: vectors are not 16-byte aligned");
		with_scalars(curve, "quotient", [&](auto zero) {
			typedef decltype(zero) Fr;
			if (n == 0) return;
			Fr z;
			std::memcpy(z.v, z_inv, sizeof z.v);
			dev->use();
			cudaStream_t st = stream ? (cudaStream_t)stream : dev->internal;
			int sms = 0;
			G16_CK(dev->ord, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev->ord));
			size_t want = ((size_t)n + g16::kDefaultThreads - 1) / g16::kDefaultThreads;
			unsigned grid = (unsigned)std::min<size_t>(want, (size_t)sms * 16);
			g16::quotient_kernel<Fr><<<grid, g16::kDefaultThreads, 0, st>>>((uint4*)a, (const uint4*)b,
			                                                               (const uint4*)c, (size_t)n, z);
			G16_CK(dev->ord, cudaGetLastError());
		});
	});
}

extern "C" g16_status g16_host_quotient(int curve, void* a, const void* b, const void* c, int64_t n,
                                        const void* z_inv) {
	return guard([&] {
		if (n < 0) fail(G16_INVALID, "quotient: negative length");
		with_scalars(curve, "quotient", [&](auto zero) {
			typedef decltype(zero) Fr;
			size_t bytes = (size_t)n * sizeof(Fr);
			g16::aligned_copy da(a, bytes), db(b, bytes), dc(c, bytes);
			Fr z;
			std::memcpy(z.v, z_inv, sizeof z.v);
			for (size_t i = 0; i < (size_t)n; i++) g16::quotient_one(da.p(), db.p(), dc.p(), i, z);
			std::memcpy(a, da.p(), bytes);
		});
	});
}
