// Montgomery arithmetic over a prime field, on 32-bit limbs: the template
// mont_t<P>, instantiated for each curve's fields by its parameter header
// (bls12_381.cuh and bls12_377.cuh: Fp of 12 limbs, Fr of 8; bn254.cuh: Fp
// and Fr of 8; bw6_761.cuh: Fp of 24, Fr of 12). N is even on every field
// (the products work on limb pairs).
// Elements are kept in Montgomery form a·R mod m with R = 2^(32N), the same
// R as gnark-crypto's on 64-bit limbs (2^384 for 12 limbs, 2^256 for 8,
// 2^768 for 24): gnark's [N/2]uint64 and our [N]uint32 are the same bytes.
//
// Every function is __host__ __device__. On the device the carry chains are
// PTX add.cc/addc/mad.lo.cc/madc.hi.cc; on the host the same chains run on an
// emulated carry flag, so that the arithmetic the kernels use can be checked
// against gnark-crypto on a machine with no GPU (see host_test.cu).
//
// Nothing here is constant-time in the cryptographic sense: the MSM works on
// public data (proof elements are blinded afterwards).
#pragma once
#include <stdint.h>

#define G16_HD __host__ __device__ __forceinline__
// For the large curve and Fp2 routines: one copy per kernel instead of one
// per call site keeps compile times and instruction caches in check.
#define G16_HD_CALL __host__ __device__ __noinline__

namespace g16 {

#ifndef __CUDA_ARCH__
// The emulated carry flag of the host path (one per host thread).
namespace hostcc {
inline thread_local uint32_t cf;
}
#endif

// Carry-chain primitives. The *_cc forms set the carry flag, the c* forms
// consume it. On the device they are single PTX instructions; volatile keeps
// nvcc from dropping an instruction whose only useful output is the carry.
G16_HD uint32_t add_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
#else
	uint64_t t = (uint64_t)a + b;
	hostcc::cf = (uint32_t)(t >> 32);
	return (uint32_t)t;
#endif
}

G16_HD uint32_t addc_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
#else
	uint64_t t = (uint64_t)a + b + hostcc::cf;
	hostcc::cf = (uint32_t)(t >> 32);
	return (uint32_t)t;
#endif
}

G16_HD uint32_t addc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
#else
	return a + b + hostcc::cf;
#endif
}

G16_HD uint32_t sub_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
#else
	uint64_t t = (uint64_t)a - b;
	hostcc::cf = (uint32_t)(t >> 32) & 1;
	return (uint32_t)t;
#endif
}

G16_HD uint32_t subc_cc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
#else
	uint64_t t = (uint64_t)a - b - hostcc::cf;
	hostcc::cf = (uint32_t)(t >> 32) & 1;
	return (uint32_t)t;
#endif
}

G16_HD uint32_t subc(uint32_t a, uint32_t b) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
	return r;
#else
	return a - b - hostcc::cf;
#endif
}

// lo(a·b) + c, setting the carry.
G16_HD uint32_t mad_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	return r;
#else
	uint64_t t = (uint64_t)(uint32_t)((uint64_t)a * b) + c;
	hostcc::cf = (uint32_t)(t >> 32);
	return (uint32_t)t;
#endif
}

// lo(a·b) + c + carry, setting the carry.
G16_HD uint32_t madc_lo_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	return r;
#else
	uint64_t t = (uint64_t)(uint32_t)((uint64_t)a * b) + c + hostcc::cf;
	hostcc::cf = (uint32_t)(t >> 32);
	return (uint32_t)t;
#endif
}

// hi(a·b) + c, setting the carry.
G16_HD uint32_t mad_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("mad.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	return r;
#else
	uint64_t t = (((uint64_t)a * b) >> 32) + c;
	hostcc::cf = (uint32_t)(t >> 32);
	return (uint32_t)t;
#endif
}

// hi(a·b) + c + carry, setting the carry.
G16_HD uint32_t madc_hi_cc(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	return r;
#else
	uint64_t t = (((uint64_t)a * b) >> 32) + c + hostcc::cf;
	hostcc::cf = (uint32_t)(t >> 32);
	return (uint32_t)t;
#endif
}

