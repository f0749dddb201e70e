//go:build cuda

package cuda

import (
	"errors"
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
