//go:build !cuda

package cuda

import (
	"errors"
	"strings"
	"testing"
)

// Without the cuda tag, New says how to build the backend.
func TestStubSaysHowToBuild(t *testing.T) {
	b, err := New(0, WithMemoryLimit(1<<20))
	if b != nil || !errors.Is(err, ErrNotBuilt) {
		t.Fatalf("New = %v, %v; want nil, ErrNotBuilt", b, err)
	}
	for _, want := range []string{"-tags cuda", "g16-cuda-install", "make cuda"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not mention %q", err, want)
		}
	}
	if _, err := DeviceCount(); !errors.Is(err, ErrNotBuilt) {
		t.Errorf("DeviceCount: %v", err)
	}
	if _, err := New(0, WithMemoryLimit(-1)); err == nil {
		t.Errorf("WithMemoryLimit(-1) accepted")
	}
}
