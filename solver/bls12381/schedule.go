package bls12381

// This file is curve-independent: a schedule is built from the shape of
// the instruction graph (which wires each instruction reads and writes, its
// level and estimated cost) and imports no field.

// schedule places the instructions of a circuit on nt workers. Each level's
// instructions are split among the workers; the instructions one worker
// gets in one level form a chunk, and a worker runs its chunks in level
// order. Before a chunk, a worker waits only for the chunks of other
// workers that produce a wire the chunk reads (point-to-point readiness,
// counted here once per circuit and worker count): for each such worker q,
// until q has finished its first n chunks. There is no barrier between
// levels, so a worker runs ahead as far as its own inputs allow.
type schedule struct {
	nt     int
	order  []uint32 // op indices: worker 0's chunks, worker 1's, …; a chunk's ops in rank order
	wStart []int    // worker w's chunks are chunks[wStart[w]:wStart[w+1]]
	chunks []chunk
	waits  []wait
}

// chunk is order[lo:hi], ops of one level run by one worker, after the
// waits waits[waitLo:waitHi].
type chunk struct {
	lo, hi         uint32
	level          uint32
	waitLo, waitHi uint32
}

// wait: until worker has finished its first done chunks.
type wait struct {
	worker uint32
	done   uint32
}

// graph is what a schedule is built from.
type graph struct {
	nbWires int
	levels  []int   // ops[levels[i]:levels[i+1]] is level i
	cost    []int64 // cost[i] is the estimated work of ops[:i]
	// outputs gives the wires [lo, hi) op i solves.
	outputs func(i int) (lo, hi uint32)
	// reads calls visit for each wire op i reads and returns true, or
	// returns false when what op i reads is not known: it then waits for
	// every instruction of the levels before its own.
	reads func(i int, visit func(wire uint32)) bool
}

// minChunkCost is the least estimated work a level gives each worker it is
// split among (a unit is about one term's multiply-add, 10–15 ns), so that
// a chunk is worth more than the cost of publishing and waiting for it. A
// variable for the tests, which lower it to split every level.
var minChunkCost int64 = 48

// chunkSlack is how much over its share (in 1/8ths) a level may give the
// worker that produced an instruction's input before the instruction goes
// to the least loaded worker instead.
const chunkSlack = 2

