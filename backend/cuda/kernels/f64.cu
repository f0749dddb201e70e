// The FP64-pipe Fp product (field_f64.cuh): checked against fp_t, and timed
// beside it. See f64.h.
#include "exec.cuh"
#include "f64.h"
#include "field_f64.cuh"

namespace g16 {

struct f64_op_k {
	int op;
	fp_t* out;
	const fp_t* a;
	const fp_t* b;
	G16_HD void operator()(size_t i) const {
		fp64_t x = fp64_t::from_fp(a[i]);
		if (op == 0) x = x * fp64_t::from_fp(b[i]);
		if (op == 2) { // products below 2p, not reduced in between
			fp64_t y = fp64_t::from_fp(b[i]);
			for (int k = 0; k < 8; k++) x = x * y;
		}
		out[i] = x.to_fp();
	}
};

// mul_rate_kernel: see g16_mul_rate. out[i] is the sum of thread i's
// chains (so that none is dead code); *mismatch counts the threads whose
// first fp_t and fp64_t chains differ.
template <int NI, int NF>
__global__ void __launch_bounds__(128) mul_rate_kernel(const fp_t* x, const fp_t* y, uint32_t n, int iters,
                                                        fp_t* out, unsigned long long* mismatch) {
	size_t i = (size_t)blockIdx.x * 128 + threadIdx.x;
	fp_t yi = y[i % n];
	fp64_t yf = fp64_t::from_fp(yi);
	fp_t xi[NI > 0 ? NI : 1];
	fp64_t xf[NF > 0 ? NF : 1];
#pragma unroll
	for (int c = 0; c < NI; c++) xi[c] = x[(i + c) % n];
#pragma unroll
	for (int c = 0; c < NF; c++) xf[c] = fp64_t::from_fp(x[(i + c) % n]);
#pragma unroll 1
	for (int it = 0; it < iters; it++) {
#pragma unroll
		for (int c = 0; c < NI; c++) xi[c] = xi[c] * yi;
#pragma unroll
		for (int c = 0; c < NF; c++) xf[c] = xf[c] * yf;
	}
	fp_t sum = fp_t::zero();
#pragma unroll
	for (int c = 0; c < NI; c++) sum = sum + xi[c];
#pragma unroll
	for (int c = 0; c < NF; c++) sum = sum + xf[c].to_fp();
	out[i] = sum;
	if (NI > 0 && NF > 0 && !(xi[0] == xf[0].to_fp())) atomicAdd(mismatch, 1ull);
}

template <int NI, int NF>
void mul_rate(g16_device* dev, int iters, const fp_t* x, const fp_t* y, uint32_t n, double* ms, int64_t* threads,
              int* regs, int64_t* mismatch) {
	auto kern = mul_rate_kernel<NI, NF>;
	cudaFuncAttributes fa;
	G16_CK(dev->ord, cudaFuncGetAttributes(&fa, kern));
	int per_sm = 0, sms = 0;
	G16_CK(dev->ord, cudaOccupancyMaxActiveBlocksPerMultiprocessor(&per_sm, kern, 128, 0));
	G16_CK(dev->ord, cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev->ord));
	if (per_sm < 1) fail(G16_INTERNAL, "mul_rate: the kernel fits no block an SM");
	size_t blocks = (size_t)per_sm * sms, nt = blocks * 128;
	exec_t ex;
	ex.dev = dev;
	ex.st = dev->internal;
	buf<fp_t> out(ex, nt);
	buf<unsigned long long> mis(ex, 1);
	ex.zero(mis.p, sizeof(unsigned long long));
	cudaEvent_t ev[2] = {};
	struct events {
		cudaEvent_t* e;
		~events() {
			for (int k = 0; k < 2; k++)
				if (e[k]) cudaEventDestroy(e[k]);
		}
	} hold{ev};
	for (auto& e : ev) G16_CK(dev->ord, cudaEventCreate(&e));
	// A short warm-up launch, then the timed one.
	mul_rate_kernel<NI, NF><<<(unsigned)blocks, 128, 0, ex.st>>>(x, y, n, 1, out.p, mis.p);
	G16_CK(dev->ord, cudaGetLastError());
	ex.zero(mis.p, sizeof(unsigned long long));
	G16_CK(dev->ord, cudaEventRecord(ev[0], ex.st));
	mul_rate_kernel<NI, NF><<<(unsigned)blocks, 128, 0, ex.st>>>(x, y, n, iters, out.p, mis.p);
	G16_CK(dev->ord, cudaGetLastError());
	G16_CK(dev->ord, cudaEventRecord(ev[1], ex.st));
	unsigned long long m = 0;
	ex.to_host(&m, mis.p, sizeof m);
	float t = 0;
	G16_CK(dev->ord, cudaEventElapsedTime(&t, ev[0], ev[1]));
	*ms = t;
	*threads = (int64_t)nt;
	*regs = fa.numRegs;
	*mismatch = (int64_t)m;
}

} // namespace g16

using namespace g16;

extern "C" g16_status g16_f64_op(g16_device* dev, int op, void* out, const void* a, const void* b, int64_t n) {
	return guard([&] {
		if (op < 0 || op > 2) fail(G16_INVALID, "f64_op: unknown op");
		if (n < 0) fail(G16_INVALID, "f64_op: negative n");
		if (n == 0) return;
		exec_t ex;
		if (!dev) {
			ex.launch((size_t)n, f64_op_k{op, (fp_t*)out, (const fp_t*)a, (const fp_t*)(b ? b : a)});
			return;
		}
		dev->use();
		ex.dev = dev;
		ex.st = dev->internal;
		ex.launch((size_t)n, f64_op_k{op, (fp_t*)out, (const fp_t*)a, (const fp_t*)(b ? b : a)});
		G16_CK(dev->ord, cudaStreamSynchronize(ex.st));
	});
}

extern "C" g16_status g16_mul_rate(g16_device* dev, int ni, int nf, int iters, const void* x, const void* y,
                                   int64_t n, double* ms, int64_t* threads, int* regs, int64_t* mismatch) {
	return guard([&] {
		if (!dev) fail(G16_INVALID, "mul_rate: no device");
		if (ni < 0 || ni > 2 || nf < 0 || nf > 2 || ni + nf < 1) fail(G16_INVALID, "mul_rate: ni, nf in [0, 2], not both 0");
		if (iters < 1) fail(G16_INVALID, "mul_rate: iters must be positive");
		if (n < 1 || n >= (1ll << 31)) fail(G16_INVALID, "mul_rate: n must be in [1, 2^31)");
		dev->use();
		const fp_t* px = (const fp_t*)x;
		const fp_t* py = (const fp_t*)y;
		uint32_t un = (uint32_t)n;
		switch (ni * 3 + nf) {
		case 1: mul_rate<0, 1>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		case 2: mul_rate<0, 2>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		case 3: mul_rate<1, 0>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		case 4: mul_rate<1, 1>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		case 5: mul_rate<1, 2>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		case 6: mul_rate<2, 0>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		case 7: mul_rate<2, 1>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		case 8: mul_rate<2, 2>(dev, iters, px, py, un, ms, threads, regs, mismatch); break;
		}
	});
}
