//go:build cuda

package cuda

import "testing"

// TestMSMHostTailOption: WithMSMHostTail adds G16_MSM_HOST_TAIL to the
// flags every MSM pass gets, and only it.
func TestMSMHostTailOption(t *testing.T) {
	for _, base := range []int{0, msmG1Slots | msmFanin8} {
		c := defaultConfig()
		c.msmFlags = base
		b := &Backend{cfg: c}
		if got := int(b.msmFlags()); got != base {
			t.Errorf("flags %d without the option: g16_msm gets %d", base, got)
		}
		if err := WithMSMHostTail()(&b.cfg); err != nil {
			t.Fatal(err)
		}
		if got := int(b.msmFlags()); got != base|msmHostTail {
			t.Errorf("flags %d with WithMSMHostTail: g16_msm gets %d, want %d", base, got, base|msmHostTail)
		}
	}
}
