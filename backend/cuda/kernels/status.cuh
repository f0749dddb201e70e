// Errors inside libg16cuda, and the guard that turns them into g16_status
// at the C boundary.
//
// Inside the library a failure throws g16::error; every extern "C" entry
// point runs its body through guard(), which catches everything, so no
// exception crosses into Go. Every CUDA call goes through G16_CK, which
// records the expression, file and line; every launch is followed by a
// G16_CK(dev, cudaGetLastError()).
#pragma once
#include <cuda_runtime.h>

#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "g16cuda.h"

namespace g16 {

struct error {
	int code;
	std::string msg;
};

[[noreturn]] inline void fail(int code, const std::string& msg) { throw error{code, msg}; }

inline const char* base_name(const char* path) {
	const char* s = std::strrchr(path, '/');
	return s ? s + 1 : path;
}

// sticky says whether e poisons the context: every later call in this
// process fails with it until cudaDeviceReset.
inline bool sticky(cudaError_t e) {
	switch (e) {
	case cudaErrorIllegalAddress:
	case cudaErrorLaunchTimeout:
	case cudaErrorContextIsDestroyed:
	case cudaErrorAssert:
	case cudaErrorHardwareStackError:
	case cudaErrorIllegalInstruction:
	case cudaErrorMisalignedAddress:
	case cudaErrorInvalidAddressSpace:
	case cudaErrorInvalidPc:
	case cudaErrorLaunchFailure:
	case cudaErrorECCUncorrectable:
		return true;
	default:
		return false;
	}
}

// fail_cuda reports a failed CUDA call on device ord (−1: none yet).
[[noreturn]] inline void fail_cuda(cudaError_t e, const char* expr, const char* file, int line, int ord) {
	// Clear the error if it is not sticky, so that the next launch's
	// last-error check does not report it again.
	(void)cudaGetLastError();
	char buf[G16_MSG];
	std::snprintf(buf, sizeof buf, "cuda:%d: %s@%s:%d: %s", ord, expr, base_name(file), line, cudaGetErrorString(e));
	int code = (e == cudaErrorMemoryAllocation) ? G16_OOM : sticky(e) ? G16_LOST : G16_CUDA;
	throw error{code, buf};
}

#define G16_CK(ord, expr)                                                              \
	do {                                                                           \
		cudaError_t g16_e_ = (expr);                                           \
		if (g16_e_ != cudaSuccess) ::g16::fail_cuda(g16_e_, #expr, __FILE__, __LINE__, (ord)); \
	} while (0)

inline g16_status status_of(int code, const char* msg) {
	g16_status s;
	s.code = code;
	std::snprintf(s.msg, sizeof s.msg, "%s", msg);
	return s;
}

// guard runs f, turning anything it throws into a status.
template <class F>
g16_status guard(F&& f) {
	try {
		f();
		return status_of(G16_OK, "");
	} catch (const error& e) {
		return status_of(e.code, e.msg.c_str());
	} catch (const std::bad_alloc&) {
		return status_of(G16_OOM, "host: out of memory");
	} catch (const std::exception& e) {
		return status_of(G16_INTERNAL, e.what());
	} catch (...) {
		return status_of(G16_INTERNAL, "internal error: unknown exception");
	}
}

} // namespace g16
