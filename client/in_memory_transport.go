package client

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
)

// NewInMemoryTransport returns a RoundTripper that serves each request by
// calling h.ServeHTTP directly, in a goroutine of its own: no TCP, no TLS,
// but the whole handler chain (authentication, audit, authorization,
// limits, admission) still runs. It is how components embedded in one
// process with the API server talk to it.
//
// Responses stream: RoundTrip returns as soon as the handler writes its
// header, writes a byte or flushes, and the body is a pipe the handler
// writes into, so a watch delivers each event as the handler writes it.
// The ResponseWriter implements http.Flusher.
//
// Lifecycle of one request, and why nothing leaks:
//
//  1. the handler runs with a context derived from the request's;
//  2. RoundTrip returns the response, or the request context's error if
//     it ends before the handler answered (the handler is then cancelled
//     and waited for);
//  3. the handler returns: the body reports EOF after the last byte;
//  4. Body.Close cancels the handler's context, fails the handler's
//     pending writes, and waits for the handler to return. Cancelling the
//     request's context also fails the body's pending reads at once.
//
// A handler that panics (the API server's own recovery filter normally
// catches panics first) fails the request or its body with an error
// instead of crashing the process.
//
// A Config with CertData and KeyData over this transport presents that
// certificate as the TLS peer certificate of every request: the server
// authenticates it as it would after a handshake, chain verification
// included, with no shortcut around authentication.
//
// Upstream: none; client-go reaches in-process servers through a loopback
// listener.
func NewInMemoryTransport(h http.Handler) http.RoundTripper {
	return &inMemoryTransport{handler: h}
}

type inMemoryTransport struct {
	handler http.Handler
	// peer is the TLS state requests carry: nil without a client
	// certificate. Shared, read-only.
	peer *tls.ConnectionState
}

// withPeerCertificate returns a copy of t whose requests present the PEM
// certificate certPEM. keyPEM must be its key, as a handshake would
// prove, though nothing is signed with it.
func (t *inMemoryTransport) withPeerCertificate(certPEM, keyPEM []byte) (*inMemoryTransport, error) {
	pair, err := tls.X509KeyPair(certPEM, keyPEM)
	if err != nil {
		return nil, fmt.Errorf("client: client certificate: %w", err)
	}
	chain := make([]*x509.Certificate, 0, len(pair.Certificate))
	for _, der := range pair.Certificate {
		cert, err := x509.ParseCertificate(der)
		if err != nil {
			return nil, fmt.Errorf("client: client certificate: %w", err)
		}
		chain = append(chain, cert)
	}
	return &inMemoryTransport{handler: t.handler, peer: &tls.ConnectionState{
		Version: tls.VersionTLS13, HandshakeComplete: true, PeerCertificates: chain,
	}}, nil
}

// errBodyClosed fails the handler's writes once the client closed the body.
var errBodyClosed = errors.New("client: in-memory response body closed")

// RoundTrip implements http.RoundTripper.
func (t *inMemoryTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ctx, cancel := context.WithCancel(req.Context())
	sreq := req.Clone(ctx)
	if sreq.Body == nil {
		// Server-side requests always have a body, as net/http's server
		// guarantees; handlers rely on it.
		sreq.Body = http.NoBody
	}
	sreq.RequestURI = req.URL.RequestURI()
	sreq.RemoteAddr = "in-memory"
	sreq.TLS = t.peer
	sreq.Host = req.URL.Host
	sreq.Proto, sreq.ProtoMajor, sreq.ProtoMinor = "HTTP/1.1", 1, 1

	pr, pw := io.Pipe()
	w := &pipeResponseWriter{header: http.Header{}, pipe: pw, headerCh: make(chan struct{})}
	doneCh := make(chan struct{})
	go func() {
		defer close(doneCh)
		err := serve(t.handler, w, sreq)
		if req.Body != nil {
			req.Body.Close() // the RoundTripper contract: the transport closes it
		}
		if err == nil && ctx.Err() != nil {
			// A handler that returned because the request was cancelled
			// did not finish its response: the reader must not see a
			// clean EOF.
			err = context.Cause(ctx)
		}
		w.finish(err)
	}()
	// A read blocked on the pipe fails with the context's error as soon
	// as the request's context ends, as it does on a real connection.
	// Closing the writer's side is what makes reads return that error; the
	// handler's later writes fail too.
	stopAfter := context.AfterFunc(ctx, func() { pw.CloseWithError(context.Cause(ctx)) })
	body := &pipeBody{reader: pr, cancel: cancel, stopAfter: stopAfter, doneCh: doneCh}

	select {
	case <-w.headerCh:
	case <-doneCh:
	case <-ctx.Done():
	}
	if err := ctx.Err(); err != nil {
		body.Close()
		return nil, err
	}
	// headerCh is closed once the handler committed a header, which it
	// always has once it returned without panicking.
	select {
	case <-w.headerCh:
	default:
		body.Close()
		return nil, w.err
	}
	return &http.Response{
		Status:        fmt.Sprintf("%d %s", w.code, http.StatusText(w.code)),
		StatusCode:    w.code,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        w.sent,
		Body:          body,
		ContentLength: -1,
		Request:       req,
	}, nil
}

