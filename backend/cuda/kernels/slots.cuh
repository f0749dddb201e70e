// XYZZ point arithmetic on points held in shared memory, with the field
// products in program order: the form of curve.cuh's formulas that the
// accumulation and reduction kernels of G2 and of BW6-761's groups use,
// whose points would not fit in registers beside the products.
//
// Two things keep the registers down:
//
//   - The points being summed live in shared memory ("slots", one per
//     thread and coordinate), read just before a product and written just
//     after. A G2 point (XYZZ) is 384 bytes on BLS12-381, which no longer has to
//     sit in 96 registers for the whole loop.
//   - An order token z threads through every product and every load: each
//     product ORs z into a limb of one operand and sets z from a bit of its
//     result that is always 0 (a fully reduced element of Fp is below
//     p < 2^(32N−1), so the top bit of its last limb is clear). z is always 0, so
//     the values do not change; but ptxas sees a data dependence and cannot
//     start the next product (or hoist the next load) before the previous
//     one ends. Left alone it interleaves independent products (two Fp2
//     products) and the registers in flight add up until it spills.
//
// The formulas are curve.cuh's (madd-2008-s, add-2008-s, dbl-2008-s-1 of
// the Explicit-Formulas Database, a = 0), with the intermediate values
// stored into the coordinates they replace as soon as the old coordinate is
// dead. Exceptional cases (an operand at infinity, P = ±Q) are handled as
// in curve.cuh.
#pragma once
#include <cstring>

#include "curve.cuh"

namespace g16 {

// The order token: 0, from a bit of x that is 0 for every reduced element
// (p < 2^(32N−1) on every curve, fp2.cuh).
template <class P>
G16_HD uint32_t token_of(const mont_t<P>& x) {
	return x.v[mont_t<P>::N - 1] >> 31;
}

// a·b, after the product that set z, and setting z.
template <class P>
G16_HD mont_t<P> omul(const mont_t<P>& a, mont_t<P> b, uint32_t& z) {
	b.v[0] |= z;
	mont_t<P> r = a * b;
	z = token_of(r);
	return r;
}

// The squaring and a·b − c·d (Y3 of madd and add: mont_t::mul_sub, one
// reduction) over a prime field: BW6-761's points, over its Fp.
template <class P>
G16_HD mont_t<P> osqr(mont_t<P> a, uint32_t& z) {
	a.v[0] |= z;
	mont_t<P> r = a.sqr();
	z = token_of(r);
	return r;
}
template <class P>
G16_HD mont_t<P> omul_sub(mont_t<P> a, const mont_t<P>& b, const mont_t<P>& c, const mont_t<P>& d, uint32_t& z) {
	a.v[0] |= z;
	mont_t<P> r = mont_t<P>::mul_sub(a, b, c, d);
	z = token_of(r);
	return r;
}

// Fp2 products as in fp2.cuh, one double-width product or reduction
// (fp2::mul_lazy) at a time; the squaring with two Fp products (the lazy
// reduction saves nothing there: two double-width products and two
// reductions cost what two Fp products do).
template <class Fp>
G16_HD fp2<Fp> omul(const fp2<Fp>& a, const fp2<Fp>& b, uint32_t& z) {
	return fp2<Fp>::mul_lazy(a, b, z);
}
template <class Fp>
G16_HD fp2<Fp> osqr(const fp2<Fp>& a, uint32_t& z) {
	Fp t = omul(a.c0, a.c1, z);
	Fp m = omul(a.c0 + a.c1, a.c0 - fp2<Fp>::times_k(a.c1), z);
	return a.sqr_from(t, m);
}

// a·b − c·d for Y3 of madd and add: fp2::mul_sub_lazy.
template <class Fp>
G16_HD fp2<Fp> omul_sub(const fp2<Fp>& a, const fp2<Fp>& b, const fp2<Fp>& c, const fp2<Fp>& d, uint32_t& z) {
	return fp2<Fp>::mul_sub_lazy(a, b, c, d, z);
}

// from_vec: the element whose bytes are v (a copy, which the compiler
// turns into register moves; a cast would break the aliasing rules).
template <class F>
G16_HD F from_vec(const uint4 (&v)[sizeof(F) / 16]) {
	F r;
	std::memcpy(&r, v, sizeof(F));
	return r;
}

// slot<F, S>: one element of F per thread, as sizeof(F)/16 vectors of 16
// bytes at a stride of S vectors (S threads side by side, so that a warp's
// accesses are contiguous).
template <class F, int S>
struct slot {
	static const int K = sizeof(F) / 16;
	uint4* p;
	G16_HD F ld(uint32_t z) const {
		uint4 v[K];
		const uint4* q = p + z;
#pragma unroll
		for (int k = 0; k < K; k++) v[k] = q[k * S];
		return from_vec<F>(v);
	}
	G16_HD void st(const F& r) const {
		uint4 v[K];
		std::memcpy(v, &r, sizeof(F));
#pragma unroll
		for (int k = 0; k < K; k++) p[k * S] = v[k];
	}
};

// The slots of one XYZZ point, 4·sizeof(F)/16 vectors from base.
template <class F, int S>
struct pslot {
	static const int WORDS = 4 * slot<F, S>::K; // 16-byte vectors per thread
	slot<F, S> x, y, zz, zzz;
	G16_HD explicit pslot(uint4* base)
	    : x{base}, y{base + slot<F, S>::K * S}, zz{base + 2 * slot<F, S>::K * S}, zzz{base + 3 * slot<F, S>::K * S} {}

