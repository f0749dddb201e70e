// The slot kernels of the MSM over G1 (slot_kernels.cuh).
#include "slot_kernels.cuh"

namespace g16 {

template void slot_accum_points<fp_t>(exec_t&, size_t, const affine_t<fp_t>*, const uint32_t*, const uint32_t*,
                                   const uint32_t*, const uint32_t*, xyzz_t<fp_t>*);
template void slot_accum_sums<fp_t>(exec_t&, size_t, const xyzz_t<fp_t>*, const uint32_t*, const uint32_t*,
                                 const uint32_t*, xyzz_t<fp_t>*);
template void slot_reduce<fp_t>(exec_t&, size_t, const xyzz_t<fp_t>*, const xyzz_t<fp_t>*, bool, uint32_t, uint32_t,
                             uint32_t, int, xyzz_t<fp_t>*, xyzz_t<fp_t>*);

} // namespace g16
