//go:build cuda

package cuda

import "testing"

// TestHostLibrarySources: the linked libg16cuda was built from this
// package's kernel sources (no GPU needed).
func TestHostLibrarySources(t *testing.T) {
	if err := checkLibrary(); err != nil {
		t.Fatal(err)
	}
}
