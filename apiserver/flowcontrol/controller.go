package flowcontrol

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	flowcontrolv1 "github.com/minicp/minicp/api/flowcontrol/v1"
	"github.com/minicp/minicp/clock"
)

// Options configures a Controller. The zero Options works.
type Options struct {
	// ServerConcurrencyLimit is the number of seats the priority levels
	// share. Defaults to 600, kube-apiserver's --max-requests-inflight
	// (400) plus --max-mutating-requests-inflight (200), which is how it
	// sizes APF.
	ServerConcurrencyLimit int
	// QueueWaitLimit is how long a request may wait in a queue before it
	// is rejected. Defaults to 15s, kube-apiserver's --request-timeout
	// (60s) over 4.
	QueueWaitLimit time.Duration
	// Clock times the queue waits. Defaults to clock.Real.
	Clock clock.Clock
	// Registerer receives the apiserver_flowcontrol_* metrics. Optional.
	Registerer prometheus.Registerer
}

// Controller classifies requests and dispatches them by priority level.
// It is safe for concurrent use: Handle reads an immutable snapshot of
// the configuration, which Update replaces.
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol (configController).
type Controller struct {
	opts    Options
	metrics *metrics
	cfg     atomic.Pointer[config]

	// mu serializes Update and guards levels.
	mu sync.Mutex
	// levels keeps each Limited level's queues by name across updates,
	// so a configuration change neither drops queued requests nor frees
	// seats that are taken.
	levels map[string]*queueSet
}

// config is one configuration, digested: the schemas in the order they
// are tried, each with its level.
type config struct {
	schemas []*schema
	// catchAll is the schema of requests no schema matches, which only a
	// user in neither system:authenticated nor system:unauthenticated
	// can send.
	catchAll *schema
}

type schema struct {
	fs      *flowcontrolv1.FlowSchema
	level   *level
	metrics flowMetrics
}

type level struct {
	pl *flowcontrolv1.PriorityLevelConfiguration
	// qs is nil for an exempt level.
	qs *queueSet
}

// Classification is what a request was classified as: the schema that
// matched it and its priority level.
type Classification struct {
	FlowSchemaName, FlowSchemaUID       string
	PriorityLevelName, PriorityLevelUID string
}

// Result is what Handle did with a request.
type Result struct {
	Classification
	// Served reports that execute ran; otherwise the request was
	// rejected, and the caller answers 429.
	Served bool
}

// New returns a Controller with the bootstrap configuration, what a
// cluster's objects say until Update has read them.
func New(opts Options) *Controller {
	if opts.ServerConcurrencyLimit <= 0 {
		opts.ServerConcurrencyLimit = 600
	}
	if opts.QueueWaitLimit <= 0 {
		opts.QueueWaitLimit = 15 * time.Second
	}
	if opts.Clock == nil {
		opts.Clock = clock.Real
	}
	c := &Controller{opts: opts, metrics: newMetrics(opts.Registerer), levels: map[string]*queueSet{}}
	c.Update(
		append(flowcontrolv1.MandatoryFlowSchemas(), flowcontrolv1.SuggestedFlowSchemas()...),
		append(flowcontrolv1.MandatoryPriorityLevelConfigurations(), flowcontrolv1.SuggestedPriorityLevelConfigurations()...))
	return c
}

