// The slot kernels of the MSM over BLS12-377's G2 (slot_kernels.cuh), in a
// file of their own so that each curve's compile in parallel.
#include "slot_kernels.cuh"

namespace g16 {

G16_SLOT_LAUNCHERS(bls12_377::fp2_t)

} // namespace g16
