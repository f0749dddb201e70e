//go:build cuda

package cuda

/*
const char *g16_sources_id(void);
*/
import "C"

import (
	"fmt"

	"github.com/g16prover/g16/backend/cuda/kernels"
)

// checkLibrary reports a libg16cuda built from other kernel sources than
// this package's (an install left from another g16 version, or kernels
// edited since make cuda).
func checkLibrary() error {
	got, want := C.GoString(C.g16_sources_id()), kernels.ID()
	if got != want {
		return fmt.Errorf("cuda: the installed libg16cuda was built from other kernel sources (%s) than this g16's (%s): rebuild it with `go run github.com/g16prover/g16/cmd/g16-cuda-install` (`make cuda` in the repository)", got, want)
	}
	return nil
}
