package service

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Embedded is a NATS server with JetStream run inside this process.
type Embedded struct {
	srv *server.Server
}

// EmbeddedConfig configures StartEmbedded.
type EmbeddedConfig struct {
	Dir  string // JetStream's file storage (required)
	Host string // listen address (default 127.0.0.1: this host only)
	Port int    // client port (default: a free one; -1 as well)
	// SyncAlways makes JetStream sync every write to disk. Without it, what
	// is written survives the process (a crash, a kill) at once, and the
	// host (power loss) once JetStream's periodic sync has run.
	SyncAlways bool
}

// StartEmbedded starts a NATS server with JetStream on file storage in
// cfg.Dir and waits until it takes connections.
func StartEmbedded(cfg EmbeddedConfig) (*Embedded, error) {
	if cfg.Dir == "" {
		return nil, fmt.Errorf("service: embedded NATS: no storage directory")
	}
	if cfg.Host == "" {
		cfg.Host = "127.0.0.1"
	}
	if cfg.Port == 0 {
		cfg.Port = server.RANDOM_PORT
	}
	opts := &server.Options{
		ServerName: "g16",
		Host:       cfg.Host,
		Port:       cfg.Port,
		JetStream:  true,
		StoreDir:   cfg.Dir,
		NoSigs:     true,
		NoLog:      true,
		MaxPayload: 8 << 20,
		SyncAlways: cfg.SyncAlways,
	}
	srv, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("service: embedded NATS: %w", err)
	}
	srv.Start()
	if !srv.ReadyForConnections(10 * time.Second) {
		srv.Shutdown()
		return nil, fmt.Errorf("service: embedded NATS did not start listening on %s:%d", cfg.Host, cfg.Port)
	}
	return &Embedded{srv: srv}, nil
}

// URL is the address clients and workers connect to.
func (e *Embedded) URL() string { return e.srv.ClientURL() }

// Shutdown stops the server; what JetStream stored stays in its directory.
func (e *Embedded) Shutdown() {
	e.srv.Shutdown()
	e.srv.WaitForShutdown()
}
