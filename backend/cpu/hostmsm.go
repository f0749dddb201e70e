package cpu

import (
	"fmt"

	"github.com/consensys/gnark-crypto/ecc"

	"github.com/g16prover/g16/curve"
)

// HostMSM sets out, a Jacobian point of curve c's G1 (G2 with g2), to
// Σ scalars[i]·bases[i] on the host's cores, with tasks goroutines, in the
// calling goroutine: the Backend's MSM (the 0 and ±1 terms apart, the
// others through gnark-crypto's MultiExp) with no device around it, no
// memory accounting and no copy of bases or scalars, which are read in
// place in the curve's gnark-crypto layout. A prover uses it for an MSM it
// keeps on the host while its device computes the others.
func HostMSM(c ecc.ID, g2 bool, out, bases, scalars []byte, tasks int) error {
	k, ok := newKernels()[c]
	if !ok {
		return fmt.Errorf("cpu: HostMSM: curve %s: not supported (it computes on %s)", curve.Name(c), curve.SupportedNames())
	}
	p := curve.Must(c)
	pointBytes, jacBytes := p.G1AffineBytes, p.G1JacBytes
	if g2 {
		pointBytes, jacBytes = p.G2AffineBytes, p.G2JacBytes
	}
	if int64(len(out)) != jacBytes {
		return fmt.Errorf("cpu: HostMSM: out: %d bytes, a %s Jacobian point takes %d", len(out), p.Name, jacBytes)
	}
	if int64(len(bases))%pointBytes != 0 || int64(len(scalars))%p.FrBytes != 0 {
		return fmt.Errorf("cpu: HostMSM: %d bytes of bases, %d of scalars: not whole points of %d bytes and scalars of %d",
			len(bases), len(scalars), pointBytes, p.FrBytes)
	}
	if n, m := int64(len(bases))/pointBytes, int64(len(scalars))/p.FrBytes; n != m {
		return fmt.Errorf("cpu: HostMSM: %d bases, %d scalars", n, m)
	}
	if tasks < 1 {
		return fmt.Errorf("cpu: HostMSM: %d tasks: need at least one", tasks)
	}
	if err := k.MSM(g2, out, bases, scalars, tasks); err != nil {
		return fmt.Errorf("cpu: HostMSM: %w", err)
	}
	return nil
}
