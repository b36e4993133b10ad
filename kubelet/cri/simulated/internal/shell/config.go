package shell

import (
	"context"
	"net"
	"net/netip"
	"time"
)

// Stream is an output stream of a process.
type Stream uint8

// The output streams.
const (
	Stdout Stream = 1
	Stderr Stream = 2
)

// Host receives what a process writes. The runtime appends it to the
// container log; an exec collects it.
type Host interface {
	// Write receives text the process wrote to s at its time now. text
	// may hold several lines, or part of one.
	Write(s Stream, now time.Time, text string)
}

// Config is the world a process runs in.
type Config struct {
	// Env is the environment, "NAME=value" in order.
	Env []string
	// Hostname is what `hostname` prints; IP what `hostname -i` prints.
	Hostname string
	IP       string
	// WorkingDir defaults to "/".
	WorkingDir string
	// FS is the container's file system, shared with its execs. Defaults
	// to a new one.
	FS *FS
	// Stdin is what the process reads on fd 0, all of it known when it
	// starts: an exec's stdin, read to its end first (the shell has no
	// blocking reads). A shell given no script runs Stdin as its script,
	// as `echo 'cmd' | sh` does. Defaults to none.
	Stdin string
	// Interactive makes a shell given no script and no Stdin read its
	// commands from its user, one line at a time, as on a terminal: Run
	// returns Prompting when the shell waits for the next line, which
	// Feed gives. Such a shell ends only with exit (or a signal).
	Interactive bool
	// Host receives the output. Required.
	Host Host
	// Network is the cluster network, as the pod sees it: wget, nc and
	// nslookup reach it through this interface only. Defaults to none:
	// every name is a bad address.
	Network Network
	// Servers reports whether a command name (the base name of argv[0])
	// is a server program of the image: running one makes the process
	// serve until it is signalled. Defaults to none.
	Servers func(name string) bool
}

// Network is how a process reaches the cluster: by the names cluster
// DNS answers, at cluster addresses. The runtime gives one per pod; a
// test gives a fake. Its methods block and must be safe for concurrent
// use.
type Network interface {
	// DialContext connects to address (an IP and port), as
	// net.Dialer.DialContext does.
	DialContext(ctx context.Context, network, address string) (net.Conn, error)
	// LookupHost resolves host through cluster DNS with the pod's search
	// path, returning the name that answered (fully qualified) and its
	// addresses. A name that does not exist is an error.
	LookupHost(ctx context.Context, host string) (name string, addrs []netip.Addr, err error)
	// Nameserver is the DNS server of the pod's resolv.conf, as
	// nslookup shows it.
	Nameserver() netip.AddrPort
}

// ResultKind says why Run returned.
type ResultKind uint8

// The results of Run.
const (
	// Sleeping: call Run again at Result.Until (never, when it is zero).
	Sleeping ResultKind = iota
	// Serving: the process runs a server program, Result.Argv, until it
	// is signalled or killed. Run need not be called again.
	Serving
	// Exited: the process ended with Result.ExitCode.
	Exited
	// Prompting: an interactive shell waits for its next line (Feed),
	// after which Run goes on.
	Prompting
	// Waiting: the process waits for network I/O. The caller runs
	// Result.IO without holding anything the network may need (the
	// runtime's lock: the other end may be a container of the same
	// runtime), then calls Run again.
	Waiting
)

// Result is what Run did.
type Result struct {
	Kind ResultKind
	// Until is when a sleeping process wakes; zero means never (sleep
	// infinity, tail -f).
	Until    time.Time
	ExitCode int
	// Argv is the server program a Serving process runs.
	Argv []string
	// IO is the I/O a Waiting process waits for. It returns when done or
	// when ctx ends; Run must not be called while it runs.
	IO func(ctx context.Context)
}
