package groth16

// batchConfig holds ProveBatch's settings. Placeholder until the scheduler
// lands; see pool/.
type batchConfig struct{}
