package synth

import (
	"fmt"
	"math"
)

// The PoRep-shaped circuit (Porep, porep.go) in numbers: what Filecoin's
// PoRep C2 circuit looks like to a Groth16 prover (issue 26), with no
// claim to compute what PoRep computes.
const (
	// PorepPublic is the circuit's public wires, the constant one among
	// them (PoRep's 328 public inputs).
	PorepPublic = 328
	// PorepADensity and PorepBDensity are the shares of the wires that
	// the A and B queries hold (PoRep: 99.7% and about 25%).
	PorepADensity = 0.997
	PorepBDensity = 0.25
	// PorepTailMin, PorepTailMax and PorepTailDefault bound the share of
	// the wires whose values are full field elements.
	PorepTailMin     = 0.05
	PorepTailMax     = 0.5
	PorepTailDefault = 0.10

	porepState     = 64   // state bits of a lane
	porepMaj       = 16   // of them, the majorities (two constraints each)
	porepLaneSize  = 8192 // constraints a lane, about
	porepMinTarget = 1 << 12
	porepMinLanes  = 4
)

// PorepShape is how a PoRep-shaped circuit of a target size is laid out.
// Each lane is a hash-like function of its own inputs: a state of 64 bits
// (secret inputs) mixed in rounds by SHA-256's bit logic, and Chains[l]
// chains of full field elements, each advanced once a round by a product
// with the lane's secret element F. Lanes share nothing but the public
// inputs, so a round of every lane is one level of independent
// instructions; a lane's rounds are two levels each.
//
// The wires a round writes, each by one constraint: the 64 new state bits
// (positions j mod 4 = 0 and 3: x ⊕ y; 1: Ch(y, x, z); 2: Maj(x, y, y′)
// through the temporary x∧y), the 16 temporaries, and each chain's next
// element (tᵣ₋₁ + bit)·F. The B operand of every bit gadget is one of
// the Pool first state positions, so that B holds a quarter of the wires;
// each of Digests[l] rounds also writes a bit that no constraint reads
// again (A holds 99.7% of the wires).
type PorepShape struct {
	Target int     // the constraint budget (the circuit has at most this many)
	Tail   float64 // the asked share of wires that are full field elements
	Lanes  int
	Rounds int // rounds of each lane; the first Extra lanes run one more
	Extra  int
	Pool   int   // state positions that are B operands
	Chains []int // field-element chains of each lane
	Digest []int // digest bits of each lane
}

// PorepPlan lays out a PoRep-shaped circuit of at most target constraints
// whose wires hold tail full field elements in that share.
func PorepPlan(target int, tail float64) (PorepShape, error) {
	if !(tail >= PorepTailMin && tail <= PorepTailMax) {
		return PorepShape{}, fmt.Errorf("porep: tail share %v outside [%v, %v]", tail, PorepTailMin, PorepTailMax)
	}
	if target < porepMinTarget {
		return PorepShape{}, fmt.Errorf("porep: constraint count %d too small (need at least %d)", target, porepMinTarget)
	}
	s := PorepShape{Target: target, Tail: tail, Lanes: max(porepMinLanes, target/porepLaneSize)}
	s.Chains = make([]int, s.Lanes)
	s.Digest = make([]int, s.Lanes)
	// The chains a lane on average, c: the tail share grows with c (the
	// public inputs, F and the outputs are full field elements too);
	// bisect c for the share asked, then take the largest c whose share
	// is at most the asked one's or the next above it, whichever is
	// nearer.
	lo, hi := 0.0, float64(porepState+porepMaj)*PorepTailMax/(1-PorepTailMax)*2
	for range 40 {
		mid := (lo + hi) / 2
		if err := s.fit(mid); err != nil {
			return PorepShape{}, err
		}
		if _, _, _, _, got := s.Expected(); got < tail {
			lo = mid
		} else {
			hi = mid
		}
	}
	if err := s.fit(lo); err != nil {
		return PorepShape{}, err
	}
	_, _, _, _, below := s.Expected()
	if err := s.fit(hi); err != nil {
		return PorepShape{}, err
	}
	if _, _, _, _, above := s.Expected(); tail-below < above-tail {
		if err := s.fit(lo); err != nil {
			return PorepShape{}, err
		}
	}
	// Pool: the B query's wires are the state bits (64 a lane) and F, the
	// constant one, and Pool bits of every round but the last.
	wires := s.Wires()
	pooled := 0
	for l := range s.Lanes {
		pooled += s.rounds(l) - 1
	}
	want := PorepBDensity*float64(wires) - float64(s.Lanes*(porepState+1)+1)
	s.Pool = min(porepState, max(4, int(math.Round(want/float64(pooled)))))
	return s, nil
}

