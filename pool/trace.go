package pool

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"sync"
	"time"
)

// Region names a part of a worker's life that the trace times.
type Region string

const (
	// RegionStaging: allocating and uploading a job's buffers ahead of its
	// compute. At most one worker per device holds it.
	RegionStaging Region = "staging"
	// RegionCompute: the device work, and the fallback. At most one worker
	// per device holds it.
	RegionCompute Region = "compute"
	// RegionHost: Job.Prepare and Job.Finish, outside both device regions.
	// Any number of workers are in it at once.
	RegionHost Region = "host"
)

// Event kinds.
const (
	KindRegion  = "region"  // a region held from Start to End, asked for at Requested
	KindCall    = "call"    // a Backend call (Name is the method)
	KindHost    = "host"    // Job.Prepare or Job.Finish (Name "prepare", "finish")
	KindOutcome = "outcome" // how a job's attempt ended (Name "done", "retry", "error", "cancelled"); OutcomePlan and OutcomeHostSlots at the start; OutcomeSkipped when the budget did not admit staging; "quarantined" when the device is taken out of the rotation (at once when it is lost); "requeued" when a job goes back to the queue because its device was lost while it was on the host; "not run" for a job left when every device is lost; "cleanup failed" when a quarantined device could not free its memory
)

// Outcomes of staging and computing a job.
const (
	OutcomeStaged   = "staged"          // buffers staged ahead; compute used them
	OutcomeSkipped  = "staging skipped" // Alloc said out of memory, or the budget did not admit
	OutcomeFallback = "fallback"        // computed through the fallback path
	OutcomeResident = "resident"        // the compute region held to load the resident state
	OutcomeCleanup  = "cleanup"         // the compute region held to free what the Run left
	// OutcomeRetried: a compute ran out of device memory; the worker made
	// room in the compute region (idle sets freed, Sync, TrimPool) and ran
	// it again.
	OutcomeRetried = "out of memory: retried"
	// OutcomePlan: the resident state chosen for a device at the start
	// (Resident.Fit); Outcome is its Name, Bytes its size, Err notes the
	// scratch reserved beside it.
	OutcomePlan = "plan"
	// OutcomeHostSlots: the Run's WithHostSlots bound, recorded at the
	// start; Outcome says it in words (Summary.HostSlots holds the number).
	OutcomeHostSlots = "host slots"
)

// Event is one entry of a Trace. Times are nanoseconds since the Run began.
type Event struct {
	Kind      string `json:"kind"`
	Name      string `json:"name"`
	Device    int    `json:"device"`
	Worker    int    `json:"worker"`    // -1: the pool itself (loading, cleanup)
	Partition int    `json:"partition"` // -1: none
	// Region is the region the worker held when a call was made.
	Region    Region `json:"region,omitempty"`
	Requested int64  `json:"requested_ns,omitempty"`
	Start     int64  `json:"start_ns"`
	End       int64  `json:"end_ns"`
	Bytes     int64  `json:"bytes,omitempty"`
	Outcome   string `json:"outcome,omitempty"`
	Err       string `json:"error,omitempty"`
}

// Trace records a Run: pass it with WithTrace. Passing it to another Run
// starts it afresh. It is safe for concurrent use; recording an event costs
// one append under a mutex.
type Trace struct {
	mu      sync.Mutex
	start   time.Time
	end     time.Time
	devices []string
	events  []Event
	slots   int // the Run's WithHostSlots; 0: none
}

// NewTrace returns an empty trace.
func NewTrace() *Trace { return &Trace{} }

func (t *Trace) begin(devices []string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.start = time.Now()
	t.end = time.Time{}
	t.devices = devices
	t.events = t.events[:0]
	t.slots = 0
	t.mu.Unlock()
}

// hostSlots records the Run's WithHostSlots bound, as an event and for
// the summary.
func (t *Trace) hostSlots(n int) {
	if t == nil {
		return
	}
	now := t.now()
	t.add(Event{Kind: KindOutcome, Name: OutcomeHostSlots, Device: -1, Worker: -1, Partition: -1,
		Start: now, End: now, Outcome: fmt.Sprintf("at most %d jobs prepared and not finished at once", n)})
	t.mu.Lock()
	t.slots = n
	t.mu.Unlock()
}

func (t *Trace) finish() {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.end = time.Now()
	t.mu.Unlock()
}

