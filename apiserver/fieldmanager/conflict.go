package fieldmanager

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"

	"github.com/minicp/minicp/api/apierrors"
	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// NewConflictError is the 409 of an apply that conflicts with other
// managers: one FieldManagerConflict cause per field, and upstream's
// message, `Apply failed with 1 conflict: conflict with "m" using
// apps/v1: .spec.replicas`.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (NewConflictError).
func NewConflictError(conflicts merge.Conflicts) *apierrors.StatusError {
	causes := make([]metav1.StatusCause, 0, len(conflicts))
	for _, c := range conflicts {
		causes = append(causes, metav1.StatusCause{
			Type:    metav1.CauseTypeFieldManagerConflict,
			Message: "conflict with " + printManager(c.Manager),
			Field:   c.Path.String(),
		})
	}
	return apierrors.NewApplyConflict(causes, conflictMessage(conflicts))
}

func conflictMessage(conflicts merge.Conflicts) string {
	if len(conflicts) == 1 {
		return fmt.Sprintf("Apply failed with 1 conflict: conflict with %v: %v", printManager(conflicts[0].Manager), conflicts[0].Path)
	}
	byManager := map[string][]fieldpath.Path{}
	for _, c := range conflicts {
		byManager[c.Manager] = append(byManager[c.Manager], c.Path)
	}
	var lines []string
	for _, manager := range slices.Sorted(maps.Keys(byManager)) {
		lines = append(lines, fmt.Sprintf("conflicts with %v:", printManager(manager)))
		for _, p := range byManager[manager] {
			lines = append(lines, fmt.Sprintf("- %v", p))
		}
	}
	return fmt.Sprintf("Apply failed with %d conflicts: %s", len(conflicts), strings.Join(lines, "\n"))
}

// printManager renders a manager identifier for people: its name, its
// subresource, and for an updater the version (and time) it wrote at.
func printManager(manager string) string {
	var e metav1.ManagedFieldsEntry
	if err := json.Unmarshal([]byte(manager), &e); err != nil {
		return fmt.Sprintf("%q", manager)
	}
	s := fmt.Sprintf("%q", e.Manager)
	if e.Subresource != "" {
		s = fmt.Sprintf("%s with subresource %q", s, e.Subresource)
	}
	if e.Operation == metav1.ManagedFieldsOperationUpdate {
		if e.Time == nil {
			return fmt.Sprintf("%s using %v", s, e.APIVersion)
		}
		return fmt.Sprintf("%s using %v at %v", s, e.APIVersion, e.Time.UTC().Format(time.RFC3339))
	}
	return s
}
