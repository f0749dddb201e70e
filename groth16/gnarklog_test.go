package groth16

import (
	"bytes"
	"testing"

	"github.com/consensys/gnark/logger"
	"github.com/rs/zerolog"
)

// TestSilenceGnark: with gnark's logger as gnark sets it up outside tests
// (a console writer, every level), what the package's init does leaves
// nothing written at any level.
func TestSilenceGnark(t *testing.T) {
	defer logger.Set(logger.Logger())
	var buf bytes.Buffer
	logger.Set(zerolog.New(zerolog.ConsoleWriter{Out: &buf}).With().Timestamp().Logger())
	before := logger.Logger()
	before.Debug().Msg("before")
	if buf.Len() == 0 {
		t.Fatal("the stand-in for gnark's default logger wrote nothing")
	}
	buf.Reset()
	silenceGnark()
	l := logger.Logger()
	l.Debug().Msg("verifier done")
	l.Info().Msg("compiling circuit")
	l.Warn().Msg("a warning")
	l.Error().Msg("an error")
	if buf.Len() != 0 {
		t.Errorf("gnark's logger wrote after silenceGnark:\n%s", buf.String())
	}
}
