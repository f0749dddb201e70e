// Device management, memory and copies: the extern "C" half of g16_device.
#include <thread>
#include <vector>

#include "device.cuh"
#include "open.h"

using g16::fail;
using g16::guard;

namespace {

const size_t kStageBytes = 32 << 20; // each of the two pinned staging buffers

cudaStream_t stream_of(g16_device* dev, void* s) { return s ? (cudaStream_t)s : dev->internal; }

void check_dev(g16_device* dev) {
	if (!dev) fail(G16_INVALID, "cuda: no device");
	dev->use();
}

// copy_parallel is memcpy spread over a few threads: one thread cannot
// fill pinned memory as fast as the copy engine drains it.
void copy_parallel(void* dst, const void* src, size_t bytes) {
	const size_t per = 4 << 20;
	size_t parts = std::min<size_t>(8, (bytes + per - 1) / per);
	if (parts <= 1) {
		std::memcpy(dst, src, bytes);
		return;
	}
	std::vector<std::thread> ts;
	size_t step = (bytes + parts - 1) / parts;
	for (size_t k = 1; k < parts; k++) {
		size_t off = k * step, len = std::min(step, bytes - std::min(bytes, off));
		if (len == 0) break;
		ts.emplace_back([=] { std::memcpy((char*)dst + off, (const char*)src + off, len); });
	}
	std::memcpy(dst, src, std::min(step, bytes));
	for (auto& t : ts) t.join();
}

} // namespace

extern "C" g16_status g16_device_count(int* count) {
	return guard([&] {
		*count = 0;
		cudaError_t e = cudaGetDeviceCount(count);
		if (e == cudaErrorNoDevice || e == cudaErrorInsufficientDriver) {
			(void)cudaGetLastError();
			*count = 0;
			return;
		}
		G16_CK(-1, e);
	});
}

