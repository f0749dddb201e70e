// The slot kernels of the MSM over BLS12-381's G2, their Fp2 products
// lazily reduced (slot_kernels.cuh).
#include "slot_kernels.cuh"

namespace g16 {

G16_SLOT_LAUNCHERS(bls12_381::fp2_t)

} // namespace g16