// hi(a·b) + c + carry.
G16_HD uint32_t madc_hi(uint32_t a, uint32_t b, uint32_t c) {
#ifdef __CUDA_ARCH__
	uint32_t r;
	asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
	return r;
#else
	return (uint32_t)((((uint64_t)a * b) >> 32) + c + hostcc::cf);
#endif
}

// A field's parameters P (one header per curve: bls12_381.cuh, bn254.cuh)
// give N, the 32-bit limbs, the modulus limb by limb (mod(i), called only
// with compile-time indices in the arithmetic, so the limbs become
// instruction immediates), m0 = −m⁻¹ mod 2^32 (redc_m0() as the
// multiplication reads it), and R mod m (one(i), the Montgomery one).

// mont_t<P> is an element of the field P describes, in Montgomery form,
// fully reduced (0 ≤ v < m) between operations. The moduli leave two spare
// bits (2m < R), which the multiplication's bounds rely on.
template <class P>
struct alignas(16) mont_t {
	static const int N = P::N;
	typedef P params;
	typedef mont_t base; // the prime field under an extension (fp2.cuh): itself
	static const int DEGREE = 1;
	static_assert(N % 2 == 0, "mont_t: an even number of 32-bit limbs");
	uint32_t v[N];

	G16_HD static mont_t zero() {
		mont_t r;
#pragma unroll
		for (int i = 0; i < N; i++) r.v[i] = 0;
		return r;
	}

	G16_HD bool is_zero() const {
		uint32_t acc = 0;
#pragma unroll
		for (int i = 0; i < N; i++) acc |= v[i];
		return acc == 0;
	}

	G16_HD bool operator==(const mont_t& b) const {
		uint32_t acc = 0;
#pragma unroll
		for (int i = 0; i < N; i++) acc |= v[i] ^ b.v[i];
		return acc == 0;
	}

	// t − m if that does not borrow, else t: the final step of every
	// operation whose result is below 2m. Branchless.
	G16_HD static mont_t reduce_once(const uint32_t (&t)[N], uint32_t hi) {
		mont_t r, s;
		s.v[0] = sub_cc(t[0], P::mod(0));
#pragma unroll
		for (int i = 1; i < N; i++) s.v[i] = subc_cc(t[i], P::mod(i));
		uint32_t borrow = subc(hi, 0); // all ones when t < m
#pragma unroll
		for (int i = 0; i < N; i++) r.v[i] = (t[i] & borrow) | (s.v[i] & ~borrow);
		return r;
	}

	G16_HD friend mont_t operator+(const mont_t& a, const mont_t& b) {
		uint32_t t[N];
		t[0] = add_cc(a.v[0], b.v[0]);
#pragma unroll
		for (int i = 1; i < N; i++) t[i] = addc_cc(a.v[i], b.v[i]);
		uint32_t hi = addc(0, 0);
		return reduce_once(t, hi);
	}

	// a − b, adding m back when the subtraction borrows.
	G16_HD friend mont_t operator-(const mont_t& a, const mont_t& b) {
		mont_t r;
		r.v[0] = sub_cc(a.v[0], b.v[0]);
#pragma unroll
		for (int i = 1; i < N; i++) r.v[i] = subc_cc(a.v[i], b.v[i]);
		uint32_t borrow = subc(0, 0);
		r.v[0] = add_cc(r.v[0], P::mod(0) & borrow);
#pragma unroll
		for (int i = 1; i < N; i++) r.v[i] = addc_cc(r.v[i], P::mod(i) & borrow);
		return r;
	}

	G16_HD mont_t dbl() const { return *this + *this; }

	// −a: m − a, or 0 when a = 0.
	G16_HD mont_t neg() const {
		mont_t r;
		uint32_t nz = is_zero() ? 0 : 0xffffffff;
		r.v[0] = sub_cc(P::mod(0) & nz, v[0]);
#pragma unroll
		for (int i = 1; i < N; i++) r.v[i] = subc_cc(P::mod(i) & nz, v[i]);
		return r;
	}

