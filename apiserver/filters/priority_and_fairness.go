package filters

import (
	"context"
	"net/http"

	"github.com/minicp/minicp/api/apierrors"
	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	"github.com/minicp/minicp/apiserver/flowcontrol"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/apiserver/responsewriters"
)

// FlowControl dispatches requests by priority and fairness; the
// flowcontrol.Controller is one.
type FlowControl interface {
	Handle(ctx context.Context, d flowcontrol.RequestDigest, execute func(flowcontrol.Classification)) flowcontrol.Result
}

// tooManyRequestsMessage completes apierrors.NewTooManyRequests' "Too
// many requests: " into upstream's answer to a request APF rejects, "Too
// many requests, please try again later." (which upstream sends as plain
// text, not a Status).
const tooManyRequestsMessage = "please try again later."

// WithPriorityAndFairness serves each request when fc dispatches it, with
// the headers that name the FlowSchema and priority level it was
// classified into, and answers 429 with a Retry-After when fc rejects
// it. The request's seat is free again once h returns, whether it ended,
// timed out or its client went away. Long-running requests (watches, log
// streams, exec) and requests without a user never take a seat.
//
// Upstream: k8s.io/apiserver/pkg/server/filters (WithPriorityAndFairness).
func WithPriorityAndFairness(h http.Handler, fc FlowControl) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		info, _ := request.RequestInfoFrom(r.Context())
		user, ok := request.UserFrom(r.Context())
		if info == nil || !ok || isLongRunning(info) {
			h.ServeHTTP(w, r)
			return
		}
		res := fc.Handle(r.Context(), flowcontrol.RequestDigest{RequestInfo: info, User: user}, func(cl flowcontrol.Classification) {
			setFlowControlHeaders(w, cl)
			h.ServeHTTP(w, r)
		})
		if res.Served {
			return
		}
		setFlowControlHeaders(w, res.Classification)
		if r.ContentLength != 0 && r.ProtoMajor == 1 {
			// net/http's HTTP/1 server reads the unread body of a request
			// before it answers, to keep the connection: a client that
			// trickles its body would hold the 429 back until the read
			// deadline. Closing the connection instead answers at once.
			// (HTTP/2 streams have no such wait, and no such header.)
			w.Header().Set("Connection", "close")
		}
		// Retry after one second: upstream's least, what a level that
		// drops few requests answers.
		responsewriters.WriteError(w, r, apierrors.NewTooManyRequests(tooManyRequestsMessage, 1))
	})
}

func setFlowControlHeaders(w http.ResponseWriter, cl flowcontrol.Classification) {
	if cl.FlowSchemaUID != "" {
		w.Header().Set(flowcontrolv1.ResponseHeaderMatchedFlowSchemaUID, cl.FlowSchemaUID)
	}
	if cl.PriorityLevelUID != "" {
		w.Header().Set(flowcontrolv1.ResponseHeaderMatchedPriorityLevelConfigurationUID, cl.PriorityLevelUID)
	}
}
