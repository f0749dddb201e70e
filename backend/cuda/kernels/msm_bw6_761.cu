// The MSM over BW6-761's G1 and G2 (msm.cuh's templates), a compilation unit
// of its own so that the curves compile in parallel: both groups are over
// its Fp, so one instance serves both.
#include "msm.cuh"

namespace g16 {

G16_MSM_INSTANCES(G16_MSM_DEFINE, bw6_761::fp_t)

} // namespace g16
