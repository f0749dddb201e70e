package main

import (
	"fmt"
	"io"
	"strings"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
)

// peakDevice is what a backend that records it (cuda.Backend) says was its
// peak of device memory in use.
type peakDevice interface {
	PeakMemory(reset bool) int64
}

// reportMemory prints the process's peak resident memory (getrusage) beside
// the key's size, with the peak as it stood after compiling and after the
// keys, and each device's peak of memory in use where the device records
// one.
func reportMemory(w io.Writer, pk gnarkgroth16.ProvingKey, devs []namedBackend, afterCompile, afterKeys int64) {
	key := keyHostBytes(pk)
	rss := peakRSS()
	line := fmt.Sprintf("memory: peak RSS %s", gib(rss))
	if rss == 0 {
		line = "memory: peak RSS unknown on this system"
	} else {
		if key > 0 {
			line += fmt.Sprintf(" (%.2f× the key's %s)", float64(rss)/float64(key), gib(key))
		}
		line += fmt.Sprintf("; peak after compiling %s, after the keys %s", gib(afterCompile), gib(afterKeys))
	}
	var peaks []string
	for _, d := range devs {
		for _, b := range d.all {
			if p, ok := b.(peakDevice); ok {
				peaks = append(peaks, fmt.Sprintf("%s %s", b, gib(p.PeakMemory(false))))
			}
		}
	}
	if len(peaks) > 0 {
		line += "; device peak in use: " + strings.Join(peaks, ", ")
	}
	fmt.Fprintln(w, line)
}

func gib(b int64) string {
	if b < 1<<30 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.2f GiB", float64(b)/(1<<30))
}
