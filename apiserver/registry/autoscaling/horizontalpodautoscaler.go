package autoscaling

import (
	"context"
	"encoding/json"
	"maps"

	"github.com/minicp/minicp/api/apierrors"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	autoscalingv2 "github.com/minicp/minicp/api/autoscaling/v2"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/registry"
	"github.com/minicp/minicp/storage"
)

// HorizontalPodAutoscalerStrategy is the rules of the
// horizontalpodautoscalers resource at either version: the spec is the
// client's and the status the autoscaler's (minicp runs none). Objects of
// autoscaling/v1 are validated in their v2 form, as upstream validates the
// internal form, so both versions answer with the same errors. A v1
// object keeps part of its spec and status in annotations (see
// autoscalingv1.ConvertToV2): those follow the spec and status rules too.
// There is no generation: upstream's strategy keeps none.
//
// Upstream: k8s.io/kubernetes/pkg/registry/autoscaling/horizontalpodautoscaler (autoscalerStrategy).
type HorizontalPodAutoscalerStrategy struct{ registry.DefaultStrategy }

// statusAnnotations and specAnnotations are the round-trip annotations of
// a v1 object that belong to its status and to its spec.
var (
	statusAnnotations = []string{autoscalingv1.MetricStatusesAnnotation, autoscalingv1.ConditionsAnnotation}
	specAnnotations   = []string{autoscalingv1.MetricSpecsAnnotation, autoscalingv1.BehaviorSpecsAnnotation}
)

// PrepareForCreate implements registry.Strategy: a new autoscaler has no
// status.
func (HorizontalPodAutoscalerStrategy) PrepareForCreate(_ context.Context, obj runtime.Object) {
	switch o := obj.(type) {
	case *autoscalingv2.HorizontalPodAutoscaler:
		o.Status = autoscalingv2.HorizontalPodAutoscalerStatus{}
	case *autoscalingv1.HorizontalPodAutoscaler:
		o.Status = autoscalingv1.HorizontalPodAutoscalerStatus{}
		o.Annotations = copyAnnotations(o.Annotations, nil, statusAnnotations)
	}
}

// PrepareForUpdate implements registry.Strategy: the main resource cannot
// change status.
func (HorizontalPodAutoscalerStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	switch o := obj.(type) {
	case *autoscalingv2.HorizontalPodAutoscaler:
		o.Status = old.(*autoscalingv2.HorizontalPodAutoscaler).Status
	case *autoscalingv1.HorizontalPodAutoscaler:
		prev := old.(*autoscalingv1.HorizontalPodAutoscaler)
		o.Status = prev.Status
		o.Annotations = copyAnnotations(o.Annotations, prev.Annotations, statusAnnotations)
	}
}

// Validate implements registry.Strategy.
func (HorizontalPodAutoscalerStrategy) Validate(_ context.Context, obj runtime.Object) apierrors.FieldErrors {
	return validation.ValidateHorizontalPodAutoscaler(toV2(obj))
}

// ValidateUpdate implements registry.Strategy.
func (HorizontalPodAutoscalerStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateHorizontalPodAutoscalerUpdate(toV2(obj), toV2(old))
}

// HorizontalPodAutoscalerStatusStrategy is the rules of
// horizontalpodautoscalers/status: only status changes.
type HorizontalPodAutoscalerStatusStrategy struct {
	HorizontalPodAutoscalerStrategy
}

// PrepareForUpdate implements registry.Strategy.
func (HorizontalPodAutoscalerStatusStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	switch o := obj.(type) {
	case *autoscalingv2.HorizontalPodAutoscaler:
		o.Spec = old.(*autoscalingv2.HorizontalPodAutoscaler).Spec
	case *autoscalingv1.HorizontalPodAutoscaler:
		prev := old.(*autoscalingv1.HorizontalPodAutoscaler)
		o.Spec = prev.Spec
		o.Annotations = copyAnnotations(o.Annotations, prev.Annotations, specAnnotations)
	}
}

// ValidateUpdate implements registry.Strategy.
func (HorizontalPodAutoscalerStatusStrategy) ValidateUpdate(_ context.Context, obj, old runtime.Object) apierrors.FieldErrors {
	return validation.ValidateHorizontalPodAutoscalerStatusUpdate(toV2(obj), toV2(old))
}

// toV2 is the autoscaling/v2 form of an autoscaler of either version.
func toV2(obj runtime.Object) *autoscalingv2.HorizontalPodAutoscaler {
	if v1, ok := obj.(*autoscalingv1.HorizontalPodAutoscaler); ok {
		return autoscalingv1.ConvertToV2(v1)
	}
	return obj.(*autoscalingv2.HorizontalPodAutoscaler)
}

// copyAnnotations returns annotations with the keys given set as in from:
// copied when from has them, removed otherwise. annotations is not
// modified.
func copyAnnotations(annotations, from map[string]string, keys []string) map[string]string {
	out := maps.Clone(annotations)
	for _, k := range keys {
		if v, ok := from[k]; ok {
			if out == nil {
				out = map[string]string{}
			}
			out[k] = v
		} else {
			delete(out, k)
		}
	}
	if len(out) == 0 && annotations == nil {
		return nil
	}
	return out
}

// V1Converter serves the autoscalers stored at autoscaling/v2 at
// autoscaling/v1: it is the Converter of the v1 resource's storage, and a
// storage.StorageDecoder, since the two versions are different Go types.
//
// Upstream: the conversion through the internal version that
// kube-apiserver's storage codec does for every resource served at
// several versions.
type V1Converter struct{}

var (
	_ storage.Converter      = V1Converter{}
	_ storage.StorageDecoder = V1Converter{}
)

// DecodeFromStorage implements storage.StorageDecoder: stored v2 JSON,
// converted to v1.
func (V1Converter) DecodeFromStorage(data []byte) (runtime.Object, error) {
	var stored autoscalingv2.HorizontalPodAutoscaler
	if err := json.Unmarshal(data, &stored); err != nil {
		return nil, err
	}
	return autoscalingv1.ConvertFromV2(&stored), nil
}

// FromStorage implements storage.Converter. The Store never calls it:
// DecodeFromStorage builds the v1 objects.
func (V1Converter) FromStorage(context.Context, []runtime.Object) error { return nil }

// ToStorage implements storage.Converter: the v2 form of a v1 autoscaler.
func (V1Converter) ToStorage(_ context.Context, obj runtime.Object) (runtime.Object, error) {
	return autoscalingv1.ConvertToV2(obj.(*autoscalingv1.HorizontalPodAutoscaler)), nil
}
