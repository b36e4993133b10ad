package podsecurity

import (
	"maps"
	"strings"
)

// maxPending bounds the namespaces whose label change the cache has yet
// to show, as NamespaceLifecycle bounds its live lookups: label changes
// are rare, and an entry dropped early only loses the shortcut to etcd
// for a moment.
const maxPending = 100

// Why pending exists: pods are checked against the namespace in the
// watch cache, which may be a moment behind etcd. A client that labels a
// namespace and creates a pod right away must meet the new labels, so
// after this server admits a change of a namespace's PodSecurity labels,
// pods in it read the namespace from etcd until the cache shows those
// labels. A change whose write then fails leaves its entry until the
// next change or eviction: it only costs etcd reads.

// expectLabels records the PodSecurity labels of an admitted namespace
// write.
func (p *Plugin) expectLabels(ns string, labels map[string]string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.pending == nil {
		p.pending = map[string]map[string]string{}
	}
	if _, ok := p.pending[ns]; !ok && len(p.pending) >= maxPending {
		for name := range p.pending {
			delete(p.pending, name)
			break
		}
	}
	p.pending[ns] = securityLabels(labels)
}

// mustLookUpLive reports whether the labels of namespace ns, as a cache
// shows them, may be older than a change this server admitted; it
// forgets the change once they are not.
func (p *Plugin) mustLookUpLive(ns string, cached map[string]string) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	want, ok := p.pending[ns]
	if !ok {
		return false
	}
	if maps.Equal(want, securityLabels(cached)) {
		delete(p.pending, ns)
		return false
	}
	return true
}

// securityLabels returns the PodSecurity labels among labels.
func securityLabels(labels map[string]string) map[string]string {
	out := map[string]string{}
	for k, v := range labels {
		if strings.HasPrefix(k, labelPrefix) {
			out[k] = v
		}
	}
	return out
}
