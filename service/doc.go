// Package service runs g16 as a proving service on NATS JetStream: a
// server that takes circuits and jobs over HTTP, and workers on any number
// of hosts that prove them.
//
// # Layout in JetStream
//
//	stream   G16_JOBS       work queue, subjects g16.jobs.<circuit>; one
//	                        message per job, its id; explicit acks
//	consumer g16-workers    the durable pull consumer every worker shares
//	kv       g16_jobs       job id → job record (state, seed, timings; the
//	                        witness until done and the proof, when each is
//	                        at most 64 KiB)
//	kv       g16_circuits   circuit id → circuit record (blob hashes, curve,
//	                        sizes)
//	objects  g16_blobs      SHA-256 → R1CS, proving and verifying keys
//	objects  g16_witness    job id → a larger witness (removed once done)
//	objects  g16_proofs     job id → a larger proof (gnark's WriteTo encoding)
//
// Everything is on file storage, so a server restart loses no queued or
// finished job. A circuit's id is the SHA-256 of its three blob hashes, so
// registering the same files twice gives the same circuit.
//
// # Semantics
//
// Delivery is at least once. A worker marks a job running, proves it, stores
// the proof and moves the record to done with a compare-and-set on its
// revision, then acks. A job proved twice (a redelivery racing a slow
// worker) keeps one result: its record moves to done once, and the proof
// stored under its id is the same bytes whichever worker wrote it, since a
// proof depends only on the witness and the job's seed. From its claim
// until its result is stored, a worker tells JetStream the job is in
// progress every third of the ack wait; a worker
// that dies stops doing so, and the job is redelivered after the ack wait to
// any worker. A witness that does not solve fails its job at once with the
// solver's error (it would fail anywhere); other failures are retried until
// the consumer's delivery bound, then fail the job. An idempotency key names
// the job: submitting it again returns the same job.
//
// # Pipeline
//
// A worker claims jobs (fetch, mark running, read the witness) while its
// devices prove the batch before, up to MaxBatch ahead, so the devices do
// not wait for NATS between batches; it stores each result as soon as the
// proof is assembled, while the rest of the batch proves. A stopping worker
// gives back at once the jobs it claimed ahead.
//
// # Randomness
//
// Each job carries a 32-byte seed; its proof's r and s (and commitment
// masks) are read from JobRandomness(seed), AES-256 in counter mode. A job
// proved twice therefore gives the same bytes, and a client that supplies
// the seed can reproduce the proof with groth16.Prove and
// groth16.WithRandomness(JobRandomness(seed)). Without a client seed the
// server draws one from crypto/rand. The seed is as secret as the witness
// (it is stored beside it, in the job record) and is never returned by the
// API.
package service
