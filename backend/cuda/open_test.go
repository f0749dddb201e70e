//go:build cuda

package cuda

import (
	"errors"
	"fmt"
	"math/bits"
	"strings"
	"testing"

	"github.com/g16prover/g16/backend"
)

// TestOpenFailsCleanlyHost: New fails at each step of g16_open (a failure
// injected there: no driver at the first, an unknown device at the
// second, out of memory after) with an error naming the device and the
// cause, without a crash; the failure path frees exactly the handles the
// steps before created, and the device opens afterwards. On a machine with
// no GPU the real first step fails on every try, before any injected one:
// then New reports that failure and nothing is created or freed.
func TestOpenFailsCleanlyHost(t *testing.T) {
	gpus, _ := DeviceCount()
	t.Logf("%d GPUs visible", gpus)
	defer failOpenAt(-1)
	steps := openSteps()
	if steps < 3 {
		t.Fatalf("g16_open has %d steps", steps)
	}
	var prev uint
	for step := 0; step < steps; step++ {
		failOpenAt(step)
		b, err := New(0)
		if err == nil {
			b.Close()
			t.Fatalf("step %d: New(0) opened the device with a failure injected", step)
		}
		msg := err.Error()
		made, freed := openTrace()
		t.Logf("step %d: made %#x, freed %#x: %v", step, made, freed, err)
		if !strings.HasPrefix(msg, "cuda:0: cannot open the device: ") || !strings.Contains(msg, "@device.cu:") {
			t.Errorf("step %d: the error does not name the device and the failed call: %q", step, msg)
		}
		if made != freed {
			t.Errorf("step %d: open created %#x and freed %#x", step, made, freed)
		}
		if gpus == 0 {
			if made != 0 || !strings.Contains(msg, "cudaGetDeviceCount") {
				t.Errorf("step %d, no GPU: want the device count's failure with nothing created, got made %#x: %q", step, made, msg)
			}
			continue
		}
		if made&prev != prev || bits.OnesCount(made) > bits.OnesCount(prev)+1 {
			t.Errorf("step %d: created %#x after %#x at the step before", step, made, prev)
		}
		prev = made
		switch {
		case step == 0:
			if made != 0 || !strings.Contains(msg, "driver") {
				t.Errorf("step 0: want no driver, nothing created: made %#x, %q", made, msg)
			}
		case step == 1:
			if made != 0 || !strings.Contains(msg, "cudaSetDevice") || !strings.Contains(msg, "invalid device ordinal") {
				t.Errorf("step 1: want cudaSetDevice's unknown device, nothing created: made %#x, %q", made, msg)
			}
		default:
			if !errors.Is(err, backend.ErrOutOfMemory) || !strings.Contains(msg, "out of memory") {
				t.Errorf("step %d: want out of memory matching backend.ErrOutOfMemory: %q", step, msg)
			}
		}
	}
	failOpenAt(-1)
	if gpus == 0 {
		return
	}
	b, err := New(0)
	if err != nil {
		t.Fatalf("New(0) after the failed opens: %v", err)
	}
	made, _ := openTrace()
	if made&prev != prev || bits.OnesCount(made) != bits.OnesCount(prev)+1 {
		t.Errorf("a whole open created %#x; the last step's failure had created %#x", made, prev)
	}
	buf, err := b.Alloc(nil, 1<<20)
	if err != nil {
		t.Fatalf("Alloc after the failed opens: %v", err)
	}
	if err := b.Free(nil, buf); err != nil {
		t.Errorf("Free: %v", err)
	}
	if err := b.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
}

// TestOpenMissingDeviceHost: New on an ordinal no GPU has (as a wrong
// CUDA_VISIBLE_DEVICES or a typo gives), and on a negative one, returns an
// error naming the ordinal and the cause instead of crashing.
func TestOpenMissingDeviceHost(t *testing.T) {
	gpus, _ := DeviceCount()
	for _, ord := range []int{4096, gpus, -1} {
		b, err := New(ord)
		if err == nil {
			b.Close()
			t.Fatalf("New(%d) with %d GPUs visible opened a device", ord, gpus)
		}
		t.Logf("New(%d): %v", ord, err)
		want := "no such device"
		if gpus == 0 {
			want = "cudaGetDeviceCount" // no driver or no device: the count fails first
		}
		if prefix := fmt.Sprintf("cuda:%d: cannot open the device: ", ord); !strings.HasPrefix(err.Error(), prefix) || !strings.Contains(err.Error(), want) {
			t.Errorf("New(%d): want %q and %q in %q", ord, prefix, want, err)
		}
		if made, freed := openTrace(); made != 0 || freed != 0 {
			t.Errorf("New(%d): created %#x, freed %#x; want nothing", ord, made, freed)
		}
	}
}
