package bls12381

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
	curve "github.com/consensys/gnark-crypto/ecc/bls12-381"
)

// BenchmarkMultiExpWitness compares gnark-crypto's MultiExp with the split
// MSM over G1 on the scalars of sha256's wires (72% zero, 2.5% one, 11.5%
// below 2³², 14% random), with one task and with every core.
func BenchmarkMultiExpWitness(b *testing.B) {
	const n = 1 << 18
	rng := rand.New(rand.NewPCG(1, 2))
	c := splitCase{n: n, zero: 29, one: 1, small: 4, random: 6}
	scalars, from, neg, inf := c.draw(rng)
	points := g1Bases(rng, from, neg, inf)
	tasks := runtime.NumCPU()
	b.Run(fmt.Sprintf("msm=gnark/n=2^18/tasks=%d", tasks), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r curve.G1Jac
			if _, err := r.MultiExp(points, scalars, ecc.MultiExpConfig{NbTasks: tasks}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run(fmt.Sprintf("msm=split/n=2^18/tasks=%d", tasks), func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			var r curve.G1Jac
			if err := multiExpG1(&r, points, scalars, tasks); err != nil {
				b.Fatal(err)
			}
		}
	})
}
