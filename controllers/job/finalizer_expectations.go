package job

import "sync"

// uidTrackingExpectations holds, per Job key, the UIDs of pods whose
// tracking finalizer the controller removed and whose update the informer
// has not shown yet. Safe for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/controller/job (uidTrackingExpectations).
type uidTrackingExpectations struct {
	// mu guards byKey.
	mu    sync.Mutex
	byKey map[string]map[string]struct{}
}

func newUIDTrackingExpectations() *uidTrackingExpectations {
	return &uidTrackingExpectations{byKey: map[string]map[string]struct{}{}}
}

// getExpectedUIDs returns a copy of the UIDs expected for key.
func (u *uidTrackingExpectations) getExpectedUIDs(key string) map[string]struct{} {
	u.mu.Lock()
	defer u.mu.Unlock()
	out := make(map[string]struct{}, len(u.byKey[key]))
	for uid := range u.byKey[key] {
		out[uid] = struct{}{}
	}
	return out
}

// expectFinalizersRemoved adds uids to what key expects.
func (u *uidTrackingExpectations) expectFinalizersRemoved(key string, uids []string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	set := u.byKey[key]
	if set == nil {
		set = map[string]struct{}{}
		u.byKey[key] = set
	}
	for _, uid := range uids {
		set[uid] = struct{}{}
	}
}

// finalizerRemovalObserved records that the finalizer of pod uid is seen
// gone (or will never be: its removal failed).
func (u *uidTrackingExpectations) finalizerRemovalObserved(key, uid string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.byKey[key], uid)
}

// deleteExpectations forgets key.
func (u *uidTrackingExpectations) deleteExpectations(key string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	delete(u.byKey, key)
}
