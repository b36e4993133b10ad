package streaming

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// The stream protocols of a remote command.
const (
	// StreamProtocolV4 carries the outcome as a Status on the error
	// channel and a terminal's size on the resize channel.
	StreamProtocolV4 = "v4.channel.k8s.io"
	// StreamProtocolV5 is V4 plus the close signal, over WebSocket only.
	StreamProtocolV5 = "v5.channel.k8s.io"
)

// headerStreamProtocol carries the SPDY protocols the client speaks, and
// in the answer the one chosen.
const headerStreamProtocol = "X-Stream-Protocol-Version"

// The stream types of SPDY streams, in their streamType header.
const (
	streamTypeStdin  = "stdin"
	streamTypeStdout = "stdout"
	streamTypeStderr = "stderr"
	streamTypeError  = "error"
	streamTypeResize = "resize"
	streamTypeData   = "data"
)

// Options say which streams a remote command has. With TTY, stderr is
// part of stdout, as a terminal has one output.
type Options struct {
	Stdin, Stdout, Stderr, TTY bool
}

// OptionsFromQuery reads the kubelet's query parameters input, output,
// error and tty ("1" or "true" for on). At least one stream must be on.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming/remotecommand (NewOptions).
func OptionsFromQuery(q url.Values) (Options, error) {
	on := func(key string) bool {
		b, err := strconv.ParseBool(q.Get(key))
		return err == nil && b
	}
	o := Options{Stdin: on("input"), Stdout: on("output"), Stderr: on("error"), TTY: on("tty")}
	if o.TTY {
		o.Stderr = false
	}
	if !o.Stdin && !o.Stdout && !o.Stderr {
		return o, errors.New("you must specify at least 1 of stdin, stdout, stderr")
	}
	return o, nil
}

// TerminalSize is a terminal's size, as the client sends it on the
// resize channel.
type TerminalSize struct {
	Width  uint16
	Height uint16
}

// Streams are the open streams of one remote command. A stream the
// Options turned off is nil. Stdin ends (io.EOF) when the client closes
// it or goes away; closing it makes a pending Read return, for a command
// that stops reading. Resize is closed when the client goes away.
type Streams struct {
	Stdin          io.ReadCloser
	Stdout, Stderr io.Writer
	Resize         <-chan TerminalSize
}

// ExitError is a command that ended with a non-zero exit code.
type ExitError struct {
	Code int
	// Command is the command line, for the message.
	Command []string
}

// Error says which command exited with which code.
func (e *ExitError) Error() string {
	return fmt.Sprintf("error executing command %v, exit code %d", e.Command, e.Code)
}

// RunFunc runs a remote command with its streams and returns when it
// ends: nil for exit code 0, an *ExitError for another, or why it could
// not run. ctx ends when the client goes away or the server stops.
type RunFunc func(ctx context.Context, s Streams) error

// ServeRemoteCommand upgrades r to the remote-command protocol the client
// asks for (WebSocket v5 or v4, else SPDY v4), runs run with the streams
// opts names, writes its outcome on the error channel and closes the
// connection. A request that upgrades to none of them gets 400, and one
// whose protocols are all unknown 403, as upstream answers. It blocks
// until run has returned and every goroutine it started has ended.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming/remotecommand (ServeExec,
// ServeAttach).
func ServeRemoteCommand(w http.ResponseWriter, r *http.Request, opts Options, run RunFunc) {
	if isWebSocket(r) {
		serveWebSocketCommand(w, r, opts, run)
		return
	}
	serveSPDYCommand(w, r, opts, run)
}

// commandStatus is what the error channel says of run's outcome.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming/remotecommand
// (v4WriteStatusFunc and the callers of writeStatus).
func commandStatus(err error) *metav1.Status {
	st := &metav1.Status{TypeMeta: metav1.TypeMeta{Kind: "Status", APIVersion: "v1"}}
	var exit *ExitError
	switch {
	case err == nil:
		st.Status = metav1.StatusSuccess
	case errors.As(err, &exit):
		st.Status = metav1.StatusFailure
		st.Reason = "NonZeroExitCode"
		st.Message = "command terminated with non-zero exit code: " + exit.Error()
		st.Details = &metav1.StatusDetails{Causes: []metav1.StatusCause{{Type: "ExitCode", Message: strconv.Itoa(exit.Code)}}}
	default:
		st.Status = metav1.StatusFailure
		st.Reason = metav1.StatusReasonInternalError
		st.Code = http.StatusInternalServerError
		st.Message = err.Error()
	}
	return st
}
