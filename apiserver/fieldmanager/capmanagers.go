package fieldmanager

import (
	"fmt"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// DefaultMaxUpdateManagers is how many Update entries an object keeps.
// Every client that writes an object without applying gets an entry of
// its own, so without a cap a busy object's metadata would grow without
// bound; past it, the oldest entries of each apiVersion are merged into
// one "ancient-changes" entry.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (DefaultMaxUpdateManagers).
const DefaultMaxUpdateManagers = 10

// ancientChanges is the manager the oldest updaters are merged into.
const ancientChanges = "ancient-changes"

// capManagersManager keeps the number of Update entries at most max.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (capManagersManager).
type capManagersManager struct {
	next Manager
	max  int
}

// Update implements Manager.
func (f *capManagersManager) Update(live, obj map[string]any, managed *Managed, manager string) (map[string]any, *Managed, error) {
	obj, managed, err := f.next.Update(live, obj, managed, manager)
	if err != nil {
		return nil, nil, err
	}
	if err := f.capUpdateManagers(managed); err != nil {
		return nil, nil, fmt.Errorf("failed to cap update managers: %w", err)
	}
	return obj, managed, nil
}

// Apply implements Manager: appliers are never merged away.
func (f *capManagersManager) Apply(live, applied map[string]any, managed *Managed, manager string, force bool) (map[string]any, *Managed, error) {
	return f.next.Apply(live, applied, managed, manager, force)
}

// capUpdateManagers merges the oldest updaters, by time then name, into
// one bucket per apiVersion until at most max updaters remain. The
// bucket takes the time of the newest update merged into it.
func (f *capManagersManager) capUpdateManagers(managed *Managed) error {
	var updaters []string
	for manager, vs := range managed.Fields {
		if !vs.Applied() {
			updaters = append(updaters, manager)
		}
	}
	if len(updaters) <= f.max {
		return nil
	}
	seconds := func(m string) int64 {
		if t := managed.Times[m]; t != nil {
			return t.Unix()
		}
		return 0
	}
	slices.SortFunc(updaters, func(a, b string) int {
		if sa, sb := seconds(a), seconds(b); sa != sb {
			return int(sa - sb)
		}
		return strings.Compare(a, b)
	})
	firstOfVersion := map[string]string{}
	for i, n := 0, len(updaters); i < len(updaters) && n > f.max; i++ {
		manager := updaters[i]
		vs := managed.Fields[manager]
		t := managed.Times[manager]
		version := string(vs.APIVersion())
		bucket, err := BuildManagerIdentifier(&metav1.ManagedFieldsEntry{
			Manager: ancientChanges, Operation: metav1.ManagedFieldsOperationUpdate, APIVersion: version,
		})
		if err != nil {
			return fmt.Errorf("failed to create bucket manager for version %v: %w", version, err)
		}
		first, seen := firstOfVersion[version]
		if !seen {
			firstOfVersion[version] = manager
			continue
		}
		if _, ok := managed.Fields[bucket]; !ok {
			managed.Fields[bucket] = managed.Fields[first]
			delete(managed.Fields, first)
		}
		managed.Fields[bucket] = fieldpath.NewVersionedSet(vs.Set().Union(managed.Fields[bucket].Set()), vs.APIVersion(), vs.Applied())
		delete(managed.Fields, manager)
		managed.Times[bucket] = t
		n--
	}
	return nil
}
