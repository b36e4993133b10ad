package nodelifecycle

import (
	"context"
	"time"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/logging"
)

// The rates at which nodes get NoExecute taints (and so their pods are
// evicted), per zone: kube-controller-manager's defaults.
const (
	// evictionLimiterQPS is --node-eviction-rate: one node every 10s in a
	// healthy zone.
	evictionLimiterQPS = 0.1
	// secondaryEvictionLimiterQPS is --secondary-node-eviction-rate: one
	// node every 100s in a large zone that is mostly down.
	secondaryEvictionLimiterQPS = 0.01
	// largeClusterThreshold is --large-cluster-size-threshold: a zone of
	// at most this many nodes that is mostly down stops evicting, as the
	// cause is more likely the control plane's view than the nodes.
	largeClusterThreshold = 50
	// unhealthyZoneThreshold is --unhealthy-zone-threshold: the share of
	// not-ready nodes (at least 3) that makes a zone partially disrupted.
	unhealthyZoneThreshold = 0.55
)

// Labels that place a node in a zone, stable and deprecated beta forms.
const (
	labelTopologyZone   = "topology.kubernetes.io/zone"
	labelTopologyRegion = "topology.kubernetes.io/region"
	labelFailureZone    = "failure-domain.beta.kubernetes.io/zone"
	labelFailureRegion  = "failure-domain.beta.kubernetes.io/region"
	// labelExcludeDisruption keeps a node out of zone health.
	labelExcludeDisruption = "node.kubernetes.io/exclude-disruption"
)

// zoneState is a zone's health. A zone seen for the first time is
// Initial; from then on handleDisruption moves it to whichever of
// Normal, PartialDisruption and FullDisruption its nodes' readiness
// says, and each state has its tainting rate (zoneQPS).
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle (ZoneState).
type zoneState string

const (
	stateInitial           zoneState = "Initial"
	stateNormal            zoneState = "Normal"
	stateFullDisruption    zoneState = "FullDisruption"
	statePartialDisruption zoneState = "PartialDisruption"
)

// zoneKey is the zone node is in: its region and zone labels.
//
// Upstream: k8s.io/component-helpers/node/topology (GetZoneKey).
func zoneKey(node *corev1.Node) string {
	region := node.Labels[labelTopologyRegion]
	if region == "" {
		region = node.Labels[labelFailureRegion]
	}
	zone := node.Labels[labelTopologyZone]
	if zone == "" {
		zone = node.Labels[labelFailureZone]
	}
	if region == "" && zone == "" {
		return ""
	}
	// The separator cannot appear in a label value.
	return region + ":\x00:" + zone
}

// computeZoneState says how disrupted a zone is from its nodes' Ready
// conditions (nil for none): fully when no node is ready, partially when
// at least unhealthyZoneThreshold of them, and more than two, are not.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.ComputeZoneState).
func computeZoneState(ready []*corev1.NodeCondition) (notReady int, state zoneState) {
	readyNodes := 0
	for _, c := range ready {
		if c != nil && c.Status == corev1.ConditionTrue {
			readyNodes++
		} else {
			notReady++
		}
	}
	switch {
	case readyNodes == 0 && notReady > 0:
		return notReady, stateFullDisruption
	case notReady > 2 && float64(notReady)/float64(notReady+readyNodes) >= unhealthyZoneThreshold:
		return notReady, statePartialDisruption
	default:
		return notReady, stateNormal
	}
}

// zoneQPS is the tainting rate of a zone of size nodes in state.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.setLimiterInZone, ReducedQPSFunc, HealthyQPSFunc).
func zoneQPS(state zoneState, size int) float64 {
	switch state {
	case statePartialDisruption:
		if size > largeClusterThreshold {
			return secondaryEvictionLimiterQPS
		}
		return 0
	default:
		// A fully disrupted zone evicts at the normal rate, unless every
		// zone is (handleDisruption stops everything then).
		return evictionLimiterQPS
	}
}

// handleDisruption recomputes every zone's state from the nodes in the
// cache (each with its Ready condition as last seen or written here) and
// adjusts the zones' tainting rates. When every zone is fully disrupted
// the control plane, not the nodes, is the likely cause: tainting stops
// and the nodes' NoExecute taints go (each node's reconcile removes its
// own, see fullDisruptionLocked); when some node comes back, every node
// gets a fresh grace period.
//
// Upstream: k8s.io/kubernetes/pkg/controller/nodelifecycle
// (Controller.handleDisruption), run there after each pass over all
// nodes and here after each node's reconcile.
func (nc *Controller) handleDisruption(ctx context.Context) {
	nodes, err := nc.nodes.List(nil)
	if err != nil {
		return
	}
	now := nc.clock.Now()
	nc.mu.Lock()
	entering, leaving, changed := nc.handleDisruptionLocked(nodes, now)
	nc.mu.Unlock()

	// Logged once the lock is released.
	log := logging.FromContext(ctx)
	switch {
	case entering:
		log.InfoContext(ctx, "no node is ready: evictions stop (master disruption mode)")
	case leaving:
		log.InfoContext(ctx, "some nodes are ready again: leaving master disruption mode")
	}
	for zone, state := range changed {
		log.InfoContext(ctx, "zone changed state", "zone", zone, "state", string(state))
	}
}

