package readinessprobe

import (
	"context"

	"github.com/minicp/minicp/kubelet"
)

// Prober is Check as a kubelet.Prober, for kubelet.Options.Prober: a
// failed check's error is the message of the pod's Unhealthy event.
func Prober() kubelet.Prober {
	return kubelet.ProberFunc(func(ctx context.Context, target kubelet.ProbeTarget) (bool, string) {
		if err := Check(ctx, target); err != nil {
			return false, err.Error()
		}
		return true, ""
	})
}
