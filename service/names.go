package service

// Names of the JetStream stream, consumer, buckets and stores.
const (
	streamJobs     = "G16_JOBS"
	subjectJobs    = "g16.jobs" // a job of circuit c is published on g16.jobs.c
	consumerName   = "g16-workers"
	bucketJobs     = "g16_jobs"
	bucketCircuits = "g16_circuits"
	storeBlobs     = "g16_blobs"
	storeWitness   = "g16_witness"
	storeProofs    = "g16_proofs"
)

func jobSubject(circuit string) string { return subjectJobs + "." + circuit }
