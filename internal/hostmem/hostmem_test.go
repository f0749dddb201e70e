package hostmem

import (
	"runtime"
	"testing"
)

// TestAvailable: on Linux the host reports some memory available, and no
// more than a sane bound; elsewhere 0.
func TestAvailable(t *testing.T) {
	got := Available()
	if runtime.GOOS != "linux" {
		if got != 0 {
			t.Fatalf("Available() = %d off Linux, want 0", got)
		}
		return
	}
	if got <= 0 || got > 1<<53 {
		t.Fatalf("Available() = %d", got)
	}
	t.Logf("available: %d MiB", got>>20)
}
