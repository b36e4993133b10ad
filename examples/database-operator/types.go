package main

import (
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// These are the operator's own Go types for the custom resource that
// manifests/database-crd.yaml defines: the JSON tags follow the CRD's
// schema, and AddToScheme registers them in a client's scheme so the
// client, the manager's cache and the reconciler read and write
// *Database, never untyped JSON. A kubebuilder project generates the same
// shape (and its DeepCopy methods) from types like these.

// databasesGVR is the resource the CRD installs: /apis/example.com/v1/namespaces/<ns>/databases.
var databasesGVR = runtime.GroupVersionResource{Group: "example.com", Version: "v1", Resource: "databases"}

// databaseGVK is the kind the ownerReferences of the children name.
var databaseGVK = databasesGVR.GroupVersion().WithKind("Database")

// Database asks for a database server: an engine at a version, run with
// some replicas, each with some storage. The operator makes it a
// Deployment, a Service and a Secret of credentials.
type Database struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              DatabaseSpec   `json:"spec,omitzero"`
	Status            DatabaseStatus `json:"status,omitzero"`
}

// DatabaseSpec is the desired state, written by the user.
type DatabaseSpec struct {
	// Engine is the database server: "postgres" or "mysql" (see engines).
	Engine string `json:"engine"`
	// Version is the engine's version, the tag of its image: "16" runs
	// postgres:16.
	Version string `json:"version"`
	// Replicas is how many servers run, 1 to 5 (the webhook's rule).
	Replicas int32 `json:"replicas"`
	// Storage is each server's data volume, a quantity such as "1Gi".
	Storage string `json:"storage,omitempty"`
}

// DatabaseStatus is the observed state, written by the operator through
// the status subresource.
type DatabaseStatus struct {
	// ObservedGeneration is the metadata.generation this status describes.
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`
	// Phase is Provisioning until every replica is ready, then Ready.
	Phase string `json:"phase,omitempty"`
	// Endpoint is where clients connect: <service>.<namespace>.svc:<port>.
	Endpoint string `json:"endpoint,omitempty"`
	// ReadyReplicas is the Deployment's count of ready pods.
	ReadyReplicas int32 `json:"readyReplicas,omitempty"`
	// CredentialsSecret names the Secret holding username and password.
	CredentialsSecret string `json:"credentialsSecret,omitempty"`
	// Conditions holds the Ready condition.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// The phases of a Database.
const (
	PhaseProvisioning = "Provisioning"
	PhaseReady        = "Ready"
)

// ConditionReady is True once every replica is ready.
const ConditionReady = "Ready"

// DatabaseList is a list of Databases, what LIST and the informer read.
type DatabaseList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Database `json:"items"`
}

// DeepCopyObject implements runtime.Object.
func (d *Database) DeepCopyObject() runtime.Object { return d.DeepCopy() }

// DeepCopy returns a copy of d that shares nothing with it: what a
// reconciler changes instead of the cache's object.
func (d *Database) DeepCopy() *Database { return runtime.DeepCopy(d) }

// DeepCopyObject implements runtime.Object.
func (l *DatabaseList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(l) }

// AddToScheme registers Database and DatabaseList and the databases
// resource as the CRD serves it (namespaced, with a status subresource),
// so clients built on the scheme decode databases into these types.
func AddToScheme(s *runtime.Scheme) error {
	s.AddKnownTypes(databasesGVR.GroupVersion(), &Database{}, &DatabaseList{})
	return s.AddResource(runtime.ResourceInfo{
		GVR: databasesGVR, Kind: "Database", Namespaced: true,
		Verbs: runtime.AllVerbs, ShortNames: []string{"db"}, Subresources: []string{"status"},
	})
}
