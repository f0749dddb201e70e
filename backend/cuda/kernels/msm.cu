// The C entry points of the MSM (g16cuda.h, msm_table.h): the pipeline of
// msm.cuh, instantiated for each curve in its own file (msm_bls12_381.cu,
// msm_bn254.cu, msm_bls12_377.cu, msm_bw6_761.cu), dispatched on the group
// code.
#include "msm.cuh"

namespace g16 {

G16_MSM_INSTANCES(G16_MSM_EXTERN, bls12_381::fp_t)
G16_MSM_INSTANCES(G16_MSM_EXTERN, bls12_381::fp2_t)
G16_MSM_INSTANCES(G16_MSM_EXTERN, bn254::fp_t)
G16_MSM_INSTANCES(G16_MSM_EXTERN, bn254::fp2_t)
G16_MSM_INSTANCES(G16_MSM_EXTERN, bls12_377::fp_t)
G16_MSM_INSTANCES(G16_MSM_EXTERN, bls12_377::fp2_t)
G16_MSM_INSTANCES(G16_MSM_EXTERN, bw6_761::fp_t)

// field_op_k: the arithmetic check behind g16_field_op (BLS12-381's
// fields; g16_mont_op checks every curve's).
struct field_op_k {
	typedef bls12_381::fp_t fp_t;
	typedef bls12_381::fp2_t fp2_t;
	typedef bls12_381::fr_t fr_t;
	int op;
	void* out;
	const void* a;
	const void* b;
	size_t n; // ops 11 and 12: c = a[n + i], d = b[n + i]
	// Ops 13 and 14: element i's double-width output (2N limbs).
	G16_HD uint32_t (&wide(size_t i) const)[fp_t::W] { return ((uint32_t(*)[fp_t::W])out)[i]; }
	G16_HD void operator()(size_t i) const {
		const fp_t* fa = (const fp_t*)a;
		const fp_t* fb = (const fp_t*)b;
		fp_t* fo = (fp_t*)out;
		const fp2_t* ea = (const fp2_t*)a;
		const fp2_t* eb = (const fp2_t*)b;
		fp2_t* eo = (fp2_t*)out;
		switch (op) {
		case 0: fo[i] = fa[i] * fb[i]; break;
		case 1: fo[i] = fa[i] + fb[i]; break;
		case 2: fo[i] = fa[i] - fb[i]; break;
		case 3: fo[i] = fa[i].neg(); break;
		case 4: eo[i] = ea[i] * eb[i]; break;
		case 5: eo[i] = ea[i].sqr(); break;
		case 6: ((fr_t*)out)[i] = ((const fr_t*)a)[i].from_mont(); break;
		case 7: fo[i] = fa[i].sqr(); break;
		case 9: fo[i] = fp_t::mul_sub(fa[i], fb[i], fb[i], fb[i]); break;
		case 10: {
			uint32_t z = 0;
			eo[i] = fp2_t::mul_sub_lazy(ea[i], eb[i], eb[i], eb[i], z);
			break;
		}
		case 8: {
			uint32_t z = 0;
			eo[i] = fp2_t::mul_lazy(ea[i], eb[i], z);
			break;
		}
		case 11: fo[i] = fp_t::mul_sub(fa[i], fb[i], fa[n + i], fb[n + i]); break;
		case 12: {
			uint32_t z = 0;
			eo[i] = fp2_t::mul_sub_lazy(ea[i], eb[i], ea[n + i], eb[n + i], z);
			break;
		}
		case 13: fp_t::mul_wide(wide(i), fa[i].v, fb[i].v); break;
		case 14: fp_t::sqr_wide(wide(i), fa[i].v); break;
		}
	}
};

} // namespace g16

using namespace g16;

