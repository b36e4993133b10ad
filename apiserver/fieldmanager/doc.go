// Package fieldmanager is server-side apply: it tracks which manager owns
// which fields of an object (metadata.managedFields) and merges applied
// configurations into objects.
//
// On the request path it sits in the write handlers, before mutating
// admission: a create, update or non-apply patch records an Update
// operation for its manager (FieldManager.Update), and a PATCH with
// Content-Type application/apply-patch+yaml merges the applied
// configuration into the live object and records an Apply operation
// (FieldManager.Apply), answering 409 Conflict when it would change a
// field another manager owns, unless forced.
//
// The merge itself is sigs.k8s.io/structured-merge-diff, which needs a
// schema: ToSchema converts the server's OpenAPI v3 definitions (of the
// built-in kinds, or of a CRD's structural schema) into one, reading the
// list, map and struct semantics from the x-kubernetes-* extensions and
// the patch strategy, as kube-apiserver does.
//
// Like upstream, a FieldManager is a chain of Managers, each one concern
// in its own file (outermost first): versionCheckManager,
// lastAppliedUpdater, skipNonAppliedManager, capManagersManager,
// buildManagerInfoManager, managedFieldsUpdater, stripMetaManager and
// structuredMergeManager. Objects travel the chain as decoded JSON
// (map[string]any) without their managedFields, which travel beside them
// as a Managed.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields,
// k8s.io/apiserver/pkg/endpoints/handlers/fieldmanager and
// k8s.io/kube-openapi/pkg/schemaconv.
package fieldmanager
