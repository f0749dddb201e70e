// Package client talks to a g16 proving service (g16 serve) over its
// HTTP+JSON API, and defines the API's types.
//
// A circuit is registered once from its gnark files, uploaded in chunks:
//
//	c := client.New("http://127.0.0.1:8416")
//	circ, err := c.RegisterCircuit(ctx, r1cs, pk, vk) // io.Readers
//	job, err := c.Submit(ctx, client.SubmitRequest{Circuit: circ.ID, Witness: w})
//	job, err = c.Wait(ctx, job.ID)
//	proof, err := c.Proof(ctx, job.ID) // gnark's Proof.WriteTo bytes
package client
