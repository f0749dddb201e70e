package pool

import (
	"fmt"
	"strings"
)

// JobError is a job's failure. Job is the job's (partition's) index.
type JobError struct {
	Job    int
	Device string // the device of the last attempt; "" for host work
	Err    error
}

func (e *JobError) Error() string {
	if e.Device == "" {
		return fmt.Sprintf("pool: partition %d: %v", e.Job, e.Err)
	}
	return fmt.Sprintf("pool: partition %d on %s: %v", e.Job, e.Device, e.Err)
}

func (e *JobError) Unwrap() error { return e.Err }

// Errors is what Run returns when jobs failed: one JobError per failed job,
// in job order. The other jobs finished.
type Errors []*JobError

func (e Errors) Error() string {
	msgs := make([]string, len(e))
	for i, je := range e {
		msgs[i] = je.Error()
	}
	return strings.Join(msgs, "; ")
}

// Unwrap lets errors.Is and errors.As see every job's error.
func (e Errors) Unwrap() []error {
	errs := make([]error, len(e))
	for i, je := range e {
		errs[i] = je
	}
	return errs
}

// Failed lists the indices of the jobs that failed.
func (e Errors) Failed() []int {
	idx := make([]int, len(e))
	for i, je := range e {
		idx[i] = je.Job
	}
	return idx
}
