package bls12381

// Sums of many affine points, two at a time, with one field inversion for
// a whole batch of additions (Montgomery's trick). For P₁ ≠ ±P₂:
//
//	λ  = (y₂ − y₁) / (x₂ − x₁)
//	x₃ = λ² − x₁ − x₂
//	y₃ = λ·(x₁ − x₃) − y₁
//
// The inverses of a batch d₁…d_k cost one inversion and 3 multiplications
// an element: aⱼ = d₁⋯dⱼ, then a_k⁻¹ walked back. An addition is then
// 5M + 1S, against 7M + 4S for a mixed Jacobian one. Pairs with x₁ = x₂
// (P + P, P − P) and the point at infinity are left to the caller's
// Jacobian arithmetic, which handles them.
//
// The code is written out for each group (sumsigned_g1.go over fp.Element,
// sumsigned_g2.go over g2Element, G2's coordinate field, the same lines):
// field methods called through a type parameter are indirect calls, which
// make every temporary escape to the heap.

// addBatch is the number of additions that share one inversion.
const addBatch = 256

// sumLeft is the number of points below which a level's sum is left to
// the caller.
const sumLeft = 8
