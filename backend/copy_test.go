package backend

import (
	"math"
	"strings"
	"testing"
)

// TestCheckCopy: spans inside their buffers pass, at the edges too; each
// bad argument fails with its name, without overflowing; spans of one
// buffer pass apart (touching) and fail overlapping.
func TestCheckCopy(t *testing.T) {
	for _, c := range []struct {
		dst, dstOff, src, srcOff, n int64
		same                        bool
		arg                         string // "": no error
	}{
		{64, 0, 64, 0, 64, false, ""},
		{64, 64, 64, 64, 0, false, ""},
		{64, 32, 64, 0, 32, true, ""},
		{64, 0, 64, 32, 32, true, ""},
		{64, 0, 64, 0, 0, true, ""},
		{64, -1, 64, 0, 1, false, "dstOff:"},
		{64, 0, 64, -1, 1, false, "srcOff:"},
		{64, 0, 64, 0, -1, false, "bytes:"},
		{64, 65, 64, 0, 0, false, "dstOff:"},
		{64, 0, 64, 65, 0, false, "srcOff:"},
		{64, 1, 64, 0, 64, false, "bytes:"},
		{64, 0, 16, 1, 16, false, "bytes:"},
		{64, 8, 64, 0, math.MaxInt64, false, "bytes:"},
		{64, math.MaxInt64, 64, 0, 1, false, "dstOff:"},
		{64, 0, 64, math.MinInt64, 1, false, "srcOff:"},
		{64, 0, 64, 16, 32, true, "src:"},
		{64, 16, 64, 0, 32, true, "src:"},
		{64, 8, 64, 8, 1, true, "src:"},
	} {
		err := CheckCopy(c.dst, c.dstOff, c.src, c.srcOff, c.n, c.same)
		switch {
		case c.arg == "" && err != nil:
			t.Errorf("%+v: %v, want nil", c, err)
		case c.arg != "" && (err == nil || !strings.HasPrefix(err.Error(), c.arg)):
			t.Errorf("%+v: %v, want an error naming %q", c, err, c.arg)
		}
	}
}