// now is the time since the Run began, in nanoseconds.
func (t *Trace) now() int64 {
	if t == nil {
		return 0
	}
	return int64(time.Since(t.start))
}

func (t *Trace) add(e Event) {
	if t == nil {
		return
	}
	t.mu.Lock()
	t.events = append(t.events, e)
	t.mu.Unlock()
}

// Devices names the Run's devices, by index.
func (t *Trace) Devices() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append([]string(nil), t.devices...)
}

// Events returns a copy of the events, ordered by start time.
func (t *Trace) Events() []Event {
	t.mu.Lock()
	ev := append([]Event(nil), t.events...)
	t.mu.Unlock()
	sort.SliceStable(ev, func(i, j int) bool { return ev[i].Start < ev[j].Start })
	return ev
}

// MostAtOnce is the most host stages named name (such as "prepare", the
// solve) that the trace shows running at the same time.
func (t *Trace) MostAtOnce(name string) int {
	var spans [][2]int64
	for _, e := range t.Events() {
		if e.Kind == KindHost && e.Name == name {
			spans = append(spans, [2]int64{e.Start, e.End})
		}
	}
	return MostAtOnce(spans)
}

// HeldAtOnce is the most partitions that the trace shows held at once,
// from the start of their Prepare (the solve) to the end of their Finish:
// the partitions whose host vectors are alive together. A partition
// without a Finish is held to the end.
func (t *Trace) HeldAtOnce() int {
	from, to := map[int]int64{}, map[int]int64{}
	for _, e := range t.Events() {
		if e.Kind != KindHost {
			continue
		}
		switch e.Name {
		case "prepare":
			if s, ok := from[e.Partition]; !ok || e.Start < s {
				from[e.Partition] = e.Start
			}
		case "finish":
			to[e.Partition] = max(to[e.Partition], e.End)
		}
	}
	spans := make([][2]int64, 0, len(from))
	for p, s := range from {
		end, ok := to[p]
		if !ok {
			end = math.MaxInt64
		}
		spans = append(spans, [2]int64{s, end})
	}
	return MostAtOnce(spans)
}

// MostAtOnce is the most of spans, each [start, end), that cover one
// instant: a span that ends when another starts does not overlap it.
func MostAtOnce(spans [][2]int64) int {
	type edge struct {
		t     int64
		delta int
	}
	edges := make([]edge, 0, 2*len(spans))
	for _, s := range spans {
		edges = append(edges, edge{s[0], 1}, edge{s[1], -1})
	}
	sort.Slice(edges, func(i, j int) bool {
		if edges[i].t != edges[j].t {
			return edges[i].t < edges[j].t
		}
		return edges[i].delta < edges[j].delta // an end before a start at the same instant
	})
	most, n := 0, 0
	for _, e := range edges {
		n += e.delta
		most = max(most, n)
	}
	return most
}

// wall is the Run's duration so far.
func (t *Trace) wall() time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.start.IsZero() {
		return 0
	}
	if t.end.IsZero() {
		return time.Since(t.start)
	}
	return t.end.Sub(t.start)
}

// traceJSON is the trace's JSON form.
type traceJSON struct {
	Devices []string `json:"devices"`
	Summary Summary  `json:"summary"`
	Events  []Event  `json:"events"`
}

// MarshalJSON encodes the devices, the summary and the events.
func (t *Trace) MarshalJSON() ([]byte, error) {
	return json.Marshal(traceJSON{Devices: t.Devices(), Summary: t.Summary(), Events: t.Events()})
}

// WriteJSON writes the trace as indented JSON.
func (t *Trace) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(t)
}

// Summary condenses a Trace.
type Summary struct {
	Wall       time.Duration `json:"wall_ns"`
	Partitions int           `json:"partitions"` // jobs that finished
	Failed     int           `json:"failed"`     // attempts that ended in an error reported to the caller
	// Staged counts computes that used buffers staged ahead; Fallbacks
	// those that went through the fallback; StagingSkipped the staging
	// attempts skipped (out of memory or over budget).
	Staged         int `json:"staged"`
	StagingSkipped int `json:"staging_skipped"`
	Fallbacks      int `json:"fallbacks"`
	Retries        int `json:"retries"`
	// HostSlots is the WithHostSlots bound on jobs prepared and not yet
	// finished; 0: none was set.
	HostSlots int `json:"host_slots,omitempty"`
	// Held is the total time each region was held, over every worker and
	// device; Waited the total time workers waited to acquire it.
	Held    map[Region]time.Duration `json:"held_ns"`
	Waited  map[Region]time.Duration `json:"waited_ns"`
	Devices []DeviceSummary          `json:"devices"`
}

