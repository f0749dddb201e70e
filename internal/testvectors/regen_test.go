package testvectors_test

import (
	"testing"

	"github.com/g16prover/g16/internal/testvectors/internal/generate"
)

// TestRegenerate: the generator, run again, reproduces testdata/ byte for
// byte (what `go run ./internal/testvectors/gen -check` checks in CI).
func TestRegenerate(t *testing.T) {
	if testing.Short() {
		t.Skip("regenerates every vector (a few seconds)")
	}
	files, err := generate.All(generate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range generate.Compare("testdata", files) {
		t.Error(d)
	}
}
