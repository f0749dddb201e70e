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

// TestMSMKaratsubaOption: WithMSMKaratsuba(levels) adds the Karatsuba flags
// of that many levels to every MSM pass's flags, and rejects other levels.
func TestMSMKaratsubaOption(t *testing.T) {
	want := map[int]int{0: 0, 1: msmFpKaratsuba, 2: msmFpKaratsuba | msmFpKaratsuba2}
	for _, base := range []int{0, msmHostTail | msmFanin8} {
		for levels, add := range want {
			c := defaultConfig()
			c.msmFlags = base
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
