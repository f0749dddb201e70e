package cuda

// MSMTiming is where the last MSM's device time went, in milliseconds,
// summed over its passes (CUDA events around each stage; g16_msm_timing in
// kernels/g16cuda.h): scalar digits, the sort by bucket, the task split, the
// bucket accumulation and the bucket reduction.
type MSMTiming struct {
	Digits, Sort, Plan, Accumulate, Reduce, Total float64
	Window, Passes                                int
}
