//go:build cuda

package cuda

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// TestSupportsCurveHost: the kernels compute on BLS12-381, BN254,
// BLS12-377 and BW6-761, and another curve's error matches
// ErrUnsupportedCurve and names it and the four; each has a host side.
func TestSupportsCurveHost(t *testing.T) {
	for _, c := range []ecc.ID{ecc.BLS12_381, ecc.BN254, ecc.BLS12_377, ecc.BW6_761} {
		if err := SupportsCurve(c); err != nil {
			t.Errorf("SupportsCurve(%v): %v", c, err)
		}
		if hosts[c] == nil {
			t.Errorf("%v: no host side", c)
		}
	}
	for _, c := range []ecc.ID{ecc.BLS24_315, ecc.BLS24_317, ecc.UNKNOWN} {
		err := SupportsCurve(c)
		if !errors.Is(err, backend.ErrUnsupportedCurve) || !strings.Contains(err.Error(), "bls12-381, bn254, bls12-377 and bw6-761") {
			t.Errorf("SupportsCurve(%v): %v, want ErrUnsupportedCurve naming bls12-381, bn254, bls12-377 and bw6-761", c, err)
		}
	}
	if err := SupportsCurve(ecc.BLS24_315); err == nil || !strings.HasPrefix(err.Error(), "bls24-315:") {
		t.Errorf("SupportsCurve(BLS24-315): %v, want it named first", err)
	}
	if len(hosts) != len(kernelCurves) {
		t.Errorf("%d host sides for %d kernel curves", len(hosts), len(kernelCurves))
	}
}

// TestPrecomputeWindowHost: a table's window is refused before any work
// below the least the kernels take on the curve (at most 64 windows: 6 on
// BW6-761's 377-bit scalars, 4 on the others) and above 24, the error
// naming the window and the range.
func TestPrecomputeWindowHost(t *testing.T) {
	var b Backend // no device: the arguments are checked first
	for _, c := range []struct {
		c    ecc.ID
		k    backend.Kernel
		w    int
		want string
	}{
		{ecc.BW6_761, backend.KernelMSMG1, 5, "want 6 to 24 on bw6-761 G1"},
		{ecc.BW6_761, backend.KernelMSMG2, 25, "want 6 to 24 on bw6-761 G2"},
		{ecc.BLS12_381, backend.KernelMSMG1, 3, "want 4 to 24 on bls12-381 G1"},
		{ecc.BN254, backend.KernelMSMG2, 25, "want 4 to 24 on bn254 G2"},
	} {
		err := b.PrecomputeBases(nil, c.c, nil, 0, 10, c.k, 2, c.w)
		if err == nil || !strings.Contains(err.Error(), "w: window") || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %v window %d: %v, want an error saying %q", c.c, c.k, c.w, err, c.want)
		}
	}
	// A window fixed with WithMSMWindow that BW6-761 cannot take is
	// refused by its MSMs and by a table of the backend's window, naming
	// the option, before the device is reached (this backend has none).
	for _, w := range []int{4, 5} {
		b := Backend{cfg: defaultConfig()}
		b.cfg.msmWindow = w
		want := fmt.Sprintf("cuda.WithMSMWindow(%d): bw6-761's MSMs take a window of at least 6 bits", w)
		for _, k := range []backend.Kernel{backend.KernelMSMG1, backend.KernelMSMG2} {
			g, _ := groupOf(ecc.BW6_761, k)
			msm := b.MSMG1
			if k == backend.KernelMSMG2 {
				msm = b.MSMG2
			}
			if err := msm(nil, ecc.BW6_761, make([]byte, g.jacBytes()), nil, 0, nil, 10); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%v with WithMSMWindow(%d): %v, want an error saying %q", k, w, err, want)
			}
			if err := b.PrecomputeBases(nil, ecc.BW6_761, nil, 0, 10, k, 2, 0); err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("PrecomputeBases %v with WithMSMWindow(%d): %v, want an error saying %q", k, w, err, want)
			}
		}
	}
	// The backend's TableCost models the window its tables get on the
	// curve: BW6-761's own, or the one WithMSMWindow fixed.
	var auto Backend
	fixed := Backend{cfg: defaultConfig()}
	fixed.cfg.msmWindow = 9
	for _, n := range []int{1 << 12, 1 << 20} {
		for _, copies := range []int{1, 4} {
			w := tableWindowBits(n, copies, 377)
			if got, want := auto.TableCost(backend.KernelMSMG2, ecc.BW6_761, n, copies), TableCost(backend.KernelMSMG2, ecc.BW6_761, n, copies, w); got != want || got == 0 {
				t.Errorf("BW6-761 G2 n=%d copies=%d: backend's cost %g, want the model's at window %d, %g", n, copies, got, w, want)
			}
			if got, want := fixed.TableCost(backend.KernelMSMG1, ecc.BW6_761, n, copies), TableCost(backend.KernelMSMG1, ecc.BW6_761, n, copies, 9); got != want {
				t.Errorf("BW6-761 G1 n=%d copies=%d, WithMSMWindow(9): backend's cost %g, want the model's at window 9, %g", n, copies, got, want)
			}
		}
	}
	if minWindow(255) != 4 || minWindow(377) != 6 || pickWindow(1, 377) < 6 || tableWindowBits(1<<16, 4, 377) < 6 {
		t.Errorf("BW6-761's windows: least %d, picked %d and %d, want 6 or more", minWindow(377), pickWindow(1, 377), tableWindowBits(1<<16, 4, 377))
	}
}
