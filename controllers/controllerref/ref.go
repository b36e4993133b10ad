package controllerref

import (
	"encoding/json"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// NewControllerRef returns the ownerReference that makes owner, of kind
// gvk, the controller of an object: controller=true, and
// blockOwnerDeletion=true so a foreground deletion of the owner waits for
// the object.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (NewControllerRef).
func NewControllerRef(owner *metav1.ObjectMeta, gvk runtime.GroupVersionKind) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{
		APIVersion:         gvk.GroupVersion().String(),
		Kind:               gvk.Kind,
		Name:               owner.Name,
		UID:                owner.UID,
		Controller:         &yes,
		BlockOwnerDeletion: &yes,
	}
}

// adoptPatch is the strategic merge patch that adds ref to an object's
// ownerReferences (merged by uid). The object's own uid in the patch makes
// the update fail if the object was deleted and recreated under the same
// name meanwhile: uid is immutable.
func adoptPatch(ref metav1.OwnerReference, uid string) ([]byte, error) {
	return json.Marshal(map[string]any{
		"metadata": map[string]any{
			"ownerReferences": []metav1.OwnerReference{ref},
			"uid":             uid,
		},
	})
}

// releasePatch is the strategic merge patch that removes the
// ownerReference to ownerUID from an object with uid.
func releasePatch(ownerUID, uid string) ([]byte, error) {
	return json.Marshal(map[string]any{
		"metadata": map[string]any{
			"ownerReferences": []map[string]string{{"$patch": "delete", "uid": ownerUID}},
			"uid":             uid,
		},
	})
}
