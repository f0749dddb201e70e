package service

import (
	"context"
	"encoding/json"
	"net/http"
	"strconv"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/g16prover/g16/service/client"
)

// maxJSON bounds a JSON request body (a submission carries its witness).
const maxJSON = 64 << 20

// maxWait bounds one wait request; clients wait longer by asking again.
const maxWait = 5 * time.Minute

// Handler serves the HTTP API (see the README) and /metrics.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/uploads", s.handleUploadStart)
	mux.HandleFunc("PUT /v1/uploads/{id}", s.handleUploadChunk)
	mux.HandleFunc("POST /v1/uploads/{id}/commit", s.handleUploadCommit)
	mux.HandleFunc("POST /v1/circuits", s.handleRegister)
	mux.HandleFunc("GET /v1/circuits", s.handleCircuits)
	mux.HandleFunc("GET /v1/circuits/{id}", s.handleCircuit)
	mux.HandleFunc("POST /v1/jobs", s.handleSubmit)
	mux.HandleFunc("GET /v1/jobs", s.handleList)
	mux.HandleFunc("GET /v1/jobs/{id}", s.handleJob)
	mux.HandleFunc("GET /v1/jobs/{id}/wait", s.handleWait)
	mux.HandleFunc("GET /v1/jobs/{id}/proof", s.handleProof)
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, r *http.Request) {
		if !s.st.nc.IsConnected() {
			writeError(w, statusErr(http.StatusServiceUnavailable, "not connected to NATS"))
			return
		}
		writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
	})
	mux.Handle("GET /metrics", promhttp.HandlerFor(s.reg, promhttp.HandlerOpts{}))
	return mux
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, err error) {
	writeJSON(w, httpStatus(err), client.APIError{Message: err.Error()})
}

func readJSON(r *http.Request, v any) error {
	dec := json.NewDecoder(http.MaxBytesReader(nil, r.Body, maxJSON))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return statusErr(http.StatusBadRequest, "request body: %v", err)
	}
	return nil
}

func (s *Server) handleUploadStart(w http.ResponseWriter, r *http.Request) {
	id, err := s.uploads.start()
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusCreated, map[string]string{"upload": id})
}

func (s *Server) handleUploadChunk(w http.ResponseWriter, r *http.Request) {
	off, err := strconv.ParseInt(r.URL.Query().Get("offset"), 10, 64)
	if err != nil || off < 0 {
		writeError(w, statusErr(http.StatusBadRequest, "upload: offset %q is not a byte offset", r.URL.Query().Get("offset")))
		return
	}
	size, err := s.uploads.appendChunk(r.PathValue("id"), off, r.Body)
	if err != nil {
		writeJSON(w, httpStatus(err), map[string]any{"error": err.Error(), "size": size})
		return
	}
	writeJSON(w, http.StatusOK, map[string]int64{"size": size})
}

func (s *Server) handleUploadCommit(w http.ResponseWriter, r *http.Request) {
	b, err := s.uploads.commit(r.Context(), s.st, r.PathValue("id"), r.URL.Query().Get("sha256"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, b)
}

func (s *Server) handleRegister(w http.ResponseWriter, r *http.Request) {
	var req client.RegisterRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	c, err := s.Register(r.Context(), req)
	if err != nil {
		s.log.Warn("circuit refused", "err", err)
		writeError(w, err)
		return
	}
	status := http.StatusCreated
	if c.AlreadyExists {
		status = http.StatusOK
	}
	writeJSON(w, status, c)
}

func (s *Server) handleCircuits(w http.ResponseWriter, r *http.Request) {
	cs, err := s.Circuits(r.Context())
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, cs)
}

func (s *Server) handleCircuit(w http.ResponseWriter, r *http.Request) {
	c, err := s.st.getCircuit(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, statusErr(http.StatusNotFound, "no circuit %q", r.PathValue("id")))
		return
	}
	writeJSON(w, http.StatusOK, c)
}

func (s *Server) handleSubmit(w http.ResponseWriter, r *http.Request) {
	var req client.SubmitRequest
	if err := readJSON(r, &req); err != nil {
		writeError(w, err)
		return
	}
	j, created, err := s.Submit(r.Context(), req)
	if err != nil {
		writeError(w, err)
		return
	}
	status := http.StatusOK
	if created {
		status = http.StatusCreated
	}
	writeJSON(w, status, j)
}

func (s *Server) handleList(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := listFilter{circuit: q.Get("circuit"), batch: q.Get("batch"), state: client.State(q.Get("state")), limit: 1000}
	if l := q.Get("limit"); l != "" {
		n, err := strconv.Atoi(l)
		if err != nil || n < 0 {
			writeError(w, statusErr(http.StatusBadRequest, "list: limit %q is not a count", l))
			return
		}
		f.limit = n
	}
	writeJSON(w, http.StatusOK, s.idx.list(f))
}

func (s *Server) handleJob(w http.ResponseWriter, r *http.Request) {
	j, err := s.Job(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, j)
}

// handleWait answers once the job is done or failed, or after ?timeout=
// (default 30 s) with the job as it stands.
func (s *Server) handleWait(w http.ResponseWriter, r *http.Request) {
	timeout := 30 * time.Second
	if t := r.URL.Query().Get("timeout"); t != "" {
		d, err := time.ParseDuration(t)
		if err != nil || d < 0 {
			writeError(w, statusErr(http.StatusBadRequest, "wait: timeout %q is not a duration", t))
			return
		}
		timeout = min(d, maxWait)
	}
	id := r.PathValue("id")
	if _, err := s.Job(r.Context(), id); err != nil {
		writeError(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), timeout)
	defer cancel()
	j, ok := s.idx.wait(ctx, id)
	if !ok {
		// Stored but not yet seen by the index: report what is stored.
		var err error
		if j, err = s.Job(r.Context(), id); err != nil {
			writeError(w, err)
			return
		}
	}
	writeJSON(w, http.StatusOK, j)
}

func (s *Server) handleProof(w http.ResponseWriter, r *http.Request) {
	b, err := s.Proof(r.Context(), r.PathValue("id"))
	if err != nil {
		writeError(w, err)
		return
	}
	w.Header().Set("Content-Type", "application/octet-stream")
	w.Write(b)
}