	// Montgomery product a·b·R⁻¹ mod m: CIOS (Koç, Acar, Kaliski, "Analyzing
	// and comparing Montgomery multiplication algorithms", 1996), one row per
	// limb b_i:
	//
	//   T += a·b_i;  q = T_0·m0 mod 2^32;  T = (T + q·m) / 2^32
	//
	// T is kept as two accumulators, T = x + 2^32·y. x takes the products of
	// the even limbs of a (and of m), y those of the odd limbs: the product
	// a_j·b_i covers limbs j and j+1, so within one accumulator the 64-bit
	// products sit on disjoint limb pairs (2k, 2k+1) and one carry chain of
	// mad.lo.cc/madc.hi.cc on the same operands adds them. ptxas fuses each
	// such lo/hi pair into one IMAD.WIDE.U32(.X) on a register pair: with
	// nvcc 11.8 for sm_90 an Fp product on operands in registers is about
	// 450 SASS instructions and an Fr product about 250, against 1250 and
	// 640 for lo and hi chains row by row. (Operands loaded from memory just
	// before may still see the a·b_i chains split into IMAD, IMAD.HI and
	// IADD3.X: about 830 and 410.)
	//
	// After a row x_0 = 0 and T/2^32 = (y + x_1) + 2^32·(x >> 64): y becomes
	// the next row's x (x_1 added into its low limb, the carry going into
	// the next y's chain), and x >> 64, a shift by a whole limb pair, becomes
	// the next y, so the pairs stay aligned. Both have N limbs: a chain into
	// x carries out of T's limb N−1 into T's limb N, which is y's top limb.
	//
	// Bounds: T < 2m between rows, so T + a·b_i + q·m < 2^33·m < 2^(32(N+1))
	// (2m < R). 2^32·y ≤ T puts y in N limbs, so the chains into y never
	// carry out, nor does adding x's carries into y's top limb. At the end
	// T < 2m and one conditional subtraction finishes.
	G16_HD friend mont_t operator*(const mont_t& a, const mont_t& b) {
		uint32_t x[N], y[N];
		mul_row0(x, y, a, b.v[0]);
		redc_row(x, y);
#pragma unroll
		for (int i = 1; i < N; i++) {
			mul_row(x, y, a, b.v[i]);
			redc_row(x, y);
		}
		return mul_last(x, y);
	}

	// The rows of operator*. mul_row0 is row 0: the plain products a_j·b_0,
	// whose pairs do not overlap, so no carries.
	G16_HD static void mul_row0(uint32_t (&x)[N], uint32_t (&y)[N], const mont_t& a, uint32_t b0) {
#pragma unroll
		for (int j = 0; j < N; j += 2) {
			uint64_t pe = (uint64_t)a.v[j] * b0;
			uint64_t po = (uint64_t)a.v[j + 1] * b0;
			x[j] = (uint32_t)pe;
			x[j + 1] = (uint32_t)(pe >> 32);
			y[j] = (uint32_t)po;
			y[j + 1] = (uint32_t)(po >> 32);
		}
	}

	// mul_row is row i ≥ 1 before its reduction: T = T/2^32 + a·b_i.
	G16_HD static void mul_row(uint32_t (&x)[N], uint32_t (&y)[N], const mont_t& a, uint32_t bi) {
		uint32_t nx[N], ny[N];
		// nx = y + x_1, carrying into ny = (x >> 64) + a_odd·b_i.
		nx[0] = add_cc(y[0], x[1]);
#pragma unroll
		for (int j = 1; j < N; j += 2) {
			ny[j - 1] = madc_lo_cc(a.v[j], bi, j + 1 < N ? x[j + 1] : 0);
			ny[j] = madc_hi_cc(a.v[j], bi, j + 2 < N ? x[j + 2] : 0);
		}
		// nx += a_even·b_i, the carry out going into y's top limb.
		nx[0] = mad_lo_cc(a.v[0], bi, nx[0]);
		nx[1] = madc_hi_cc(a.v[0], bi, y[1]);
#pragma unroll
		for (int j = 2; j < N; j += 2) {
			nx[j] = madc_lo_cc(a.v[j], bi, y[j]);
			nx[j + 1] = madc_hi_cc(a.v[j], bi, y[j + 1]);
		}
		ny[N - 1] = addc(ny[N - 1], 0);
#pragma unroll
		for (int j = 0; j < N; j++) {
			x[j] = nx[j];
			y[j] = ny[j];
		}
	}

