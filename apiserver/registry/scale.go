package registry

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/minicp/minicp/api/apierrors"
	autoscalingv1 "github.com/minicp/minicp/api/autoscaling/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/validation"
	"github.com/minicp/minicp/apiserver/printers"
)

// ScaleGVK is the kind every scale subresource reads and writes.
var ScaleGVK = autoscalingv1.SchemeGroupVersion.WithKind("Scale")

// ScaleSubresource says where a scalable kind keeps what its scale
// subresource shows: built-in kinds give Go functions over their types; a
// custom resource gives functions over the JSON paths of its CRD's
// scale subresource (specReplicasPath, statusReplicasPath,
// labelSelectorPath). Every function is given an object of the resource's
// kind and must be safe for concurrent use.
//
// Upstream: the ScaleREST of each scalable kind
// (k8s.io/kubernetes/pkg/registry/apps/deployment/storage) and
// k8s.io/apiextensions-apiserver/pkg/registry/customresource (ScaleREST).
type ScaleSubresource struct {
	// SpecReplicas returns the desired replicas.
	SpecReplicas func(obj runtime.Object) int32
	// SetSpecReplicas sets the desired replicas, in place.
	SetSpecReplicas func(obj runtime.Object, replicas int32)
	// StatusReplicas returns the replicas the controller last observed.
	StatusReplicas func(obj runtime.Object) int32
	// Selector returns the label selector of the pods in its string form
	// ("app=web"); an error means the object's selector is invalid.
	Selector func(obj runtime.Object) (string, error)
}

// ScaleStore serves the scale subresource of one resource through the
// resource's Store: a read is a Get turned into a Scale, and a write is an
// Update of the object that changes only its desired replicas, under the
// resource's own strategy (so the generation goes up, and validation and
// the optimistic resourceVersion check apply as to any update). It is safe
// for concurrent use.
//
// Upstream: k8s.io/kubernetes/pkg/registry/apps/deployment/storage (ScaleREST).
type ScaleStore struct {
	store *Store
	scale ScaleSubresource
}

// NewScaleStore returns the scale subresource of store's resource.
func NewScaleStore(store *Store, scale ScaleSubresource) (*ScaleStore, error) {
	if store == nil || scale.SpecReplicas == nil || scale.SetSpecReplicas == nil || scale.StatusReplicas == nil || scale.Selector == nil {
		return nil, errors.New("registry: a scale subresource needs a store and every ScaleSubresource function")
	}
	return &ScaleStore{store: store, scale: scale}, nil
}

// GroupResource names the subresource in errors, "deployments/scale.apps",
// as upstream's ScaleREST does.
func (s *ScaleStore) GroupResource() runtime.GroupResource {
	gr := s.store.GroupResource()
	gr.Resource += "/scale"
	return gr
}

// Get returns the Scale of ns/name, or NotFound.
func (s *ScaleStore) Get(ctx context.Context, ns, name string) (*autoscalingv1.Scale, error) {
	obj, err := s.store.Get(ctx, ns, name)
	if err != nil {
		return nil, err
	}
	return s.scaleFor(obj)
}

