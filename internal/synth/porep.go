package synth

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	cs "github.com/consensys/gnark/constraint/bls12-381"
)

// Porep is the --circuit name of the PoRep-shaped circuit.
const Porep = "porep"

// CompilePorep builds the PoRep-shaped circuit of at most target
// constraints whose wires hold full field elements in the share tail
// (PorepPlan), written straight into a gnark R1CS as its builder would
// lay it out (one generic R1C an instruction, each writing at most one
// wire), with no frontend: at 2^27 it has a million secret inputs.
func CompilePorep(target int, tail float64) (constraint.ConstraintSystem, PorepShape, error) {
	s, err := PorepPlan(target, tail)
	if err != nil {
		return nil, PorepShape{}, err
	}
	sys, err := buildPorep(s)
	if err != nil {
		return nil, PorepShape{}, err
	}
	return sys, s, nil
}

// porepBuilder writes the circuit's instructions in the order of their
// levels: every instruction of level k before any of level k+1, so that
// each level is one run of instruction indices.
type porepBuilder struct {
	sys      *cs.R1CS
	s        PorepShape
	bp       constraint.BlueprintID
	wire     uint32   // the next internal wire
	cd       []uint32 // one instruction's calldata
	levelsAt []int    // first instruction of each level
}

// r1c appends the constraint L·R = O, each side a list of (coefficient
// ID, wire) pairs. The wire it writes, if any, is the last one newWire
// gave.
func (b *porepBuilder) r1c(l, r, o []uint32) {
	b.cd = append(b.cd[:0], uint32(4+len(l)+len(r)+len(o)), uint32(len(l)/2), uint32(len(r)/2), uint32(len(o)/2))
	b.cd = append(b.cd, l...)
	b.cd = append(b.cd, r...)
	b.cd = append(b.cd, o...)
	appendInstruction(b.sys, b.bp, 1, b.wire, b.cd...)
}

// newWire is the next internal wire.
func (b *porepBuilder) newWire() uint32 {
	w := b.wire
	b.wire++
	return w
}