// serve calls h, turning a panic into an error.
func serve(h http.Handler, w http.ResponseWriter, r *http.Request) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("client: in-memory handler panicked: %v", p)
		}
	}()
	h.ServeHTTP(w, r)
	return nil
}

// pipeResponseWriter is the handler's side of an in-memory response. All
// its fields but header are written only by the handler goroutine before
// headerCh is closed (or before it returns), and read by RoundTrip after.
type pipeResponseWriter struct {
	header http.Header
	pipe   *io.PipeWriter

	wroteHeader bool
	code        int
	// sent is the header as it was when committed; later changes to
	// header are not sent, as with net/http.
	sent http.Header
	// headerCh is closed when the header is committed.
	headerCh chan struct{}
	// err is why the handler ended without a header (a panic).
	err error
}

var _ http.Flusher = (*pipeResponseWriter)(nil)

// Header implements http.ResponseWriter.
func (w *pipeResponseWriter) Header() http.Header { return w.header }

// WriteHeader implements http.ResponseWriter. Informational (1xx) codes
// are not final and are ignored; a second final code is ignored, as
// net/http does.
func (w *pipeResponseWriter) WriteHeader(code int) {
	if w.wroteHeader || code < http.StatusOK {
		return
	}
	w.wroteHeader = true
	w.code = code
	w.sent = w.header.Clone()
	close(w.headerCh)
}

// Write implements http.ResponseWriter. It blocks until the client reads
// the bytes, and fails once the client closed the body.
func (w *pipeResponseWriter) Write(p []byte) (int, error) {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	return w.pipe.Write(p)
}

// Flush implements http.Flusher: it commits the header. Bytes need no
// flushing, since every Write hands them to the reader.
func (w *pipeResponseWriter) Flush() {
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
}

// finish ends the response after the handler returned: a handler that
// wrote nothing answered 200 with no body; one that panicked fails the
// body (or, before a header, the request).
func (w *pipeResponseWriter) finish(err error) {
	if err != nil && !w.wroteHeader {
		w.err = err
		w.pipe.CloseWithError(err)
		return
	}
	if !w.wroteHeader {
		w.WriteHeader(http.StatusOK)
	}
	w.pipe.CloseWithError(err) // nil: EOF
}

// pipeBody is the client's side of an in-memory response.
type pipeBody struct {
	reader    *io.PipeReader
	cancel    context.CancelFunc
	stopAfter func() bool
	doneCh    chan struct{}
	closeOnce sync.Once
}

// Read implements io.Reader.
func (b *pipeBody) Read(p []byte) (int, error) { return b.reader.Read(p) }

// Close cancels the handler, fails its writes and waits for it to return.
// It is safe to call more than once.
func (b *pipeBody) Close() error {
	b.closeOnce.Do(func() {
		b.stopAfter()
		b.cancel()
		b.reader.CloseWithError(errBodyClosed)
		<-b.doneCh
	})
	return nil
}
