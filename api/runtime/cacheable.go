package runtime

// CacheableObject is an object that keeps its own serializations, so that
// many consumers sending the same object (the watchers one event is
// dispatched to) encode it once between them instead of once each. The
// watch cache hands them out; the API server's watch handler encodes
// through CacheEncode and unwraps with GetObject for anything else.
//
// Implementations are safe for concurrent use, and neither they nor the
// object they wrap may be modified.
//
// Upstream: k8s.io/apimachinery/pkg/runtime (CacheableObject).
type CacheableObject interface {
	Object
	// CacheEncode returns encode(GetObject()) for the serialization named
	// id (a media type, say), calling encode only the first time for that
	// id: every later call with the same id gets the same bytes, or the
	// same error. Callers must pass equivalent encode functions for one
	// id; the bytes are shared and must not be modified.
	CacheEncode(id string, encode func(Object) ([]byte, error)) ([]byte, error)
	// GetObject returns the wrapped object, which is shared.
	GetObject() Object
}
