package flowcontrol_test

import (
	"context"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/flowcontrol"
	"github.com/minicp/minicp/apiserver/request"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/wait/waittest"
)

// queueWait is the queue wait limit of the tests' controllers.
const queueWait = 15 * time.Second

// harness is a Controller with one test level, "test": two seats, queues
// as given, requests of users in group "testers" split by user.
type harness struct {
	t   *testing.T
	c   *flowcontrol.Controller
	clk *clocktest.Fake
	reg *prometheus.Registry
	// log receives the user of each request as it starts executing.
	log chan string
}

func newHarness(t *testing.T, response flowcontrolv1.LimitResponse) *harness {
	h := &harness{t: t, clk: clocktest.NewFake(time.Unix(0, 0)), reg: prometheus.NewRegistry(), log: make(chan string, 100)}
	// Shares 1 of 6 (the mandatory levels add 5): ceil(12/6) = 2 seats.
	h.c = flowcontrol.New(flowcontrol.Options{ServerConcurrencyLimit: 12, QueueWaitLimit: queueWait, Clock: h.clk, Registerer: h.reg})
	shares := int32(1)
	level := &flowcontrolv1.PriorityLevelConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "test", UID: "pl-uid"},
		Spec: flowcontrolv1.PriorityLevelConfigurationSpec{Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{NominalConcurrencyShares: &shares, LimitResponse: response}},
	}
	schema := &flowcontrolv1.FlowSchema{
		ObjectMeta: metav1.ObjectMeta{Name: "test", UID: "fs-uid"},
		Spec: flowcontrolv1.FlowSchemaSpec{
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: "test"},
			MatchingPrecedence:         100,
			DistinguisherMethod:        &flowcontrolv1.FlowDistinguisherMethod{Type: flowcontrolv1.FlowDistinguisherMethodByUserType},
			Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
				Subjects: []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindGroup, Group: &flowcontrolv1.GroupSubject{Name: "testers"}}},
				ResourceRules: []flowcontrolv1.ResourcePolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"},
					Namespaces: []string{"*"}, ClusterScope: true}},
			}},
		},
	}
	h.c.Update([]*flowcontrolv1.FlowSchema{schema}, []*flowcontrolv1.PriorityLevelConfiguration{level})
	require.Equal(t, 2, h.c.ConcurrencyLimit("test"), "seats of the test level")
	return h
}

func queuing(queues, handSize, length int32) flowcontrolv1.LimitResponse {
	return flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeQueue,
		Queuing: &flowcontrolv1.QueuingConfiguration{Queues: queues, HandSize: handSize, QueueLengthLimit: length}}
}

// call is one request in flight through Handle.
type call struct {
	releaseCh chan struct{}
	resultCh  chan flowcontrol.Result
	cancel    context.CancelFunc
}

// start sends a request of user through Handle; it executes until
// release.
func (h *harness) start(user string) *call {
	ctx, cancel := context.WithCancel(h.t.Context())
	c := &call{releaseCh: make(chan struct{}), resultCh: make(chan flowcontrol.Result, 1), cancel: cancel}
	d := flowcontrol.RequestDigest{
		User:        &request.User{Name: user, Groups: []string{"testers", request.AllAuthenticated}},
		RequestInfo: &request.RequestInfo{IsResourceRequest: true, Verb: "create", Resource: "configmaps", Namespace: "default"},
	}
	go func() {
		c.resultCh <- h.c.Handle(ctx, d, func(flowcontrol.Classification) {
			h.log <- user
			<-c.releaseCh
		})
	}()
	h.t.Cleanup(func() { c.finish(h.t) })
	return c
}

// finish releases c (if it runs) and waits for its result.
func (c *call) finish(t *testing.T) flowcontrol.Result {
	select {
	case <-c.releaseCh:
	default:
		close(c.releaseCh)
	}
	defer c.cancel()
	select {
	case r := <-c.resultCh:
		c.resultCh <- r // for a later finish
		return r
	case <-time.After(waittest.Timeout):
		t.Fatal("request did not finish")
		return flowcontrol.Result{}
	}
}

// executing waits for the next request to start executing and returns
// its user.
func (h *harness) executing() string {
	h.t.Helper()
	select {
	case u := <-h.log:
		return u
	case <-time.After(waittest.Timeout):
		h.t.Fatalf("no request started executing:\n%s", h.c)
		return ""
	}
}

// queued waits until n requests wait in queues: each waits on a timer
// of the fake clock.
func (h *harness) queued(n int) {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(h.t.Context(), waittest.Timeout)
	defer cancel()
	require.NoError(h.t, h.clk.BlockUntilWaiters(ctx, n), "%d requests queued:\n%s", n, h.c)
}

func (h *harness) nothingExecuting() {
	h.t.Helper()
	select {
	case u := <-h.log:
		h.t.Fatalf("request of %s executed, want none", u)
	default:
	}
}

