package core

import "fmt"

// B2Placement says where a proof's MSM over the G2 bases of B,
// B2 = Σ wᵢ[Bᵢ]₂, runs: on the device with the other MSMs, or on the
// host's cores (the CPU backend's MSM, cpu.HostMSM) while the device
// computes H and the G1 MSMs.
type B2Placement int

const (
	// B2Auto lets a cost model choose for each proof (the prover's placeB2): the
	// host when it would finish B2 at least b2MinSaving sooner than the
	// device.
	B2Auto B2Placement = iota
	// B2Device runs B2 on the device.
	B2Device
	// B2Host runs B2 on the host, when the key's G2 bases have a host
	// copy (a key drawn on the device has none: then on the device).
	B2Host
)

func (p B2Placement) String() string {
	switch p {
	case B2Auto:
		return "auto"
	case B2Device:
		return "device"
	case B2Host:
		return "host"
	}
	return fmt.Sprintf("B2Placement(%d)", int(p))
}
