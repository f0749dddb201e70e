// The slot kernels of the MSM over G2 with each Fp2 product three Fp
// products (slot_kernels.cuh; G16_MSM_G2_KARATSUBA).
#include "slot_kernels.cuh"

namespace g16 {

G16_SLOT_LAUNCHERS(fp2_t, false)

} // namespace g16
