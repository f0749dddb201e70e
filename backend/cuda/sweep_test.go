//go:build cuda

package cuda

import (
	"fmt"
	"strings"
	"testing"
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
// window:flags pairs (window 0: automatic; flags: the G16_MSM_* bits of
// g16cuda.h), or window:flags:task triples (task: the cap on a bucket
// task's points, 0 automatic). Each variant runs on a backend of its own (prep uploads the
// inputs there and returns the MSM), once to warm up and then the median of
// three, and its result must satisfy ok (equal to the default's).
func sweepVariants[J any](t *testing.T, curve string, k int, spec string, prep func(*Backend) func() J, ok func(J) bool) {
	t.Helper()
	for _, v := range strings.Split(spec, ",") {
		var w, flags, task int
		var err error
		if strings.Count(v, ":") == 2 {
			_, err = fmt.Sscanf(v, "%d:%d:%d", &w, &flags, &task)
		} else {
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
		msm := prep(gw)
		var r J
		run := func() { r = msm() }
		run()
		d := median(3, run)
		tm := gw.LastMSMTiming()
		t.Logf("sweep %s 2^%d window:flags %s: %.2f ms (w=%d split %.1f digits %.1f sort %.1f plan %.1f accumulate %.1f reduce %.1f)",
			curve, k, v, ms(d), tm.Window, tm.Split, tm.Digits, tm.Sort, tm.Plan, tm.Accumulate, tm.Reduce)
		if !ok(r) {
			t.Errorf("sweep %s %s: result differs from the default configuration's", curve, v)
		}
		if err := gw.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}
