// Package zslog sends the events of a zerolog logger, gnark's, to a
// log/slog handler, so that a program has one log stream in one format:
// gnark's lines (the solver's, the verifier's) beside its own, with the
// handler's levels and none of zerolog's console colours.
package zslog

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"sort"
	"strings"
	"time"

	"github.com/rs/zerolog"
)

// New returns a zerolog logger whose events go to h, one record each: the
// event's message, its level mapped (trace below debug, error, fatal and
// panic as error), and its other fields as attributes in name order. Events
// below the least level h takes are not formatted at all.
func New(h slog.Handler) zerolog.Logger {
	least := zerolog.Disabled
	for _, l := range []zerolog.Level{zerolog.ErrorLevel, zerolog.WarnLevel, zerolog.InfoLevel, zerolog.DebugLevel, zerolog.TraceLevel} {
		if h.Enabled(context.Background(), Level(l)) {
			least = l
		}
	}
	return zerolog.New(writer{h}).Level(least)
}

// Level is the slog level of zerolog level l.
func Level(l zerolog.Level) slog.Level {
	switch l {
	case zerolog.TraceLevel:
		return slog.LevelDebug - 4
	case zerolog.DebugLevel:
		return slog.LevelDebug
	case zerolog.WarnLevel:
		return slog.LevelWarn
	case zerolog.ErrorLevel, zerolog.FatalLevel, zerolog.PanicLevel:
		return slog.LevelError
	}
	return slog.LevelInfo // info, and events with no level
}

// writer is a zerolog.LevelWriter: zerolog hands it each event as one
// JSON object.
type writer struct{ h slog.Handler }

func (w writer) Write(p []byte) (int, error) { return w.WriteLevel(zerolog.NoLevel, p) }

func (w writer) WriteLevel(l zerolog.Level, p []byte) (int, error) {
	ctx := context.Background()
	level := Level(l)
	if !w.h.Enabled(ctx, level) {
		return len(p), nil
	}
	var fields map[string]any
	dec := json.NewDecoder(bytes.NewReader(p))
	dec.UseNumber()
	if err := dec.Decode(&fields); err != nil {
		// Not an event of zerolog's JSON encoder: the line is the message.
		return len(p), w.h.Handle(ctx, slog.NewRecord(time.Now(), level, strings.TrimSpace(string(p)), 0))
	}
	msg, _ := fields[zerolog.MessageFieldName].(string)
	delete(fields, zerolog.MessageFieldName)
	delete(fields, zerolog.LevelFieldName)
	delete(fields, zerolog.TimestampFieldName)
	names := make([]string, 0, len(fields))
	for k := range fields {
		names = append(names, k)
	}
	sort.Strings(names)
	r := slog.NewRecord(time.Now(), level, msg, 0)
	for _, k := range names {
		r.AddAttrs(attr(k, fields[k]))
	}
	return len(p), w.h.Handle(ctx, r)
}

// attr is field k of an event as an attribute: numbers as int64 or float64
// where they are, nested objects and arrays as their JSON text.
func attr(k string, v any) slog.Attr {
	switch v := v.(type) {
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return slog.Int64(k, i)
		}
		if f, err := v.Float64(); err == nil {
			return slog.Float64(k, f)
		}
		return slog.String(k, v.String())
	case string:
		return slog.String(k, v)
	case bool:
		return slog.Bool(k, v)
	case nil:
		return slog.Any(k, nil)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return slog.Any(k, v)
	}
	return slog.String(k, string(b))
}