// handleDisruptionLocked is handleDisruption's bookkeeping over nodes,
// under nc.mu. It reports whether every zone just became fully
// disrupted, whether that just ended, and the zones that changed state
// otherwise.
func (nc *Controller) handleDisruptionLocked(nodes []*corev1.Node, now time.Time) (entering, leaving bool, changed map[string]zoneState) {
	conditions := map[string][]*corev1.NodeCondition{}
	for _, node := range nodes {
		if _, excluded := node.Labels[labelExcludeDisruption]; excluded {
			continue
		}
		status := &node.Status
		if h := nc.health[node.Name]; h != nil {
			status = h.status
		}
		zone := zoneKey(node)
		conditions[zone] = append(conditions[zone], nodeCondition(status, corev1.NodeReady))
	}

	newStates := map[string]zoneState{}
	allAreFullyDisrupted := true
	for zone, conds := range conditions {
		_, newStates[zone] = computeZoneState(conds)
		if newStates[zone] != stateFullDisruption {
			allAreFullyDisrupted = false
		}
		if _, ok := nc.zoneStates[zone]; !ok {
			nc.zoneStates[zone] = stateInitial
			nc.limiterLocked(zone, now)
		}
	}
	allWereFullyDisrupted := true
	for zone, state := range nc.zoneStates {
		if _, ok := conditions[zone]; !ok {
			// Its limiter stays, for nodes excluded from the checks.
			delete(nc.zoneStates, zone)
			continue
		}
		if state != stateFullDisruption {
			allWereFullyDisrupted = false
		}
	}
	switch {
	case allAreFullyDisrupted && allWereFullyDisrupted:
		return false, false, nil
	case allAreFullyDisrupted:
		for zone := range nc.zoneStates {
			nc.limiters[zone].setQPS(0, now)
			nc.zoneStates[zone] = stateFullDisruption
		}
		return true, false, nil
	case allWereFullyDisrupted:
		// The nodes were judged by a view that was itself cut off: each
		// gets a fresh grace period. Entries are replaced, never
		// changed, as reconciles read them without the lock.
		for name, h := range nc.health {
			fresh := *h
			fresh.probeTimestamp, fresh.readyTransitionTimestamp = now, now
			nc.health[name] = &fresh
		}
		for zone := range nc.zoneStates {
			nc.limiters[zone].setQPS(zoneQPS(newStates[zone], len(conditions[zone])), now)
			nc.zoneStates[zone] = newStates[zone]
		}
		return false, true, nil
	}
	changed = map[string]zoneState{}
	for zone, state := range nc.zoneStates {
		if state == newStates[zone] {
			continue
		}
		nc.limiters[zone].setQPS(zoneQPS(newStates[zone], len(conditions[zone])), now)
		nc.zoneStates[zone] = newStates[zone]
		changed[zone] = newStates[zone]
	}
	return false, false, changed
}

// fullDisruptionLocked reports whether every zone is fully disrupted:
// no NoExecute taints then. nc.mu must be held.
func (nc *Controller) fullDisruptionLocked() bool {
	if len(nc.zoneStates) == 0 {
		return false
	}
	for _, s := range nc.zoneStates {
		if s != stateFullDisruption {
			return false
		}
	}
	return true
}

// tokenBucket paces a zone's tainting: qps tokens a second, at most one
// saved up (upstream's burst of 1), on the controller's clock. Zero qps
// never gives a token. Not safe for concurrent use: the controller holds
// its mu.
//
// Upstream: k8s.io/client-go/util/flowcontrol (tokenBucketRateLimiter),
// as k8s.io/kubernetes/pkg/controller/nodelifecycle/scheduler
// (RateLimitedTimedQueue) uses it.
type tokenBucket struct {
	qps    float64
	tokens float64
	last   time.Time
}

// evictionBurst is upstream's evictionRateLimiterBurst.
const evictionBurst = 1

func newTokenBucket(qps float64, now time.Time) *tokenBucket {
	return &tokenBucket{qps: qps, tokens: evictionBurst, last: now}
}

func (b *tokenBucket) refill(now time.Time) {
	if now.After(b.last) {
		b.tokens = min(evictionBurst, b.tokens+now.Sub(b.last).Seconds()*b.qps)
		b.last = now
	}
}

// tryAccept takes a token if there is one; otherwise it says how long
// until the next (0 when none will come).
func (b *tokenBucket) tryAccept(now time.Time) (bool, time.Duration) {
	if b.qps <= 0 {
		return false, 0 // stopped, whatever was saved up
	}
	b.refill(now)
	if b.tokens >= 1 {
		b.tokens--
		return true, 0
	}
	return false, time.Duration((1 - b.tokens) / b.qps * float64(time.Second))
}

// setQPS changes the rate. As upstream's SwapLimiter, a bucket that was
// empty stays empty, so a rate change does not let a node through early.
func (b *tokenBucket) setQPS(qps float64, now time.Time) {
	if qps == b.qps {
		return
	}
	b.refill(now)
	b.qps = qps
	if b.tokens < 1 {
		b.tokens = 0
	} else {
		b.tokens = evictionBurst
	}
	b.last = now
}
