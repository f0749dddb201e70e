package cuda

import (
	"strconv"
	"strings"
	"testing"

	"github.com/consensys/gnark-crypto/ecc"
)

// TestCheckMSMWindow: a window fixed with WithMSMWindow below the least
// the curve's scalars take (at most 64 windows: 6 bits on BW6-761's 377,
// 4 on the others' 255) is refused, the error naming the option, its
// value, the curve and that least window; the least and above pass, and
// so does no fixed window.
func TestCheckMSMWindow(t *testing.T) {
	for _, c := range []struct {
		c  ecc.ID
		lo int
	}{{ecc.BW6_761, 6}, {ecc.BLS12_381, 4}, {ecc.BN254, 4}, {ecc.BLS12_377, 4}} {
		for w := 4; w <= 24; w++ {
			err := checkMSMWindow(w, c.c)
			if w >= c.lo {
				if err != nil {
					t.Errorf("%v window %d: %v, want it taken", c.c, w, err)
				}
				continue
			}
			if err == nil {
				t.Errorf("%v window %d: taken, want an error", c.c, w)
				continue
			}
			for _, want := range []string{"cuda.WithMSMWindow(" + strconv.Itoa(w) + ")", "bw6-761", "at least 6 bits"} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("%v window %d: %q does not say %q", c.c, w, err, want)
				}
			}
		}
		if err := checkMSMWindow(0, c.c); err != nil {
			t.Errorf("%v, no fixed window: %v", c.c, err)
		}
	}
}