	G16_HD void set_inf() const {
		zz.st(F::zero());
		zzz.st(F::zero());
	}
	G16_HD void set(const xyzz_t<F>& q) const {
		x.st(q.x);
		y.st(q.y);
		zz.st(q.zz);
		zzz.st(q.zzz);
	}
	G16_HD xyzz_t<F> get(uint32_t z) const { return {x.ld(z), y.ld(z), zz.ld(z), zzz.ld(z)}; }
	G16_HD bool is_inf(uint32_t z) const { return zz.ld(z).is_zero(); }
};

// psrc: a point to add, in global memory (an xyzz_t, stride 1) or in slots
// (stride S): coordinate c's vector k is at p[(c·K + k)·stride].
template <class F>
struct psrc {
	static const int K = sizeof(F) / 16;
	const uint4* p;
	int stride;
	G16_HD static psrc global(const xyzz_t<F>* q) { return {reinterpret_cast<const uint4*>(q), 1}; }
	template <int S>
	G16_HD static psrc slots(const pslot<F, S>& q) {
		return {q.x.p, S};
	}
	G16_HD F at(int c, uint32_t z) const {
		uint4 v[K];
		const uint4* q = p + z;
#pragma unroll
		for (int k = 0; k < K; k++) v[k] = q[(c * K + k) * stride];
		return from_vec<F>(v);
	}
	G16_HD F X(uint32_t z) const { return at(0, z); }
	G16_HD F Y(uint32_t z) const { return at(1, z); }
	G16_HD F ZZ(uint32_t z) const { return at(2, z); }
	G16_HD F ZZZ(uint32_t z) const { return at(3, z); }
};

// A = 2A (dbl-2008-s-1):
//   U = 2Y, V = U², W = U·V, S = X·V, M = 3X²
//   X3 = M² − 2S, Y3 = M(S − X3) − W·Y, ZZ3 = V·ZZ, ZZZ3 = W·ZZZ
template <class F, int S>
G16_HD void dbl(const pslot<F, S>& A, uint32_t& z) {
	F u = A.y.ld(z).dbl();
	F v = osqr(u, z);
	F w = omul(u, v, z);
	A.zz.st(omul(A.zz.ld(z), v, z));
	A.zzz.st(omul(A.zzz.ld(z), w, z));
	A.y.st(omul(A.y.ld(z), w, z)); // W·Y
	F s = omul(A.x.ld(z), v, z);
	F xx = osqr(A.x.ld(z), z);
	F m = xx.dbl() + xx;
	F x3 = osqr(m, z) - s.dbl();
	A.y.st(omul(m, s - x3, z) - A.y.ld(z));
	A.x.st(x3);
}

// A += q for q in gnark's affine layout (negated when neg), madd-2008-s:
//   U2 = X2·ZZ1, S2 = Y2·ZZZ1, P = U2 − X1, R = S2 − Y1, PP = P², PPP = P·PP, Q = X1·PP
//   X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − Y1·PPP, ZZ3 = ZZ1·PP, ZZZ3 = ZZZ1·PPP
//
// It returns true when A = q: A is then set to q and the caller doubles it
// (dbl), so that a kernel holds one copy of the doubling. Y3's two products
// and their difference are one omul_sub (as in add).
template <class F, int S>
G16_HD bool madd(const pslot<F, S>& A, const affine_t<F>* q, bool neg, uint32_t& z) {
	F qx = (q + z)->x;
	if (qx.is_zero() && (q + z)->y.is_zero()) return false; // q is infinity
	F zz = A.zz.ld(z);
	if (zz.is_zero()) { // A is infinity
		F qy = (q + z)->y;
		A.x.st(qx);
		A.y.st(neg ? qy.neg() : qy);
		A.zz.st(F::one());
		A.zzz.st(F::one());
		return false;
	}
	F p = omul(qx, zz, z) - A.x.ld(z);
	if (p.is_zero()) { // same x: A = ±q
		F qy = (q + z)->y;
		if (neg) qy = qy.neg();
		F r = omul(qy, A.zzz.ld(z), z) - A.y.ld(z);
		if (r.is_zero()) {
			A.x.st(qx);
			A.y.st(qy);
			A.zz.st(F::one());
			A.zzz.st(F::one());
			return true;
		}
		A.set_inf();
		return false;
	}
	F pp = osqr(p, z);
	F ppp = omul(p, pp, z);
	A.zz.st(omul(A.zz.ld(z), pp, z));
	A.x.st(omul(A.x.ld(z), pp, z)); // Q
	F qy = (q + z)->y;
	F r = omul(neg ? qy.neg() : qy, A.zzz.ld(z), z) - A.y.ld(z);
	A.zzz.st(omul(A.zzz.ld(z), ppp, z));
	F qq = A.x.ld(z);
	F x3 = osqr(r, z) - ppp - qq.dbl();
	A.y.st(omul_sub(r, qq - x3, A.y.ld(z), ppp, z));
	A.x.st(x3);
	return false;
}

// A += q for an XYZZ q (global memory or slots other than A's; see psrc), add-2008-s:
//   U1 = X1·ZZ2, U2 = X2·ZZ1, S1 = Y1·ZZZ2, S2 = Y2·ZZZ1, P = U2 − U1, R = S2 − S1,
//   PP = P², PPP = P·PP, Q = U1·PP,
//   X3 = R² − PPP − 2Q, Y3 = R(Q − X3) − S1·PPP, ZZ3 = ZZ1·ZZ2·PP, ZZZ3 = ZZZ1·ZZZ2·PPP
// It returns true when A = q, as madd does.
template <class F, int S>
G16_HD bool add(const pslot<F, S>& A, const psrc<F>& q, uint32_t& z) {
	if (q.ZZ(z).is_zero()) return false;
	if (A.is_inf(z)) {
		A.x.st(q.X(z));
		A.y.st(q.Y(z));
		A.zz.st(q.ZZ(z));
		A.zzz.st(q.ZZZ(z));
		return false;
	}
	A.x.st(omul(A.x.ld(z), q.ZZ(z), z));  // U1
	A.y.st(omul(A.y.ld(z), q.ZZZ(z), z)); // S1
	F p = omul(q.X(z), A.zz.ld(z), z) - A.x.ld(z);
	F r = omul(q.Y(z), A.zzz.ld(z), z) - A.y.ld(z);
	if (p.is_zero()) {
		if (r.is_zero()) { // A = q
			A.x.st(q.X(z));
			A.y.st(q.Y(z));
			A.zz.st(q.ZZ(z));
			A.zzz.st(q.ZZZ(z));
			return true;
		}
		A.set_inf();
		return false;
	}
	A.zz.st(omul(A.zz.ld(z), q.ZZ(z), z));
	A.zzz.st(omul(A.zzz.ld(z), q.ZZZ(z), z));
	F pp = osqr(p, z);
	F ppp = omul(p, pp, z);
	A.zz.st(omul(A.zz.ld(z), pp, z));
	A.x.st(omul(A.x.ld(z), pp, z)); // Q
	A.zzz.st(omul(A.zzz.ld(z), ppp, z));
	F qq = A.x.ld(z);
	F x3 = osqr(r, z) - ppp - qq.dbl();
	A.y.st(omul_sub(r, qq - x3, A.y.ld(z), ppp, z));
	A.x.st(x3);
	return false;
}

// The entry points the kernels call: one copy of each formula per kernel
// (ptxas allocates their registers within the kernel's; their arguments are
// pointers, to shared or global memory, so no stack frame is needed), and
// one copy per curve for cicc to compile. a is the base of A's slots.
template <class F, int S>
G16_HD_CALL void dbl_at(uint4* a) {
	uint32_t z = 0;
	dbl<F, S>(pslot<F, S>(a), z);
}
template <class F, int S>
G16_HD_CALL bool madd_at(uint4* a, const affine_t<F>* q, bool neg) {
	uint32_t z = 0;
	return madd<F, S>(pslot<F, S>(a), q, neg, z);
}
template <class F, int S>
G16_HD_CALL bool add_at(uint4* a, const uint4* q, int stride) {
	uint32_t z = 0;
	return add<F, S>(pslot<F, S>(a), psrc<F>{q, stride}, z);
}

// Per-thread slot memory of a kernel: S threads' worth of WORDS vectors in
// shared memory on the device (the kernel runs in blocks of S threads), a
// buffer of the host thread in the host mode.
template <int WORDS, int S>
G16_HD uint4* slot_base() {
#ifdef __CUDA_ARCH__
	__shared__ uint4 sm[WORDS * S];
	return sm + threadIdx.x;
#else
	static thread_local uint4 sm[WORDS * S];
	return sm;
#endif
}

} // namespace g16
