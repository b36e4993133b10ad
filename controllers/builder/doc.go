// Package builder makes controllers the way most code should: say what
// the controller is For (its objects' changes enqueue themselves), what
// it Owns (an owned object's change enqueues its controlling owner, of the
// For kind) and what else it Watches (through any event handler), then
// Complete it with a Reconciler. ExampleControllerManagedBy shows it.
//
// Objects are prototypes: their Go type names the kind, and the Manager's
// Scheme finds the resource serving it (Scheme.ObjectKind, then
// ResourceForKind). The builder collects mistakes (For twice, an unknown
// type) and Complete returns the first; it never panics.
//
// For/Owns encodes the usual shape of a controller, the job controller's
// for one: it reconciles Jobs and watches the pods it created through
// their owner references.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/builder.
package builder
