package service

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sync"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark/backend/witness"
	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/g16prover/g16/backend/cpu"
	g16curve "github.com/g16prover/g16/curve"
	"github.com/g16prover/g16/groth16"
	"github.com/g16prover/g16/internal/gnarkio"
	"github.com/g16prover/g16/service/client"
)

// ServerConfig configures NewServer.
type ServerConfig struct {
	NATS      *nats.Conn // the connection to NATS (required; the caller closes it)
	Queue     QueueConfig
	UploadDir string       // where chunked uploads are assembled (required)
	Logger    *slog.Logger // default: slog.Default()
	// Registerer takes the server's metrics (default: a registry of its
	// own, served on /metrics).
	Registry *prometheus.Registry
}

// Server is the service's API: it registers circuits, takes jobs and
// reports them. It proves nothing itself; workers do.
type Server struct {
	st      *store
	log     *slog.Logger
	uploads *uploads
	idx     *index
	reg     *prometheus.Registry
	metrics *serverMetrics
	cancel  context.CancelFunc
	// circs caches circuit records for Submit: a record never changes
	// once registered.
	circs sync.Map // id → *client.Circuit
}

// NewServer binds to the service's JetStream state, creating it as
// cfg.Queue says, and replays the stored jobs.
func NewServer(ctx context.Context, cfg ServerConfig) (*Server, error) {
	if cfg.NATS == nil {
		return nil, errors.New("service: NewServer: no NATS connection")
	}
	if cfg.UploadDir == "" {
		return nil, errors.New("service: NewServer: no upload directory")
	}
	if err := os.MkdirAll(cfg.UploadDir, 0o700); err != nil {
		return nil, fmt.Errorf("service: upload directory: %w", err)
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.Registry == nil {
		cfg.Registry = prometheus.NewRegistry()
	}
	st, err := openStore(ctx, cfg.NATS, cfg.Queue, true)
	if err != nil {
		return nil, err
	}
	s := &Server{st: st, log: cfg.Logger, uploads: newUploads(cfg.UploadDir), reg: cfg.Registry}
	s.uploads.removeStale()
	s.metrics = newServerMetrics()
	s.idx = newIndex(s.metrics.finished)
	if err := s.metrics.register(cfg.Registry, s.idx); err != nil {
		return nil, err
	}
	wctx, cancel := context.WithCancel(context.Background())
	s.cancel = cancel
	if err := s.idx.watch(wctx, st.jobs, s.log); err != nil {
		cancel()
		return nil, fmt.Errorf("service: watching jobs: %w", err)
	}
	if err := s.watchGiveUps(wctx); err != nil {
		cancel()
		return nil, err
	}
	if err := s.idx.waitReady(ctx); err != nil {
		cancel()
		return nil, fmt.Errorf("service: replaying jobs: %w", err)
	}
	s.log.Info("service ready", "jobs", len(s.idx.list(listFilter{}).Jobs), "ack_wait", st.queue.AckWait, "max_deliver", st.queue.MaxDeliver)
	return s, nil
}

// Close stops the server's watches. The NATS connection stays open.
func (s *Server) Close() { s.cancel() }

// Registry is where the server's metrics are registered.
func (s *Server) Registry() *prometheus.Registry { return s.reg }

// errStatus is an error with the HTTP status it maps to.
type errStatus struct {
	status int
	err    error
}

func (e *errStatus) Error() string { return e.err.Error() }
func (e *errStatus) Unwrap() error { return e.err }

func statusErr(status int, format string, args ...any) error {
	return &errStatus{status: status, err: fmt.Errorf("service: "+format, args...)}
}

func httpStatus(err error) int {
	var se *errStatus
	if errors.As(err, &se) {
		return se.status
	}
	return http.StatusInternalServerError
}

// Register checks a circuit's uploaded blobs and records it. The R1CS and
// keys must decode, the key's points must lie on the curve, the key must
// fit the circuit (groth16's own checks), and the verifying key, if given,
// must be the proving key's twin.
func (s *Server) Register(ctx context.Context, req client.RegisterRequest) (*client.Circuit, error) {
	for _, b := range []struct{ what, hash string }{{"r1cs", req.R1CS}, {"pk", req.PK}, {"vk", req.VK}} {
		if b.hash == "" && b.what == "vk" {
			continue
		}
		if !validHash(b.hash) {
			return nil, statusErr(http.StatusBadRequest, "register: %s %q is not a SHA-256 (64 lower-case hex digits)", b.what, b.hash)
		}
		if _, err := s.st.blobs.GetInfo(ctx, b.hash); err != nil {
			return nil, statusErr(http.StatusBadRequest, "register: %s blob %s is not uploaded", b.what, b.hash)
		}
	}
	id := circuitID(req.R1CS, req.PK, req.VK)
	if c, err := s.st.getCircuit(ctx, id); err == nil {
		c.AlreadyExists = true
		return c, nil
	}
	files, err := s.st.loadCircuit(ctx, &RegisterInfo{R1CS: req.R1CS, PK: req.PK, VK: req.VK}, "", true)
	if err != nil {
		return nil, &errStatus{http.StatusBadRequest, err}
	}
	// groth16.NewProver runs groth16's checks of the pair; it uploads
	// nothing until a proof.
	dev := cpu.MustNew()
	defer dev.Close()
	pr, err := groth16.NewProver(files.ccs, files.pk, groth16.WithBackend(dev), groth16.WithLogger(s.log))
	if err != nil {
		return nil, statusErr(http.StatusBadRequest, "register: circuit and proving key do not fit: %v", err)
	}
	pr.Close()
	if files.vk != nil {
		if err := gnarkio.CheckKeyPair(files.pk, files.vk); err != nil {
			return nil, statusErr(http.StatusBadRequest, "register: verifying key: %v", err)
		}
	}
	c := &client.Circuit{ID: id, R1CS: req.R1CS, PK: req.PK, VK: req.VK, Curve: g16curve.Name(files.curve), Registered: time.Now().UTC()}
	c.Constraints, c.Public, c.Secret, c.Commitments = shape(files.ccs)
	for _, b := range []struct {
		hash string
		dst  *int64
	}{{req.R1CS, &c.R1CSBytes}, {req.PK, &c.PKBytes}} {
		if info, err := s.st.blobs.GetInfo(ctx, b.hash); err == nil {
			*b.dst = int64(info.Size)
		}
	}
	val, err := json.Marshal(c)
	if err != nil {
		return nil, err
	}
	if _, err := s.st.circuits.Create(ctx, id, val); err != nil && !errors.Is(err, jetstream.ErrKeyExists) {
		return nil, fmt.Errorf("service: register: %w", err)
	}
	s.log.Info("circuit registered", "circuit", id, "curve", c.Curve, "constraints", c.Constraints, "public", c.Public, "verifying_key", c.VK != "")
	return c, nil
}

// Circuits lists the registered circuits.
func (s *Server) Circuits(ctx context.Context) ([]client.Circuit, error) {
	keys, err := s.st.circuits.ListKeys(ctx)
	if err != nil {
		return nil, err
	}
	out := []client.Circuit{}
	for k := range keys.Keys() {
		if c, err := s.st.getCircuit(ctx, k); err == nil {
			out = append(out, *c)
		}
	}
	return out, nil
}

// Submit queues a job, or returns the job its idempotency key already
// names (created false).
func (s *Server) Submit(ctx context.Context, req client.SubmitRequest) (client.Job, bool, error) {
	circ, err := s.circuit(ctx, req.Circuit)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return client.Job{}, false, statusErr(http.StatusNotFound, "submit: no circuit %q", req.Circuit)
	}
	if err != nil {
		return client.Job{}, false, err
	}
	if err := checkWitnessBytes(req.Witness, circ); err != nil {
		return client.Job{}, false, statusErr(http.StatusBadRequest, "submit: %v", err)
	}
	if req.Seed != nil && len(req.Seed) != SeedBytes {
		return client.Job{}, false, statusErr(http.StatusBadRequest, "submit: seed is %d bytes, want %d", len(req.Seed), SeedBytes)
	}
	sum := sha256.Sum256(req.Witness)
	r := record{Job: client.Job{
		Circuit:        req.Circuit,
		State:          client.Queued,
		Batch:          req.Batch,
		IdempotencyKey: req.IdempotencyKey,
		WitnessSHA256:  hex.EncodeToString(sum[:]),
		Submitted:      time.Now().UTC(),
	}, Seed: req.Seed}
	if r.Seed == nil {
		if r.Seed, err = newSeed(); err != nil {
			return client.Job{}, false, err
		}
	}
	if req.IdempotencyKey != "" {
		k := sha256.Sum256([]byte(req.IdempotencyKey))
		r.ID = "k" + hex.EncodeToString(k[:16])
		if old, _, err := s.st.getJob(ctx, r.ID); err == nil {
			return s.resubmitted(ctx, old, &r)
		}
	} else {
		var b [16]byte
		if _, err := rand.Read(b[:]); err != nil {
			return client.Job{}, false, err
		}
		r.ID = "j" + hex.EncodeToString(b[:])
	}
	if len(req.Witness) <= inlineMax {
		r.Witness = req.Witness
	} else if _, err := s.st.witnesses.PutBytes(ctx, r.ID, req.Witness); err != nil {
		return client.Job{}, false, fmt.Errorf("service: submit: storing the witness: %w", err)
	}
	val, err := json.Marshal(&r)
	if err != nil {
		return client.Job{}, false, err
	}
	rev, err := s.st.jobs.Create(ctx, r.ID, val)
	if errors.Is(err, jetstream.ErrKeyExists) {
		old, _, err := s.st.getJob(ctx, r.ID)
		if err != nil {
			return client.Job{}, false, err
		}
		return s.resubmitted(ctx, old, &r)
	} else if err != nil {
		return client.Job{}, false, fmt.Errorf("service: submit: %w", err)
	}
	s.idx.put(r.Job, rev, true)
	if err := s.publish(ctx, &r); err != nil {
		return client.Job{}, false, err
	}
	s.metrics.submitted.Inc()
	s.log.Debug("job submitted", "job", r.ID, "circuit", r.Circuit)
	return r.Job, true, nil
}