// DeviceSummary is one device's share of a Run.
type DeviceSummary struct {
	Device     string        `json:"device"`
	Partitions int           `json:"partitions"` // computes that succeeded here
	Compute    time.Duration `json:"compute_ns"` // compute region held
	Staging    time.Duration `json:"staging_ns"` // staging region held
	// Busy is the fraction of the Run's wall time the compute region was
	// held: the device's utilisation.
	Busy float64 `json:"busy"`
	// Quarantined: the device failed repeatedly and was taken out of the
	// rotation (it ran only what no healthy device could).
	Quarantined bool `json:"quarantined,omitempty"`
}

// Summary condenses the trace.
func (t *Trace) Summary() Summary {
	ev := t.Events()
	devs := t.Devices()
	s := Summary{
		Wall:    t.wall(),
		Held:    map[Region]time.Duration{},
		Waited:  map[Region]time.Duration{},
		Devices: make([]DeviceSummary, len(devs)),
	}
	t.mu.Lock()
	s.HostSlots = t.slots
	t.mu.Unlock()
	for i, d := range devs {
		s.Devices[i].Device = d
	}
	for _, e := range ev {
		switch e.Kind {
		case KindRegion:
			r := Region(e.Name)
			s.Held[r] += time.Duration(e.End - e.Start)
			s.Waited[r] += time.Duration(e.Start - e.Requested)
			ok := e.Device >= 0 && e.Device < len(s.Devices)
			switch {
			case r == RegionStaging && e.Outcome == OutcomeSkipped:
				s.StagingSkipped++
			case r == RegionCompute && e.Err == "" && e.Outcome == OutcomeStaged:
				s.Staged++
			case r == RegionCompute && e.Err == "" && e.Outcome == OutcomeFallback:
				s.Fallbacks++
			}
			if ok && r == RegionCompute {
				s.Devices[e.Device].Compute += time.Duration(e.End - e.Start)
				if e.Err == "" && (e.Outcome == OutcomeStaged || e.Outcome == OutcomeFallback) {
					s.Devices[e.Device].Partitions++
				}
			}
			if ok && r == RegionStaging {
				s.Devices[e.Device].Staging += time.Duration(e.End - e.Start)
			}
		case KindHost:
			s.Held[RegionHost] += time.Duration(e.End - e.Start)
		case KindOutcome:
			switch e.Name {
			case "done":
				s.Partitions++
			case "retry":
				s.Retries++
			case "error", "not run":
				s.Failed++
			case OutcomeSkipped: // over budget: no region was acquired
				s.StagingSkipped++
			case "quarantined":
				if e.Device >= 0 && e.Device < len(s.Devices) {
					s.Devices[e.Device].Quarantined = true
				}
			}
		}
	}
	if s.Wall > 0 {
		for i := range s.Devices {
			s.Devices[i].Busy = float64(s.Devices[i].Compute) / float64(s.Wall)
		}
	}
	return s
}

// String prints the summary for people.
func (s Summary) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "partitions %d (failed %d, retried %d) in %v\n", s.Partitions, s.Failed, s.Retries, s.Wall.Round(time.Microsecond))
	fmt.Fprintf(&b, "staged %d, staging skipped %d, fallbacks %d\n", s.Staged, s.StagingSkipped, s.Fallbacks)
	if s.HostSlots > 0 {
		fmt.Fprintf(&b, "host slots %d (jobs prepared and not finished at once)\n", s.HostSlots)
	}
	for _, r := range []Region{RegionHost, RegionStaging, RegionCompute} {
		fmt.Fprintf(&b, "%-8s held %v, waited %v\n", r, s.Held[r].Round(time.Microsecond), s.Waited[r].Round(time.Microsecond))
	}
	for _, d := range s.Devices {
		q := ""
		if d.Quarantined {
			q = ", quarantined"
		}
		fmt.Fprintf(&b, "%s: %d partitions, compute %v, staging %v, busy %.1f%%%s\n",
			d.Device, d.Partitions, d.Compute.Round(time.Microsecond), d.Staging.Round(time.Microsecond), 100*d.Busy, q)
	}
	return b.String()
}