func buildPorep(s PorepShape) (*cs.R1CS, error) {
	const (
		one   = uint32(constraint.CoeffIdOne)
		two   = uint32(constraint.CoeffIdTwo)
		mone  = uint32(constraint.CoeffIdMinusOne)
		mtwo  = uint32(constraint.CoeffIdMinusTwo)
		state = porepState
		half  = porepState / 2
	)
	sys := cs.NewR1CS(0)
	sys.AddPublicVariable("1")
	for i := 1; i < PorepPublic; i++ {
		sys.AddPublicVariable(fmt.Sprintf("P_%d", i))
	}
	for l := range s.Lanes {
		sys.AddSecretVariable(fmt.Sprintf("F_%d", l))
		for j := range state {
			sys.AddSecretVariable(fmt.Sprintf("S_%d_%d", l, j))
		}
	}
	nbInputs := PorepPublic + s.Secret()
	b := &porepBuilder{sys: sys, s: s, bp: genericR1C(sys), wire: uint32(nbInputs)}
	nInst := s.Constraints()
	sys.Instructions = make([]constraint.PackedInstruction, 0, nInst)
	// At most 16 words an instruction (a majority's second half, an XOR
	// with its round constant), but the outputs' checks: 6 and two a term.
	outs := 0
	for l := range s.Lanes {
		outs += 6 + 2*(state+s.Chains[l]+1)
	}
	sys.CallData = make([]uint32, 0, 16*nInst+outs)

	// Per lane: F, the state before and after the round, the majorities'
	// temporaries, the chains' last elements.
	f := func(l int) uint32 { return uint32(PorepPublic + l*(1+state)) }
	cur := make([]uint32, s.Lanes*state)
	next := make([]uint32, s.Lanes*state)
	tmp := make([]uint32, s.Lanes*porepMaj)
	chainAt := make([]int, s.Lanes+1)
	for l := range s.Lanes {
		for j := range state {
			cur[l*state+j] = f(l) + 1 + uint32(j)
		}
		chainAt[l+1] = chainAt[l] + s.Chains[l]
	}
	chains := make([]uint32, chainAt[s.Lanes])
	nbChains := len(chains)

	maxRounds := s.Rounds
	if s.Extra > 0 {
		maxRounds++
	}
	// Bit j of round r reads x at position xi, the state rotated by
	// rot[r] (a permutation: every bit is read once as x), and the pool
	// positions y0 = (j + r) mod Pool (every pool bit is read as a B
	// operand) and y1, as its B operands. rot[r] is the first rotation
	// from 5r on that makes y0 ≠ xi for every j.
	rot := make([]int, maxRounds+1)
	for r := range rot {
		rot[r] = 5 * r
		for try := 0; try < state; try++ {
			clash := false
			for j := range state {
				clash = clash || (j+rot[r])%state == (j+r)%s.Pool
			}
			if !clash {
				break
			}
			rot[r]++
		}
	}
	xAt := func(j, r int) int { return (j + rot[r]) % state }
	pool := func(j, r int) (int, int) {
		xi := xAt(j, r)
		y0 := (j + r) % s.Pool
		if y0 == xi {
			y0 = (y0 + 1) % s.Pool
		}
		y1 := (y0 + 1) % s.Pool
		if y1 == xi {
			y1 = (y1 + 1) % s.Pool
		}
		return y0, y1
	}
	digestAt := func(l, r int) bool {
		rl := s.rounds(l)
		return r*s.Digest[l]/rl > (r-1)*s.Digest[l]/rl
	}

	var lo, ro, oo []uint32
	for level := 0; level <= 2*maxRounds; level++ {
		b.levelsAt = append(b.levelsAt, len(sys.Instructions))
		r := level/2 + 1 // the round whose first (even) or second (odd) half this is
		for l := range s.Lanes {
			rl := s.rounds(l)
			st, nx := cur[l*state:(l+1)*state], next[l*state:(l+1)*state]
			ch := chains[chainAt[l]:chainAt[l+1]]
			if level == 0 {
				// The state bits are bits: b·b = b. Each chain starts at
				// (Σ its public inputs)·F.
				for _, w := range st {
					b.r1c([]uint32{one, w}, []uint32{one, w}, []uint32{one, w})
				}
				for c := range ch {
					g := chainAt[l] + c
					lo = lo[:0]
					if nbChains >= PorepPublic-1 {
						lo = append(lo, one, uint32(1+g%(PorepPublic-1)))
					} else {
						for p := g; p < PorepPublic-1; p += nbChains {
							lo = append(lo, one, uint32(1+p))
						}
					}
					ch[c] = b.newWire()
					b.r1c(lo, []uint32{one, f(l)}, []uint32{one, ch[c]})
				}
			}
			switch {
			case level%2 == 0 && r <= rl:
				// The bits: x ⊕ y ⊕ k, k a round constant, as
				// (2x)·y = x + y − c (k = 0); Ch(y, x, z) as
				// (x − z)·y = c − z; Maj's temporary x∧y0 as x·y0 = t.
				for j := range state {
					xi := xAt(j, r)
					x := st[xi]
					i0, _ := pool(j, r)
					y := st[i0]
					switch j % 4 {
					case 0, 3:
						nx[j] = b.newWire()
						if roundConstant(r, j) {
							// 1 − x ⊕ y as (2x)·y = x + y + c − 1
							b.r1c([]uint32{two, x}, []uint32{one, y}, []uint32{one, x, one, y, one, nx[j], mone, 0})
						} else {
							b.r1c([]uint32{two, x}, []uint32{one, y}, []uint32{one, x, one, y, mone, nx[j]})
						}
					case 1:
						z := st[(xi+half)%state]
						nx[j] = b.newWire()
						b.r1c([]uint32{one, x, mone, z}, []uint32{one, y}, []uint32{one, nx[j], mone, z})
					case 2:
						t := b.newWire()
						tmp[l*porepMaj+j/4] = t
						b.r1c([]uint32{one, x}, []uint32{one, y}, []uint32{one, t})
					}
				}
				if digestAt(l, r) {
					// A bit no constraint reads again: x·y = d.
					yi := r % s.Pool
					xi := (5*r + 1) % state
					if xi == yi {
						xi = (xi + 1) % state
					}
					d := b.newWire()
					b.r1c([]uint32{one, st[xi]}, []uint32{one, st[yi]}, []uint32{one, d})
				}
			case level%2 == 0 && r == rl+1:
				// The lane's output: (Σ state bits + Σ chains)·1 = out.
				lo = lo[:0]
				for _, w := range st {
					lo = append(lo, one, w)
				}
				for _, w := range ch {
					lo = append(lo, one, w)
				}
				out := b.newWire()
				b.r1c(lo, []uint32{one, 0}, []uint32{one, out})
			case level%2 == 1 && r <= rl:
				// Maj(x, y0, y1) = t + y1·(x + y0 − 2t); each chain's next
				// element (t + bit)·F.
				for j := 2; j < state; j += 4 {
					i0, i1 := pool(j, r)
					t := tmp[l*porepMaj+j/4]
					nx[j] = b.newWire()
					lo = append(lo[:0], one, st[xAt(j, r)], one, st[i0], mtwo, t)
					ro = append(ro[:0], one, st[i1])
					oo = append(oo[:0], one, nx[j], mone, t)
					b.r1c(lo, ro, oo)
				}
				for c := range ch {
					prev := ch[c]
					ch[c] = b.newWire()
					b.r1c([]uint32{one, prev, one, st[c%state]}, []uint32{one, f(l)}, []uint32{one, ch[c]})
				}
				copy(st, nx)
			}
		}
	}
	b.levelsAt = append(b.levelsAt, len(sys.Instructions))
	ids := make([]uint32, len(sys.Instructions))
	for i := range ids {
		ids[i] = uint32(i)
	}
	sys.Levels = make([][]uint32, 0, len(b.levelsAt)-1)
	for k := 0; k+1 < len(b.levelsAt); k++ {
		sys.Levels = append(sys.Levels, ids[b.levelsAt[k]:b.levelsAt[k+1]:b.levelsAt[k+1]])
	}
	sys.NbInternalVariables = int(b.wire) - nbInputs
	if got, want := sys.GetNbConstraints(), s.Constraints(); got != want {
		return nil, fmt.Errorf("porep: internal error: %d constraints written, the plan has %d", got, want)
	}
	if got, want := int(b.wire), s.Wires(); got != want {
		return nil, fmt.Errorf("porep: internal error: %d wires written, the plan has %d", got, want)
	}
	if len(sys.Levels) != s.Levels() {
		return nil, fmt.Errorf("porep: internal error: %d levels written, the plan has %d", len(sys.Levels), s.Levels())
	}
	return sys, nil
}

