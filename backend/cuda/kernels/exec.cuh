// exec_t runs the MSM pipeline either on a GPU stream or on the host.
//
// A kernel is a functor with a __host__ __device__ operator()(size_t i); on
// the device launch() starts one thread per i, on the host it loops over i.
// The host mode exists to check the pipeline's logic on machines with no GPU
// (CI and development machines); it is slow and only for small inputs.
#pragma once
#include <cub/cub.cuh>

#include <algorithm>
#include <cstdlib>
#include <numeric>
#include <vector>

#include "device.cuh"

namespace g16 {

template <class K>
__global__ void __launch_bounds__(256) kernel_of(K k, size_t n) {
	size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
	if (i < n) k(i);
}

// kernel_lb is kernel_of for blocks of exactly B threads, at least M
// blocks an SM: ptxas keeps the registers within 65536/(B·M).
template <class K, int B, int M>
__global__ void __launch_bounds__(B, M) kernel_lb(K k, size_t n) {
	size_t i = (size_t)blockIdx.x * B + threadIdx.x;
	if (i < n) k(i);
}

struct exec_t {
	g16_device* dev = nullptr; // nullptr: host mode
	cudaStream_t st = nullptr;

	bool host() const { return dev == nullptr; }
	int ord() const { return dev ? dev->ord : -1; }

	// live and peak count the host mode's bytes as the device's pool
	// counts them (what each alloc asked), for the scratch model's check.
	size_t live = 0, peak = 0;

