package cuda

import (
	"fmt"

	"github.com/g16prover/g16/backend"
)

// OpenAll opens GPUs 0..n−1 of those CUDA sees (CUDA_VISIBLE_DEVICES
// applies), with n at most max (0: all), each with opts. It fails when no
// GPU is visible, and in a build without the cuda tag.
func OpenAll(max int, opts ...Option) ([]backend.Backend, error) {
	n, err := DeviceCount()
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, fmt.Errorf("cuda: no GPU visible")
	}
	if max > 0 && max < n {
		n = max
	}
	gpus := make([]backend.Backend, 0, n)
	for i := 0; i < n; i++ {
		g, err := New(i, opts...)
		if err != nil {
			for _, o := range gpus {
				o.Close()
			}
			return nil, fmt.Errorf("cuda: opening GPU %d of %d: %w", i, n, err)
		}
		gpus = append(gpus, g)
	}
	return gpus, nil
}