	// t = T/2^32 = y + (x >> 32), after the last row (x_0 = 0): below
	// 2^(32N) (T < 2m after a product's rows, T ≤ m after redc's).
	G16_HD static void shift_out(uint32_t (&t)[N], const uint32_t (&x)[N], const uint32_t (&y)[N]) {
		t[0] = add_cc(y[0], x[1]);
#pragma unroll
		for (int j = 1; j < N - 1; j++) t[j] = addc_cc(y[j], x[j + 1]);
		t[N - 1] = addc(y[N - 1], 0);
	}

	// mul_last ends the product: T/2^32 < 2m, reduced once.
	G16_HD static mont_t mul_last(const uint32_t (&x)[N], const uint32_t (&y)[N]) {
		uint32_t t[N];
		shift_out(t, x, y);
		return reduce_once(t, 0);
	}

	// The reduction half of a row of the multiplication: q = x_0·m0, then
	// x += m_even·q and y += m_odd·q (y one limb up, x's carry out into y's
	// top limb), after which x_0 = 0.
	G16_HD static void redc_row(uint32_t (&x)[N], uint32_t (&y)[N]) {
		uint32_t q = x[0] * P::redc_m0();
		(void)mad_lo_cc(q, P::mod(0), x[0]); // becomes 0; keep the carry
		x[1] = madc_hi_cc(q, P::mod(0), x[1]);
#pragma unroll
		for (int j = 2; j < N; j += 2) {
			x[j] = madc_lo_cc(q, P::mod(j), x[j]);
			x[j + 1] = madc_hi_cc(q, P::mod(j), x[j + 1]);
		}
		uint32_t c = addc(0, 0);
		y[0] = mad_lo_cc(q, P::mod(1), y[0]);
		y[1] = madc_hi_cc(q, P::mod(1), y[1]);
#pragma unroll
		for (int j = 3; j < N; j += 2) {
			y[j - 1] = madc_lo_cc(q, P::mod(j), y[j - 1]);
			y[j] = madc_hi_cc(q, P::mod(j), y[j]);
		}
		y[N - 1] += c;
	}

	// The double-width arithmetic: an integer w < 2^(64N) as 2N limbs, the
	// unreduced product of two elements (or of sums of two elements), and
	// its Montgomery reduction. Fp2's lazy product (fp2.cuh) and the
	// squaring use them.
	static const int W = 2 * N;

	// acc += a_j·bi·2^(32(i+j)) for j = j0, j0 + 2, … < N: one carry chain
	// whose 64-bit products sit on the disjoint limb pairs (i+j, i+j+1), so
	// that ptxas fuses each lo/hi pair into one IMAD.WIDE.U32(.X). When the
	// last j is N − 2 the chain ends at limb i + N − 1 and its carry goes
	// into limb i + N; when it is N − 1 the chain ends at limb i + N. Either
	// way nothing carries out of limb i + N (see mul_wide's bounds).
	G16_HD static void mad_row(uint32_t (&acc)[W], const uint32_t (&a)[N], uint32_t bi, int i, int j0) {
		if (j0 >= N) return;
		acc[i + j0] = mad_lo_cc(a[j0], bi, acc[i + j0]);
		acc[i + j0 + 1] = madc_hi_cc(a[j0], bi, acc[i + j0 + 1]);
#pragma unroll
		for (int j = j0 + 2; j < N; j += 2) {
			acc[i + j] = madc_lo_cc(a[j], bi, acc[i + j]);
			acc[i + j + 1] = madc_hi_cc(a[j], bi, acc[i + j + 1]);
		}
		if ((N - j0) % 2 == 0) acc[i + N] = addc(acc[i + N], 0);
	}

	// The rows of b_i (and d_i) into mul_wide's accumulators e and o.
	G16_HD static void mad_rows(uint32_t (&e)[W], uint32_t (&o)[W], const uint32_t (&a)[N], uint32_t bi, int i) {
		if (i % 2 == 0) {
			mad_row(e, a, bi, i, 0);
			mad_row(o, a, bi, i, 1);
		} else {
			mad_row(o, a, bi, i, 0);
			mad_row(e, a, bi, i, 1);
		}
	}

	// w = e + o (o's limb 0 is 0), no carry out.
	G16_HD static void sum_eo(uint32_t (&w)[W], const uint32_t (&e)[W], const uint32_t (&o)[W]) {
		w[0] = e[0];
		w[1] = add_cc(e[1], o[1]);
#pragma unroll
		for (int k = 2; k < W - 1; k++) w[k] = addc_cc(e[k], o[k]);
		w[W - 1] = addc(e[W - 1], o[W - 1]);
	}

