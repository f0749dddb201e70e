package bls12381

import (
	"fmt"
	"math/rand/v2"
	"runtime"
	"testing"
)

// randomGraph is a leveled graph of one-output instructions: op i solves
// wire nbInputs+i and reads up to 4 wires of earlier levels (or inputs);
// about one op in 50 reads what is not known (a barrier).
func randomGraph(rng *rand.Rand, nbInputs, nbLevels int) (*graph, [][]uint32, []bool) {
	var levels []int
	var reads [][]uint32
	var barrier []bool
	var cost []int64
	cost = append(cost, 0)
	solvedBefore := nbInputs // wires solved by the levels before this one
	for l := 0; l < nbLevels; l++ {
		levels = append(levels, len(reads))
		n := 1 + rng.IntN(40)
		for k := 0; k < n; k++ {
			var rs []uint32
			for m := rng.IntN(5); m > 0; m-- {
				rs = append(rs, uint32(rng.IntN(solvedBefore)))
			}
			reads = append(reads, rs)
			barrier = append(barrier, rng.IntN(50) == 0)
			cost = append(cost, cost[len(cost)-1]+1+int64(rng.IntN(20)))
		}
		solvedBefore = nbInputs + len(reads)
	}
	levels = append(levels, len(reads))
	g := &graph{
		nbWires: nbInputs + len(reads),
		levels:  levels,
		cost:    cost,
		outputs: func(i int) (uint32, uint32) { return uint32(nbInputs + i), uint32(nbInputs + i + 1) },
		reads: func(i int, visit func(uint32)) bool {
			if barrier[i] {
				return false
			}
			for _, w := range reads[i] {
				visit(w)
			}
			visit(uint32(nbInputs + i)) // an R1C's own unknown wire
			return true
		},
	}
	return g, reads, barrier
}

// TestScheduleCoversDependencies builds schedules of random graphs on 1 to
// 9 workers and checks, without running anything, that every op is placed
// once, that a chunk holds ops of one level in rank order, and that every
// wire an op reads is solved before it on any interleaving the waits allow:
// by an earlier chunk of its own worker, or by a chunk of another worker
// that this chunk or an earlier one of its worker waited for. A barrier op
// must have waited for every chunk of every earlier level.
func TestScheduleCoversDependencies(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	for trial := 0; trial < 40; trial++ {
		nt := 1 + rng.IntN(9)
		minCost := int64(1 + rng.IntN(60))
		nbInputs := 1 + rng.IntN(20)
		g, reads, barrier := randomGraph(rng, nbInputs, 1+rng.IntN(60))
		sc := buildSchedule(g, nt, minCost)
		if err := verifySchedule(g, sc, reads, barrier, nbInputs); err != nil {
			t.Fatalf("trial %d, %d workers: %v", trial, nt, err)
		}
		// dropping any one wait breaks it: each is there for a read.
		if len(sc.waits) > 0 {
			drop := rng.IntN(len(sc.waits))
			broken := *sc
			broken.waits = append([]wait(nil), sc.waits...)
			broken.waits[drop].done = 0
			if verifySchedule(g, &broken, reads, barrier, nbInputs) == nil {
				t.Fatalf("trial %d: the schedule without wait %d still passes", trial, drop)
			}
		}
	}
}

