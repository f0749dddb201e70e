//go:build cuda

package cuda

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// largestBelow returns the largest of logs below limit (0 when none is).
func largestBelow(logs []int, limit int) int {
	kk := 0
	for _, k := range logs {
		if k < limit && k > kk {
			kk = k
		}
	}
	return kk
}

// sweepVariants times MSM variants at n = 2^k for TestMSMTable. spec lists
// window:flags pairs (window 0: automatic; flags: exactly the G16_MSM_*
// bits of g16cuda.h that g16_msm gets, withMSMFlags: 0 is without the
// default host tail, 262144 with it), window:flags:task triples (task: the cap on a bucket task's
// points, 0 automatic) or window:flags:task:copies quadruples (copies > 1:
// a table of that many copies of the bases, PrecomputeBases with the
// window, 0: TableWindow; its build time is logged). Each variant runs on a
// backend of its own (prep uploads the inputs there and returns the MSM and
// the bases buffer of kernel k), once to warm up and then the median of
// three, and its result must satisfy ok (equal to the default's).
func sweepVariants[J any](t *testing.T, curve string, k int, kernel backend.Kernel, spec string, prep func(*Backend) (func() J, backend.Buffer), ok func(J) bool) {
	t.Helper()
	for _, v := range strings.Split(spec, ",") {
		var w, flags, task, copies int
		var err error
		switch strings.Count(v, ":") {
		case 3:
			_, err = fmt.Sscanf(v, "%d:%d:%d:%d", &w, &flags, &task, &copies)
		case 2:
			_, err = fmt.Sscanf(v, "%d:%d:%d", &w, &flags, &task)
		default:
			_, err = fmt.Sscanf(v, "%d:%d", &w, &flags)
		}
		if err != nil {
			t.Fatalf("sweep %q: %v", v, err)
		}
		opts := []Option{withMSMFlags(flags)}
		if w != 0 {
			opts = append(opts, WithMSMWindow(w))
		}
		if task != 0 {
			opts = append(opts, withMaxTask(task))
		}
		gw, err := New(0, opts...)
		if err != nil {
			t.Fatal(err)
		}
		msm, bases := prep(gw)
		table := ""
		if copies > 1 {
			t0 := time.Now()
			if err := gw.PrecomputeBases(nil, ecc.BLS12_381, bases, 0, 1<<k, kernel, copies, w); err != nil {
				t.Fatalf("sweep %s %s: PrecomputeBases: %v", curve, v, err)
			}
			info := gw.Tables(bases)
			if len(info) != 1 {
				t.Fatalf("sweep %s %s: %d tables", curve, v, len(info))
			}
			table = fmt.Sprintf(" table %d copies w=%d %.2f GB built in %.1f ms;", info[0].Copies, info[0].Window, float64(info[0].Bytes)/1e9, ms(time.Since(t0)))
		}
		var r J
		run := func() { r = msm() }
		run()
		d := median(3, run)
		tm := gw.LastMSMTiming()
		t.Logf("sweep %s 2^%d window:flags:task:copies %s: %.2f ms (%s w=%d copies %d: split %.1f digits %.1f sort %.1f plan %.1f accumulate %.1f reduce %.1f)",
			curve, k, v, ms(d), table, tm.Window, tm.Copies, tm.Split, tm.Digits, tm.Sort, tm.Plan, tm.Accumulate, tm.Reduce)
		if copies > 1 && tm.Copies != copies {
			t.Errorf("sweep %s %s: the MSM ran with %d copies", curve, v, tm.Copies)
		}
		if !ok(r) {
			t.Errorf("sweep %s %s: result differs from the default configuration's", curve, v)
		}
		// The bases (and their table) back to the pool before the next
		// variant: Close releases a pool only once nothing in it is held.
		if err := gw.Free(nil, bases); err != nil {
			t.Errorf("Free: %v", err)
		}
		if err := gw.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}
