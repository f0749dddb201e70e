package bls12381

import (
	"errors"
	"fmt"
	"log/slog"
	"sync"

	gnarkbackend "github.com/consensys/gnark/backend"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/constraint/solver"
	"github.com/rs/zerolog"

	"github.com/g16prover/g16/backend"
	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16/internal/core"
	"github.com/g16prover/g16/internal/zslog"
	"github.com/g16prover/g16/pool"
)

// Prover proves witnesses of one circuit with one proving key, for as long
// as it lives. It holds the prepared circuit, its devices, the key's bases
// resident on each device (uploaded on a device's first proof, kept until
// Close) and the host vectors of its finished proofs, which its next
// proofs fill again (vectorList: an idle Prover holds as many sets as its
// last busy stretch had proofs in flight at once, until Close), so that a
// stream of proofs or batches pays for them once.
//
// A Prover is safe for concurrent use. Prove calls run side by side (each
// on the device with the fewest proofs in flight); a ProveBatch has the
// devices to itself: it waits for running proofs, and later calls wait for
// it.
type Prover struct {
	p       *prover
	devices []*proverDevice
	owned   []backend.Backend // opened by NewProver; closed by Close
	log     *slog.Logger
	vectors *vectorList // the solution vectors of finished proofs, filled again

	// run is held for reading by Prove and for writing by ProveBatch and
	// Close.
	run    sync.RWMutex
	mu     sync.Mutex // guards closed and the devices' inFlight
	closed bool
}

// proverDevice is one of a Prover's devices and the key resident there.
type proverDevice struct {
	dev      backend.Backend
	inFlight int   // single proofs running on it; guarded by Prover.mu
	cached   int64 // what the device's pool cached at NewProver

	keyMu    sync.Mutex
	key      *deviceKey
	external bool // key belongs to a DeviceKey the caller owns
}

// NewProver checks ccs and pk and prepares what every proof shares.
//
// ccs must be a BLS12-381 R1CS and pk the Groth16 key gnark's Setup made
// for it. The devices are those of WithBackends or WithBackend; with
// neither, NewProver opens every GPU a cuda build sees, or one CPU backend
// when the build has no cuda tag or no GPU is usable (saying why through
// the logger), and Close closes them. Options of NewProver: WithBackend,
// WithBackends, WithDeviceKey, WithProverOptions, WithLogger.
func NewProver(ccs constraint.ConstraintSystem, pk gnarkgroth16.ProvingKey, cfg *core.ProverConfig) (*Prover, error) {
	r1cs, key, err := concrete(ccs, pk)
	if err != nil {
		return nil, err
	}
	log := cfg.Logger
	if log == nil {
		log = slog.Default()
	}
	// The solver's own output (the circuit's api.Println lines) goes to
	// WithLogger's logger, else nowhere; the caller's solver options
	// (WithProverOptions) come after and override either.
	solverLog := zerolog.Nop()
	if cfg.Logger != nil {
		solverLog = zslog.New(cfg.Logger.Handler())
	}
	quiet := gnarkbackend.WithSolverOptions(solver.WithLogger(solverLog))
	p, err := newProver(r1cs, key, append([]gnarkbackend.ProverOption{quiet}, cfg.ProverOpts...), cfg.Prepared)
	if err != nil {
		return nil, err
	}
	p.b2 = cfg.B2
	pr := &Prover{p: p, log: log}
	devices := cfg.Devices
	var dk *DeviceKey
	if cfg.DeviceKey != nil {
		var ok bool
		if dk, ok = cfg.DeviceKey.(*DeviceKey); !ok {
			return nil, inputErr("WithDeviceKey: the device key is for %s, the circuit is over %s", g16curve.Name(cfg.DeviceKey.Curve()), g16curve.Name(proverCurve))
		}
	}
	if k := dk; k != nil {
		if k.pk != key {
			return nil, inputErr("WithDeviceKey: the device key was made from another proving key")
		}
		if devices == nil {
			devices = []backend.Backend{k.dev}
		} else if !contains(devices, k.dev) {
			return nil, inputErr("WithDeviceKey: the device key lives on %s, which is not among the Prover's devices", k.dev)
		}
	}
	if devices == nil {
		if devices, err = defaultDevices(log); err != nil {
			return nil, err
		}
		pr.owned = devices
	}
	for _, d := range devices {
		if err := d.Supports(proverCurve); err != nil {
			return nil, errors.Join(inputErr("device %s cannot prove over %s", d, g16curve.Name(proverCurve)), err, pr.closeOwned())
		}
	}
	for _, d := range devices {
		pd := &proverDevice{dev: d, cached: d.Memory().Cached}
		if k := dk; k != nil && k.dev == d {
			pd.key, pd.external = k.key, true
		}
		pr.devices = append(pr.devices, pd)
	}
	pr.vectors = newVectorList(pr.devices)
	return pr, nil
}

func contains(devs []backend.Backend, d backend.Backend) bool {
	for _, e := range devs {
		if e == d {
			return true
		}
	}
	return false
}

// Devices lists the Prover's devices.
func (pr *Prover) Devices() []backend.Backend {
	out := make([]backend.Backend, len(pr.devices))
	for i, d := range pr.devices {
		out[i] = d.dev
	}
	return out
}

