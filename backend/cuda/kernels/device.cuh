// g16_device: one GPU as the Go backend sees it: its own stream-ordered
// pool (cudaMemPoolCreate: the device's default pool, shared with every
// other CUDA user in the process, is left alone), its memory budget, and
// its pinned staging buffers.
#pragma once
#include <atomic>
#include <mutex>

#include "status.cuh"

struct g16_device {
	int ord;
	int64_t limit; // bytes the backend may hand out; 0: what CUDA gives
	int64_t total; // the device's memory, from cudaMemGetInfo at open
	std::atomic<int64_t> in_use{0};
	std::atomic<int64_t> peak{0}; // the most in_use has been since the last reset
	cudaMemPool_t pool = nullptr;
	cudaStream_t internal = nullptr; // frees with no stream, staging

	// Two pinned host buffers, used in turn by uploads and downloads; each
	// has an event marking the end of the last copy that used it.
	std::mutex stage_mu;
	void* stage[2] = {nullptr, nullptr};
	cudaEvent_t stage_ev[2] = {nullptr, nullptr};
	size_t stage_bytes = 0;

	void use() { G16_CK(ord, cudaSetDevice(ord)); }

	// reserve counts bytes against the limit, or fails with G16_OOM.
	void reserve(int64_t bytes) {
		int64_t cur = in_use.load();
		for (;;) {
			if (limit > 0 && cur + bytes > limit) {
				char buf[G16_MSG];
				std::snprintf(buf, sizeof buf,
				              "cuda:%d: memory limit: %lld bytes asked, %lld in use, limit %lld: out of memory", ord,
				              (long long)bytes, (long long)cur, (long long)limit);
				g16::fail(G16_OOM, buf);
			}
			if (in_use.compare_exchange_weak(cur, cur + bytes)) break;
		}
		int64_t now = cur + bytes, p = peak.load();
		while (now > p && !peak.compare_exchange_weak(p, now)) {
		}
	}
	void unreserve(int64_t bytes) { in_use.fetch_sub(bytes); }

	void* alloc_async(int64_t bytes, cudaStream_t st) {
		if (bytes <= 0) return nullptr;
		reserve(bytes);
		void* p = nullptr;
		cudaError_t e = cudaMallocFromPoolAsync(&p, (size_t)bytes, pool, st);
		if (e != cudaSuccess) {
			unreserve(bytes);
			g16::fail_cuda(e, "cudaMallocFromPoolAsync(&p, bytes, pool, stream)", __FILE__, __LINE__, ord);
		}
		return p;
	}
	void free_async(void* p, int64_t bytes, cudaStream_t st) {
		if (!p) return;
		G16_CK(ord, cudaFreeAsync(p, st));
		unreserve(bytes);
	}
	void* alloc_direct(int64_t bytes) {
		if (bytes <= 0) return nullptr;
		reserve(bytes);
		void* p = nullptr;
		cudaError_t e = cudaMalloc(&p, (size_t)bytes);
		if (e != cudaSuccess) {
			unreserve(bytes);
			g16::fail_cuda(e, "cudaMalloc(&p, bytes)", __FILE__, __LINE__, ord);
		}
		return p;
	}
	void free_direct(void* p, int64_t bytes) {
		if (!p) return;
		G16_CK(ord, cudaFree(p));
		unreserve(bytes);
	}
};