// metric is the value of the series of name whose labels include want,
// summed over the series that match.
func (h *harness) metric(name string, want map[string]string) float64 {
	h.t.Helper()
	mfs, err := h.reg.Gather()
	require.NoError(h.t, err)
	var sum float64
	for _, mf := range mfs {
		if mf.GetName() != name {
			continue
		}
	series:
		for _, m := range mf.GetMetric() {
			have := map[string]string{}
			for _, l := range m.GetLabel() {
				have[l.GetName()] = l.GetValue()
			}
			for k, v := range want {
				if have[k] != v {
					continue series
				}
			}
			sum += m.GetGauge().GetValue() + m.GetCounter().GetValue()
		}
	}
	return sum
}

var testLevel = map[string]string{"priority_level": "test", "flow_schema": "test"}

// TestFairQueuingSharesSeats: a flow that fills the level's seats and
// queues more requests does not keep the seats; as they free, a second
// flow's requests are served between the first flow's.
func TestFairQueuingSharesSeats(t *testing.T) {
	h := newHarness(t, queuing(64, 1, 50))
	greedy := []*call{h.start("greedy"), h.start("greedy")}
	assert.Equal(t, "greedy", h.executing())
	assert.Equal(t, "greedy", h.executing())
	for range 4 {
		greedy = append(greedy, h.start("greedy"))
		h.queued(len(greedy) - 2) // in order
	}
	polite := []*call{h.start("polite")}
	h.queued(5)
	polite = append(polite, h.start("polite"))
	h.queued(6)
	h.nothingExecuting()

	// Each freed seat goes to the flow served least so far: polite's
	// queue starts at the level's virtual time, greedy's is ahead.
	greedy[0].finish(t)
	assert.Equal(t, "greedy", h.executing(), "first seat freed: greedy's head and polite's start together, greedy's came first")
	greedy[1].finish(t)
	assert.Equal(t, "polite", h.executing(), "second seat freed")
	greedy[2].finish(t)
	assert.Equal(t, "greedy", h.executing(), "third seat freed")
	polite[0].finish(t)
	assert.Equal(t, "polite", h.executing(), "fourth seat freed: polite again, ahead of greedy's last two")
	for _, c := range append(greedy, polite...) {
		assert.True(t, c.finish(t).Served)
	}
	assert.Equal(t, 8.0, h.metric("apiserver_flowcontrol_dispatched_requests_total", testLevel), "dispatched requests")
	assert.Equal(t, 0.0, h.metric("apiserver_flowcontrol_current_inqueue_requests", testLevel))
	assert.Equal(t, 0.0, h.metric("apiserver_flowcontrol_current_executing_seats", testLevel))
}

// TestGreedyFlowRejectedOthersServed: a flow whose queue is full is
// rejected at once (queue-full) while another flow of the same level
// still queues and is served first.
func TestGreedyFlowRejectedOthersServed(t *testing.T) {
	// Hands of one queue, two requests per queue.
	h := newHarness(t, queuing(64, 1, 2))
	running := []*call{h.start("greedy"), h.start("greedy")}
	h.executing()
	h.executing()
	h.start("greedy")
	h.start("greedy")
	h.queued(2)
	for range 3 {
		r := h.start("greedy").finish(t)
		assert.False(t, r.Served, "a greedy request beyond its queue")
		assert.Equal(t, flowcontrol.Classification{FlowSchemaName: "test", FlowSchemaUID: "fs-uid",
			PriorityLevelName: "test", PriorityLevelUID: "pl-uid"}, r.Classification)
	}
	other := h.start("other")
	h.queued(3)
	h.nothingExecuting()
	assert.Equal(t, 3.0, h.metric("apiserver_flowcontrol_rejected_requests_total", map[string]string{"reason": "queue-full"}))
	assert.Equal(t, 3.0, h.metric("apiserver_flowcontrol_current_inqueue_requests", testLevel))
	assert.Equal(t, 2.0, h.metric("apiserver_flowcontrol_current_executing_seats", testLevel))
	running[0].finish(t)
	assert.Equal(t, "greedy", h.executing(), "greedy's queue started first")
	running[1].finish(t)
	assert.Equal(t, "other", h.executing(), "then the other flow, ahead of greedy's second")
	assert.True(t, other.finish(t).Served)
}

// TestQueueWaitLimit: a request that waits longer than the queue wait
// limit is rejected (time-out), and one whose client goes away
// (cancelled); neither holds a seat or a place in a queue afterwards.
func TestQueueWaitLimit(t *testing.T) {
	h := newHarness(t, queuing(64, 6, 50))
	a, b := h.start("a"), h.start("b")
	h.executing()
	h.executing()
	late := h.start("late")
	h.queued(1)
	h.clk.Step(queueWait)
	assert.False(t, late.finish(t).Served, "request queued past the limit")
	gone := h.start("gone")
	h.queued(1)
	gone.cancel()
	assert.False(t, gone.finish(t).Served, "request whose client went away")
	assert.Equal(t, 1.0, h.metric("apiserver_flowcontrol_rejected_requests_total", map[string]string{"reason": "time-out"}))
	assert.Equal(t, 1.0, h.metric("apiserver_flowcontrol_rejected_requests_total", map[string]string{"reason": "cancelled"}))
	a.finish(t)
	next := h.start("next")
	assert.Equal(t, "next", h.executing(), "the freed seat, with nobody left in the queues")
	next.finish(t)
	b.finish(t)
}

