// G1's first accumulation level on the hybrid addition (msm_f64.h).
#include "curve_f64.cuh"
#include "msm_f64.h"

namespace g16 {

template <bool QF>
struct accum_points_f64_k {
	const g1_affine_t* bases;
	const uint32_t* refs;
	const uint32_t* task_start;
	const uint32_t* task_count;
	const uint32_t* order;
	g1_xyzz_t* out;
	G16_HD void operator()(size_t i) const {
		size_t t = order ? order[i] : i;
		g1_xyzz_f64<QF> acc = g1_xyzz_f64<QF>::inf();
		uint32_t s = task_start[t], e = s + task_count[t];
		for (uint32_t q = s; q < e; q++) {
			uint32_t ref = refs[q];
			g1_affine_t p = bases[ref & 0x7fffffffu];
			if (ref >> 31) p.y = p.y.neg();
			acc.add_affine(p);
		}
		out[t] = acc.get();
	}
};

// launch_f64 launches k over n threads in blocks of 128: M = 0 with
// kernel_of's bounds (up to 255 registers), M > 0 at least M blocks an SM.
template <int M, class K>
void launch_f64(exec_t& ex, size_t n, const K& k) {
	if constexpr (M == 0) {
		ex.launch(n, k, 128);
		return;
	}
	if (ex.host() || n == 0) {
		ex.launch(n, k, 128);
		return;
	}
	kernel_lb<K, 128, (M > 0 ? M : 1)><<<(unsigned)((n + 127) / 128), 128, 0, ex.st>>>(k, n);
	G16_CK(ex.ord(), cudaGetLastError());
}

void accum_points_f64(exec_t& ex, bool qf, bool lb3, size_t n, const g1_affine_t* bases, const uint32_t* refs,
                      const uint32_t* task_start, const uint32_t* task_count, const uint32_t* order,
                      g1_xyzz_t* out) {
	accum_points_f64_k<true> kq{bases, refs, task_start, task_count, order, out};
	accum_points_f64_k<false> k{bases, refs, task_start, task_count, order, out};
	if (qf && lb3)
		launch_f64<3>(ex, n, kq);
	else if (qf)
		launch_f64<0>(ex, n, kq);
	else if (lb3)
		launch_f64<3>(ex, n, k);
	else
		launch_f64<0>(ex, n, k);
}

} // namespace g16
