package service

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
)

// claimed holds the jobs a worker has claimed: those waiting for the
// devices (ready) and every one not yet settled (held), whose progress
// the worker reports to JetStream so that they are not redelivered.
type claimed struct {
	mu    sync.Mutex
	ready []*task
	held  map[*task]struct{}
	wake  chan struct{} // a token: ready grew
	room  chan struct{} // a token: ready shrank
}

func newClaimed() *claimed {
	return &claimed{held: make(map[*task]struct{}), wake: make(chan struct{}, 1), room: make(chan struct{}, 1)}
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (c *claimed) waiting() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.ready)
}

// add queues claimed tasks for the devices.
func (c *claimed) add(ts []*task) {
	if len(ts) == 0 {
		return
	}
	c.mu.Lock()
	for _, t := range ts {
		c.ready = append(c.ready, t)
		c.held[t] = struct{}{}
	}
	c.mu.Unlock()
	signal(c.wake)
}

// take returns every ready task, waiting for one; nil once stop is closed.
func (c *claimed) take(stop <-chan struct{}) []*task {
	for {
		c.mu.Lock()
		select {
		case <-stop:
			c.mu.Unlock()
			return nil
		default:
		}
		if ts := c.ready; len(ts) > 0 {
			c.ready = nil
			c.mu.Unlock()
			signal(c.room)
			return ts
		}
		c.mu.Unlock()
		select {
		case <-c.wake:
		case <-stop:
			return nil
		}
	}
}

// drain removes and returns the ready tasks.
func (c *claimed) drain() []*task {
	c.mu.Lock()
	defer c.mu.Unlock()
	ts := c.ready
	c.ready = nil
	return ts
}

// release stops the progress reports of a task being settled.
func (c *claimed) release(t *task) {
	c.mu.Lock()
	delete(c.held, t)
	c.mu.Unlock()
}

func (c *claimed) heldTasks() []*task {
	c.mu.Lock()
	defer c.mu.Unlock()
	ts := make([]*task, 0, len(c.held))
	for t := range c.held {
		ts = append(ts, t)
	}
	return ts
}

// heartbeat tells JetStream the held jobs are alive, every third of the
// ack wait, until ctx ends. A worker that dies stops, and its jobs are
// redelivered after the ack wait.
func (w *Worker) heartbeat(ctx context.Context) {
	tick := time.NewTicker(max(w.st.queue.AckWait/3, 10*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
			for _, t := range w.claims.heldTasks() {
				t.msg.InProgress()
			}
		}
	}
}

// fetchChunk is the most jobs one fetch takes per device. A worker fills
// its batch in chunks, so that workers fetching at once from a burst of
// queued jobs take turns instead of the first one taking the whole
// burst.
const fetchChunk = 8

// feed fetches and claims jobs while the devices prove, keeping up to
// MaxBatch claimed jobs ready for the next batch, until ctx ends. It
// returns nil then, or the error that closed the connection.
func (w *Worker) feed(ctx context.Context) error {
	chunk := fetchChunk * len(w.devices)
	for ctx.Err() == nil {
		room := min(w.cfg.MaxBatch-w.claims.waiting(), chunk)
		if room <= 0 {
			select {
			case <-w.claims.room:
			case <-ctx.Done():
			}
			continue
		}
		msgs, err := w.fetch(ctx, room)
		if err != nil {
			if ctx.Err() != nil {
				break
			}
			if errors.Is(err, nats.ErrConnectionClosed) {
				return fmt.Errorf("service: worker %s: %w", w.cfg.Name, err)
			}
			w.log.Warn("fetching jobs", "err", err)
			select {
			case <-time.After(time.Second):
			case <-ctx.Done():
			}
			continue
		}
		w.claims.add(w.claimAll(msgs))
	}
	return nil
}

// fetch waits up to a second for a job, then takes what else is queued,
// up to n in all.
func (w *Worker) fetch(ctx context.Context, n int) ([]jetstream.Msg, error) {
	first, err := w.st.cons.Fetch(1, jetstream.FetchMaxWait(time.Second))
	if err != nil {
		return nil, err
	}
	var msgs []jetstream.Msg
	for m := range first.Messages() {
		msgs = append(msgs, m)
	}
	if err := first.Error(); err != nil && !errors.Is(err, nats.ErrTimeout) && len(msgs) == 0 {
		return nil, err
	}
	if len(msgs) == 0 || n <= 1 || ctx.Err() != nil {
		return msgs, nil
	}
	more, err := w.st.cons.FetchNoWait(n - 1)
	if err != nil {
		return msgs, nil
	}
	for m := range more.Messages() {
		msgs = append(msgs, m)
	}
	return msgs, nil
}

// claimAll claims the delivered jobs, side by side, and returns those to
// prove. A claim runs to its end even when the worker is stopping: the
// worker gives the claimed jobs back.
func (w *Worker) claimAll(msgs []jetstream.Msg) []*task {
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	now := time.Now()
	out := make([]*task, len(msgs))
	var wg sync.WaitGroup
	for i, m := range msgs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			out[i] = w.claim(ctx, m, now)
		}()
	}
	wg.Wait()
	var tasks []*task
	for _, t := range out {
		if t != nil {
			tasks = append(tasks, t)
		}
	}
	return tasks
}
