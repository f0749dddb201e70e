package zslog

import (
	"bytes"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/rs/zerolog"
)

// TestLevels: each zerolog level comes out at its slog level, and only
// those the handler takes.
func TestLevels(t *testing.T) {
	for _, min := range []slog.Level{slog.LevelDebug, slog.LevelInfo, slog.LevelWarn, slog.LevelError} {
		var buf bytes.Buffer
		z := New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: min}))
		z.Trace().Msg("t")
		z.Debug().Msg("d")
		z.Info().Msg("i")
		z.Warn().Msg("w")
		z.Error().Msg("e")
		z.Log().Msg("n")
		var want []string
		for _, c := range []struct {
			level slog.Level
			msg   string
		}{{slog.LevelDebug, "d"}, {slog.LevelInfo, "i"}, {slog.LevelWarn, "w"}, {slog.LevelError, "e"}, {slog.LevelInfo, "n"}} {
			if c.level >= min {
				want = append(want, fmt.Sprintf("level=%s msg=%s", c.level, c.msg))
			}
		}
		var got []string
		for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
			if line == "" {
				continue
			}
			i := strings.Index(line, "level=")
			if i < 0 {
				t.Fatalf("min %v: line without a level: %q", min, line)
			}
			got = append(got, line[i:])
		}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("min %v: got %q, want %q", min, got, want)
		}
	}
}

// TestFields: an event's fields become attributes with their types, in
// name order; the output holds no escape sequence (zerolog's console
// writer colours its lines).
func TestFields(t *testing.T) {
	seed := rand.Uint64()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, 1))
	n := rng.Int64N(1 << 40)
	f := float64(rng.IntN(1000)) + 0.5
	var buf bytes.Buffer
	z := New(slog.NewJSONHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))
	z.Debug().Str("curve", "bls12_381").Int64("n", n).Float64("f", f).Bool("ok", true).
		Dur("took", 1500*time.Microsecond).Ints("list", []int{1, 2}).Msg("verifier done")
	want := fmt.Sprintf(`"level":"DEBUG","msg":"verifier done","curve":"bls12_381","f":%v,"list":"[1,2]","n":%d,"ok":true,"took":1.5}`, f, n)
	if got := buf.String(); !strings.Contains(got, want) {
		t.Errorf("got %s\nwant it to end %s", got, want)
	}
	if strings.Contains(buf.String(), "\x1b[") {
		t.Errorf("escape sequence in %q", buf.String())
	}
}

// TestNotJSON: a line zerolog did not encode is passed on as the message.
func TestNotJSON(t *testing.T) {
	var buf bytes.Buffer
	w := writer{slog.NewTextHandler(&buf, nil)}
	if _, err := w.WriteLevel(zerolog.WarnLevel, []byte("plain text\n")); err != nil {
		t.Fatal(err)
	}
	if got := buf.String(); !strings.Contains(got, `level=WARN msg="plain text"`) {
		t.Errorf("got %q", got)
	}
}
