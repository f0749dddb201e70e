//go:build cuda

package cuda

import (
	"errors"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/backend"
)

// TestSupportsCurveHost: the kernels compute on BLS12-381, BN254 and
// BLS12-377, and another curve's error matches ErrUnsupportedCurve and
// names it and the three; each has a host side.
func TestSupportsCurveHost(t *testing.T) {
	for _, c := range []ecc.ID{ecc.BLS12_381, ecc.BN254, ecc.BLS12_377} {
		if err := SupportsCurve(c); err != nil {
			t.Errorf("SupportsCurve(%v): %v", c, err)
		}
		if hosts[c] == nil {
			t.Errorf("%v: no host side", c)
		}
	}
	for _, c := range []ecc.ID{ecc.BW6_761, ecc.BLS24_315, ecc.UNKNOWN} {
		err := SupportsCurve(c)
		if !errors.Is(err, backend.ErrUnsupportedCurve) || !strings.Contains(err.Error(), "bls12-381, bn254 and bls12-377") {
			t.Errorf("SupportsCurve(%v): %v, want ErrUnsupportedCurve naming bls12-381, bn254 and bls12-377", c, err)
		}
	}
	if err := SupportsCurve(ecc.BW6_761); err == nil || !strings.HasPrefix(err.Error(), "bw6-761:") {
		t.Errorf("SupportsCurve(BW6-761): %v, want it named first", err)
	}
	if len(hosts) != len(kernelCurves) {
		t.Errorf("%d host sides for %d kernel curves", len(hosts), len(kernelCurves))
	}
}