// fit lays out lanes of perLane chains on average (at least one a lane:
// a chain reads F, and the public inputs start the chains) in rounds that fill the target:
// the most rounds that fit, then one more for as many lanes as fit.
func (s *PorepShape) fit(perLane float64) error {
	for l := range s.Chains {
		s.Chains[l] = max(1, int(math.Floor(float64(l+1)*perLane))-int(math.Floor(float64(l)*perLane)))
	}
	s.Rounds, s.Extra = 2, 0
	if s.constraints() > s.Target {
		return fmt.Errorf("porep: constraint count %d too small for %d lanes of two rounds", s.Target, s.Lanes)
	}
	// An estimate from two rounds' cost, then a round at a time.
	n2 := s.constraints()
	s.Rounds = 3
	per := s.constraints() - n2
	s.Rounds = max(2, 2+(s.Target-n2)/max(1, per))
	for s.Rounds > 2 && s.constraints() > s.Target {
		s.Rounds--
	}
	for {
		s.Rounds++
		if s.constraints() > s.Target {
			s.Rounds--
			break
		}
	}
	// One more round for the first lanes, as many as fit.
	n := s.constraints()
	for s.Extra < s.Lanes {
		l := s.Extra
		before := s.laneConstraints(l)
		s.Extra++
		d := s.Digest[l]
		s.Digest[l] = max(0, int(math.Round((1-PorepADensity)*float64(s.laneWiresBare(l))))-2)
		if n+s.laneConstraints(l)-before > s.Target {
			s.Extra--
			s.Digest[l] = d
			break
		}
		n += s.laneConstraints(l) - before
	}
	return nil
}

// constraints is how many constraints s lays out; it also sets Digest,
// which follows from the lanes' wires.
func (s *PorepShape) constraints() int {
	n := 0
	for l := range s.Lanes {
		// Every wire of a lane is in A but F, the lane's output and the
		// digest bits.
		s.Digest[l] = max(0, int(math.Round((1-PorepADensity)*float64(s.laneWiresBare(l))))-2)
		n += s.laneConstraints(l)
	}
	return n
}

// laneWiresBare is lane l's wires without its digest bits.
func (s *PorepShape) laneWiresBare(l int) int {
	return 1 + porepState + s.Chains[l] + s.rounds(l)*(porepState+porepMaj+s.Chains[l]) + 1
}

// laneConstraints is lane l's constraints: the boolean checks of its
// state bits, its chains' starts, its rounds, its digests and the check
// of its output.
func (s *PorepShape) laneConstraints(l int) int {
	return porepState + s.Chains[l] + s.rounds(l)*(porepState+porepMaj+s.Chains[l]) + s.Digest[l] + 1
}

// rounds is lane l's rounds.
func (s *PorepShape) rounds(l int) int {
	if l < s.Extra {
		return s.Rounds + 1
	}
	return s.Rounds
}

// laneWires is the wires lane l owns: its inputs (F and the state), its
// chains' starts, each round's bits and chain elements, its digest bits
// and its output.
func (s *PorepShape) laneWires(l int) int {
	return s.laneWiresBare(l) + s.Digest[l]
}

// Constraints is how many constraints the circuit has.
func (s PorepShape) Constraints() int {
	n := 0
	for l := range s.Lanes {
		n += s.laneConstraints(l)
	}
	return n
}

// Wires is how many wires the circuit has, the public ones included.
func (s PorepShape) Wires() int {
	n := PorepPublic
	for l := range s.Lanes {
		n += s.laneWires(l)
	}
	return n
}

// Secret is how many secret inputs the circuit has: F and the state bits
// of each lane.
func (s PorepShape) Secret() int { return s.Lanes * (1 + porepState) }

// Levels is how many levels of independent instructions the solver
// runs: two a round, then the outputs.
func (s PorepShape) Levels() int {
	r := s.Rounds
	if s.Extra > 0 {
		r++
	}
	return 2*r + 1
}

// Expected is the share of the wires the shape gives A and B points
// (wires whose query column is not empty) and values 0, 1 and neither,
// over the witness's random bits: the state bits and majorities are 1
// with probability 1/2, the temporaries and digests (x∧y) 1/4, the
// public inputs, F, the chain elements and the outputs are full field
// elements.
func (s PorepShape) Expected() (a, b, zero, one, tail float64) {
	w := float64(s.Wires())
	var inA, inB, half, quarter, field int
	field = PorepPublic - 1 // the constant one aside
	inA = PorepPublic - 1
	inB = 1 // the constant one
	for l := range s.Lanes {
		r := s.rounds(l)
		c := s.Chains[l]
		inA += s.laneWires(l) - 2 - s.Digest[l]
		inB += 1 + porepState + (r-1)*s.Pool
		half += porepState + r*porepState
		quarter += r*porepMaj + s.Digest[l]
		field += 1 + c + r*c + 1
	}
	a, b = float64(inA)/w, float64(inB)/w
	one = (float64(half)/2 + float64(quarter)/4 + 1) / w
	zero = (float64(half)/2 + 3*float64(quarter)/4) / w
	tail = float64(field) / w
	return
}
