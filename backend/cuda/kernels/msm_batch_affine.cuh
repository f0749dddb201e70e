// Batch-affine accumulation of G1 bucket tasks (G16_MSM_BATCH_AFFINE): the
// first level of msm.cu's accumulate, in affine coordinates.
//
// An affine addition (x1, y1) + (x2, y2), x1 ≠ x2, is
//   λ = (y2 − y1)/(x2 − x1), x3 = λ² − x1 − x2, y3 = λ(x1 − x3) − y1,
// 3M+1S with the inversion. Thread g owns the tasks of the slots
// s = j·G + g, j < K (G threads; slot s is task order[s], the tasks sorted
// longest first, so that a warp's slots have about the same length and
// its loads of slot data are contiguous). Each slot holds an affine sum,
// started at its task's first point. Round q adds point q of every slot
// whose task has more than q points to the slot's sum, with one inversion
// for all of them (Montgomery's trick):
//   forward:  pre_s = Π dx of the earlier slots of the round, prod = Π dx
//   inv = prod⁻¹ (Fermat, p − 2)
//   backward: 1/dx_s = inv·pre_s, then inv ·= dx_s
// so an addition costs 3M of the trick and 2M+1S of its own, against 8M+2S
// for XYZZ's mixed addition, plus a K-th of the inversion (384S + 229M).
//
// The exceptional cases go to the task's XYZZ output, which starts at
// infinity and ends as out[t] + the slot's affine sum: a point at infinity
// is skipped; a sum at infinity (only from points at infinity) becomes the
// point; a point with the sum's x (P = ±sum) is added to out[t] instead.
#pragma once
#include "curve.cuh"
#include "exec.cuh"

namespace g16 {

// fp_pm2: limb t of p − 2, selected without indexing a register array.
G16_HD uint32_t fp_pm2(int t) {
	uint32_t r = 0;
#pragma unroll
	for (int u = 0; u < fp_t::N; u++) r = (u == t) ? fp_params::mod(u) - (u == 0 ? 2 : 0) : r;
	return r;
}

// fp_inv: a^(p−2) = a⁻¹ (0 for a = 0), by squaring and multiplying from the
// top bit of p − 2 down.
G16_HD_CALL fp_t fp_inv(const fp_t& a) {
	fp_t r = fp_t::one();
	for (int t = fp_t::N - 1; t >= 0; t--) {
		uint32_t e = fp_pm2(t);
		for (int b = 31; b >= 0; b--) {
			r = r.sqr();
			if ((e >> b) & 1) r = r * a;
		}
	}
	return r;
}

// ba_point: the base a ref names, negated when its sign bit is set.
G16_HD affine_t<fp_t> ba_point(const affine_t<fp_t>* bases, uint32_t ref) {
	affine_t<fp_t> p = bases[ref & 0x7fffffffu];
	if (ref >> 31) p.y = p.y.neg();
	return p;
}

// batch_affine_k: thread g sums the tasks of its K slots (see the top of
// the file) into out[task]. acc, pre, sstart and scnt are scratch arrays
// of total slots.
struct batch_affine_k {
	const affine_t<fp_t>* bases;
	const uint32_t* refs;
	const uint32_t* task_start;
	const uint32_t* task_count;
	const uint32_t* order;
	uint32_t total, G, K;
	affine_t<fp_t>* acc;
	fp_t* pre;
	uint32_t* sstart;
	uint32_t* scnt;
	xyzz_t<fp_t>* out;

	G16_HD uint32_t task_of(size_t s) const { return order ? order[s] : (uint32_t)s; }

	G16_HD void operator()(size_t g) const {
		uint32_t act = 0, maxc = 0;
		for (uint32_t j = 0; j < K; j++) {
			size_t s = (size_t)j * G + g;
			if (s >= total) break;
			uint32_t t = task_of(s), st = task_start[t], c = task_count[t];
			sstart[s] = st;
			scnt[s] = c;
			out[t] = xyzz_t<fp_t>::inf();
			acc[s] = ba_point(bases, refs[st]);
			maxc = c > maxc ? c : maxc;
			act++;
		}
		for (uint32_t q = 1; q < maxc; q++) {
			fp_t prod = fp_t::one();
			uint32_t adds = 0;
			for (uint32_t j = 0; j < act; j++) {
				size_t s = (size_t)j * G + g;
				if (scnt[s] <= q) continue;
				affine_t<fp_t> p = ba_point(bases, refs[sstart[s] + q]);
				affine_t<fp_t> a = acc[s];
				pre[s] = fp_t::zero(); // no addition in this slot's round
				if (p.is_inf()) continue;
				if (a.is_inf()) {
					acc[s] = p;
					continue;
				}
				fp_t dx = p.x - a.x;
				if (dx.is_zero()) { // p = ±a
					xyzz_t<fp_t> o = out[task_of(s)];
					o.add_affine(p);
					out[task_of(s)] = o;
					continue;
				}
				pre[s] = prod; // nonzero: a product of nonzero dx
				prod = prod * dx;
				adds++;
			}
			if (adds == 0) continue;
			fp_t inv = fp_inv(prod);
			for (uint32_t j = act; j-- > 0;) {
				size_t s = (size_t)j * G + g;
				if (scnt[s] <= q) continue;
				fp_t pr = pre[s];
				if (pr.is_zero()) continue;
				affine_t<fp_t> p = ba_point(bases, refs[sstart[s] + q]);
				affine_t<fp_t> a = acc[s];
				fp_t dx = p.x - a.x;
				fp_t idx = inv * pr;
				inv = inv * dx;
				fp_t lam = (p.y - a.y) * idx;
				fp_t x3 = lam.sqr() - a.x - p.x;
				fp_t y3 = lam * (a.x - x3) - a.y;
				acc[s] = affine_t<fp_t>{x3, y3};
			}
		}
		for (uint32_t j = 0; j < act; j++) {
			size_t s = (size_t)j * G + g;
			uint32_t t = task_of(s);
			xyzz_t<fp_t> o = out[t];
			o.add_affine(acc[s]);
			out[t] = o;
		}
	}
};

// batch_resident: the threads of batch_affine_k the device holds at once,
// in blocks of 128 (2^15 in the host mode).
inline size_t batch_resident(exec_t& ex) {
	if (ex.host()) return (size_t)1 << 15;
	int sms = 0, blocks = 0;
	G16_CK(ex.ord(), cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, ex.ord()));
	G16_CK(ex.ord(), cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel_of<batch_affine_k>, 128, 0));
	size_t r = (size_t)sms * (size_t)blocks * 128;
	return r ? r : 128;
}

// batch_slots is K, the slots a thread, for total tasks and R resident
// threads: the fewest whole waves of R threads with K ≤ 512, then the K
// that fills them; at least 16 (small MSMs run fewer threads).
inline uint32_t batch_slots(size_t total, size_t R) {
	const size_t kmax = 512;
	size_t waves = (total + kmax * R - 1) / (kmax * R);
	if (waves == 0) waves = 1;
	size_t k = (total + waves * R - 1) / (waves * R);
	return (uint32_t)(k < 16 ? 16 : k > kmax ? kmax : k);
}

} // namespace g16
