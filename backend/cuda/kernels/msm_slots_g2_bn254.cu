// The slot kernels of the MSM over BN254's G2 (slot_kernels.cuh), in a file
// of their own so that each curve's compile in parallel.
#include "slot_kernels.cuh"

namespace g16 {

G16_SLOT_LAUNCHERS(bn254::fp2_t)

} // namespace g16
