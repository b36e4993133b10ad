package streaming

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"

	"github.com/moby/spdystream"
)

// commandStreams are the SPDY streams of one remote command, by type.
type commandStreams struct {
	stdin, stdout, stderr, errorStream, resize *spdystream.Stream
}

// want returns how many streams opts needs: error always, resize with a
// terminal.
func wantStreams(opts Options) int {
	n := 1
	for _, on := range []bool{opts.Stdin, opts.Stdout, opts.Stderr, opts.TTY} {
		if on {
			n++
		}
	}
	return n
}

// serveSPDYCommand serves a remote command over SPDY with the stream
// protocol v4.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming/remotecommand
// (createHTTPStreamStreams, v4ProtocolHandler).
func serveSPDYCommand(w http.ResponseWriter, r *http.Request, opts Options, run RunFunc) {
	raw, ok := upgradeSPDY(w, r, StreamProtocolV4)
	if !ok {
		return
	}
	conn, err := newSPDYConn(raw)
	if err != nil {
		return
	}
	ctx, cancel := context.WithCancel(r.Context())
	defer cancel()

	// The client opens the streams right after the upgrade; wait for all
	// of them, or for the client to go away.
	var cs commandStreams
	for got := 0; got < wantStreams(opts); {
		var s *spdystream.Stream
		var ok bool
		select {
		case s, ok = <-conn.streamCh:
		case <-ctx.Done():
		}
		if !ok {
			conn.close(r.Context())
			return
		}
		slot := map[string]**spdystream.Stream{
			streamTypeStdin: &cs.stdin, streamTypeStdout: &cs.stdout, streamTypeStderr: &cs.stderr,
			streamTypeError: &cs.errorStream, streamTypeResize: &cs.resize,
		}[s.Headers().Get("streamType")]
		if slot == nil || *slot != nil {
			_ = s.Reset()
			continue
		}
		*slot = s
		got++
	}

	var streams Streams
	if cs.stdin != nil {
		streams.Stdin = stdinStream{cs.stdin}
	}
	if cs.stdout != nil {
		streams.Stdout = cs.stdout
	}
	if cs.stderr != nil {
		streams.Stderr = cs.stderr
	}
	resizeCh := make(chan TerminalSize, 4)
	var wg sync.WaitGroup
	if cs.resize != nil {
		streams.Resize = resizeCh
		wg.Go(func() {
			defer close(resizeCh)
			decodeSizes(cs.resize, resizeCh)
		})
	}
	// The client going away ends the command's context; the server
	// stopping closes the connection, which ends whatever the command
	// waits for on it (its stdin).
	wg.Go(func() {
		select {
		case <-conn.servedCh:
			cancel()
		case <-ctx.Done():
			_ = conn.raw.Close()
		}
	})

	err = run(ctx, streams)
	// Nothing reads stdin any more. spdystream hands each data frame to
	// its stream inside its frame loop and waits until it is read, so
	// input the client sends from now on (keys typed after the shell
	// exited) would stop the loop, and with it the close below, for good:
	// reset the stream, which drops its data.
	if cs.stdin != nil {
		_ = cs.stdin.Reset()
	}
	status, _ := json.Marshal(commandStatus(err))
	_, _ = cs.errorStream.Write(status)
	// r's context, not ctx: the close waits for the client to read the
	// status and go, unless the kubelet stops.
	conn.close(r.Context(), cs.stdout, cs.stderr, cs.errorStream, cs.stdin, cs.resize)
	wg.Wait()
}

// decodeSizes reads the JSON sizes the client writes on the resize
// stream until it ends.
func decodeSizes(r io.Reader, ch chan<- TerminalSize) {
	dec := json.NewDecoder(r)
	for {
		var size TerminalSize
		if err := dec.Decode(&size); err != nil {
			return
		}
		select {
		case ch <- size:
		default:
		}
	}
}

// stdinStream is the stdin stream as Streams has it: closing it resets
// the stream, which ends a pending Read (spdystream's Close only ends
// the server's own, writing, half).
type stdinStream struct{ *spdystream.Stream }

func (s stdinStream) Close() error { return s.Reset() }
