// Embedded FerretDB: speaks the MongoDB wire protocol on top of PostgreSQL.
// Built and started by scripts/services.ts; see DESIGN.md ("The embedded database").
package main

import (
	"context"
	"flag"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/FerretDB/FerretDB/ferretdb"
)

func main() {
	addr := flag.String("listen", "127.0.0.1:27017", "TCP address to listen on")
	pgURL := flag.String("postgresql-url", "postgres://postgres@127.0.0.1:5432/ferretdb", "PostgreSQL URL")
	// FerretDB logs every connection at info and dumps each unsupported command (the driver's
	// endSessions on every close) at warn, which floods the log during tests; errors only by default.
	level := flag.String("log-level", "error", "debug, info, warn or error")
	flag.Parse()

	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(*level)); err != nil {
		log.Fatal(err)
	}

	f, err := ferretdb.New(&ferretdb.Config{
		Listener:      ferretdb.ListenerConfig{TCP: *addr},
		Handler:       "postgresql",
		PostgreSQLURL: *pgURL,
		Logger:        slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: lvl})),
	})
	if err != nil {
		log.Fatal(err)
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log.Printf("ferretdb listening on %s", *addr)
	f.Run(ctx)
}
