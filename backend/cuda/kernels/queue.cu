// Streams of the highest priority (queue.h).
#include "device.cuh"
#include "queue.h"

extern "C" g16_status g16_stream_create_urgent(g16_device* dev, void** stream) {
	return g16::guard([&] {
		if (!dev) g16::fail(G16_INVALID, "cuda: no device");
		dev->use();
		// CUDA numbers priorities downwards: greatest is the most urgent.
		int least = 0, greatest = 0;
		G16_CK(dev->ord, cudaDeviceGetStreamPriorityRange(&least, &greatest));
		cudaStream_t s;
		G16_CK(dev->ord, cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, greatest));
		*stream = (void*)s;
	});
}
