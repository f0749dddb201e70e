package groth16

import "github.com/g16prover/g16/groth16/internal/core"

// B2Placement says where a proof's MSM over the G2 bases of B,
// B2 = Σ wᵢ[Bᵢ]₂, runs: on the device with the other MSMs, or on the
// host's cores (the CPU backend's MSM, cpu.HostMSM) while the device
// computes H and the G1 MSMs.
type B2Placement = core.B2Placement

const (
	// B2Auto lets a cost model choose for each proof: the host when it
	// would finish B2 markedly sooner than the device.
	B2Auto = core.B2Auto
	// B2Device runs B2 on the device.
	B2Device = core.B2Device
	// B2Host runs B2 on the host, when the key's G2 bases have a host
	// copy (a key drawn on the device has none: then on the device).
	B2Host = core.B2Host
)

// WithB2Placement sets where the G2 MSM of B runs (default B2Auto).
// Option of NewProver.
func WithB2Placement(p B2Placement) Option {
	return option("WithB2Placement", atProver, func(c *config) error {
		if p < B2Auto || p > B2Host {
			return optErr("WithB2Placement", "%d is not a placement (B2Auto, B2Device or B2Host)", int(p))
		}
		c.B2 = p
		return nil
	})
}
