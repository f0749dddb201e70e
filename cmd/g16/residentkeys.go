package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/synth"
)

// residentKeys puts pk on every device when resident is set (nil keys
// otherwise), printing each upload. With src, pk is hostless and each
// device's key is drawn from src into its memory; when one device cannot
// hold the key (it would stream it from a host copy), the keys drawn so
// far are released, the host copy is drawn (outside the Go heap, its bytes
// taken off the Go memory limit), and every device gets it as
// NewDeviceKey lays it out, once hostCopy (the host memory preflight of a
// key with a host copy) has passed. It returns the key the provers use:
// pk, or that host copy. The caller closes the keys returned, on error too.
func residentKeys(resident bool, devs []namedBackend, pk gnarkgroth16.ProvingKey, src *synth.KeySource, hostCopy func() error, stdout io.Writer) ([]*groth16.DeviceKey, gnarkgroth16.ProvingKey, error) {
	keys := make([]*groth16.DeviceKey, len(devs))
	if !resident {
		return keys, pk, nil
	}
	for i := 0; i < len(devs); i++ {
		d := devs[i]
		start := time.Now()
		var k *groth16.DeviceKey
		var err error
		if src != nil {
			k, err = groth16.NewDeviceKeyFrom(d.dev, pk, src)
			if errors.Is(err, groth16.ErrHostKeyNeeded) {
				fmt.Fprintf(stdout, "%s: %v; drawing the key's host copy for every device\n", d.name, err)
				for j := range keys[:i] {
					if cerr := keys[j].Close(); cerr != nil {
						return keys, pk, cerr
					}
					keys[j] = nil
				}
				if err := hostCopy(); err != nil {
					return keys, pk, fmt.Errorf("%s: the key does not fit the device, and its host copy does not fit the host: %w", d.name, err)
				}
				full, outside, err := src.KeyOutsideHeap()
				if err != nil {
					return keys, pk, err
				}
				takeOffMemoryLimit(outside)
				pk, src, i = full, nil, -1
				continue
			}
		} else {
			k, err = groth16.NewDeviceKey(d.dev, pk)
		}
		if err != nil {
			return keys, pk, fmt.Errorf("%s: %w", d.name, err)
		}
		keys[i] = k
		if src != nil {
			fmt.Fprintf(stdout, "%s: proving key resident (%d MiB), random key drawn on the device, no host copy, in %s\n", d.name, k.Bytes()>>20, fmtDur(time.Since(start)))
		} else if plan := k.Plan(); strings.HasPrefix(plan, "key streamed") {
			fmt.Fprintf(stdout, "%s: %s from the host copy, stream window and commitment bases on the device (%d MiB), in %s\n", d.name, plan, k.Bytes()>>20, fmtDur(time.Since(start)))
		} else {
			fmt.Fprintf(stdout, "%s: proving key resident (%d MiB), uploaded once in %s\n", d.name, k.Bytes()>>20, fmtDur(time.Since(start)))
		}
	}
	return keys, pk, nil
}