// verifySchedule checks sc against the reads of g's ops (see
// TestScheduleCoversDependencies).
func verifySchedule(g *graph, sc *schedule, reads [][]uint32, barrier []bool, nbInputs int) error {
	nt := sc.nt
	nbOps := len(g.cost) - 1
	levelOf := make([]int, nbOps)
	for l := 0; l+1 < len(g.levels); l++ {
		for i := g.levels[l]; i < g.levels[l+1]; i++ {
			levelOf[i] = l
		}
	}
	// where each op ran: worker and chunk (counted in its worker's)
	where := make([][2]int, nbOps)
	seen := make([]bool, nbOps)
	for w := 0; w < nt; w++ {
		for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
			ch := sc.chunks[c]
			if ch.lo >= ch.hi {
				return fmt.Errorf("worker %d: empty chunk", w)
			}
			for k := ch.lo; k < ch.hi; k++ {
				i := sc.order[k]
				if seen[i] {
					return fmt.Errorf("op %d placed twice", i)
				}
				seen[i] = true
				if levelOf[i] != int(ch.level) {
					return fmt.Errorf("op %d of level %d in a chunk of level %d", i, levelOf[i], ch.level)
				}
				if k > ch.lo && sc.order[k-1] >= i {
					return fmt.Errorf("chunk not in rank order")
				}
				where[i] = [2]int{w, c - sc.wStart[w]}
			}
			if c > sc.wStart[w] && sc.chunks[c-1].level >= ch.level {
				return fmt.Errorf("worker %d's chunks not in level order", w)
			}
		}
	}
	for i, ok := range seen {
		if !ok {
			return fmt.Errorf("op %d not placed", i)
		}
	}
	// chunksBefore[w][l]: how many of w's chunks are of levels below l
	chunksBefore := func(w, l int) int {
		n := 0
		for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
			if int(sc.chunks[c].level) < l {
				n++
			}
		}
		return n
	}
	for w := 0; w < nt; w++ {
		waited := make([]uint32, nt)
		for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
			ch := sc.chunks[c]
			for _, wt := range sc.waits[ch.waitLo:ch.waitHi] {
				if int(wt.worker) == w {
					return fmt.Errorf("worker %d waits for itself", w)
				}
				waited[wt.worker] = max(waited[wt.worker], wt.done)
			}
			for k := ch.lo; k < ch.hi; k++ {
				i := int(sc.order[k])
				if barrier[i] {
					for q := 0; q < nt; q++ {
						if q != w && int(waited[q]) < chunksBefore(q, levelOf[i]) {
							return fmt.Errorf("barrier op %d on worker %d has not waited for worker %d's earlier levels", i, w, q)
						}
					}
					continue
				}
				for _, wire := range reads[i] {
					if int(wire) < nbInputs {
						continue
					}
					p := int(wire) - nbInputs
					pw, pc := where[p][0], where[p][1]
					if pw == w {
						if pc >= c-sc.wStart[w] {
							return fmt.Errorf("op %d reads op %d of a later chunk of its worker", i, p)
						}
					} else if int(waited[pw]) < pc+1 {
						return fmt.Errorf("op %d on worker %d reads op %d of worker %d's chunk %d without waiting for it", i, w, p, pw, pc)
					}
				}
			}
		}
	}
	return nil
}

// TestTasksFor: the cores are shared among the solves in flight.
// TestScheduleKeepsLanesTogether schedules a graph of independent lanes
// (op (d, j) of level d reads lane j's wire of level d−1 and writes wire
// nbLanes·d + j, as the hash lanes of a PoRep-shaped circuit do, with
// random costs) and checks that each worker's chunk of a level is one run
// of adjacent ops, so that workers write no cache line of W, A, B or C in
// common, that no op reads a wire another worker solved, and that a level
// is shared evenly. Placing the lanes of the first level, which read only
// inputs, one worker after another instead of in turn is what this needs.
func TestScheduleKeepsLanesTogether(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 7))
	const nbLanes, depth = 1000, 12
	laneCost := make([]int64, nbLanes) // a lane's ops cost alike in every level
	for j := range laneCost {
		laneCost[j] = 4 + int64(rng.IntN(8))
	}
	var levels []int
	cost := []int64{0}
	for d := 0; d < depth; d++ {
		levels = append(levels, d*nbLanes)
		for j := 0; j < nbLanes; j++ {
			cost = append(cost, cost[len(cost)-1]+laneCost[j])
		}
	}
	levels = append(levels, depth*nbLanes)
	g := &graph{
		nbWires: nbLanes * (depth + 1), // the inputs are wires nbLanes·depth…
		levels:  levels,
		cost:    cost,
		outputs: func(i int) (uint32, uint32) { return uint32(i), uint32(i + 1) },
		reads: func(i int, visit func(uint32)) bool {
			if i < nbLanes {
				visit(uint32(nbLanes*depth + i))
			} else {
				visit(uint32(i - nbLanes))
			}
			visit(uint32(i))
			return true
		},
	}
	for _, nt := range []int{2, 3, 8, 16} {
		sc := buildSchedule(g, nt, 1)
		worker := make([]int, depth*nbLanes)
		for w := 0; w < nt; w++ {
			for c := sc.wStart[w]; c < sc.wStart[w+1]; c++ {
				ch := sc.chunks[c]
				ops := sc.order[ch.lo:ch.hi]
				for k, i := range ops {
					worker[i] = w
					if k > 0 && i != ops[k-1]+1 {
						t.Fatalf("%d workers: worker %d's chunk of level %d is not one run of ops (op %d after %d)", nt, w, ch.level, i, ops[k-1])
					}
				}
			}
		}
		for d := 0; d < depth; d++ {
			load := make([]int64, nt)
			for j := 0; j < nbLanes; j++ {
				i := d*nbLanes + j
				load[worker[i]] += laneCost[j]
				if d > 0 && worker[i] != worker[i-nbLanes] {
					t.Fatalf("%d workers: lane %d moves from worker %d to %d at level %d", nt, j, worker[i-nbLanes], worker[i], d)
				}
			}
			share := (cost[levels[d+1]] - cost[levels[d]] + int64(nt) - 1) / int64(nt)
			for w, l := range load {
				if l > share+share*chunkSlack/8 || l < share-share*chunkSlack/8-12 {
					t.Fatalf("%d workers: level %d gives worker %d %d of a share of %d", nt, d, w, l, share)
				}
			}
		}
		if len(sc.waits) != 0 {
			t.Errorf("%d workers: %d waits, want none (the lanes are independent)", nt, len(sc.waits))
		}
	}
}

