// The tables of msm_table.h: copy q + 1 = 2^w · copy q, built copy by copy.
//
// For each copy, over passes of at most 2^20 points:
//   dbl_k   point i of copy q in XYZZ after w doublings (the first one
//           mdbl-2008-s from affine; infinity stays infinity);
//   affine_k one thread per group of G points back to affine with one
//           inversion a group (Montgomery's trick over u_i = ZZ_i·ZZZ_i:
//           1/ZZ = ZZZ/u and 1/ZZZ = ZZ/u; infinity is skipped and written
//           as (0, 0)).
// The inversion is the fields' own (mont_t::inv, Fermat's a^(p−2), and
// fp2::inv over it).
#include "curves.cuh"
#include "exec.cuh"
#include "msm_table.h"

#include <cstring>
#include <memory>

namespace g16 {

// dbl_k: out[i] = 2^w · src[i].
template <class F>
struct dbl_k {
	const affine_t<F>* src;
	int w;
	xyzz_t<F>* out;
	G16_HD void operator()(size_t i) const {
		affine_t<F> p = src[i];
		xyzz_t<F> r = xyzz_t<F>::inf();
		if (!p.is_inf()) {
			r.set_dbl_affine(p);
			for (int k = 1; k < w; k++) r.dbl();
		}
		out[i] = r;
	}
};

// affine_k: group g of G points of in, to affine in dst; pre holds the
// running products.
template <class F>
struct affine_k {
	const xyzz_t<F>* in;
	F* pre;
	size_t m, G;
	affine_t<F>* dst;
	G16_HD void operator()(size_t g) const {
		size_t lo = g * G, hi = lo + G < m ? lo + G : m;
		F acc = F::one();
		for (size_t i = lo; i < hi; i++) {
			pre[i] = acc;
			if (!in[i].is_inf()) acc = acc * (in[i].zz * in[i].zzz);
		}
		F inv = acc.inv(); // 1 / Π u_i over the group's finite points
		for (size_t i = hi; i-- > lo;) {
			xyzz_t<F> p = in[i];
			if (p.is_inf()) {
				dst[i] = affine_t<F>{F::zero(), F::zero()};
				continue;
			}
			F u = p.zz * p.zzz;
			F ui = inv * pre[i]; // 1/u_i
			inv = inv * u;       // 1 / Π u_j over j < i
			dst[i] = affine_t<F>{p.x * (ui * p.zzz), p.y * (ui * p.zz)};
		}
	}
};

// copy_k: dst[i] = src[i].
template <class F>
struct copy_k {
	const affine_t<F>* src;
	affine_t<F>* dst;
	G16_HD void operator()(size_t i) const { dst[i] = src[i]; }
};

// table_pass bounds the scratch: 2^20 points (XYZZ and a running product
// each) at a time.
const size_t table_pass = size_t(1) << 20;
const size_t table_group = 32;

// check_table fails on a table shape g16_precompute does not build.
inline void check_table(int64_t n, int copies, int w) {
	if (n <= 0 || n >= (int64_t(1) << 31)) fail(G16_INVALID, "precompute: n must be in [1, 2^31)");
	if (w < 4 || w > 24) fail(G16_INVALID, "precompute: window must be in [4, 24]");
	if (copies < 1 || copies > 64) fail(G16_INVALID, "precompute: copies must be in [1, 64]");
	if ((int64_t)copies * n >= (int64_t(1) << 31))
		fail(G16_INVALID, "precompute: copies·n must be below 2^31 (a point index has 31 bits)");
}

template <class F>
void precompute_run(exec_t& ex, const affine_t<F>* bases, affine_t<F>* table, size_t n, int copies, int w) {
	check_table((int64_t)n, copies, w);
	ex.launch(n, copy_k<F>{bases, table});
	if (copies == 1) return;
	size_t pass = std::min(n, table_pass);
	buf<xyzz_t<F>> acc(ex, pass);
	buf<F> pre(ex, pass);
	for (int q = 1; q < copies; q++) {
		for (size_t off = 0; off < n; off += pass) {
			size_t m = std::min(pass, n - off);
			ex.launch(m, dbl_k<F>{table + (size_t)(q - 1) * n + off, w, acc.p}, 128);
			ex.launch((m + table_group - 1) / table_group,
			          affine_k<F>{acc.p, pre.p, m, table_group, table + (size_t)q * n + off}, 128);
		}
	}
}

template <class F>
void precompute_host(const void* bases, void* table, size_t n, int copies, int w) {
	check_table((int64_t)n, copies, w);
	std::unique_ptr<affine_t<F>[]> hb(new affine_t<F>[n]), ht(new affine_t<F>[(size_t)copies * n]);
	std::memcpy(hb.get(), bases, n * sizeof(affine_t<F>));
	exec_t ex;
	precompute_run<F>(ex, hb.get(), ht.get(), n, copies, w);
	std::memcpy(table, ht.get(), (size_t)copies * n * sizeof(affine_t<F>));
}

} // namespace g16

using namespace g16;

extern "C" g16_status g16_precompute(g16_device* dev, void* stream, int group, const void* bases, void* table,
                                     int64_t n, int copies, int w) {
	return guard([&] {
		if (!dev) fail(G16_INVALID, "precompute: no device");
		check_table(n, copies, w);
		dev->use();
		if ((uintptr_t)bases % 16 != 0 || (uintptr_t)table % 16 != 0)
			fail(G16_INVALID, "precompute: bases and table must be 16-byte aligned on the device");
		exec_t ex;
		ex.dev = dev;
		ex.st = stream ? (cudaStream_t)stream : dev->internal;
		with_group(group, "precompute", [&](auto grp) {
			typedef typename decltype(grp)::field F;
			precompute_run<F>(ex, (const affine_t<F>*)bases, (affine_t<F>*)table, (size_t)n, copies, w);
		});
		if (!stream) G16_CK(dev->ord, cudaStreamSynchronize(ex.st));
	});
}

extern "C" g16_status g16_host_precompute(int group, const void* bases, void* table, int64_t n, int copies, int w) {
	return guard([&] {
		with_group(group, "precompute",
		           [&](auto grp) { precompute_host<typename decltype(grp)::field>(bases, table, (size_t)n, copies, w); });
	});
}