	// w = a·b, for any a, b < 2^(32N) (elements, or sums of two elements),
	// as 2N limbs, with no reduction.
	//
	// The products a_j·b_i are summed into two accumulators, e with its
	// 64-bit products on the limb pairs (2k, 2k+1) and o on (2k+1, 2k+2):
	// the product a_j·b_i goes into e when i + j is even. Row i (b_i) is one
	// chain of mad_row into each, and each accumulator keeps its pairs
	// aligned from row to row.
	//
	// Bounds: after row i each accumulator is at most a·(b mod 2^(32(i+1)))
	// < 2^(32(N+i+1)), and no row before i + 1 writes a limb above N + i,
	// so nothing carries out of limb N + i in row i. e + o = a·b < 2^(64N),
	// so the final sum does not carry out either.
	G16_HD static void mul_wide(uint32_t (&w)[W], const uint32_t (&a)[N], const uint32_t (&b)[N]) {
		uint32_t e[W], o[W];
#pragma unroll
		for (int k = 0; k < W; k++) e[k] = o[k] = 0;
#pragma unroll
		for (int i = 0; i < N; i++) mad_rows(e, o, a, b[i], i);
		sum_eo(w, e, o);
	}

	// w = a·b + c·d, for a + c < 2^(32N) and b, d < 2^(32N), with the rows
	// of b_i and d_i interleaved in mul_wide's accumulators: after row i each
	// is at most (a + c)·2^(32(i+1)) < 2^(32(N+i+1)), so mul_wide's bounds
	// hold, and the registers are one product's.
	G16_HD static void mul_wide2(uint32_t (&w)[W], const uint32_t (&a)[N], const uint32_t (&b)[N],
	                             const uint32_t (&c)[N], const uint32_t (&d)[N]) {
		uint32_t e[W], o[W];
#pragma unroll
		for (int k = 0; k < W; k++) e[k] = o[k] = 0;
#pragma unroll
		for (int i = 0; i < N; i++) {
			mad_rows(e, o, a, b[i], i);
			mad_rows(e, o, c, d[i], i);
		}
		sum_eo(w, e, o);
	}

	// w = a², for a < m, as 2N limbs: the cross products a_i·a_j (i < j)
	// once, in mul_wide's two accumulators (the same bounds hold, the cross
	// products being a subset of a·a's), doubled, plus the squares a_i² on
	// the aligned pairs (2i, 2i+1): N(N−1)/2 + N limb products instead of N².
	G16_HD static void sqr_wide(uint32_t (&w)[W], const uint32_t (&a)[N]) {
		uint32_t e[W], o[W];
#pragma unroll
		for (int k = 0; k < W; k++) e[k] = o[k] = 0;
#pragma unroll
		for (int i = 0; i < N - 1; i++) {
			mad_row(o, a, a[i], i, i + 1); // positions 2i+1, 2i+3, …
			mad_row(e, a, a[i], i, i + 2); // positions 2i+2, 2i+4, …
		}
		sqr_finish(w, e, o, a);
	}

	// w = a² from sqr_wide's accumulators e, o of the cross products.
	G16_HD static void sqr_finish(uint32_t (&w)[W], const uint32_t (&e)[W], const uint32_t (&o)[W],
	                              const uint32_t (&a)[N]) {
		// c = e + o = Σ_{i<j} a_i·a_j·2^(32(i+j)) < a²/2, from limb 1 up.
		uint32_t c[W];
		c[0] = 0;
		c[1] = add_cc(e[1], o[1]);
#pragma unroll
		for (int k = 2; k < W - 1; k++) c[k] = addc_cc(e[k], o[k]);
		c[W - 1] = addc(e[W - 1], o[W - 1]);
		// w = 2c + Σ a_i²·2^(64i) = a² < 2^(64N): no carry out.
		w[0] = 0;
#pragma unroll
		for (int k = 1; k < W; k++) w[k] = (c[k] << 1) | (c[k - 1] >> 31);
		w[0] = mad_lo_cc(a[0], a[0], w[0]);
		w[1] = madc_hi_cc(a[0], a[0], w[1]);
#pragma unroll
		for (int i = 1; i < N - 1; i++) {
			w[2 * i] = madc_lo_cc(a[i], a[i], w[2 * i]);
			w[2 * i + 1] = madc_hi_cc(a[i], a[i], w[2 * i + 1]);
		}
		w[W - 2] = madc_lo_cc(a[N - 1], a[N - 1], w[W - 2]);
		w[W - 1] = madc_hi(a[N - 1], a[N - 1], w[W - 1]);
	}

