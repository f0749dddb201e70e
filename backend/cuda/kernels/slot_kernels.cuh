// The slot kernels (msm_slots.h), in blocks of S threads, and their
// launchers, instantiated by each curve's msm_slots_g2_<curve>.cu (both
// of BW6-761's groups: msm_slots_bw6_761.cu).
#pragma once
#include "curves.cuh"
#include "msm_slots.h"
#include "slots.cuh"

namespace g16 {

// slot_cfg<F>: threads a block (S) and blocks an SM that the registers
// must allow (M: at most 65536/(S·M) registers a thread) for the
// accumulation of points (ACC), of partial sums (SUM, with ACC's S) and the
// reduction (RED, three points a thread). The shared memory, 4·sizeof(F)
// bytes a point, bounds the blocks an SM as well.
template <class F>
struct slot_cfg;
template <>
struct slot_cfg<bls12_381::fp2_t> {
	static const int ACC_S = 32, ACC_M = 6, SUM_M = 6, RED_S = 32, RED_M = 6;
};
template <>
struct slot_cfg<bls12_377::fp2_t> {
	static const int ACC_S = 32, ACC_M = 6, SUM_M = 6, RED_S = 32, RED_M = 6;
};
template <>
struct slot_cfg<bw6_761::fp_t> { // as wide as BLS12-381's Fp2, the same shared memory
	static const int ACC_S = 32, ACC_M = 6, SUM_M = 6, RED_S = 32, RED_M = 6;
};
template <>
struct slot_cfg<bn254::fp2_t> {
	static const int ACC_S = 32, ACC_M = 8, SUM_M = 8, RED_S = 32, RED_M = 8;
};

template <class F, int S>
struct accum_points_s {
	const affine_t<F>* bases;
	const uint32_t* refs;
	const uint32_t* task_start;
	const uint32_t* task_count;
	const uint32_t* order;
	xyzz_t<F>* out;
	G16_HD void operator()(size_t i) const {
		pslot<F, S> A(slot_base<pslot<F, S>::WORDS, S>());
		uint32_t z = 0;
		size_t t = order ? order[i] : i;
		A.set(xyzz_t<F>::inf());
		uint32_t s = task_start[t], e = s + task_count[t];
		for (uint32_t q = s; q < e; q++) {
			uint32_t ref = refs[q];
			if (madd_at<F, S>(A.x.p, bases + (ref & 0x7fffffffu), (ref >> 31) != 0)) dbl_at<F, S>(A.x.p);
		}
		out[t] = A.get(z);
	}
};

template <class F, int S>
struct accum_sums_s {
	const xyzz_t<F>* in;
	const uint32_t* task_start;
	const uint32_t* task_count;
	const uint32_t* order;
	xyzz_t<F>* out;
	G16_HD void operator()(size_t i) const {
		pslot<F, S> A(slot_base<pslot<F, S>::WORDS, S>());
		uint32_t z = 0;
		size_t t = order ? order[i] : i;
		uint32_t s = task_start[t], e = s + task_count[t];
		A.set(in[s]);
		for (uint32_t q = s + 1; q < e; q++)
			if (add_at<F, S>(A.x.p, reinterpret_cast<const uint4*>(in + q), 1)) dbl_at<F, S>(A.x.p);
		out[t] = A.get(z);
	}
};

// reduce_s is reduce_k as one loop of steps, so that the kernel holds one
// addition and one doubling. A segment (msm_reduce.cuh): for s from hi − 1
// down to lo, acc += running, running += R_s and (unless same) sum += A_s;
// then acc += sum (running when same): A' = acc; then lg m doublings of
// running: R' = running. A pair: A' = A_lo + A_lo+1 + R_lo+1 in acc on one
// thread, R' = 2(R_lo + R_lo+1) in running on the other.
template <class F, int S>
struct reduce_s {
	const xyzz_t<F>* A;
	const xyzz_t<F>* R;
	red_level lv;
	xyzz_t<F>* A_out;
	xyzz_t<F>* R_out;
	G16_HD void operator()(size_t i) const {
		const int W = pslot<F, S>::WORDS;
		uint4* base = slot_base<3 * W, S>();
		pslot<F, S> running(base), acc(base + W * S), sum(base + 2 * W * S);
		uint32_t z = 0;
		size_t o = lv.pair ? i >> 1 : i;
		bool r_role = lv.pair && (i & 1) != 0;
		if (r_role && lv.last) return;
		size_t win = o / lv.Tn;
		uint32_t t = (uint32_t)(o % lv.Tn);
		uint32_t lo = t * lv.m, hi = lo + lv.m < lv.T ? lo + lv.m : lv.T;
		const xyzz_t<F>* a = A + win * lv.T;
		const xyzz_t<F>* r = R + win * lv.T;
		running.set(xyzz_t<F>::inf());
		acc.set(xyzz_t<F>::inf());
		sum.set(xyzz_t<F>::inf());
		uint32_t n2 = hi - lo; // 1 or 2 for a pair
		uint32_t per = lv.same ? 2 : 3, adds, steps;
		if (lv.pair) {
			adds = r_role ? n2 : 2 * n2 - 1;
			steps = r_role ? adds + 1 : adds;
		} else {
			adds = n2 * per + 1;
			steps = adds + (lv.last ? 0 : (uint32_t)lv.lgm);
		}
		for (uint32_t k = 0; k < steps; k++) {
			pslot<F, S> tgt = acc;
			psrc<F> src = psrc<F>::slots(running);
			bool d = false;
			if (lv.pair) {
				if (r_role) { // R_lo, R_lo+1 into running, then its doubling
					tgt = running;
					if (k < adds)
						src = psrc<F>::global(r + lo + k);
					else
						d = true;
				} else { // A_lo, A_lo+1, R_lo+1 into acc
					src = psrc<F>::global(k == 0 ? a + lo : k == 1 ? a + lo + 1 : r + lo + 1);
				}
			} else if (k + 1 < adds) {
				uint32_t s = hi - 1 - k / per, q = k % per;
				if (q == 1) {
					tgt = running;
					src = psrc<F>::global(r + s);
				} else if (q == 2) {
					tgt = sum;
					src = psrc<F>::global(a + s);
				}
			} else if (k + 1 == adds) {
				if (!lv.same) src = psrc<F>::slots(sum);
			} else {
				tgt = running;
				d = true;
			}
			if (!d) d = add_at<F, S>(tgt.x.p, src.p, src.stride);
			if (d) dbl_at<F, S>(tgt.x.p);
		}
		if (r_role)
			R_out[o] = running.get(z);
		else {
			A_out[o] = acc.get(z);
			if (!lv.pair && !lv.last) R_out[o] = running.get(z);
		}
	}
};

template <class F>
void slot_accum_points(exec_t& ex, size_t n, const affine_t<F>* bases, const uint32_t* refs,
                       const uint32_t* task_start, const uint32_t* task_count, const uint32_t* order, xyzz_t<F>* out) {
	typedef slot_cfg<F> C;
	ex.launch_lb<C::ACC_S, C::ACC_M>(n,
	                                 accum_points_s<F, C::ACC_S>{bases, refs, task_start, task_count, order, out});
}

template <class F>
void slot_accum_sums(exec_t& ex, size_t n, const xyzz_t<F>* in, const uint32_t* task_start,
                     const uint32_t* task_count, const uint32_t* order, xyzz_t<F>* out) {
	typedef slot_cfg<F> C;
	ex.launch_lb<C::ACC_S, C::SUM_M>(n, accum_sums_s<F, C::ACC_S>{in, task_start, task_count, order, out});
}

template <class F>
void slot_reduce(exec_t& ex, size_t n, const xyzz_t<F>* A, const xyzz_t<F>* R, const red_level& lv,
                 xyzz_t<F>* A_out, xyzz_t<F>* R_out) {
	typedef slot_cfg<F> C;
	ex.launch_lb<C::RED_S, C::RED_M>(n, reduce_s<F, C::RED_S>{A, R, lv, A_out, R_out});
}

template <class F>
size_t slot_reduce_cap(exec_t& ex) {
	typedef slot_cfg<F> C;
	auto kernel = kernel_lb<reduce_s<F, C::RED_S>, C::RED_S, C::RED_M>;
	G16_CK(ex.ord(), cudaFuncSetAttribute(kernel, cudaFuncAttributePreferredSharedMemoryCarveout,
	                                      (int)cudaSharedmemCarveoutMaxShared)); // as launch_lb sets it
	return resident_threads(ex, (const void*)kernel, C::RED_S);
}

// The instantiations of a compilation unit: the launchers of one curve and
// the reduction's capacity.
#define G16_SLOT_LAUNCHERS(F)                                                                                  \
	template void slot_accum_points<F>(exec_t&, size_t, const affine_t<F>*, const uint32_t*, const uint32_t*, \
	                                   const uint32_t*, const uint32_t*, xyzz_t<F>*);                          \
	template void slot_accum_sums<F>(exec_t&, size_t, const xyzz_t<F>*, const uint32_t*, const uint32_t*,     \
	                                 const uint32_t*, xyzz_t<F>*);                                             \
	template void slot_reduce<F>(exec_t&, size_t, const xyzz_t<F>*, const xyzz_t<F>*, const red_level&,       \
	                             xyzz_t<F>*, xyzz_t<F>*);                                                      \
	template size_t slot_reduce_cap<F>(exec_t&);

} // namespace g16