// circuit reads a circuit record, once per circuit.
func (s *Server) circuit(ctx context.Context, id string) (*client.Circuit, error) {
	if c, ok := s.circs.Load(id); ok {
		return c.(*client.Circuit), nil
	}
	c, err := s.st.getCircuit(ctx, id)
	if err != nil {
		return nil, err
	}
	s.circs.Store(id, c)
	return c, nil
}

// resubmitted answers a submission whose idempotency key names job old.
func (s *Server) resubmitted(ctx context.Context, old, r *record) (client.Job, bool, error) {
	if old.Circuit != r.Circuit || old.WitnessSHA256 != r.WitnessSHA256 {
		return client.Job{}, false, statusErr(http.StatusConflict,
			"submit: idempotency key %q names job %s, of another circuit or witness", r.IdempotencyKey, old.ID)
	}
	if old.State == client.Queued {
		// The first submission may have stopped before its publish; the
		// stream drops a second message with the same id.
		if err := s.publish(ctx, old); err != nil {
			return client.Job{}, false, err
		}
	}
	return old.Job, false, nil
}

func (s *Server) publish(ctx context.Context, r *record) error {
	if _, err := s.st.js.Publish(ctx, jobSubject(r.Circuit), []byte(r.ID), jetstream.WithMsgID(r.ID)); err != nil {
		return fmt.Errorf("service: submit: queueing job %s: %w", r.ID, err)
	}
	return nil
}