	// Montgomery reduction w·R⁻¹ mod m of w < m·R (2N limbs), one
	// conditional subtraction:
	//
	//   REDC(w) = (w_lo + Q·m)/R + w_hi,  w = w_lo + R·w_hi,
	//
	// where Q < R makes w_lo + Q·m ≡ 0 mod R and depends on w_lo only. The
	// rows are the multiplication's reduction with no a·b_i: T = w_lo, then
	// N times q = T_0·m0, T = (T + q·m)/2^32, on the same two accumulators
	// T = x + 2^32·y (redc_row, and the shift that the multiplication folds
	// into its next row, folded here into the next row's q·m chains).
	//
	// Bounds: T < R + m·(1 + 2^−32 + …) before each row, so T + q·m <
	// 2^(32(N+1)) and 2^32·y ≤ T + q·m keeps y in N limbs (no chain into y
	// carries out). At the end T ≤ m (T < R/R + m), w_hi < m (w < m·R), so
	// T + w_hi < 2m < R, and one conditional subtraction finishes.
	G16_HD static mont_t redc(const uint32_t (&w)[W]) {
		uint32_t x[N], y[N];
		redc_row0(x, y, w);
#pragma unroll
		for (int i = 1; i < N; i++) redc_next(x, y);
		return redc_last(x, y, w);
	}

	// The rows of redc: redc_row0 is row 0, T = w_lo reduced by one limb.
	G16_HD static void redc_row0(uint32_t (&x)[N], uint32_t (&y)[N], const uint32_t (&w)[W]) {
#pragma unroll
		for (int j = 0; j < N; j++) {
			x[j] = w[j];
			y[j] = 0;
		}
		redc_row(x, y);
	}

	// redc_next is row i ≥ 1.
	G16_HD static void redc_next(uint32_t (&x)[N], uint32_t (&y)[N]) {
		// T/2^32 = (y + x_1) + 2^32·(x >> 64), with limb 0 y_0 + x_1.
		uint32_t q = (y[0] + x[1]) * P::redc_m0();
		uint32_t nx[N], ny[N];
		nx[0] = add_cc(y[0], x[1]);
		// ny = (x >> 64) + the carry + m_odd·q.
#pragma unroll
		for (int j = 1; j < N; j += 2) {
			ny[j - 1] = madc_lo_cc(q, P::mod(j), j + 1 < N ? x[j + 1] : 0);
			ny[j] = madc_hi_cc(q, P::mod(j), j + 2 < N ? x[j + 2] : 0);
		}
		// nx = y (limb 0: y_0 + x_1) + m_even·q, limb 0 becoming 0,
		// the carry out going into ny's top limb.
		(void)mad_lo_cc(q, P::mod(0), nx[0]);
		nx[1] = madc_hi_cc(q, P::mod(0), y[1]);
#pragma unroll
		for (int j = 2; j < N; j += 2) {
			nx[j] = madc_lo_cc(q, P::mod(j), y[j]);
			nx[j + 1] = madc_hi_cc(q, P::mod(j), y[j + 1]);
		}
		ny[N - 1] = addc(ny[N - 1], 0);
#pragma unroll
		for (int j = 0; j < N; j++) {
			x[j] = nx[j];
			y[j] = ny[j];
		}
	}

	// redc_last ends it: T/2^32 = y + (x >> 32) ≤ m, then + w_hi.
	G16_HD static mont_t redc_last(const uint32_t (&x)[N], const uint32_t (&y)[N], const uint32_t (&w)[W]) {
		uint32_t t[N];
		shift_out(t, x, y);
		t[0] = add_cc(t[0], w[N]);
#pragma unroll
		for (int j = 1; j < N - 1; j++) t[j] = addc_cc(t[j], w[N + j]);
		t[N - 1] = addc(t[N - 1], w[W - 1]);
		return reduce_once(t, 0);
	}