// roundConstant is bit j of round r's constant, which the XOR gadgets
// add as SHA-256 adds its Kₜ: without it, a lane's state keeps a bias
// toward 0 or 1 over many rounds.
func roundConstant(r, j int) bool {
	h := uint64(r)*0x9e3779b97f4a7c15 ^ uint64(j)*0xbf58476d1ce4e5b9
	h ^= h >> 31
	h *= 0x94d049bb133111eb
	h ^= h >> 29
	return h&1 == 1
}

// PorepWitness is a full witness of the circuit s describes: the public
// inputs and each lane's F random field elements (neither 0 nor 1), its
// state random bits, all drawn from seed.
func PorepWitness(s PorepShape, seed uint64) (witness.Witness, error) {
	var rs [32]byte
	binary.LittleEndian.PutUint64(rs[:], seed)
	copy(rs[8:], "g16 porep witness")
	rng := rand.NewChaCha8(rs)
	w, err := witness.New(ecc.BLS12_381.ScalarField())
	if err != nil {
		return nil, err
	}
	field := func() fr.Element {
		var b [fr.Bytes]byte
		var e fr.Element
		for e.IsZero() || e.IsOne() {
			_, _ = rng.Read(b[:]) // ChaCha8's Read never fails
			e.SetBytes(b[:])
		}
		return e
	}
	values := make(chan any, 1<<10)
	go func() {
		defer close(values)
		for range PorepPublic - 1 {
			values <- field()
		}
		for range s.Lanes {
			values <- field()
			bits := rng.Uint64()
			for j := range porepState {
				values <- (bits >> j) & 1
			}
		}
	}()
	if err := w.Fill(PorepPublic-1, s.Secret(), values); err != nil {
		for range values { // let the writer finish
		}
		return nil, fmt.Errorf("porep: witness: %w", err)
	}
	return w, nil
}
