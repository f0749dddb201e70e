package service

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/g16prover/g16/service/client"
)

// QueueConfig is how the job queue redelivers. The server's values define
// the consumer; workers that find it take it as it is.
type QueueConfig struct {
	// AckWait is how long a job may go without a worker's ack or progress
	// report before it is redelivered (default 30 s).
	AckWait time.Duration
	// MaxDeliver bounds the deliveries of one job (default 5).
	MaxDeliver int
	// Replicas is the replication of every stream and bucket (default 1;
	// 3 on a NATS cluster).
	Replicas int
}

func (q QueueConfig) withDefaults() QueueConfig {
	if q.AckWait <= 0 {
		q.AckWait = 30 * time.Second
	}
	if q.MaxDeliver <= 0 {
		q.MaxDeliver = 5
	}
	if q.Replicas <= 0 {
		q.Replicas = 1
	}
	return q
}

// store is the service's JetStream state.
type store struct {
	nc        *nats.Conn
	js        jetstream.JetStream
	stream    jetstream.Stream
	cons      jetstream.Consumer
	jobs      jetstream.KeyValue
	circuits  jetstream.KeyValue
	blobs     jetstream.ObjectStore
	witnesses jetstream.ObjectStore
	proofs    jetstream.ObjectStore
	queue     QueueConfig
}

// openStore binds to the service's stream, consumer, buckets and stores.
// define creates or updates them to cfg (the server); otherwise those that
// exist are used as they are and only missing ones are created (workers).
func openStore(ctx context.Context, nc *nats.Conn, cfg QueueConfig, define bool) (*store, error) {
	cfg = cfg.withDefaults()
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, fmt.Errorf("service: jetstream: %w", err)
	}
	s := &store{nc: nc, js: js, queue: cfg}
	streamCfg := jetstream.StreamConfig{
		Name:       streamJobs,
		Subjects:   []string{subjectJobs + ".>"},
		Retention:  jetstream.WorkQueuePolicy,
		Storage:    jetstream.FileStorage,
		Replicas:   cfg.Replicas,
		Duplicates: 2 * time.Minute,
	}
	if define {
		s.stream, err = js.CreateOrUpdateStream(ctx, streamCfg)
	} else if s.stream, err = js.Stream(ctx, streamJobs); errors.Is(err, jetstream.ErrStreamNotFound) {
		s.stream, err = js.CreateStream(ctx, streamCfg)
	}
	if err != nil {
		return nil, fmt.Errorf("service: stream %s: %w", streamJobs, err)
	}
	consCfg := jetstream.ConsumerConfig{
		Durable:       consumerName,
		AckPolicy:     jetstream.AckExplicitPolicy,
		AckWait:       cfg.AckWait,
		MaxDeliver:    cfg.MaxDeliver,
		MaxAckPending: 10000,
	}
	if define {
		s.cons, err = s.stream.CreateOrUpdateConsumer(ctx, consCfg)
	} else if s.cons, err = s.stream.Consumer(ctx, consumerName); errors.Is(err, jetstream.ErrConsumerNotFound) {
		s.cons, err = s.stream.CreateConsumer(ctx, consCfg)
	}
	if err != nil {
		return nil, fmt.Errorf("service: consumer %s: %w", consumerName, err)
	}
	if info := s.cons.CachedInfo(); info != nil {
		s.queue.AckWait, s.queue.MaxDeliver = info.Config.AckWait, info.Config.MaxDeliver
	}
	for _, kv := range []struct {
		dst  *jetstream.KeyValue
		name string
	}{{&s.jobs, bucketJobs}, {&s.circuits, bucketCircuits}} {
		c := jetstream.KeyValueConfig{Bucket: kv.name, Storage: jetstream.FileStorage, Replicas: cfg.Replicas, History: 1}
		if *kv.dst, err = js.CreateOrUpdateKeyValue(ctx, c); err != nil {
			return nil, fmt.Errorf("service: bucket %s: %w", kv.name, err)
		}
	}
	for _, os := range []struct {
		dst  *jetstream.ObjectStore
		name string
	}{{&s.blobs, storeBlobs}, {&s.witnesses, storeWitness}, {&s.proofs, storeProofs}} {
		c := jetstream.ObjectStoreConfig{Bucket: os.name, Storage: jetstream.FileStorage, Replicas: cfg.Replicas}
		if *os.dst, err = js.CreateOrUpdateObjectStore(ctx, c); err != nil {
			return nil, fmt.Errorf("service: object store %s: %w", os.name, err)
		}
	}
	return s, nil
}

// record is a job as stored: the API's view plus its seed and, when they
// are small (inlineMax), its witness until the job is done and its proof.
// Larger ones are in the witness and proof object stores.
type record struct {
	client.Job
	Seed    []byte `json:"seed"`
	Witness []byte `json:"witness,omitempty"`
	Proof   []byte `json:"proof,omitempty"`
}

// inlineMax is the largest witness or proof kept in the job record: one
// record write and read carry it, where the object store takes a chunk
// and a metadata message to write and a consumer to read.
const inlineMax = 64 << 10

// getJob reads a job record and its revision.
func (s *store) getJob(ctx context.Context, id string) (*record, uint64, error) {
	e, err := s.jobs.Get(ctx, id)
	if err != nil {
		return nil, 0, err
	}
	var r record
	if err := json.Unmarshal(e.Value(), &r); err != nil {
		return nil, 0, fmt.Errorf("service: job %s: corrupt record: %w", id, err)
	}
	return &r, e.Revision(), nil
}

// updateJob applies change to the job's record with a compare-and-set,
// rereading and reapplying on a conflict. change returns false to leave
// the record as it is (then updateJob returns the record read).
func (s *store) updateJob(ctx context.Context, id string, change func(r *record) bool) (*record, bool, error) {
	for {
		r, rev, err := s.getJob(ctx, id)
		if err != nil {
			return nil, false, err
		}
		if !change(r) {
			return r, false, nil
		}
		b, err := json.Marshal(r)
		if err != nil {
			return nil, false, fmt.Errorf("service: internal error: job record: %w", err)
		}
		_, err = s.jobs.Update(ctx, id, b, rev)
		if errors.Is(err, jetstream.ErrKeyRevisionMismatch) || errors.Is(err, jetstream.ErrKeyExists) {
			continue
		}
		if err != nil {
			return nil, false, fmt.Errorf("service: job %s: %w", id, err)
		}
		return r, true, nil
	}
}

// getCircuit reads a circuit record.
func (s *store) getCircuit(ctx context.Context, id string) (*client.Circuit, error) {
	if !validID(id) {
		return nil, jetstream.ErrKeyNotFound
	}
	e, err := s.circuits.Get(ctx, id)
	if err != nil {
		return nil, err
	}
	var c client.Circuit
	if err := json.Unmarshal(e.Value(), &c); err != nil {
		return nil, fmt.Errorf("service: circuit %s: corrupt record: %w", id, err)
	}
	return &c, nil
}

// validID reports whether id can be a key and a subject token: letters,
// digits, '-' and '_'.
func validID(id string) bool {
	if id == "" || len(id) > 128 {
		return false
	}
	for _, c := range id {
		ok := c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_'
		if !ok {
			return false
		}
	}
	return true
}
