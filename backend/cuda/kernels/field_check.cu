// g16_mont_op: the field template mont_t (field.cuh), and fp2 over it
// (fp2.cuh), instantiated for each curve's parameter header
// (bls12_381.cuh, bn254.cuh, bls12_377.cuh, bw6_761.cuh), one operation over arrays of elements, on the
// host (the emulated carry flag) or the device: what the tests check
// against gnark-crypto, field by field.
#include "bls12_377.cuh"
#include "bls12_381.cuh"
#include "bn254.cuh"
#include "bw6_761.cuh"
#include "exec.cuh"

#include <string>

#include <cstring>

namespace g16 {

// mont_op_k: out[i] = op(a[i], b[i]) over one field F: a prime field, or
// (DEGREE 2) an fp2 with its lazy products and no inversion.
template <class F>
struct mont_op_k {
	int op;
	F* out;
	const F* a;
	const F* b;
	G16_HD void operator()(size_t i) const {
		switch (op) {
		case G16_MONT_MUL: out[i] = a[i] * b[i]; return;
		case G16_MONT_ADD: out[i] = a[i] + b[i]; return;
		case G16_MONT_SUB: out[i] = a[i] - b[i]; return;
		case G16_MONT_NEG: out[i] = a[i].neg(); return;
		case G16_MONT_SQR: out[i] = a[i].sqr(); return;
		}
		if constexpr (F::DEGREE == 1) {
			if (op == G16_MONT_INV) out[i] = a[i].inv();
			if (op == G16_MONT_FROM) out[i] = a[i].from_mont();
		} else {
			uint32_t z = 0;
			if (op == G16_MONT_MUL_LAZY) out[i] = F::mul_lazy(a[i], b[i], z);
			if (op == G16_MONT_MUL_SUB_LAZY) out[i] = F::mul_sub_lazy(a[i], b[i], b[i], b[i], z);
		}
	}
};

// aligned_copy is a 64-byte aligned host copy of Go memory (which may be
// only 8-byte aligned), for the host mode.
struct aligned_copy {
	void* p;
	aligned_copy(const void* src, size_t bytes) {
		p = std::aligned_alloc(64, (bytes + 63) / 64 * 64 + 64);
		if (!p) throw std::bad_alloc();
		if (src) std::memcpy(p, src, bytes);
	}
	~aligned_copy() { std::free(p); }
};

template <class F>
void mont_op(g16_device* dev, int op, void* out, const void* a, const void* b, size_t n) {
	exec_t ex;
	if (!dev) {
		size_t bytes = n * sizeof(F);
		aligned_copy ha(a, bytes), hb(b, bytes), ho(nullptr, bytes);
		ex.launch(n, mont_op_k<F>{op, (F*)ho.p, (const F*)ha.p, (const F*)hb.p});
		std::memcpy(out, ho.p, bytes);
		return;
	}
	dev->use();
	ex.dev = dev;
	ex.st = dev->internal;
	ex.launch(n, mont_op_k<F>{op, (F*)out, (const F*)a, (const F*)b});
	G16_CK(dev->ord, cudaStreamSynchronize(ex.st));
}

} // namespace g16

using namespace g16;

extern "C" g16_status g16_mont_op(g16_device* dev, int field, int op, void* out, const void* a, const void* b,
                                  int64_t n) {
	return guard([&] {
		bool ext = field == G16_FIELD_BLS12_381_FP2 || field == G16_FIELD_BN254_FP2 || field == G16_FIELD_BLS12_377_FP2;
		if (op < G16_MONT_MUL || op > G16_MONT_MUL_SUB_LAZY) fail(G16_INVALID, "mont_op: unknown op");
		if (ext ? (op == G16_MONT_INV || op == G16_MONT_FROM) : op > G16_MONT_FROM)
			fail(G16_INVALID, "mont_op: op " + std::to_string(op) + " is not defined on field " + std::to_string(field));
		if (n < 0) fail(G16_INVALID, "mont_op: negative n");
		if (n == 0) return;
		if (!b) b = a;
		switch (field) {
		case G16_FIELD_BLS12_381_FP: mont_op<bls12_381::fp_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BLS12_381_FR: mont_op<bls12_381::fr_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BLS12_381_FP2: mont_op<bls12_381::fp2_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BN254_FP: mont_op<bn254::fp_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BN254_FR: mont_op<bn254::fr_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BN254_FP2: mont_op<bn254::fp2_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BLS12_377_FP: mont_op<bls12_377::fp_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BLS12_377_FR: mont_op<bls12_377::fr_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BLS12_377_FP2: mont_op<bls12_377::fp2_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BW6_761_FP: mont_op<bw6_761::fp_t>(dev, op, out, a, b, (size_t)n); break;
		case G16_FIELD_BW6_761_FR: mont_op<bw6_761::fr_t>(dev, op, out, a, b, (size_t)n); break;
		default: fail(G16_INVALID, "mont_op: unknown field");
		}
	});
}
