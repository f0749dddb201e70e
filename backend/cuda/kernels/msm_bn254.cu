// The MSM over BN254's G1 and G2 (msm.cuh's templates), a compilation unit
// of its own so that the curves compile in parallel.
#include "msm.cuh"

namespace g16 {

G16_MSM_INSTANCES(G16_MSM_DEFINE, bn254::fp_t)
G16_MSM_INSTANCES(G16_MSM_DEFINE, bn254::fp2_t)

} // namespace g16