namespace {

// The steps of g16_open, in order; each handle open creates is named by the
// step that creates it (a bit of an open_trace mask).
enum open_step {
	open_count,     // cudaGetDeviceCount: fails with no driver
	open_set,       // cudaSetDevice
	open_info,      // cudaMemGetInfo: the first call that needs the context
	open_pool,      // creates dev->pool
	open_pool_attr, // the pool's release threshold
	open_stream,    // creates dev->internal
	open_stage0,    // creates dev->stage[0]
	open_event0,    // creates dev->stage_ev[0]
	open_stage1,    // creates dev->stage[1]
	open_event1,    // creates dev->stage_ev[1]
	open_steps
};

// The step a test made open fail at (g16_test_fail_open); −1: none.
std::atomic<int> open_fail_at{-1};
// What the last open created, and what its failure path freed (0 when it
// opened the device).
std::atomic<unsigned> open_made{0}, open_freed{0};

// The error open reports at an injected step: what CUDA returns there with
// no driver, an ordinal it does not know, or memory too short.
cudaError_t open_injected(int step) {
	switch (step) {
	case open_count:
		return cudaErrorInsufficientDriver;
	case open_set:
		return cudaErrorInvalidDevice;
	default:
		return cudaErrorMemoryAllocation;
	}
}

// G16_OPEN_CK is G16_CK for step step of g16_open: the call, or, when a
// test injects a failure at this step, the step's error without the call.
#define G16_OPEN_CK(step, ord, expr)                                                             \
	do {                                                                                     \
		cudaError_t g16_e_ = open_fail_at.load() == (step) ? open_injected(step) : (expr); \
		if (g16_e_ != cudaSuccess) ::g16::fail_cuda(g16_e_, #expr, __FILE__, __LINE__, (ord)); \
	} while (0)

// release frees the handles of dev that were created (each is null until
// it is) and dev itself, and returns them as a mask of open_step bits.
unsigned release(g16_device* dev) {
	unsigned freed = 0;
	for (int k = 0; k < 2; k++) {
		if (dev->stage_ev[k]) {
			cudaEventDestroy(dev->stage_ev[k]);
			freed |= 1u << (k ? open_event1 : open_event0);
		}
		if (dev->stage[k]) {
			cudaFreeHost(dev->stage[k]);
			freed |= 1u << (k ? open_stage1 : open_stage0);
		}
	}
	if (dev->internal) {
		cudaStreamDestroy(dev->internal);
		freed |= 1u << open_stream;
	}
	if (dev->pool) {
		cudaMemPoolDestroy(dev->pool);
		freed |= 1u << open_pool;
	}
	(void)cudaGetLastError(); // a release that failed leaves nothing for the next launch's check
	delete dev;
	return freed;
}

} // namespace

extern "C" g16_status g16_open(int ordinal, int64_t limit, g16_device** out) {
	*out = nullptr;
	g16_device* dev = new (std::nothrow) g16_device;
	if (!dev) return g16::status_of(G16_OOM, "host: out of memory");
	dev->ord = ordinal;
	dev->limit = limit;
	unsigned made = 0;
	g16_status st = guard([&] {
		int count = 0;
		G16_OPEN_CK(open_count, ordinal, cudaGetDeviceCount(&count));
		if (ordinal < 0 || ordinal >= count) {
			char buf[G16_MSG];
			std::snprintf(buf, sizeof buf, "cuda:%d: no such device (%d visible)", ordinal, count);
			fail(G16_INVALID, buf);
		}
		G16_OPEN_CK(open_set, ordinal, cudaSetDevice(ordinal));
		size_t free_b = 0, total_b = 0;
		G16_OPEN_CK(open_info, ordinal, cudaMemGetInfo(&free_b, &total_b));
		dev->total = (int64_t)total_b;
		// A pool of the backend's own: settings and trims of the default
		// pool would reach every CUDA user in the process.
		cudaMemPoolProps props = {};
		props.allocType = cudaMemAllocationTypePinned;
		props.handleTypes = cudaMemHandleTypeNone;
		props.location.type = cudaMemLocationTypeDevice;
		props.location.id = ordinal;
		G16_OPEN_CK(open_pool, ordinal, cudaMemPoolCreate(&dev->pool, &props));
		made |= 1u << open_pool;
		uint64_t threshold = UINT64_MAX; // keep freed memory cached until TrimPool
		G16_OPEN_CK(open_pool_attr, ordinal,
		            cudaMemPoolSetAttribute(dev->pool, cudaMemPoolAttrReleaseThreshold, &threshold));
		G16_OPEN_CK(open_stream, ordinal, cudaStreamCreateWithFlags(&dev->internal, cudaStreamNonBlocking));
		made |= 1u << open_stream;
		dev->stage_bytes = kStageBytes;
		for (int k = 0; k < 2; k++) {
			G16_OPEN_CK(k ? open_stage1 : open_stage0, ordinal, cudaMallocHost(&dev->stage[k], dev->stage_bytes));
			made |= 1u << (k ? open_stage1 : open_stage0);
			G16_OPEN_CK(k ? open_event1 : open_event0, ordinal,
			            cudaEventCreateWithFlags(&dev->stage_ev[k], cudaEventDisableTiming));
			made |= 1u << (k ? open_event1 : open_event0);
		}
	});
	if (st.code != G16_OK) {
		// Only what was created is released: dev's other handles are null,
		// and the device may not exist or have a context.
		open_made.store(made);
		open_freed.store(release(dev));
		return st;
	}
	open_made.store(made);
	open_freed.store(0);
	*out = dev;
	return st;
}

extern "C" g16_status g16_close(g16_device* dev) {
	g16_status st = guard([&] {
		if (!dev) return;
		G16_CK(dev->ord, cudaSetDevice(dev->ord));
		G16_CK(dev->ord, cudaDeviceSynchronize());
	});
	if (dev) release(dev); // even after an error
	return st;
}

extern "C" int g16_test_open_steps(void) { return open_steps; }

extern "C" void g16_test_fail_open(int step) { open_fail_at.store(step); }

extern "C" void g16_test_open_trace(unsigned* made, unsigned* freed) {
	*made = open_made.load();
	*freed = open_freed.load();
}

extern "C" void g16_forget(g16_device* dev) { delete dev; }

extern "C" g16_status g16_reset(int ordinal) {
	return guard([&] {
		G16_CK(ordinal, cudaSetDevice(ordinal));
		G16_CK(ordinal, cudaDeviceReset());
	});
}

extern "C" g16_status g16_stream_create(g16_device* dev, void** stream) {
	return guard([&] {
		check_dev(dev);
		cudaStream_t s;
		G16_CK(dev->ord, cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
		*stream = (void*)s;
	});
}

extern "C" g16_status g16_stream_destroy(g16_device* dev, void* stream) {
	return guard([&] {
		check_dev(dev);
		G16_CK(dev->ord, cudaStreamSynchronize((cudaStream_t)stream));
		G16_CK(dev->ord, cudaStreamDestroy((cudaStream_t)stream));
	});
}

extern "C" g16_status g16_stream_sync(g16_device* dev, void* stream) {
	return guard([&] {
		check_dev(dev);
		G16_CK(dev->ord, cudaStreamSynchronize(stream_of(dev, stream)));
	});
}

extern "C" g16_status g16_alloc(g16_device* dev, void* stream, int64_t bytes, int pooled, void** ptr) {
	return guard([&] {
		check_dev(dev);
		if (bytes < 0) fail(G16_INVALID, "cuda: negative allocation size");
		*ptr = pooled ? dev->alloc_async(bytes, stream_of(dev, stream)) : dev->alloc_direct(bytes);
	});
}

extern "C" g16_status g16_free(g16_device* dev, void* stream, void* ptr, int64_t bytes, int pooled) {
	return guard([&] {
		check_dev(dev);
		if (pooled)
			dev->free_async(ptr, bytes, stream_of(dev, stream));
		else
			dev->free_direct(ptr, bytes);
	});
}

extern "C" g16_status g16_trim(g16_device* dev, int64_t keep) {
	return guard([&] {
		check_dev(dev);
		G16_CK(dev->ord, cudaMemPoolTrimTo(dev->pool, (size_t)(keep < 0 ? 0 : keep)));
	});
}

extern "C" g16_status g16_sync(g16_device* dev) {
	return guard([&] {
		check_dev(dev);
		G16_CK(dev->ord, cudaDeviceSynchronize());
	});
}

extern "C" g16_status g16_memory(g16_device* dev, int64_t* capacity, int64_t* in_use, int64_t* cached) {
	return guard([&] {
		check_dev(dev);
		uint64_t reserved = 0, used = 0;
		G16_CK(dev->ord, cudaMemPoolGetAttribute(dev->pool, cudaMemPoolAttrReservedMemCurrent, &reserved));
		G16_CK(dev->ord, cudaMemPoolGetAttribute(dev->pool, cudaMemPoolAttrUsedMemCurrent, &used));
		*capacity = dev->limit > 0 ? dev->limit : dev->total;
		*in_use = dev->in_use.load();
		*cached = (int64_t)(reserved - used);
	});
}

extern "C" g16_status g16_memory_peak(g16_device* dev, int64_t* peak, int reset) {
	return guard([&] {
		if (!dev) fail(G16_INVALID, "cuda: no device");
		*peak = dev->peak.load();
		if (reset) dev->peak.store(dev->in_use.load());
	});
}

extern "C" g16_status g16_name(g16_device* dev, char* name, int len) {
	return guard([&] {
		check_dev(dev);
		cudaDeviceProp p;
		G16_CK(dev->ord, cudaGetDeviceProperties(&p, dev->ord));
		std::snprintf(name, len, "%s (sm_%d%d, %d SMs)", p.name, p.major, p.minor, p.multiProcessorCount);
	});
}

extern "C" g16_status g16_upload(g16_device* dev, void* stream, void* dst, const void* src, int64_t bytes) {
	return guard([&] {
		check_dev(dev);
		cudaStream_t st = stream_of(dev, stream);
		std::lock_guard<std::mutex> lock(dev->stage_mu);
		int k = 0;
		for (int64_t off = 0; off < bytes; off += (int64_t)dev->stage_bytes, k ^= 1) {
			size_t len = (size_t)std::min<int64_t>((int64_t)dev->stage_bytes, bytes - off);
			// Wait until the copy that last read this buffer is done.
			G16_CK(dev->ord, cudaEventSynchronize(dev->stage_ev[k]));
			copy_parallel(dev->stage[k], (const char*)src + off, len);
			G16_CK(dev->ord, cudaMemcpyAsync((char*)dst + off, dev->stage[k], len, cudaMemcpyHostToDevice, st));
			G16_CK(dev->ord, cudaEventRecord(dev->stage_ev[k], st));
		}
	});
}

extern "C" g16_status g16_download(g16_device* dev, void* stream, void* dst, const void* src, int64_t bytes) {
	return guard([&] {
		check_dev(dev);
		cudaStream_t st = stream_of(dev, stream);
		std::lock_guard<std::mutex> lock(dev->stage_mu);
		const size_t sb = dev->stage_bytes;
		int64_t chunks = (bytes + (int64_t)sb - 1) / (int64_t)sb;
		// Copy chunk c into buffer c%2 while the host drains chunk c−1.
		for (int64_t c = 0; c <= chunks; c++) {
			if (c < chunks) {
				int k = (int)(c & 1);
				size_t len = (size_t)std::min<int64_t>((int64_t)sb, bytes - c * (int64_t)sb);
				G16_CK(dev->ord, cudaEventSynchronize(dev->stage_ev[k]));
				G16_CK(dev->ord, cudaMemcpyAsync(dev->stage[k], (const char*)src + c * sb, len,
				                                 cudaMemcpyDeviceToHost, st));
				G16_CK(dev->ord, cudaEventRecord(dev->stage_ev[k], st));
			}
			if (c > 0) {
				int k = (int)((c - 1) & 1);
				size_t len = (size_t)std::min<int64_t>((int64_t)sb, bytes - (c - 1) * (int64_t)sb);
				G16_CK(dev->ord, cudaEventSynchronize(dev->stage_ev[k]));
				copy_parallel((char*)dst + (c - 1) * sb, dev->stage[k], len);
			}
		}
	});
}
