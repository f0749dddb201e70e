// The slot kernels of the MSM over G2 with the lazily reduced Fp2 product
// (slot_kernels.cuh; G16_MSM_G2_FP2_LAZY).
#include "slot_kernels.cuh"

namespace g16 {

G16_SLOT_LAUNCHERS(fp2_t, true)

} // namespace g16