// msm_device runs msm_run on dev's stream (NULL: the internal one).
static void msm_device(g16_device* dev, void* stream, int group, const void* table, int64_t stride, int copies,
                       const void* scalars, int64_t n, int window, int max_task, int flags, void* out, int* nsums,
                       int* pairs, int* wbits, int* shift, g16_msm_timing* timing) {
	if (!dev) fail(G16_INVALID, "msm: no device");
	dev->use();
	if ((uintptr_t)table % 16 != 0 || (uintptr_t)scalars % 16 != 0)
		fail(G16_INVALID, "msm: bases and scalars must be 16-byte aligned on the device");
	if (stride < 0) fail(G16_INVALID, "msm: negative stride");
	exec_t ex;
	ex.dev = dev;
	ex.st = stream ? (cudaStream_t)stream : dev->internal;
	with_group(group, "msm", [&](auto grp) {
		typedef typename decltype(grp)::field F;
		msm_run<F>(ex, (const affine_t<F>*)table, (size_t)stride, copies, (const fr_of<F>*)scalars, (size_t)n,
		           window, max_task, flags, (xyzz_t<F>*)out, nsums, pairs, wbits, shift, timing);
	});
}

static void msm_on_host(int group, const void* table, int64_t stride, int copies, const void* scalars, int64_t n,
                        int window, int max_task, int flags, void* out, int* nsums, int* pairs, int* wbits,
                        int* shift, int64_t* peak = nullptr) {
	if (n <= 0 || stride < n) fail(G16_INVALID, "msm: n must be in [1, stride]");
	with_group(group, "msm", [&](auto grp) {
		msm_host<typename decltype(grp)::field>(table, (size_t)stride, copies, scalars, (size_t)n, window, max_task, flags, out,
		                         nsums, pairs, wbits, shift, peak);
	});
}

extern "C" g16_status g16_msm(g16_device* dev, void* stream, int group, const void* bases, const void* scalars,
                              int64_t n, int window, int max_task, int flags, void* out, int* nwindows, int* pairs,
                              int* wbits, g16_msm_timing* timing) {
	return guard([&] {
		int shift = 0;
		msm_device(dev, stream, group, bases, n, 1, scalars, n, window, max_task, flags, out, nwindows, pairs,
		           wbits, &shift, timing);
	});
}

extern "C" g16_status g16_msm_table(g16_device* dev, void* stream, int group, const void* table, int64_t stride,
                                    int copies, int window, const void* scalars, int64_t n, int max_task, int flags,
                                    void* out, int* nsums, int* pairs, int* shift, g16_msm_timing* timing) {
	return guard([&] {
		int wbits = 0;
		msm_device(dev, stream, group, table, stride, copies, scalars, n, window, max_task, flags, out, nsums,
		           pairs, &wbits, shift, timing);
	});
}

extern "C" g16_status g16_host_msm(int group, const void* bases, const void* scalars, int64_t n, int window,
                                   int max_task, int flags, void* out, int* nwindows, int* pairs, int* wbits) {
	return guard([&] {
		int shift = 0;
		msm_on_host(group, bases, n, 1, scalars, n, window, max_task, flags, out, nwindows, pairs, wbits, &shift);
	});
}

extern "C" g16_status g16_host_msm_table(int group, const void* table, int64_t stride, int copies, int window,
                                         const void* scalars, int64_t n, int max_task, int flags, void* out,
                                         int* nsums, int* pairs, int* shift) {
	return guard([&] {
		int wbits = 0;
		msm_on_host(group, table, stride, copies, scalars, n, window, max_task, flags, out, nsums, pairs, &wbits,
		            shift);
	});
}

extern "C" g16_status g16_host_msm_peak(int group, const void* table, int64_t stride, int copies, int window,
                                        const void* scalars, int64_t n, int max_task, int flags, int64_t* peak) {
	return guard([&] {
		int nsums = 0, pairs = 0, wbits = 0, shift = 0;
		std::vector<xyzz_t<bls12_381::fp2_t>> out(G16_MSM_OUT_POINTS); // the largest point
		static_assert(sizeof(xyzz_t<bls12_381::fp2_t>) >= sizeof(xyzz_t<bn254::fp2_t>) &&
		                  sizeof(xyzz_t<bls12_381::fp2_t>) >= sizeof(xyzz_t<bw6_761::fp_t>),
		              "out's points");
		msm_on_host(group, table, stride, copies, scalars, n, window, max_task, flags, out.data(), &nsums, &pairs,
		            &wbits, &shift, peak);
	});
}