// checkWitnessBytes reports a witness that is not a full witness of circ,
// over its curve. The counts are read from the header (two big-endian
// uint32s, public then secret) before anything is allocated for them.
func checkWitnessBytes(b []byte, circ *client.Circuit) error {
	if len(b) < 8 {
		return fmt.Errorf("witness is %d bytes, too short for gnark's header", len(b))
	}
	nbPub, nbSec := binary.BigEndian.Uint32(b), binary.BigEndian.Uint32(b[4:])
	if int64(nbPub) != int64(circ.Public) || int64(nbSec) != int64(circ.Secret) {
		return fmt.Errorf("witness has %d public and %d secret values, circuit %s takes %d public and %d secret (is it a full witness of this circuit?)",
			nbPub, nbSec, circ.ID, circ.Public, circ.Secret)
	}
	id, err := circuitCurve(circ)
	if err != nil {
		return err
	}
	_, err = decodeWitness(b, id)
	return err
}

// decodeWitness decodes a full witness over curve id in gnark's binary
// encoding (its counts and length checked first: see gnarkio.ReadWitness).
func decodeWitness(b []byte, id ecc.ID) (witness.Witness, error) {
	w, err := gnarkio.ReadWitness(bytes.NewReader(b), id)
	if err != nil {
		return nil, fmt.Errorf("witness is corrupt or of another circuit: %w", err)
	}
	return w, nil
}

// Job returns a job.
func (s *Server) Job(ctx context.Context, id string) (client.Job, error) {
	if !validID(id) {
		return client.Job{}, statusErr(http.StatusNotFound, "no job %q", id)
	}
	r, _, err := s.st.getJob(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return client.Job{}, statusErr(http.StatusNotFound, "no job %q", id)
	}
	if err != nil {
		return client.Job{}, err
	}
	return r.Job, nil
}

// Proof returns a done job's proof (gnark's WriteTo encoding).
func (s *Server) Proof(ctx context.Context, id string) ([]byte, error) {
	if !validID(id) {
		return nil, statusErr(http.StatusNotFound, "no job %q", id)
	}
	r, _, err := s.st.getJob(ctx, id)
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, statusErr(http.StatusNotFound, "no job %q", id)
	}
	if err != nil {
		return nil, err
	}
	if r.State != client.Done {
		return nil, statusErr(http.StatusConflict, "job %s is %s, it has no proof (%s)", id, r.State, r.Error)
	}
	if len(r.Proof) > 0 {
		return r.Proof, nil
	}
	return s.st.proofs.GetBytes(ctx, id)
}
