//go:build !solution

package readinessprobe

import (
	"context"

	"github.com/minicp/minicp/kubelet"
	"github.com/minicp/minicp/workshop/exercise"
)

// Check runs the probe target.Probe once against target.Container and
// returns nil when it passes, or an error saying why it failed.
//
// TODO(you), one case per handler of the probe:
//   - Exec: run target.Exec(ctx, probe.Exec.Command). It passes when the
//     ExitCode is 0; otherwise fail with the command's output (stdout
//     then stderr), or its exit code when it printed nothing.
//   - HTTPGet: GET <scheme>://<host>:<port><path> with target.HTTPClient.
//     The scheme defaults to http, the host to target.PodIP; the port is
//     a number or the name of one of the container's ports; the path
//     defaults to "/". Send the probe's HTTPHeaders. A status from 200 to
//     399 passes; any other fails, naming the status code.
//   - anything else (TCPSocket, GRPC): fail, "unsupported probe".
//
// It must return once ctx is done: use ctx for the request.
func Check(ctx context.Context, target kubelet.ProbeTarget) error {
	return exercise.NotDone("Check in workshop/readinessprobe/check.go")
}
