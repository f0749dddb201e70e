package bls12381

import (
	"fmt"
	"strings"
	"time"

	"github.com/consensys/gnark-crypto/ecc/bls12-381/fr"

	"github.com/g16prover/g16/backend"
)

// upload copies sol's host vectors of the buffers listed in which into
// bufs, laid out as lay says, and waits: the wire MSMs' values are gathered
// on the device when lay says so (gather.go), from W uploaded before them
// (layout.before lists it). The span goes to tl (nil: none).
func (t *partition) upload(dev backend.Backend, q backend.Queue, bufs []backend.Buffer, lay layout, sol *solution, which []int, tl *timeline) error {
	if len(bufs) != nbBuffers {
		return fmt.Errorf("groth16: internal error: %d device buffers, want %d", len(bufs), nbBuffers)
	}
	start := time.Now()
	p := t.p
	ix := lay.index
	if ix == nil && lay.gather != nil {
		return t.errorf("internal error: the device gathers the wire values, and the key's index lists are not on it")
	}
	for _, i := range which {
		if i == bufWB && lay.sharedAB {
			continue // the B MSMs read bufWA
		}
		if lay.gathered(i) {
			if err := t.gatherWires(lay.gather, q, bufs, lay, i, ix.lists[i]); err != nil {
				return t.errorf("gathering %s: %w", bufferNames[i], err)
			}
			continue
		}
		var host []fr.Element
		switch {
		case i == bufA:
			host = sol.a
		case i == bufB:
			host = sol.b
		case i == bufC:
			host = sol.c
		case i == bufW:
			host = sol.w
			sol.wUploaded = true
		case i == bufWA:
			host = sol.wiresA(p)
		case i == bufWB:
			host = sol.wiresB(p)
		case i == bufWK:
			host = sol.kWires(p)
		}
		src := backend.AsBytes(host)
		if int64(len(src)) > lay.sizes[i] {
			return t.errorf("internal error: %d bytes for the %d-byte buffer %s", len(src), lay.sizes[i], bufferNames[i])
		}
		upload := dev.Upload
		if i == bufW || i == bufWA || i == bufWB || i == bufWK {
			// Nothing writes the wire values after solve, and the device
			// only reads them: a backend on host memory may read them in
			// place (the buffer keeps them reachable after release).
			upload = func(q backend.Queue, dst backend.Buffer, off int64, src []byte) error {
				return backend.UploadReadOnly(dev, q, dst, off, src)
			}
		}
		if err := upload(q, bufs[i], 0, src); err != nil {
			return t.errorf("upload: %w", err)
		}
	}
	if err := q.Wait(); err != nil {
		return t.errorf("upload: %w", err)
	}
	t.times.Upload += time.Since(start)
	if tl != nil {
		names := make([]string, len(which))
		for k, i := range which {
			names[k] = bufferNames[i]
			if lay.gathered(i) {
				names[k] += " (gathered)"
			}
		}
		tl.add("upload "+strings.Join(names, ","), start)
	}
	return nil
}