// check_reduce_args fails unless g16_host_reduce's and g16_reduce_plan's
// arguments are in range.
static void check_reduce_args(const char* what, int64_t T, int64_t windows, int64_t cap, double fixed, int64_t stop) {
	if (T < 1 || T > (1 << 24) || windows < 1 || windows > 64 || cap < 1 || !(fixed >= 0 && fixed <= 1e6) ||
	    stop < 1 || stop > (1 << 24)) {
		char buf[G16_MSG];
		std::snprintf(buf, sizeof buf,
		              "%s: T must be in [1, 2^24], windows in [1, 64], cap positive, fixed in [0, 1e6] and stop in "
		              "[1, 2^24]",
		              what);
		fail(G16_INVALID, buf);
	}
}

extern "C" g16_status g16_host_reduce(int group, const void* buckets, int64_t T, int64_t windows,
                                      int64_t cap, double fixed, int64_t stop, void* out, int* pairs) {
	return guard([&] {
		check_reduce_args("reduce", T, windows, cap, fixed, stop);
		auto run = [&](auto grp) {
			typedef typename decltype(grp)::field F;
			typedef xyzz_t<F> P;
			host_copy hb(buckets, (size_t)(T * windows) * sizeof(P));
			exec_t ex;
			auto red = reduce_buckets<F>(ex, (const P*)hb.p, (uint32_t)T, (size_t)windows,
			                             (size_t)cap, fixed, (size_t)stop);
			size_t np = (size_t)windows * red.T;
			std::memcpy(out, red.A, np * sizeof(P));
			if (red.T > 1) std::memcpy((P*)out + np, red.R, np * sizeof(P));
			*pairs = (int)red.T;
		};
		with_group(group, "reduce", run);
	});
}

extern "C" g16_status g16_reduce_plan(int64_t T, int64_t windows, int64_t cap, double fixed, int64_t stop,
                                      int* shapes) {
	return guard([&] {
		check_reduce_args("reduce plan", T, windows, cap, fixed, stop);
		red_plan p = plan_levels((uint32_t)T, (size_t)windows, (size_t)cap, fixed, (size_t)stop);
		for (int i = 0; i < p.n; i++) shapes[i] = p.lv[i].lgm;
		shapes[p.n] = 0;
	});
}

extern "C" g16_status g16_field_op(g16_device* dev, int op, void* out, const void* a, const void* b, int64_t n) {
	using bls12_381::fp2_t;
	using bls12_381::fp_t;
	using bls12_381::fr_t;
	return guard([&] {
		if (op < 0 || op > 14) fail(G16_INVALID, "field_op: unknown op");
		if (n < 0) fail(G16_INVALID, "field_op: negative n");
		size_t el = (op == 4 || op == 5 || op == 8 || op == 10 || op == 12) ? sizeof(fp2_t)
		            : (op == 6 ? sizeof(fr_t) : sizeof(fp_t));
		size_t oel = (op == 13 || op == 14) ? 2 * el : el;             // an output element
		size_t in = (op == 11 || op == 12) ? 2 * (size_t)n : (size_t)n; // a's and b's
		exec_t ex;
		if (!dev) {
			host_copy ha(a, in * el), hb(b ? b : a, in * el), ho(nullptr, n * oel);
			ex.launch((size_t)n, field_op_k{op, ho.p, ha.p, hb.p, (size_t)n});
			std::memcpy(out, ho.p, n * oel);
			return;
		}
		dev->use();
		ex.dev = dev;
		ex.st = dev->internal;
		ex.launch((size_t)n, field_op_k{op, out, a, b ? b : a, (size_t)n});
		G16_CK(dev->ord, cudaStreamSynchronize(ex.st));
	});
}
