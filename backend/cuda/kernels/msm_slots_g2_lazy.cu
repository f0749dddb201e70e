// The slot kernels of the MSM over G2 with the lazily reduced Fp2 products
// (slot_kernels.cuh), G2's default.
#include "slot_kernels.cuh"

namespace g16 {

G16_SLOT_LAUNCHERS(fp2_t, true)

} // namespace g16
