package service

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/nats-io/nats.go/jetstream"

	"github.com/g16prover/g16/service/client"
)

// MaxChunk is the largest chunk one upload request may carry.
const MaxChunk = 16 << 20

// uploads assembles chunked uploads in files of one directory until they
// are committed to the blob store under their SHA-256.
type uploads struct {
	dir string
	mu  sync.Mutex // serialises appends and commits
}

// staleUpload is the age at which an upload never committed is removed.
const staleUpload = 24 * time.Hour

func newUploads(dir string) *uploads { return &uploads{dir: dir} }

// removeStale removes uploads untouched for staleUpload, the leftovers of
// clients that never committed.
func (u *uploads) removeStale() {
	entries, _ := os.ReadDir(u.dir)
	for _, e := range entries {
		info, err := e.Info()
		if err == nil && filepath.Ext(e.Name()) == ".upload" && time.Since(info.ModTime()) > staleUpload {
			os.Remove(filepath.Join(u.dir, e.Name()))
		}
	}
}

func (u *uploads) path(id string) (string, error) {
	if len(id) != 32 || !validID(id) {
		return "", statusErr(http.StatusNotFound, "no upload %q", id)
	}
	return filepath.Join(u.dir, id+".upload"), nil
}

// start opens a new, empty upload.
func (u *uploads) start() (string, error) {
	var b [16]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(b[:])
	path, _ := u.path(id)
	f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
	if err != nil {
		return "", fmt.Errorf("service: upload: %w", err)
	}
	return id, f.Close()
}

// appendChunk adds the chunk r at offset, which must be the upload's
// current size (so that a client can resume after a lost reply: a stale
// offset is refused with the size the server holds).
func (u *uploads) appendChunk(id string, offset int64, r io.Reader) (int64, error) {
	path, err := u.path(id)
	if err != nil {
		return 0, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		return 0, statusErr(http.StatusNotFound, "no upload %q", id)
	}
	if err != nil {
		return 0, err
	}
	defer f.Close()
	size, err := f.Seek(0, io.SeekEnd)
	if err != nil {
		return 0, err
	}
	if offset != size {
		return size, statusErr(http.StatusConflict, "upload %s holds %d bytes; a chunk at offset %d does not follow on", id, size, offset)
	}
	n, err := io.Copy(f, io.LimitReader(r, MaxChunk+1))
	if err == nil && n > MaxChunk {
		err = statusErr(http.StatusRequestEntityTooLarge, "upload %s: chunk over %d bytes", id, MaxChunk)
	}
	if err != nil {
		// Leave the upload as it was before this chunk.
		return size, errors.Join(err, f.Truncate(size))
	}
	return size + n, nil
}

// commit checks the upload against the SHA-256 the client computed and
// moves it into the blob store under that name. A mismatch is refused and
// the upload dropped: its bytes were damaged on the way.
func (u *uploads) commit(ctx context.Context, st *store, id, want string) (client.Blob, error) {
	if !validHash(want) {
		return client.Blob{}, statusErr(http.StatusBadRequest, "commit: %q is not a SHA-256 (64 lower-case hex digits)", want)
	}
	path, err := u.path(id)
	if err != nil {
		return client.Blob{}, err
	}
	u.mu.Lock()
	defer u.mu.Unlock()
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return client.Blob{}, statusErr(http.StatusNotFound, "no upload %q", id)
	}
	if err != nil {
		return client.Blob{}, err
	}
	defer os.Remove(path)
	defer f.Close()
	h := sha256.New()
	size, err := io.Copy(h, f)
	if err != nil {
		return client.Blob{}, err
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != want {
		return client.Blob{}, statusErr(http.StatusBadRequest,
			"commit: upload %s is corrupt: its %d bytes have SHA-256 %s, the client sent %s", id, size, got, want)
	}
	if info, err := st.blobs.GetInfo(ctx, want); err == nil && int64(info.Size) == size {
		return client.Blob{SHA256: want, Size: size}, nil
	} else if err != nil && !errors.Is(err, jetstream.ErrObjectNotFound) {
		return client.Blob{}, err
	}
	if _, err := f.Seek(0, io.SeekStart); err != nil {
		return client.Blob{}, err
	}
	if _, err := st.blobs.Put(ctx, jetstream.ObjectMeta{Name: want}, f); err != nil {
		return client.Blob{}, fmt.Errorf("service: commit: storing blob %s: %w", want, err)
	}
	return client.Blob{SHA256: want, Size: size}, nil
}
