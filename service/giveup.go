package service

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/g16prover/g16/service/client"
)

// maxDeliveriesAdvisory is what JetStream publishes when a message has
// been delivered MaxDeliver times without an ack.
const maxDeliveriesAdvisory = "$JS.EVENT.ADVISORY.CONSUMER.MAX_DELIVERIES." + streamJobs + "." + consumerName

// watchGiveUps fails the jobs JetStream stops delivering: a job whose
// workers all died on it (each delivery ended without an ack) would
// otherwise stay running for ever. Workers fail a job themselves when the
// last delivery fails with an error; this covers the deliveries that end
// without one.
func (s *Server) watchGiveUps(ctx context.Context) error {
	sub, err := s.st.nc.Subscribe(maxDeliveriesAdvisory, func(m *nats.Msg) {
		var adv struct {
			StreamSeq  uint64 `json:"stream_seq"`
			Deliveries int    `json:"deliveries"`
		}
		if err := json.Unmarshal(m.Data, &adv); err != nil {
			s.log.Error("max-deliveries advisory unreadable", "err", err)
			return
		}
		actx, cancel := context.WithTimeout(ctx, 10*time.Second)
		defer cancel()
		msg, err := s.st.stream.GetMsg(actx, adv.StreamSeq)
		if err != nil {
			s.log.Error("max-deliveries advisory: job message gone", "seq", adv.StreamSeq, "err", err)
			return
		}
		id := string(msg.Data)
		reason := fmt.Sprintf("delivered %d times without a result (workers died or stopped on it)", adv.Deliveries)
		if _, changed, err := s.st.updateJob(actx, id, func(r *record) bool {
			if r.State.Finished() {
				return false
			}
			r.State, r.Error, r.Finished = client.Failed, reason, time.Now().UTC()
			return true
		}); err != nil {
			s.log.Error("max-deliveries advisory: failing job", "job", id, "err", err)
		} else if changed {
			s.log.Warn("job failed", "job", id, "reason", reason)
		}
		// The job will not be delivered again; take it off the work queue.
		if err := s.st.stream.DeleteMsg(actx, adv.StreamSeq); err != nil {
			s.log.Debug("max-deliveries advisory: removing message", "seq", adv.StreamSeq, "err", err)
		}
	})
	if err != nil {
		return fmt.Errorf("service: subscribing to %s: %w", maxDeliveriesAdvisory, err)
	}
	go func() {
		<-ctx.Done()
		sub.Unsubscribe()
	}()
	return nil
}
