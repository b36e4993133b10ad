package manager

import (
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/minicp/minicp/controllers/healthz"
)

// AddHealthzCheck adds a check to /healthz: failing means the process is
// broken and should be restarted. The Manager has "ping", and with
// LeaderElection "leaderElection" (a leader whose renewals are stuck).
// Names are unique.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager
// (Manager.AddHealthzCheck).
func (m *Manager) AddHealthzCheck(name string, check healthz.Checker) error {
	return m.addCheck(&m.healthChecks, name, check)
}

// AddReadyzCheck adds a check to /readyz: failing means the Manager is not
// ready to work yet. The Manager has "informers": it has started and every
// informer of its cache has synced. A standby (not elected) Manager is
// ready: readiness is not leadership.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/manager
// (Manager.AddReadyzCheck).
func (m *Manager) AddReadyzCheck(name string, check healthz.Checker) error {
	return m.addCheck(&m.readyChecks, name, check)
}

func (m *Manager) addCheck(checks *[]healthz.NamedCheck, name string, check healthz.Checker) error {
	if name == "" || check == nil {
		return errors.New("manager: a check needs a name and a function")
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if slices.ContainsFunc(*checks, func(c healthz.NamedCheck) bool { return c.Name == name }) {
		return fmt.Errorf("manager: check %q already exists", name)
	}
	*checks = append(*checks, healthz.NamedCheck{Name: name, Check: check})
	return nil
}

// HealthProbeHandler serves /healthz and /readyz. Start serves it on
// HealthProbeBindAddress; a program embedding several components can mount
// it on its own server instead.
func (m *Manager) HealthProbeHandler() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/healthz", healthz.Handler("healthz", func() []healthz.NamedCheck { return m.checks(&m.healthChecks) }))
	mux.Handle("/readyz", healthz.Handler("readyz", func() []healthz.NamedCheck { return m.checks(&m.readyChecks) }))
	return mux
}

// checks returns a copy of *checks, so they run without mu held.
func (m *Manager) checks(checks *[]healthz.NamedCheck) []healthz.NamedCheck {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(*checks)
}

// checkInformers is the "informers" readiness check.
func (m *Manager) checkInformers(*http.Request) error {
	select {
	case <-m.runningCh:
	default:
		return errors.New("not started")
	}
	if !m.cache.HasSynced() {
		return errors.New("informers not synced")
	}
	return nil
}
