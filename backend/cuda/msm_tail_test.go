//go:build cuda

package cuda

import "testing"

// TestMSMHostTailOption: G16_MSM_HOST_TAIL is in the flags every MSM
// pass gets by default and with WithMSMHostTail(true), not with
// WithMSMHostTail(false) nor with withMSMFlags' exact flags; the other
// flags stay as they are.
func TestMSMHostTailOption(t *testing.T) {
	if c := defaultConfig(); !c.msmHostTail {
		t.Fatal("the host tail is not the default")
	}
	for _, base := range []int{0, msmG1Slots | msmFanin8} {
		c := defaultConfig()
		if err := withMSMFlags(base)(&c); err != nil {
			t.Fatal(err)
		}
		b := &Backend{cfg: c}
		if got := int(b.msmFlags()); got != base {
			t.Errorf("withMSMFlags(%d): g16_msm gets %d", base, got)
		}
		for _, on := range []bool{true, false} {
			if err := WithMSMHostTail(on)(&b.cfg); err != nil {
				t.Fatal(err)
			}
			want := base
			if on {
				want |= msmHostTail
			}
			if got := int(b.msmFlags()); got != want {
				t.Errorf("flags %d with WithMSMHostTail(%v): g16_msm gets %d, want %d", base, on, got, want)
			}
		}
	}
}

// TestMSMKaratsubaOption: WithMSMKaratsuba(levels) adds the Karatsuba flags
// of that many levels to every MSM pass's flags, and rejects other levels.
func TestMSMKaratsubaOption(t *testing.T) {
	want := map[int]int{0: 0, 1: msmFpKaratsuba, 2: msmFpKaratsuba | msmFpKaratsuba2}
	for _, base := range []int{0, msmHostTail | msmFanin8} {
		for levels, add := range want {
			c := defaultConfig()
			c.msmFlags, c.msmHostTail = base, false
			if err := WithMSMKaratsuba(levels)(&c); err != nil {
				t.Fatalf("levels %d: %v", levels, err)
			}
			b := &Backend{cfg: c}
			if got := int(b.msmFlags()); got != base|add {
				t.Errorf("flags %d with WithMSMKaratsuba(%d): g16_msm gets %d, want %d", base, levels, got, base|add)
			}
		}
	}
	for _, bad := range []int{-1, 3} {
		c := defaultConfig()
		if err := WithMSMKaratsuba(bad)(&c); err == nil {
			t.Errorf("WithMSMKaratsuba(%d) accepted", bad)
		}
	}
}