// Update replaces the configuration with schemas and levels, which it
// does not modify and which must not be modified afterwards. A mandatory
// object that is missing (exempt, catch-all) is taken from the bootstrap
// configuration, as upstream does, so every request is classified.
// Schemas whose level does not exist (dangling) are left out: their
// requests fall through to the next matching schema.
//
// Upstream: k8s.io/apiserver/pkg/util/flowcontrol (digestConfigObjects).
func (c *Controller) Update(schemas []*flowcontrolv1.FlowSchema, levels []*flowcontrolv1.PriorityLevelConfiguration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	// The mandatory objects are appended to copies: the caller's slices
	// stay as they are.
	schemas, levels = slices.Clip(schemas), slices.Clip(levels)
	for _, pl := range flowcontrolv1.MandatoryPriorityLevelConfigurations() {
		if !slices.ContainsFunc(levels, func(l *flowcontrolv1.PriorityLevelConfiguration) bool { return l.Name == pl.Name }) {
			levels = append(levels, pl)
		}
	}
	for _, fs := range flowcontrolv1.MandatoryFlowSchemas() {
		if !slices.ContainsFunc(schemas, func(s *flowcontrolv1.FlowSchema) bool { return s.Name == fs.Name }) {
			schemas = append(schemas, fs)
		}
	}
	var totalShares int
	for _, pl := range levels {
		totalShares += shares(pl)
	}
	byName := map[string]*level{}
	for _, pl := range levels {
		l := &level{pl: pl}
		byName[pl.Name] = l
		if pl.Spec.Type != flowcontrolv1.PriorityLevelEnablementLimited || pl.Spec.Limited == nil {
			delete(c.levels, pl.Name)
			continue
		}
		qs := c.levels[pl.Name]
		if qs == nil {
			qs = &queueSet{}
			c.levels[pl.Name] = qs
		}
		l.qs = qs
		// ceil(server * shares / total): upstream's NominalCL.
		limit := 0
		if totalShares > 0 {
			limit = (c.opts.ServerConcurrencyLimit*shares(pl) + totalShares - 1) / totalShares
		}
		var queues, handSize, queueLength int
		if q := pl.Spec.Limited.LimitResponse.Queuing; pl.Spec.Limited.LimitResponse.Type == flowcontrolv1.LimitResponseTypeQueue && q != nil {
			queues, handSize, queueLength = int(q.Queues), int(q.HandSize), int(q.QueueLengthLimit)
		}
		qs.config(limit, queues, handSize, queueLength)
	}
	for name := range c.levels {
		if _, ok := byName[name]; !ok {
			// Its requests in flight keep their queueSet until they end.
			delete(c.levels, name)
		}
	}
	cfg := &config{}
	for _, fs := range schemas {
		l := byName[fs.Spec.PriorityLevelConfiguration.Name]
		if l == nil {
			continue
		}
		sc := &schema{fs: fs, level: l, metrics: c.metrics.forFlow(l.pl.Name, fs.Name)}
		cfg.schemas = append(cfg.schemas, sc)
		if fs.Name == flowcontrolv1.FlowSchemaNameCatchAll {
			cfg.catchAll = sc
		}
	}
	// Lowest precedence first; ties go to the name, as upstream orders
	// them, so the choice does not depend on list order.
	slices.SortFunc(cfg.schemas, func(a, b *schema) int {
		return cmp.Or(cmp.Compare(a.fs.Spec.MatchingPrecedence, b.fs.Spec.MatchingPrecedence), cmp.Compare(a.fs.Name, b.fs.Name))
	})
	c.cfg.Store(cfg)
}

// shares is a level's nominalConcurrencyShares, with upstream's defaults.
func shares(pl *flowcontrolv1.PriorityLevelConfiguration) int {
	switch {
	case pl.Spec.Limited != nil && pl.Spec.Limited.NominalConcurrencyShares != nil:
		return int(*pl.Spec.Limited.NominalConcurrencyShares)
	case pl.Spec.Limited != nil:
		return 30
	case pl.Spec.Exempt != nil && pl.Spec.Exempt.NominalConcurrencyShares != nil:
		return int(*pl.Spec.Exempt.NominalConcurrencyShares)
	}
	return 0
}

// ConcurrencyLimit returns the seats of the named level: 0 for an exempt
// level or one that does not exist.
func (c *Controller) ConcurrencyLimit(level string) int {
	c.mu.Lock()
	qs := c.levels[level]
	c.mu.Unlock()
	if qs == nil {
		return 0
	}
	qs.mu.Lock()
	defer qs.mu.Unlock()
	return qs.concurrencyLimit
}

// classify returns the first schema that matches d, or the catch-all
// one. It is nil only when the catch-all schema is dangling.
func (cfg *config) classify(d RequestDigest) *schema {
	for _, s := range cfg.schemas {
		if matchesFlowSchema(d, s.fs) {
			return s
		}
	}
	return cfg.catchAll
}

