// G2's first-level slot accumulation kernel with the lazily reduced Fp2
// products on one-level Karatsuba double-width products (slot_kernels.cuh,
// field_ka.cuh): G16_MSM_FP_KARATSUBA.
#include "slot_kernels.cuh"

namespace g16 {

template void launch_accum_points<fp2_t, 2>(exec_t&, size_t, const affine_t<fp2_t>*, const uint32_t*, const uint32_t*,
                                            const uint32_t*, const uint32_t*, xyzz_t<fp2_t>*);

} // namespace g16
