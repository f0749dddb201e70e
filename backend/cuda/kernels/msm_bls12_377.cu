// The MSM over BLS12-377's G1 and G2 (msm.cuh's templates), a compilation unit
// of its own so that the curves compile in parallel.
#include "msm.cuh"

namespace g16 {

G16_MSM_INSTANCES(G16_MSM_DEFINE, bls12_377::fp_t)
G16_MSM_INSTANCES(G16_MSM_DEFINE, bls12_377::fp2_t)

} // namespace g16