// Classify returns the classification of d, without dispatching it.
func (c *Controller) Classify(d RequestDigest) Classification {
	if s := c.cfg.Load().classify(d); s != nil {
		return s.classification()
	}
	return Classification{}
}

func (s *schema) classification() Classification {
	return Classification{
		FlowSchemaName: s.fs.Name, FlowSchemaUID: string(s.fs.UID),
		PriorityLevelName: s.level.pl.Name, PriorityLevelUID: string(s.level.pl.UID),
	}
}

// Handle classifies d and runs execute once the request's level lets
// it: at once for an exempt level or a free seat, after waiting in a
// queue otherwise. It returns without running execute when the request
// is rejected: its level rejects when full, its queue is full, or it
// waited longer than QueueWaitLimit or until ctx was done. It blocks
// until execute returns; the seat is free again when Handle returns,
// whether execute returned or panicked.
func (c *Controller) Handle(ctx context.Context, d RequestDigest, execute func(Classification)) Result {
	s := c.cfg.Load().classify(d)
	if s == nil {
		// Only when an administrator pointed the catch-all schema at a
		// level that does not exist: run the request unlimited rather
		// than refuse everything.
		execute(Classification{})
		return Result{Served: true}
	}
	cl := s.classification()
	qs := s.level.qs
	if qs == nil {
		s.metrics.dispatched.Inc()
		s.metrics.executing.Inc()
		defer s.metrics.executing.Dec()
		execute(cl)
		return Result{Classification: cl, Served: true}
	}
	var q *fifo
	if !qs.tryAcquire() {
		r := &waitingRequest{hash: c.flowHash(s, d), readyCh: make(chan struct{})}
		switch o := qs.enqueue(r); o {
		case dispatched:
		case pending:
			if o = c.wait(ctx, qs, r, s.metrics); o != dispatched {
				s.metrics.reject(o)
				return Result{Classification: cl}
			}
			q = r.queue
		default:
			s.metrics.reject(o)
			return Result{Classification: cl}
		}
	}
	defer qs.release(q)
	s.metrics.dispatched.Inc()
	s.metrics.executing.Inc()
	defer s.metrics.executing.Dec()
	execute(cl)
	return Result{Classification: cl, Served: true}
}

// wait blocks until r is dispatched, or gives up on it after
// QueueWaitLimit or when ctx is done, and returns its outcome.
func (c *Controller) wait(ctx context.Context, qs *queueSet, r *waitingRequest, m flowMetrics) outcome {
	m.inQueue.Inc()
	defer m.inQueue.Dec()
	t := c.opts.Clock.NewTimer(c.opts.QueueWaitLimit)
	defer t.Stop()
	select {
	case <-r.readyCh:
		return qs.giveUp(r, pending) // reads the outcome under the lock
	case <-t.C():
		return qs.giveUp(r, rejectedTimeout)
	case <-ctx.Done():
		return qs.giveUp(r, rejectedCancelled)
	}
}

// flowHash is the hash of d's flow: the schema and the distinguisher its
// method picks.
func (c *Controller) flowHash(s *schema, d RequestDigest) uint64 {
	var distinguisher string
	if m := s.fs.Spec.DistinguisherMethod; m != nil {
		switch m.Type {
		case flowcontrolv1.FlowDistinguisherMethodByUserType:
			distinguisher = d.User.Name
		case flowcontrolv1.FlowDistinguisherMethodByNamespaceType:
			distinguisher = d.RequestInfo.Namespace
		}
	}
	return flowHash(s.fs.Name, distinguisher)
}

// String describes the level's state, for test failures and debugging.
func (c *Controller) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := ""
	for _, name := range slices.Sorted(maps.Keys(c.levels)) {
		qs := c.levels[name]
		qs.mu.Lock()
		out += fmt.Sprintf("%s: %d/%d executing, %d waiting\n", name, qs.executing, qs.concurrencyLimit, qs.waiting)
		qs.mu.Unlock()
	}
	return out
}
