// The slot kernels of the MSM over G2 (slot_kernels.cuh).
#include "slot_kernels.cuh"

namespace g16 {

template void slot_accum_points<fp2_t>(exec_t&, size_t, const affine_t<fp2_t>*, const uint32_t*, const uint32_t*,
                                   const uint32_t*, const uint32_t*, xyzz_t<fp2_t>*);
template void slot_accum_sums<fp2_t>(exec_t&, size_t, const xyzz_t<fp2_t>*, const uint32_t*, const uint32_t*,
                                 const uint32_t*, xyzz_t<fp2_t>*);
template void slot_reduce<fp2_t>(exec_t&, size_t, const xyzz_t<fp2_t>*, const xyzz_t<fp2_t>*, bool, uint32_t, uint32_t,
                             uint32_t, int, xyzz_t<fp2_t>*, xyzz_t<fp2_t>*);

} // namespace g16
