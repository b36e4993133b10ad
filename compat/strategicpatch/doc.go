// Package strategicpatch checks minicp's strategic merge patch
// (api/strategicpatch) against the real one in
// k8s.io/apimachinery/pkg/util/strategicpatch: both are applied to the
// same (original, patch) pairs, including the patches kubectl apply builds
// with CreateThreeWayMergePatch, and must produce the same bytes or both
// fail. It also checks that every `patchStrategy` and `patchMergeKey` struct
// tag in minicp's api/meta/v1, api/core/v1, api/apps/v1, api/batch/v1 and
// api/autoscaling/v1 is the upstream one, since those tags are the schema
// the merge follows.
//
// It is its own module, so that the minicp library never depends on
// k8s.io modules (docs/architecture.md: compatibility tests using client-go
// live in their own module). It holds only tests; run them with
//
//	cd compat/strategicpatch && go test ./...
package strategicpatch
