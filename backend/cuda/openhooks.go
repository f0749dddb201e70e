//go:build cuda

package cuda

/*
#include "open.h"
*/
import "C"

// Hooks for the tests of New's failure path: g16_open fails at a chosen
// step, and reports what it had created and what it freed (open.h).

// openSteps is the number of steps of g16_open.
func openSteps() int { return int(C.g16_test_open_steps()) }

// failOpenAt makes every later New fail at g16_open's step step; −1: none.
func failOpenAt(step int) { C.g16_test_fail_open(C.int(step)) }

// openTrace is what the last g16_open created and what its failure path
// freed (0 when it opened the device), one bit per step that creates a
// handle.
func openTrace() (made, freed uint) {
	var m, f C.uint
	C.g16_test_open_trace(&m, &f)
	return uint(m), uint(f)
}
