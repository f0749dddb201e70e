// Package gnarkcheck says whether the linked gnark is the release whose
// constraint-system layout (instruction calldata, blueprints, levels,
// native hints) g16's solvers read.
package gnarkcheck

import (
	"fmt"
	"runtime/debug"

	"github.com/consensys/gnark"
)

// gnarkModule and gnarkVersion name the gnark release whose constraint
// system layout (instruction calldata, blueprints, levels, native hints)
// the solvers read.
const (
	gnarkModule  = "github.com/consensys/gnark"
	gnarkVersion = "v0.16.1"
	// gnarkReports is what that release reports as gnark.Version.
	gnarkReports = "0.16.0"
)

// Check returns an error when the linked gnark is not the release the
// solvers were written against.
func Check() error {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Path != gnarkModule {
				continue
			}
			if m.Replace != nil {
				m = m.Replace
			}
			if m.Version != gnarkVersion {
				return fmt.Errorf("solver: linked with gnark %s; this solver reads gnark %s's constraint systems", m.Version, gnarkVersion)
			}
			return nil
		}
	}
	if v := gnark.Version.String(); v != gnarkReports {
		return fmt.Errorf("solver: linked with gnark reporting version %s; this solver reads gnark %s's constraint systems", v, gnarkVersion)
	}
	return nil
}