	void* alloc(size_t bytes) {
		if (bytes == 0) bytes = 16;
		if (host()) {
			void* p = std::aligned_alloc(64, (bytes + 63) / 64 * 64);
			if (!p) throw std::bad_alloc();
			live += bytes;
			peak = std::max(peak, live);
			return p;
		}
		return dev->alloc_async((int64_t)bytes, st);
	}
	void release(void* p, size_t bytes) {
		if (bytes == 0) bytes = 16;
		if (host()) {
			std::free(p);
			live -= bytes;
		} else
			dev->free_async(p, (int64_t)bytes, st);
	}
	void zero(void* p, size_t bytes) {
		if (host())
			std::memset(p, 0, bytes);
		else
			G16_CK(ord(), cudaMemsetAsync(p, 0, bytes, st));
	}
	// copy copies bytes within the executor's memory, stream-ordered.
	void copy(void* dst, const void* src, size_t bytes) {
		if (host())
			std::memcpy(dst, src, bytes);
		else
			G16_CK(ord(), cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToDevice, st));
	}
	// to_host_async starts a copy of bytes from src (device memory in device
	// mode) to pageable host memory; dst holds them after wait().
	void to_host_async(void* dst, const void* src, size_t bytes) {
		if (host()) {
			std::memcpy(dst, src, bytes);
			return;
		}
		G16_CK(ord(), cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, st));
	}
	void wait() {
		if (!host()) G16_CK(ord(), cudaStreamSynchronize(st));
	}
	// to_host copies bytes from src (device memory in device mode) and waits.
	void to_host(void* dst, const void* src, size_t bytes) {
		if (host()) {
			std::memcpy(dst, src, bytes);
			return;
		}
		G16_CK(ord(), cudaMemcpyAsync(dst, src, bytes, cudaMemcpyDeviceToHost, st));
		G16_CK(ord(), cudaStreamSynchronize(st));
	}

	template <class K>
	void launch(size_t n, const K& k, int block = 256) {
		if (n == 0) return;
		if (host()) {
			for (size_t i = 0; i < n; i++) k(i);
			return;
		}
		size_t grid = (n + block - 1) / block;
		kernel_of<K><<<(unsigned)grid, block, 0, st>>>(k, n);
		G16_CK(ord(), cudaGetLastError());
	}

	// launch_lb launches kernel_lb<K, B, M> (kernels with per-thread shared
	// memory, which want the largest shared-memory carve-out).
	template <int B, int M, class K>
	void launch_lb(size_t n, const K& k) {
		if (n == 0) return;
		if (host()) {
			for (size_t i = 0; i < n; i++) k(i);
			return;
		}
		G16_CK(ord(), cudaFuncSetAttribute(kernel_lb<K, B, M>, cudaFuncAttributePreferredSharedMemoryCarveout,
		                                   (int)cudaSharedmemCarveoutMaxShared));
		size_t grid = (n + B - 1) / B;
		kernel_lb<K, B, M><<<(unsigned)grid, B, 0, st>>>(k, n);
		G16_CK(ord(), cudaGetLastError());
	}

	// sort_pairs sorts (key, value) pairs by the low `bits` bits of the key,
	// stably, in ascending or descending order.
	void sort_pairs(const uint32_t* kin, uint32_t* kout, const uint32_t* vin, uint32_t* vout, size_t n, int bits,
	                bool descending = false) {
		if (host()) {
			std::vector<uint32_t> idx(n);
			std::iota(idx.begin(), idx.end(), 0u);
			std::stable_sort(idx.begin(), idx.end(),
			                 [&](uint32_t a, uint32_t b) { return descending ? kin[a] > kin[b] : kin[a] < kin[b]; });
			for (size_t i = 0; i < n; i++) {
				kout[i] = kin[idx[i]];
				vout[i] = vin[idx[i]];
			}
			return;
		}
		size_t tmp = 0;
		if (descending)
			G16_CK(ord(), cub::DeviceRadixSort::SortPairsDescending(nullptr, tmp, kin, kout, vin, vout, (int)n, 0,
			                                                         bits, st));
		else
			G16_CK(ord(), cub::DeviceRadixSort::SortPairs(nullptr, tmp, kin, kout, vin, vout, (int)n, 0, bits, st));
		void* t = alloc(tmp);
		cudaError_t e = descending ? cub::DeviceRadixSort::SortPairsDescending(t, tmp, kin, kout, vin, vout, (int)n,
		                                                                       0, bits, st)
		                           : cub::DeviceRadixSort::SortPairs(t, tmp, kin, kout, vin, vout, (int)n, 0, bits, st);
		release(t, tmp);
		G16_CK(ord(), e);
	}

	// rle_async writes the distinct keys of sorted keys[0..n), their counts,
	// and how many there are to *num (device memory in device mode).
	void rle_async(const uint32_t* keys, uint32_t* uniq, uint32_t* counts, size_t n, uint32_t* num) {
		if (host()) {
			size_t r = 0;
			for (size_t i = 0; i < n; i++) {
				if (i == 0 || keys[i] != keys[i - 1]) {
					uniq[r] = keys[i];
					counts[r] = 0;
					r++;
				}
				counts[r - 1]++;
			}
			*num = (uint32_t)r;
			return;
		}
		size_t tmp = 0;
		G16_CK(ord(), cub::DeviceRunLengthEncode::Encode(nullptr, tmp, keys, uniq, counts, num, (int)n, st));
		void* t = alloc(tmp);
		cudaError_t e = cub::DeviceRunLengthEncode::Encode(t, tmp, keys, uniq, counts, num, (int)n, st);
		release(t, tmp);
		G16_CK(ord(), e);
	}

	// max_of writes the largest of in[0..n) to *out (device memory in
	// device mode), stream-ordered.
	void max_of(const uint32_t* in, uint32_t* out, size_t n) {
		if (host()) {
			*out = n ? *std::max_element(in, in + n) : 0;
			return;
		}
		size_t tmp = 0;
		G16_CK(ord(), cub::DeviceReduce::Max(nullptr, tmp, in, out, (int)n, st));
		void* t = alloc(tmp);
		cudaError_t e = cub::DeviceReduce::Max(t, tmp, in, out, (int)n, st);
		release(t, tmp);
		G16_CK(ord(), e);
	}

	void exclusive_sum(const uint32_t* in, uint32_t* out, size_t n) {
		if (host()) {
			uint32_t s = 0;
			for (size_t i = 0; i < n; i++) {
				uint32_t v = in[i];
				out[i] = s;
				s += v;
			}
			return;
		}
		size_t tmp = 0;
		G16_CK(ord(), cub::DeviceScan::ExclusiveSum(nullptr, tmp, in, out, (int)n, st));
		void* t = alloc(tmp);
		cudaError_t e = cub::DeviceScan::ExclusiveSum(t, tmp, in, out, (int)n, st);
		release(t, tmp);
		G16_CK(ord(), e);
	}
};

// buf<T> is a temporary array on the executor, freed (stream-ordered) when
// it goes out of scope, also when an error unwinds the stack.
template <class T>
struct buf {
	exec_t& ex;
	T* p = nullptr;
	size_t n = 0;
	buf(exec_t& e, size_t count) : ex(e), n(count) { p = (T*)ex.alloc(count * sizeof(T)); }
	~buf() {
		try {
			if (p) ex.release(p, n * sizeof(T));
		} catch (...) {
			// A failed free during unwinding: the first error is the one to report.
		}
	}
	buf(const buf&) = delete;
	buf& operator=(const buf&) = delete;
};

} // namespace g16
