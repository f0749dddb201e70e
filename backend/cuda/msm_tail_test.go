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
	for _, base := range []int{0, msmNoSplit | msmFanin8} {
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
