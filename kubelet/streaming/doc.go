// Package streaming is the server side of the kubelet's interactive
// streams: the remote-command protocol behind `kubectl exec` and
// `kubectl attach`, and the port-forward protocol behind
// `kubectl port-forward`. It owns the wire (protocol negotiation, the
// HTTP upgrade, the framing of each stream) and nothing of containers:
// the kubelet hands it a function that runs the command or dials the
// port.
//
// The API server relays these requests to the kubelet unchanged (it
// proxies the upgraded connection), so the protocols spoken here are the
// ones the client asked the API server for:
//
//   - WebSocket with the channel subprotocols v5.channel.k8s.io and
//     v4.channel.k8s.io: each binary message is one byte naming the
//     channel (0 stdin, 1 stdout, 2 stderr, 3 error, 4 resize) and the
//     bytes of that stream; v5 adds the message {255, channel}, which
//     closes a channel (the client's stdin ending). kubectl tries this
//     first.
//   - SPDY/3.1 with the stream protocol v4.channel.k8s.io: the client
//     opens one SPDY stream per channel, named by its streamType header.
//     kubectl falls back to it when the WebSocket upgrade fails.
//   - port-forward over SPDY/3.1 (portforward.k8s.io): the client opens an
//     error and a data stream per connection, tagged with the port and a
//     requestID; and the same SPDY carried in the binary messages of a
//     WebSocket (SPDY/3.1+portforward.k8s.io), which kubectl tries first.
//
// The error channel carries the outcome as a Status: Success, or a
// Failure with reason NonZeroExitCode and an ExitCode cause, from which
// kubectl takes its own exit code.
//
// Every function serves one request and returns once every goroutine it
// started has ended: when the command or the forwarded connections end,
// when the client goes away, or when the request's context is done.
//
// Upstream: k8s.io/kubelet/pkg/cri/streaming (remotecommand, portforward)
// and k8s.io/apimachinery/pkg/util/httpstream (spdy, wsstream).
package streaming
