package client

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// ChunkSize is how much Upload sends per request.
const ChunkSize = 4 << 20

// Client calls one service's API.
type Client struct {
	base string
	hc   *http.Client
}

// maxIdleConns is how many connections to the service a Client keeps
// open between requests: enough for that many submissions and waits at
// once without a new TCP connection each.
const maxIdleConns = 256

// New returns a client of the service at base (e.g. http://127.0.0.1:8416).
func New(base string) *Client {
	hc := &http.Client{}
	if dt, ok := http.DefaultTransport.(*http.Transport); ok {
		tr := dt.Clone()
		tr.MaxIdleConns, tr.MaxIdleConnsPerHost = maxIdleConns, maxIdleConns
		hc.Transport = tr
	}
	return &Client{base: strings.TrimRight(base, "/"), hc: hc}
}

// do sends a request and decodes a JSON reply into out (if not nil).
func (c *Client) do(ctx context.Context, method, path string, body io.Reader, out any) (int, error) {
	req, err := http.NewRequestWithContext(ctx, method, c.base+path, body)
	if err != nil {
		return 0, fmt.Errorf("client: %w", err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return 0, fmt.Errorf("client: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 300 {
		var e APIError
		b, _ := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		if json.Unmarshal(b, &e) != nil || e.Message == "" {
			e.Message = fmt.Sprintf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(b))
		}
		e.Status = resp.StatusCode
		return resp.StatusCode, &e
	}
	if out != nil {
		if err := json.NewDecoder(resp.Body).Decode(out); err != nil {
			return resp.StatusCode, fmt.Errorf("client: %s %s: reply: %w", method, path, err)
		}
	}
	return resp.StatusCode, nil
}

func jsonBody(v any) (io.Reader, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	return bytes.NewReader(b), nil
}

// Upload sends r in chunks and commits it under its SHA-256, which the
// server checks: bytes damaged on the way are refused.
func (c *Client) Upload(ctx context.Context, r io.Reader) (Blob, error) {
	var start struct {
		Upload string `json:"upload"`
	}
	if _, err := c.do(ctx, http.MethodPost, "/v1/uploads", nil, &start); err != nil {
		return Blob{}, err
	}
	h := sha256.New()
	buf := make([]byte, ChunkSize)
	var off int64
	for {
		n, err := io.ReadFull(r, buf)
		if n > 0 {
			h.Write(buf[:n])
			path := "/v1/uploads/" + start.Upload + "?offset=" + strconv.FormatInt(off, 10)
			if _, err := c.do(ctx, http.MethodPut, path, bytes.NewReader(buf[:n]), nil); err != nil {
				return Blob{}, err
			}
			off += int64(n)
		}
		if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
			break
		}
		if err != nil {
			return Blob{}, fmt.Errorf("client: upload: reading: %w", err)
		}
	}
	return c.Commit(ctx, start.Upload, hex.EncodeToString(h.Sum(nil)))
}

// Commit ends an upload, naming the SHA-256 its bytes must have.
func (c *Client) Commit(ctx context.Context, upload, sha string) (Blob, error) {
	var b Blob
	_, err := c.do(ctx, http.MethodPost, "/v1/uploads/"+url.PathEscape(upload)+"/commit?sha256="+url.QueryEscape(sha), nil, &b)
	return b, err
}

// RegisterCircuit uploads a circuit's gnark files (vk may be nil) and
// registers them.
func (c *Client) RegisterCircuit(ctx context.Context, r1cs, pk, vk io.Reader) (Circuit, error) {
	var req RegisterRequest
	for _, f := range []struct {
		r   io.Reader
		dst *string
	}{{r1cs, &req.R1CS}, {pk, &req.PK}, {vk, &req.VK}} {
		if f.r == nil {
			continue
		}
		b, err := c.Upload(ctx, f.r)
		if err != nil {
			return Circuit{}, err
		}
		*f.dst = b.SHA256
	}
	return c.Register(ctx, req)
}

// Register registers a circuit from uploaded blobs.
func (c *Client) Register(ctx context.Context, req RegisterRequest) (Circuit, error) {
	body, err := jsonBody(req)
	if err != nil {
		return Circuit{}, err
	}
	var circ Circuit
	_, err = c.do(ctx, http.MethodPost, "/v1/circuits", body, &circ)
	return circ, err
}

// Circuits lists the registered circuits.
func (c *Client) Circuits(ctx context.Context) ([]Circuit, error) {
	var cs []Circuit
	_, err := c.do(ctx, http.MethodGet, "/v1/circuits", nil, &cs)
	return cs, err
}

// Submit queues a job. A repeat of an idempotency key returns the first
// job.
func (c *Client) Submit(ctx context.Context, req SubmitRequest) (Job, error) {
	body, err := jsonBody(req)
	if err != nil {
		return Job{}, err
	}
	var j Job
	_, err = c.do(ctx, http.MethodPost, "/v1/jobs", body, &j)
	return j, err
}

// Job returns a job as it stands.
func (c *Client) Job(ctx context.Context, id string) (Job, error) {
	var j Job
	_, err := c.do(ctx, http.MethodGet, "/v1/jobs/"+url.PathEscape(id), nil, &j)
	return j, err
}

// Wait returns the job once it is done or failed, or ctx's error.
func (c *Client) Wait(ctx context.Context, id string) (Job, error) {
	for {
		var j Job
		if _, err := c.do(ctx, http.MethodGet, "/v1/jobs/"+url.PathEscape(id)+"/wait?timeout=30s", nil, &j); err != nil {
			if ctx.Err() != nil {
				return j, ctx.Err()
			}
			return j, err
		}
		if j.State.Finished() {
			return j, nil
		}
		if err := ctx.Err(); err != nil {
			return j, err
		}
	}
}

// Proof returns a done job's proof, in gnark's Proof.WriteTo encoding.
func (c *Client) Proof(ctx context.Context, id string) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+"/v1/jobs/"+url.PathEscape(id)+"/proof", nil)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	resp, err := c.hc.Do(req)
	if err != nil {
		return nil, fmt.Errorf("client: %w", err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, fmt.Errorf("client: proof of %s: %w", id, err)
	}
	if resp.StatusCode != http.StatusOK {
		var e APIError
		if json.Unmarshal(b, &e) != nil || e.Message == "" {
			e.Message = fmt.Sprintf("proof of %s: %s", id, resp.Status)
		}
		e.Status = resp.StatusCode
		return nil, &e
	}
	return b, nil
}

// ListOptions filters List.
type ListOptions struct {
	Circuit, Batch string
	State          State
	Limit          int  // default 1000
	All            bool // every job that matches: no limit
}

// List returns the jobs that match, oldest first, with counts by state.
func (c *Client) List(ctx context.Context, o ListOptions) (JobList, error) {
	q := url.Values{}
	for k, v := range map[string]string{"circuit": o.Circuit, "batch": o.Batch, "state": string(o.State)} {
		if v != "" {
			q.Set(k, v)
		}
	}
	switch {
	case o.All:
		q.Set("limit", "0")
	case o.Limit > 0:
		q.Set("limit", strconv.Itoa(o.Limit))
	}
	var l JobList
	_, err := c.do(ctx, http.MethodGet, "/v1/jobs?"+q.Encode(), nil, &l)
	return l, err
}

// Healthy reports whether the server answers and is connected to NATS.
func (c *Client) Healthy(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	_, err := c.do(ctx, http.MethodGet, "/healthz", nil, nil)
	return err
}