// buildSchedule places g's instructions on nt workers. Within a level an
// instruction goes to the worker that solved the wire it reads that was
// solved last (its inputs are then in that core's cache, and the chunk
// waits for no other worker on their account), unless that worker already
// has work in the level and this would take it past its share. An
// instruction that reads no wire of an earlier level (a lane's first)
// goes to the worker of the instruction before it in the level while that
// worker is within its share, so that the lanes a worker starts are
// adjacent and stay so. Otherwise it goes to the worker with the least
// work in the level, and the least in all levels before among those.
func buildSchedule(g *graph, nt int, minCost int64) *schedule {
	nbOps := len(g.cost) - 1
	sc := &schedule{nt: nt, order: make([]uint32, 0, nbOps), wStart: make([]int, nt+1)}
	if nt == 1 {
		// one worker: a chunk a level, in order, and nothing to wait for
		for i := range nbOps {
			sc.order = append(sc.order, uint32(i))
		}
		for l := 0; l+1 < len(g.levels); l++ {
			if lo, hi := g.levels[l], g.levels[l+1]; hi > lo {
				sc.chunks = append(sc.chunks, chunk{level: uint32(l), lo: uint32(lo), hi: uint32(hi)})
			}
		}
		sc.wStart[1] = len(sc.chunks)
		return sc
	}
	producer := make([]int32, g.nbWires)
	for i := range producer {
		producer[i] = -1
	}
	for i := 0; i < nbOps; i++ {
		lo, hi := g.outputs(i)
		for w := lo; w < hi; w++ {
			producer[w] = int32(i)
		}
	}
	worker := make([]uint32, nbOps)  // the worker of each op
	chunkOf := make([]uint32, nbOps) // the op's chunk, counted in its worker's chunks
	nChunks := make([]uint32, nt)    // chunks made so far, per worker
	before := make([]uint32, nt)     // nChunks at the start of the level
	waited := make([]uint32, nt*nt)  // waited[w*nt+q]: w has waited for q's first waited[·] chunks
	total := make([]int64, nt)       // work placed on each worker so far
	load := make([]int64, nt)        // work placed on each worker in this level
	// need[w*nt+q]: the chunks of q that w's chunk of the level waits for,
	// gathered as the level's ops are placed; opNeed[q] the same for the op
	// being placed, on the workers listed in touched.
	need := make([]uint32, nt*nt)
	opNeed := make([]uint32, nt)
	touched := make([]uint32, 0, nt)
	// each worker's ops, chunks and waits, laid out worker by worker at the
	// end (a chunk's lo, hi, waitLo and waitHi index its worker's own).
	wOrder := make([][]uint32, nt)
	wChunks := make([][]chunk, nt)
	wWaits := make([][]wait, nt)
	levelOps := make([][]uint32, nt)

	// the visitors of g.reads, made once: lo is the level's first op, last
	// the latest op an op reads from.
	var lo int
	var last int32
	latest := func(wire uint32) {
		p := producer[wire]
		if p < 0 || int(p) >= lo {
			return // an input, or the op's own output
		}
		last = max(last, p)
		q := worker[p]
		if opNeed[q] == 0 {
			touched = append(touched, q)
		}
		opNeed[q] = max(opNeed[q], chunkOf[p]+1)
	}

	for l := 0; l+1 < len(g.levels); l++ {
		var hi int
		lo, hi = g.levels[l], g.levels[l+1]
		work := g.cost[hi] - g.cost[lo]
		k := int64(min(int64(nt), max(1, work/max(minCost, 1))))
		share := (work + k - 1) / k
		limit := share + share*chunkSlack/8
		clear(load)
		busy := 0 // workers with work in the level
		clear(need)
		copy(before, nChunks)
		for w := range levelOps {
			levelOps[w] = levelOps[w][:0]
		}
		for i := lo; i < hi; i++ {
			c := g.cost[i+1] - g.cost[i]
			pref := -1
			last = -1
			barrier := !g.reads(i, latest)
			if !barrier && last >= 0 {
				pref = int(worker[last])
			}
			w := pref
			if w < 0 && i > lo {
				// no input decides: the previous op's worker while it is
				// within its share (within the slack once every worker has
				// work in the level), so that a worker's chunk is a run of
				// adjacent ops and writes lines of W, A, B and C no other
				// worker does
				p := int(worker[i-1])
				if load[p]+c <= share || busy == nt && load[p]+c <= limit {
					w = p
				}
			}
			if w < 0 || load[w] > 0 && load[w]+c > limit {
				w = 0
				for q := 1; q < nt; q++ {
					if load[q] < load[w] || load[q] == load[w] && total[q] < total[w] {
						w = q
					}
				}
			}
			worker[i] = uint32(w)
			chunkOf[i] = nChunks[w] // the chunk this level makes for w
			wn := need[w*nt : (w+1)*nt]
			if barrier {
				for q := range wn {
					wn[q] = max(wn[q], before[q])
				}
			}
			for _, q := range touched {
				wn[q] = max(wn[q], opNeed[q])
				opNeed[q] = 0
			}
			touched = touched[:0]
			if load[w] == 0 {
				busy++
			}
			load[w] += c
			total[w] += c
			levelOps[w] = append(levelOps[w], uint32(i))
		}
		for w := 0; w < nt; w++ {
			ops := levelOps[w]
			if len(ops) == 0 {
				continue
			}
			wn := need[w*nt : (w+1)*nt]
			ch := chunk{level: uint32(l), lo: uint32(len(wOrder[w])), waitLo: uint32(len(wWaits[w]))}
			for q := 0; q < nt; q++ {
				if q == w || wn[q] <= waited[w*nt+q] {
					continue
				}
				waited[w*nt+q] = wn[q]
				wWaits[w] = append(wWaits[w], wait{worker: uint32(q), done: wn[q]})
			}
			wOrder[w] = append(wOrder[w], ops...)
			ch.hi, ch.waitHi = uint32(len(wOrder[w])), uint32(len(wWaits[w]))
			wChunks[w] = append(wChunks[w], ch)
			nChunks[w]++
		}
	}
	for w := 0; w < nt; w++ {
		sc.wStart[w] = len(sc.chunks)
		base, waitBase := uint32(len(sc.order)), uint32(len(sc.waits))
		for _, ch := range wChunks[w] {
			ch.lo, ch.hi = ch.lo+base, ch.hi+base
			ch.waitLo, ch.waitHi = ch.waitLo+waitBase, ch.waitHi+waitBase
			sc.chunks = append(sc.chunks, ch)
		}
		sc.order = append(sc.order, wOrder[w]...)
		sc.waits = append(sc.waits, wWaits[w]...)
	}
	sc.wStart[nt] = len(sc.chunks)
	return sc
}
