package cuda

// The MSM's scratch memory, as kernels/msm.cu's msm_run allocates it for
// one pass of c points with window w, nw = ⌈bits/w⌉ windows (bits: the
// group's windowBits, 255 on the curves of 8-limb scalars: the kernels cut
// BN254's and BLS12-377's scalars, below 2^254, as BLS12-381's; 377 on
// BW6-761),
// B = 2^(w−1) buckets a window, N = c·nw digit pairs, at most
// R = min(N, nw·B + 1) + 1 nonempty runs (the buckets and the ±1 points'),
// tasks of at most L points and so at most T = R + (N + c)/L + 1 tasks, and
// XYZZ points of P bytes (group.xyzzBytes: four coordinates of Fp, of Fp2
// in G2 on the curves with Fp2; BLS12-381 and BLS12-377 192 in G1 and 384
// in G2, BN254 128 and 256, BW6-761 384 in both):
//
//	keys, refs and their sorted copies (live to the end)  16·N
//	then the largest of
//	  the digit sort (CUB's second key and value arrays)   9·N
//	  accumulation: run starts, task counts and offsets,
//	  task lists, their sort, two levels of sums           20·R + 29·T + 2·P·T
//	  reduction: bucket sums and the ±1 slot, the last
//	  level of run sums, the reduction levels             20·R + P·T + k·P·(nw·B + 1)
//
// with k = 1.2 when nw·B ≥ 2^20 (the first levels are segments of 16) and
// 2.5 below (segments of 4, or pairs: the buckets, one level of A and R of
// half their number, and the next), plus 2 MiB for CUB's small
// temporaries, and 12·c for the index lists of the split (msm_split.cuh):
// the rest's (4·c) and the ±1 points' (4·c, through the sort, then copied
// after the sorted refs, 4·c). The split's own arrays (20·c) are freed
// before Pippenger starts and are smaller than its 16·N; Pippenger over
// the rest, c' ≤ c points, takes no more than over c. It is an upper bound;
// a GPU test checks it against the peak the device records.
func msmScratch(g group, n, chunk, window, maxTask int) int64 {
	return msmTableScratch(g, n, chunk, window, 1, maxTask)
}

// msmTableScratch is msmScratch over a table of copies copies of the bases
// (msm_table.h): the windows share s = ⌈nw/copies⌉ bucket sets, so R =
// min(N, s·B + 1) + 1 and the reduction holds k·P·(s·B + 1).
func msmTableScratch(g group, n, chunk, window, copies, maxTask int) int64 {
	c := int64(min(n, chunk))
	if c <= 0 {
		return 0
	}
	P, bits := g.xyzzBytes(), g.windowBits()
	w := window
	if w == 0 {
		w = pickWindow(c, bits)
	}
	nw := int64((bits + w - 1) / w)
	cp := min(int64(max(copies, 1)), nw)
	sets := (nw + cp - 1) / cp
	B := int64(1) << (w - 1)
	N := c * nw
	R := min(N, sets*B+1) + 1
	L := max(int64(32), 2*((N+sets*B-1)/(sets*B)))
	if maxTask > 0 {
		L = max(2, int64(maxTask))
	}
	T := R + (N+c)/L + 1
	sortPhase := 9 * N
	accumulate := 20*R + 29*T + 2*P*T
	k := int64(25) // tenths
	if sets*B >= 1<<20 {
		k = 12
	}
	reduce := 20*R + P*T + P*(sets*B+1)*k/10
	return 16*N + max(sortPhase, accumulate, reduce) + 12*c + scratchCUB
}

// scratchCUB is what msmScratch counts for CUB's small temporaries.
const scratchCUB = 2 << 20

// minWindow is msm.cuh's min_window: the smallest window that cuts
// scalars of bits bits into at most 64 windows (4 for 255 bits, 6 for 377).
func minWindow(bits int) int { return (bits + 63) / 64 }

// pickWindow is msm.cuh's pick_window: the window w in [minWindow(bits),
// 21] that minimises nw·(n + 3.2·2^(w−1)), nw = ⌈bits/w⌉.
func pickWindow(n int64, bits int) int {
	lo := minWindow(bits)
	best, bestCost := lo, 0.0
	for w := lo; w <= 21; w++ {
		nw := float64((bits + w - 1) / w)
		cost := nw * (float64(n) + 3.2*float64(int64(1)<<(w-1)))
		if w == lo || cost < bestCost {
			best, bestCost = w, cost
		}
	}
	return best
}