	// r = a + b and r = a − b mod 2^(64N) (r may be a or b).
	G16_HD static void add_wide(uint32_t (&r)[W], const uint32_t (&a)[W], const uint32_t (&b)[W]) {
		r[0] = add_cc(a[0], b[0]);
#pragma unroll
		for (int k = 1; k < W - 1; k++) r[k] = addc_cc(a[k], b[k]);
		r[W - 1] = addc(a[W - 1], b[W - 1]);
	}
	G16_HD static void sub_wide(uint32_t (&r)[W], const uint32_t (&a)[W], const uint32_t (&b)[W]) {
		r[0] = sub_cc(a[0], b[0]);
#pragma unroll
		for (int k = 1; k < W - 1; k++) r[k] = subc_cc(a[k], b[k]);
		r[W - 1] = subc(a[W - 1], b[W - 1]);
	}

	// w = (w + P's bias) mod 2^(64N), in place (bias: see fp_params).
	G16_HD static void add_bias(uint32_t (&w)[W]) {
		w[P::BIAS_LO] = add_cc(w[P::BIAS_LO], P::bias(P::BIAS_LO));
#pragma unroll
		for (int k = P::BIAS_LO + 1; k < W - 1; k++) w[k] = addc_cc(w[k], P::bias(k));
		w[W - 1] = addc(w[W - 1], P::bias(W - 1));
	}

	// a·b − c·d mod m with one reduction instead of two: −d = m − d (or
	// 0), so a·b + c·(−d) ≡ a·b − c·d lies in [0, 2m²) ⊂ [0, m·R), what
	// redc takes, and mul_wide2 sums the two products in one pass.
	G16_HD static mont_t mul_sub(const mont_t& a, const mont_t& b, const mont_t& c, const mont_t& d) {
		uint32_t w[W];
		mont_t nd = d.neg();
		mul_wide2(w, a.v, b.v, c.v, nd.v);
		return redc(w);
	}

	// a + b with no reduction, for a, b < m: below 2m < R, so N limbs.
	G16_HD static mont_t add_unreduced(const mont_t& a, const mont_t& b) {
		mont_t r;
		r.v[0] = add_cc(a.v[0], b.v[0]);
#pragma unroll
		for (int i = 1; i < N - 1; i++) r.v[i] = addc_cc(a.v[i], b.v[i]);
		r.v[N - 1] = addc(a.v[N - 1], b.v[N - 1]);
		return r;
	}

	// a² mod m in Montgomery form: sqr_wide then redc, about 3/4 of the
	// limb products of a·a.
	G16_HD mont_t sqr() const {
		uint32_t w[W];
		sqr_wide(w, v);
		return redc(w);
	}

	// The Montgomery one, R mod m.
	G16_HD static mont_t one() {
		mont_t r;
#pragma unroll
		for (int i = 0; i < N; i++) r.v[i] = P::one(i);
		return r;
	}

	// a⁻¹ = a^(m−2) (Fermat), 0 for a = 0: square and multiply over the bits
	// of m − 2 from the top, about 1.5·32N products. Limb t of m − 2 is
	// selected from m's limbs with 2 taken from the low limb and the borrow
	// carried up (BLS12-377's p has the low limb 1), so that no register
	// array is indexed at run time; the loops stay rolled, one product's code. The
	// one inversion of the kernels (fp2::inv over it): the tables' affine
	// conversion (msm_table.cu) and the checks, not inner loops.
	G16_HD mont_t inv() const {
		mont_t r = one();
#pragma unroll 1
		for (int t = N - 1; t >= 0; t--) {
			uint32_t e = 0, borrow = 2;
#pragma unroll
			for (int k = 0; k < N; k++) {
				uint32_t m = P::mod(k);
				e = (k == t) ? m - borrow : e;
				borrow = m < borrow;
			}
#pragma unroll 1
			for (int b = 31; b >= 0; b--) {
				r = r.sqr();
				if ((e >> b) & 1) r = r * *this;
			}
		}
		return r;
	}

	// a·R⁻¹: from Montgomery form to the plain integer (multiply by 1).
	G16_HD mont_t from_mont() const {
		mont_t one_plain = zero();
		one_plain.v[0] = 1;
		return *this * one_plain;
	}
};

} // namespace g16
