package cuda

// MSMTiming is where the last MSM's device time went, in milliseconds,
// summed over its passes (CUDA events around each stage; g16_msm_timing in
// kernels/g16cuda.h): the split of the scalars (the ±1 points and the
// rest compacted, zeros dropped), scalar digits, the sort by bucket, the
// task split, the bucket accumulation (the ±1 points' sum with it, as one
// more run) and the bucket reduction. Ones and Rest count the ±1 points
// and the points Pippenger's digits ran on.
type MSMTiming struct {
	Split, Digits, Sort, Plan, Accumulate, Reduce, Total float64
	Window, Passes                                       int
	Copies                                               int // the table's copies of the bases (table.go); 1: the bases alone
	Ones, Rest                                           int64
}