// Update sets the desired replicas of ns/name to those of the Scale that
// newScale computes from the current one; newScale runs inside the storage
// retry loop, so it may run more than once. A Scale with a
// resourceVersion makes the write conditional on the object's (409
// Conflict otherwise), one with a uid must name the object's; name and
// namespace must be the object's or empty. validate is validating
// admission, which sees the new and old Scales. It returns the Scale of
// the stored object.
//
// Upstream: k8s.io/kubernetes/pkg/registry/apps/deployment/storage
// (ScaleREST.Update, scaleUpdatedObjectInfo).
func (s *ScaleStore) Update(ctx context.Context, ns, name string, newScale UpdatedObjectFunc,
	validate ValidateObjectFunc, opts UpdateOptions) (*autoscalingv1.Scale, error) {
	newObj := func(ctx context.Context, current runtime.Object) (runtime.Object, error) {
		if current == nil {
			return nil, apierrors.NewNotFound(s.store.GroupResource(), name)
		}
		oldScale, err := s.scaleFor(current)
		if err != nil {
			return nil, err
		}
		out, err := newScale(ctx, oldScale)
		if err != nil {
			return nil, err
		}
		scale, ok := out.(*autoscalingv1.Scale)
		if !ok {
			return nil, apierrors.NewBadRequest(fmt.Sprintf("expected input object type to be Scale, but %T", out))
		}
		if scale.Name != "" && scale.Name != name {
			return nil, apierrors.NewBadRequest("the name of the object (" + scale.Name + ") does not match the name on the URL (" + name + ")")
		}
		if scale.Name == "" {
			scale.Name = name
		}
		if errs := validation.ValidateScale(scale); len(errs) > 0 {
			return nil, apierrors.NewInvalid(ScaleGVK, name, errs)
		}
		meta := metav1.MustAccessor(current)
		if scale.UID != "" && scale.UID != meta.UID {
			return nil, apierrors.NewConflict(s.GroupResource(), name,
				fmt.Errorf("Precondition failed: UID in precondition: %v, UID in object meta: %v", scale.UID, meta.UID))
		}
		obj := current.DeepCopyObject()
		s.scale.SetSpecReplicas(obj, scale.Spec.Replicas)
		// The Scale's resourceVersion is the object's: the store checks it
		// as it checks any update's.
		metav1.MustAccessor(obj).ResourceVersion = scale.ResourceVersion
		return obj, nil
	}
	validateUpdate := func(ctx context.Context, obj, old runtime.Object) error {
		if validate == nil {
			return nil
		}
		newScale, err := s.scaleFor(obj)
		if err != nil {
			return err
		}
		oldScale, err := s.scaleFor(old)
		if err != nil {
			return err
		}
		return validate(ctx, newScale, oldScale)
	}
	out, _, err := s.store.Update(ctx, ns, name, newObj, nil, validateUpdate, opts)
	if err != nil {
		return nil, err
	}
	return s.scaleFor(out)
}

// scaleFor builds the Scale of obj, carrying obj's identity and
// resourceVersion.
func (s *ScaleStore) scaleFor(obj runtime.Object) (*autoscalingv1.Scale, error) {
	selector, err := s.scale.Selector(obj)
	if err != nil {
		return nil, apierrors.NewInternalError(fmt.Errorf("scale of %s: %w", s.store.GroupResource(), err))
	}
	meta := metav1.MustAccessor(obj)
	return &autoscalingv1.Scale{
		TypeMeta: metav1.TypeMeta{APIVersion: ScaleGVK.GroupVersion().String(), Kind: ScaleGVK.Kind},
		ObjectMeta: metav1.ObjectMeta{
			Name: meta.Name, Namespace: meta.Namespace, UID: meta.UID,
			ResourceVersion: meta.ResourceVersion, CreationTimestamp: meta.CreationTimestamp,
		},
		Spec:   autoscalingv1.ScaleSpec{Replicas: s.scale.SpecReplicas(obj)},
		Status: autoscalingv1.ScaleStatus{Replicas: s.scale.StatusReplicas(obj), Selector: selector},
	}, nil
}

// ScaleTable prints Scales as `kubectl get --subresource=scale` does.
//
// Upstream: k8s.io/kubernetes/pkg/printers/internalversion (printScale).
var ScaleTable = printers.Printer{
	Columns: []metav1.TableColumnDefinition{
		printers.NameColumn,
		{Name: "Desired", Type: "integer", Description: "desired number of instances for the scaled object."},
		{Name: "Available", Type: "integer", Description: "actual number of observed instances of the scaled object."},
		printers.AgeColumn,
	},
	Cells: func(obj runtime.Object, now time.Time) []any {
		scale := obj.(*autoscalingv1.Scale)
		return []any{scale.Name, int64(scale.Spec.Replicas), int64(scale.Status.Replicas), printers.Age(obj, now)}
	},
}