// Close frees the keys the Prover uploaded, drops the host vectors it
// kept, trims each device's memory pool back to what it cached at
// NewProver, and closes the devices it opened. It waits for running calls; later calls fail with an error
// matching backend.ErrClosed. Closing twice is not an error.
func (pr *Prover) Close() error {
	pr.run.Lock()
	defer pr.run.Unlock()
	pr.mu.Lock()
	if pr.closed {
		pr.mu.Unlock()
		return nil
	}
	pr.closed = true
	pr.mu.Unlock()
	pr.vectors.drop()
	var errs []error
	for _, d := range pr.devices {
		errs = append(errs, d.release())
	}
	for _, b := range pr.owned {
		errs = append(errs, b.Close())
	}
	return errors.Join(errs...)
}

// enter fails when the Prover is closed; run must be held.
func (pr *Prover) enter() error {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	if pr.closed {
		return fmt.Errorf("groth16: Prover: %w", backend.ErrClosed)
	}
	return nil
}

// residentKey returns the key on d, loading it through dev and q on first
// use (uploaded says so), as the plan for budget says (planFor), with the
// wire index lists its partitions gather by (loadIndex). dev is
// d's backend or a wrapper of it (the scheduler's).
func (d *proverDevice) residentKey(p *prover, dev backend.Backend, q backend.Queue, budget int64) (k *deviceKey, uploaded bool, err error) {
	d.keyMu.Lock()
	defer d.keyMu.Unlock()
	if d.key != nil {
		// The wire index lists, loaded once for the key (a key the caller
		// owns may not have them yet).
		if err := d.key.loadIndex(p, dev, q); err != nil {
			return nil, false, err
		}
		return d.key, false, nil
	}
	pl, err := d.planLocked(p, budget)
	if err != nil {
		return nil, false, err
	}
	if k, err = loadKey(dev, d.dev, q, p.pk, pl, nil); err != nil {
		return nil, false, err
	}
	if err := k.loadIndex(p, dev, q); err != nil {
		return nil, false, errors.Join(err, k.free(dev, q))
	}
	d.key = k
	return k, true, nil
}

// fits fails when a partition cannot be proved on one of devs within
// budget bytes of device memory each (0: each device's default budget,
// pool.DefaultBudget) or within the host's memory: before anything is
// solved. A host too short for the proof has the other idle Provers'
// vectors dropped (vectorList.reclaimOthers) and is measured again.
func (pr *Prover) fits(devs []*proverDevice, budget int64) error {
	for _, d := range devs {
		if _, err := d.planFor(pr.p, budget); err != nil {
			if budget > 0 {
				return optErr("WithMemoryBudget", "%d bytes per device: %v", budget, err)
			}
			return fmt.Errorf("groth16: %w", err)
		}
	}
	err := pr.p.checkHostMemory(pr.vectors.held())
	if err != nil && pr.vectors.reclaimOthers() > 0 {
		// Other idle Provers' vectors dropped: measure again.
		err = pr.p.checkHostMemory(pr.vectors.held())
	}
	return err
}

// planFor is how d holds the key: the plan of the key it holds, or the
// one choosePlan picks for budget bytes (0: the device's default budget,
// pool.DefaultBudget) when it holds none yet.
func (d *proverDevice) planFor(p *prover, budget int64) (plan, error) {
	d.keyMu.Lock()
	defer d.keyMu.Unlock()
	return d.planLocked(p, budget)
}

func (d *proverDevice) planLocked(p *prover, budget int64) (plan, error) {
	if d.key != nil {
		return d.key.plan, nil
	}
	if budget == 0 {
		budget = pool.DefaultBudget(d.dev.Memory())
	}
	return choosePlan(d.dev, p.pk, budget)
}

// loaded reports whether d holds the key.
func (d *proverDevice) loaded() bool {
	d.keyMu.Lock()
	defer d.keyMu.Unlock()
	return d.key != nil
}

// release frees the key the Prover uploaded to d.
func (d *proverDevice) release() error {
	d.keyMu.Lock()
	defer d.keyMu.Unlock()
	if d.key == nil || d.external {
		d.key = nil
		return d.trim()
	}
	q, err := d.dev.NewQueue()
	if err != nil {
		return fmt.Errorf("groth16: freeing the proving key on %s: %w", d.dev, err)
	}
	err = errors.Join(d.key.free(d.dev, q), q.Wait(), q.Close())
	d.key = nil
	if err != nil {
		return fmt.Errorf("groth16: freeing the proving key on %s: %w", d.dev, err)
	}
	return d.trim()
}

// trim releases what the device's pool cached for the Prover: it trims
// back to what the pool held at NewProver.
func (d *proverDevice) trim() error {
	if err := d.dev.TrimPool(d.cached); err != nil {
		return fmt.Errorf("groth16: Close: %w", err)
	}
	return nil
}

// pick returns the device with the fewest single proofs in flight, counted
// until done is called.
func (pr *Prover) pick() (d *proverDevice, done func()) {
	pr.mu.Lock()
	defer pr.mu.Unlock()
	d = pr.devices[0]
	for _, e := range pr.devices[1:] {
		if e.inFlight < d.inFlight {
			d = e
		}
	}
	d.inFlight++
	return d, func() {
		pr.mu.Lock()
		d.inFlight--
		pr.mu.Unlock()
	}
}

// closeOwned closes the devices NewProver opened, when it fails after
// opening them.
func (pr *Prover) closeOwned() error {
	var errs []error
	for _, b := range pr.owned {
		errs = append(errs, b.Close())
	}
	pr.owned = nil
	return errors.Join(errs...)
}