func TestTasksFor(t *testing.T) {
	for _, c := range []struct{ procs, active, nbTasks, want int }{
		{16, 1, 0, 16},
		{16, 1, 16, 16},
		{16, 1, 6, 6},
		{16, 2, 0, 8},
		{16, 3, 0, 5},
		{16, 8, 0, 2},
		{16, 9, 0, 1}, // 1 core each: one goroutine
		{16, 20, 0, 1},
		{2, 1, 0, 2},
		{2, 2, 0, 1},
		{1, 1, 0, 1},
		{16, 0, 0, 16},
	} {
		if got := tasksFor(c.procs, c.active, c.nbTasks); got != c.want {
			t.Errorf("tasksFor(%d procs, %d active, NbTasks %d) = %d, want %d", c.procs, c.active, c.nbTasks, got, c.want)
		}
	}
}

// TestWaitPollsFollowSolvesInFlight checks that a solve alone in the
// process polls long before its waits sleep, and one beside other solves
// polls briefly, leaving the cores to them.
func TestWaitPollsFollowSolvesInFlight(t *testing.T) {
	procs := runtime.GOMAXPROCS(0)
	for _, c := range []struct{ active, nt, want int }{
		{1, 1, spinPollsAlone},
		{1, procs, spinPollsAlone},
		{1, procs + 1, spinPollsShared}, // more workers than Ps (the tests' forced task counts)
		{2, 1, spinPollsShared},
		{9, 1, spinPollsShared},
	} {
		var x exec
		x.reset(&state{active: c.active}, &schedule{nt: c.nt})
		if x.polls != c.want {
			t.Errorf("%d solves in flight, %d workers on %d Ps: %d polls before a wait yields, want %d", c.active, c.nt, procs, x.polls, c.want)
		}
	}
	done := Beside()
	var x exec
	x.reset(&state{active: 1}, &schedule{nt: 1})
	if x.polls != spinPollsShared {
		t.Errorf("a lone solve beside marked host work: %d polls before a wait yields, want %d", x.polls, spinPollsShared)
	}
	done()
	done() // a second call does nothing
	x.reset(&state{active: 1}, &schedule{nt: 1})
	if x.polls != spinPollsAlone {
		t.Errorf("a lone solve after the marked work ended: %d polls before a wait yields, want %d", x.polls, spinPollsAlone)
	}
	if spinPollsAlone <= spinPollsShared {
		t.Errorf("a lone solve polls %d times, one among others %d: the lone one should poll longer", spinPollsAlone, spinPollsShared)
	}
}
