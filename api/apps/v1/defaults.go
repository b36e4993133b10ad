package v1

import (
	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/api/intstr"
	"github.com/minicp/minicp/api/runtime"
)

// The defaults of a Deployment, as upstream.
const (
	// DefaultRevisionHistoryLimit keeps ten old ReplicaSets for rollbacks.
	DefaultRevisionHistoryLimit int32 = 10
	// DefaultProgressDeadlineSeconds gives a rollout ten minutes without
	// progress before it is reported as failed.
	DefaultProgressDeadlineSeconds int32 = 600
	// DefaultMaxUnavailable and DefaultMaxSurge let a rolling update go a
	// quarter below and a quarter above spec.replicas.
	DefaultMaxUnavailable = "25%"
	DefaultMaxSurge       = "25%"
)

// SetDefaults fills the fields the API server defaults when it decodes a
// request body, in place. It is idempotent. Kinds of other packages are
// left alone; lists default each item.
//
//   - Deployment: replicas 1; strategy RollingUpdate with maxUnavailable
//     and maxSurge 25% (a Recreate strategy gets no rollingUpdate);
//     revisionHistoryLimit 10; progressDeadlineSeconds 600; the pod
//     template's spec as corev1.SetDefaultsPodSpec.
//   - ReplicaSet: replicas 1; the pod template's spec.
//   - StatefulSet: replicas 1; podManagementPolicy OrderedReady;
//     updateStrategy RollingUpdate with partition 0; revisionHistoryLimit
//     10; persistentVolumeClaimRetentionPolicy Retain on deletion and
//     scale down; the pod template's spec; each volume claim template's
//     volumeMode Filesystem and status.phase Pending.
//
// Upstream: k8s.io/kubernetes/pkg/apis/apps/v1/defaults.go.
func SetDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *Deployment:
		setDefaultsDeployment(o)
	case *DeploymentList:
		for i := range o.Items {
			setDefaultsDeployment(&o.Items[i])
		}
	case *ReplicaSet:
		setDefaultsReplicaSet(o)
	case *ReplicaSetList:
		for i := range o.Items {
			setDefaultsReplicaSet(&o.Items[i])
		}
	case *StatefulSet:
		setDefaultsStatefulSet(o)
	case *StatefulSetList:
		for i := range o.Items {
			setDefaultsStatefulSet(&o.Items[i])
		}
	}
}

func setDefaultsDeployment(d *Deployment) {
	spec := &d.Spec
	if spec.Replicas == nil {
		spec.Replicas = ptrTo(int32(1))
	}
	strategy := &spec.Strategy
	if strategy.Type == "" {
		strategy.Type = RollingUpdateDeploymentStrategyType
	}
	if strategy.Type == RollingUpdateDeploymentStrategyType {
		if strategy.RollingUpdate == nil {
			strategy.RollingUpdate = &RollingUpdateDeployment{}
		}
		if strategy.RollingUpdate.MaxUnavailable == nil {
			strategy.RollingUpdate.MaxUnavailable = ptrTo(intstr.FromString(DefaultMaxUnavailable))
		}
		if strategy.RollingUpdate.MaxSurge == nil {
			strategy.RollingUpdate.MaxSurge = ptrTo(intstr.FromString(DefaultMaxSurge))
		}
	}
	if spec.RevisionHistoryLimit == nil {
		spec.RevisionHistoryLimit = ptrTo(DefaultRevisionHistoryLimit)
	}
	if spec.ProgressDeadlineSeconds == nil {
		spec.ProgressDeadlineSeconds = ptrTo(DefaultProgressDeadlineSeconds)
	}
	corev1.SetDefaultsPodSpec(&spec.Template.Spec)
}

func setDefaultsReplicaSet(rs *ReplicaSet) {
	if rs.Spec.Replicas == nil {
		rs.Spec.Replicas = ptrTo(int32(1))
	}
	corev1.SetDefaultsPodSpec(&rs.Spec.Template.Spec)
}

func ptrTo[T any](v T) *T { return &v }

func setDefaultsStatefulSet(ss *StatefulSet) {
	spec := &ss.Spec
	if spec.PodManagementPolicy == "" {
		spec.PodManagementPolicy = OrderedReadyPodManagement
	}
	if spec.UpdateStrategy.Type == "" {
		spec.UpdateStrategy.Type = RollingUpdateStatefulSetStrategyType
		if spec.UpdateStrategy.RollingUpdate == nil {
			spec.UpdateStrategy.RollingUpdate = &RollingUpdateStatefulSetStrategy{}
		}
	}
	if ru := spec.UpdateStrategy.RollingUpdate; spec.UpdateStrategy.Type == RollingUpdateStatefulSetStrategyType && ru != nil && ru.Partition == nil {
		ru.Partition = ptrTo(int32(0))
	}
	if spec.PersistentVolumeClaimRetentionPolicy == nil {
		spec.PersistentVolumeClaimRetentionPolicy = &StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if p := spec.PersistentVolumeClaimRetentionPolicy; p.WhenDeleted == "" {
		p.WhenDeleted = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if p := spec.PersistentVolumeClaimRetentionPolicy; p.WhenScaled == "" {
		p.WhenScaled = RetainPersistentVolumeClaimRetentionPolicyType
	}
	if spec.Replicas == nil {
		spec.Replicas = ptrTo(int32(1))
	}
	if spec.RevisionHistoryLimit == nil {
		spec.RevisionHistoryLimit = ptrTo(DefaultRevisionHistoryLimit)
	}
	corev1.SetDefaultsPodSpec(&spec.Template.Spec)
	for i := range spec.VolumeClaimTemplates {
		pvc := &spec.VolumeClaimTemplates[i]
		if pvc.Spec.VolumeMode == nil {
			pvc.Spec.VolumeMode = ptrTo(corev1.PersistentVolumeMode("Filesystem"))
		}
		if pvc.Status.Phase == "" {
			pvc.Status.Phase = "Pending"
		}
	}
}