// TestRejectLevel: a level that rejects runs what its seats hold and
// answers the rest at once, without waiting.
func TestRejectLevel(t *testing.T) {
	h := newHarness(t, flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeReject})
	h.start("a")
	h.start("a")
	h.executing()
	h.executing()
	assert.False(t, h.start("b").finish(t).Served)
	assert.Equal(t, 0, h.clk.Waiters(), "nothing waited")
	assert.Equal(t, 1.0, h.metric("apiserver_flowcontrol_rejected_requests_total", map[string]string{"reason": "concurrency-limit"}))
}

// TestSeatFreedOnPanic: a handler that panics still gives its seat back.
func TestSeatFreedOnPanic(t *testing.T) {
	h := newHarness(t, flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeReject})
	d := flowcontrol.RequestDigest{
		User:        &request.User{Name: "p", Groups: []string{"testers"}},
		RequestInfo: &request.RequestInfo{IsResourceRequest: true, Verb: "get", Resource: "pods", Namespace: "default"},
	}
	for range 3 {
		assert.Panics(t, func() {
			h.c.Handle(t.Context(), d, func(flowcontrol.Classification) { panic("handler bug") })
		})
	}
	assert.Equal(t, 0.0, h.metric("apiserver_flowcontrol_current_executing_seats", testLevel))
	r := h.c.Handle(t.Context(), d, func(flowcontrol.Classification) {})
	assert.True(t, r.Served, "seats are free after panics")
}

// TestExemptNeverQueues: system:masters is exempt however busy the
// server is.
func TestExemptNeverQueues(t *testing.T) {
	h := newHarness(t, flowcontrolv1.LimitResponse{Type: flowcontrolv1.LimitResponseTypeReject})
	admin := flowcontrol.RequestDigest{
		User:        &request.User{Name: "admin", Groups: []string{request.SystemPrivilegedGroup, "testers"}},
		RequestInfo: &request.RequestInfo{IsResourceRequest: true, Verb: "get", Resource: "pods", Namespace: "default"},
	}
	done := make(chan struct{})
	for range 20 {
		go h.c.Handle(t.Context(), admin, func(flowcontrol.Classification) { <-done })
	}
	r := h.c.Handle(t.Context(), admin, func(flowcontrol.Classification) {})
	close(done)
	assert.True(t, r.Served)
	assert.Equal(t, "exempt", r.PriorityLevelName)
}

// TestUpdateKeepsQueuedRequests: a configuration change that reshapes a
// level's queues keeps the requests queued in it, and a change of its
// share takes effect for the next dispatch.
func TestUpdateKeepsQueuedRequests(t *testing.T) {
	h := newHarness(t, queuing(64, 1, 50))
	first := []*call{h.start("a"), h.start("a")}
	h.executing()
	h.executing()
	waiting := h.start("b")
	h.queued(1)
	// More shares: four seats, and other queues.
	shares := int32(4)
	level := &flowcontrolv1.PriorityLevelConfiguration{
		ObjectMeta: metav1.ObjectMeta{Name: "test"},
		Spec: flowcontrolv1.PriorityLevelConfigurationSpec{Type: flowcontrolv1.PriorityLevelEnablementLimited,
			Limited: &flowcontrolv1.LimitedPriorityLevelConfiguration{NominalConcurrencyShares: &shares, LimitResponse: queuing(8, 2, 10)}},
	}
	schema := h.c.Classify(flowcontrol.RequestDigest{User: &request.User{Name: "a", Groups: []string{"testers"}},
		RequestInfo: &request.RequestInfo{Verb: "get", Path: "/x"}})
	require.Equal(t, "catch-all", schema.FlowSchemaName, "the test schema has resource rules only")
	fs := []*flowcontrolv1.FlowSchema{{
		ObjectMeta: metav1.ObjectMeta{Name: "test"},
		Spec: flowcontrolv1.FlowSchemaSpec{
			PriorityLevelConfiguration: flowcontrolv1.PriorityLevelConfigurationReference{Name: "test"}, MatchingPrecedence: 100,
			Rules: []flowcontrolv1.PolicyRulesWithSubjects{{
				Subjects:      []flowcontrolv1.Subject{{Kind: flowcontrolv1.SubjectKindGroup, Group: &flowcontrolv1.GroupSubject{Name: "testers"}}},
				ResourceRules: []flowcontrolv1.ResourcePolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}, Namespaces: []string{"*"}}},
			}},
		},
	}}
	h.c.Update(fs, []*flowcontrolv1.PriorityLevelConfiguration{level})
	assert.Equal(t, 6, h.c.ConcurrencyLimit("test"), "ceil(12 * 4/9)")
	assert.Equal(t, "b", h.executing(), "the queued request took a new seat")
	assert.True(t, waiting.finish(t).Served)
	for _, c := range first {
		assert.True(t, c.finish(t).Served)
	}
}
