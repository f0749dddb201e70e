// A deliberate device fault, for the tests of device loss: a kernel that
// stores through an address no allocation covers.
#include "device.cuh"

namespace {

__global__ void fault_kernel(int* p) { *p = 1; }

} // namespace

extern "C" g16_status g16_fault(g16_device* dev, void* stream) {
	return g16::guard([&] {
		if (!dev) g16::fail(G16_INVALID, "cuda: no device");
		dev->use();
		cudaStream_t st = stream ? (cudaStream_t)stream : dev->internal;
		fault_kernel<<<1, 1, 0, st>>>((int*)(uintptr_t)0x10);
		G16_CK(dev->ord, cudaGetLastError());
		G16_CK(dev->ord, cudaStreamSynchronize(st));
	});
}
