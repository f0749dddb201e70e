// The slot kernels of the MSM over BW6-761's G1 and G2 (both over its Fp of
// 24 limbs, whose points take the slot kernels: curves.cuh's slot_point).
#include "slot_kernels.cuh"

namespace g16 {

G16_SLOT_LAUNCHERS(bw6_761::fp_t)

} // namespace g16
