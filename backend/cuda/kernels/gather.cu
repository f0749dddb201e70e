// Gathers of field elements (32 or 48 bytes) by an index list (gather.h).
#include <algorithm>

#include "device.cuh"
#include "gather.h"

namespace {

// elem<V>: a field element of V 16-byte vectors, moved with 16-byte loads
// and stores.
template <int V>
struct elem {
	uint4 v[V];
};

template <int V>
__global__ void gather_k(elem<V>* __restrict__ dst, const elem<V>* __restrict__ src, int64_t nsrc,
                         const uint32_t* __restrict__ idx, int64_t n) {
	int64_t stride = (int64_t)gridDim.x * blockDim.x;
	for (int64_t i = (int64_t)blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
		uint32_t j = idx[i];
		elem<V> e = {};
		if ((int64_t)j < nsrc) e = src[j];
		dst[i] = e;
	}
}

} // namespace

extern "C" g16_status g16_gather(g16_device* dev, void* stream, void* dst, const void* src, int64_t nsrc,
                                 const uint32_t* idx, int64_t n, int width) {
	return g16::guard([&] {
		if (!dev) g16::fail(G16_INVALID, "cuda: no device");
		if (n < 0 || nsrc < 0) g16::fail(G16_INVALID, "cuda: gather: negative length");
		if (width != 32 && width != 48) g16::fail(G16_INVALID, "cuda: gather: elements of 32 or 48 bytes");
		dev->use();
		if (n == 0) return;
		cudaStream_t st = stream ? (cudaStream_t)stream : dev->internal;
		const int threads = 256;
		int64_t blocks = std::min<int64_t>((n + threads - 1) / threads, 1 << 16);
		if (width == 32)
			gather_k<2><<<(unsigned)blocks, threads, 0, st>>>((elem<2>*)dst, (const elem<2>*)src, nsrc, idx, n);
		else
			gather_k<3><<<(unsigned)blocks, threads, 0, st>>>((elem<3>*)dst, (const elem<3>*)src, nsrc, idx, n);
		G16_CK(dev->ord, cudaGetLastError());
		if (!stream) G16_CK(dev->ord, cudaStreamSynchronize(st));
	});
}
