package client

import (
	"fmt"
	"time"
)

// State is where a job stands.
type State string

const (
	Queued  State = "queued"  // waiting for a worker (or for redelivery)
	Running State = "running" // a worker is proving it
	Done    State = "done"    // its proof is stored
	Failed  State = "failed"  // it will not be proved; Error says why
)

// Finished reports whether the job has reached its last state.
func (s State) Finished() bool { return s == Done || s == Failed }

// Job is a job as the API reports it.
type Job struct {
	ID             string    `json:"id"`
	Circuit        string    `json:"circuit"`
	State          State     `json:"state"`
	Batch          string    `json:"batch,omitempty"`
	IdempotencyKey string    `json:"idempotency_key,omitempty"`
	WitnessSHA256  string    `json:"witness_sha256"`
	Error          string    `json:"error,omitempty"`
	Attempts       int       `json:"attempts"`         // deliveries to workers so far
	Worker         string    `json:"worker,omitempty"` // the worker of the last attempt
	Submitted      time.Time `json:"submitted"`
	Started        time.Time `json:"started,omitzero"`
	Finished       time.Time `json:"finished,omitzero"`
	SolveNs        int64     `json:"solve_ns,omitempty"`  // host time: solving, wire filtering
	DeviceNs       int64     `json:"device_ns,omitempty"` // device time: NTTs, MSMs (overlapping)
	ProofBytes     int       `json:"proof_bytes,omitempty"`
}

// Circuit is a registered circuit.
type Circuit struct {
	ID            string    `json:"id"` // SHA-256 of the R1CS, PK and VK hashes
	R1CS          string    `json:"r1cs"`
	PK            string    `json:"pk"`
	VK            string    `json:"vk,omitempty"`
	Curve         string    `json:"curve"` // of the R1CS and keys: "bn254", "bls12-381", "bls12-377", "bw6-761"
	Constraints   int       `json:"constraints"`
	Public        int       `json:"public"` // public inputs, without the constant wire
	Secret        int       `json:"secret"`
	Commitments   int       `json:"commitments"`
	R1CSBytes     int64     `json:"r1cs_bytes"`
	PKBytes       int64     `json:"pk_bytes"`
	Registered    time.Time `json:"registered"`
	AlreadyExists bool      `json:"already_exists,omitempty"`
}

// RegisterRequest names a circuit's blobs, uploaded first (Upload).
type RegisterRequest struct {
	R1CS string `json:"r1cs"`         // SHA-256 (hex) of gnark's R1CS WriteTo
	PK   string `json:"pk"`           // of the proving key, WriteRawTo or WriteTo
	VK   string `json:"vk,omitempty"` // of the verifying key (WriteTo): proofs are verified before they are stored
}

// SubmitRequest is one job.
type SubmitRequest struct {
	Circuit string `json:"circuit"`
	Witness []byte `json:"witness"` // full witness, gnark's binary encoding
	// IdempotencyKey, if set, names the job: a second submission with the
	// same key returns the first job (and is refused if its circuit or
	// witness differ).
	IdempotencyKey string `json:"idempotency_key,omitempty"`
	// Seed, if set (32 bytes), is the job's randomness seed (see package
	// service's JobRandomness); by default the server draws one.
	Seed  []byte `json:"seed,omitempty"`
	Batch string `json:"batch,omitempty"` // a label to list and follow jobs by
}

// Blob is an uploaded, committed blob.
type Blob struct {
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

// JobList is a page of jobs.
type JobList struct {
	Jobs   []Job         `json:"jobs"`
	Counts map[State]int `json:"counts"` // over every job that matches, not only this page
}

// APIError is the body of every error response.
type APIError struct {
	Status  int    `json:"-"`
	Message string `json:"error"`
}

func (e *APIError) Error() string { return fmt.Sprintf("client: HTTP %d: %s", e.Status, e.Message) }
