package storage

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"path"
	"strconv"
	"strings"

	"go.etcd.io/etcd/api/v3/mvccpb"
	clientv3 "go.etcd.io/etcd/client/v3"
	"go.opentelemetry.io/otel/trace"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/tracing"
)

// DefaultPrefix is the key prefix of a Store whose StoreOptions.Prefix is
// empty, the one kube-apiserver uses (--etcd-prefix).
const DefaultPrefix = "/registry"

// StoreOptions configures a Store.
type StoreOptions struct {
	// Prefix is put in front of every key, so one etcd can serve many
	// clusters, each under its own prefix. Defaults to DefaultPrefix.
	Prefix string
	// GroupResource names the resource in log records and error text.
	GroupResource runtime.GroupResource
	// NewFunc returns a new empty object of the resource's kind; the store
	// decodes into it. Required.
	NewFunc func() runtime.Object
	// Converter converts objects between the form the store serves and
	// the form it writes. Optional: built-in kinds are served as stored.
	Converter Converter
	// Logger receives Debug records per etcd transaction and Warn records
	// for watches that end in error. Defaults to a logger that discards.
	Logger *slog.Logger
	// RequestObserver, when set, is called as each etcd request of the
	// Store's reads and writes starts, with its operation ("get", "list",
	// "create", "update", "delete"); the func it returns is called once
	// etcd answered. It must be safe for concurrent use. The API server
	// records etcd_request_duration_seconds with it; watches are not
	// requests and are not observed.
	RequestObserver func(operation string) (done func())
	// Tracing, when set, records each write's etcd transaction as an
	// etcd.txn span in the writer's trace, and which span wrote each
	// revision, so that whoever receives its watch event can link to
	// it. Defaults to nil: nothing traced.
	Tracing *tracing.Tracing
}

// Converter converts objects between the form a Store serves and the form
// it writes to etcd. A custom resource with several versions is stored at
// one of them and served at each: the Store of each served version
// converts on every read and write. A conversion may call out (a
// conversion webhook), so it takes the context of the read or write and
// may fail; the Store returns its error as it is, wrapped, so a Status
// error reaches the client unchanged.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (the codec and its
// EncodeVersioner).
type Converter interface {
	// FromStorage converts objects just decoded from etcd, in place: the
	// Store owns them. One call converts every object of one etcd read (a
	// page of a list, or an event's two states), so a converter that calls
	// out does it once for all of them.
	FromStorage(ctx context.Context, objs []runtime.Object) error
	// ToStorage returns the form of obj to write. It must not modify obj;
	// the result may share obj's fields, as it is only encoded.
	ToStorage(ctx context.Context, obj runtime.Object) (runtime.Object, error)
}

// StorageDecoder is an optional Converter capability, checked in
// Store.decodeAll: a Converter whose stored form is another Go type than
// the one served (a built-in kind served at two versions, as a
// HorizontalPodAutoscaler is at autoscaling/v1 and, stored, at
// autoscaling/v2) cannot convert in place, so it decodes the stored bytes
// itself and returns the served object, which the Store then owns.
// FromStorage is not called for such a Converter.
type StorageDecoder interface {
	DecodeFromStorage(data []byte) (runtime.Object, error)
}

// Store is storage.Interface over etcd for one resource: every object is
// one etcd key holding its JSON, and its resourceVersion is the etcd
// revision that last wrote it. A Store holds no state besides its options,
// so it is safe for concurrent use and needs no Close; the only goroutines
// it starts are its watches', each owned by the watch it serves. The client
// stays owned by the caller: closing it ends every call and watch of the
// Store.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store).
type Store struct {
	client *clientv3.Client
	// pathPrefix is the cleaned Prefix followed by "/" ("/registry/", or
	// "/" for the root), so that pathPrefix + key[1:] is the etcd key.
	pathPrefix string
	gr         runtime.GroupResource
	newFunc    func() runtime.Object
	converter  Converter
	logger     *slog.Logger
	observer   func(operation string) (done func())
	tracer     trace.Tracer
	revisions  *tracing.Revisions
}

var _ Interface = (*Store)(nil)

// NewStore returns a Store that reads and writes through client. The Store
// does not own client: the caller closes it after the last call returns.
func NewStore(client *clientv3.Client, opts StoreOptions) (*Store, error) {
	if client == nil {
		return nil, errors.New("storage: NewStore needs a client")
	}
	if opts.NewFunc == nil {
		return nil, errors.New("storage: StoreOptions.NewFunc is required")
	}
	if _, err := metav1.Accessor(opts.NewFunc()); err != nil {
		return nil, fmt.Errorf("storage: StoreOptions.NewFunc: %w", err)
	}
	prefix := opts.Prefix
	if prefix == "" {
		prefix = DefaultPrefix
	}
	// path.Join cleans the prefix ("registry/", "//registry" and
	// "/registry" are one prefix); the root becomes "" so keys do not start
	// with "//".
	pathPrefix := path.Join("/", prefix)
	if pathPrefix == "/" {
		pathPrefix = ""
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	return &Store{
		client:     client,
		pathPrefix: pathPrefix + "/",
		gr:         opts.GroupResource,
		newFunc:    opts.NewFunc,
		converter:  opts.Converter,
		logger:     logger.With("component", "storage", "resource", opts.GroupResource.String()),
		observer:   opts.RequestObserver,
		tracer:     opts.Tracing.Tracer("apiserver"),
		revisions:  opts.Tracing.Revisions(),
	}, nil
}

// prepareKey checks key and returns the etcd key it names. Keys that could
// climb out of the prefix ("..") or name nothing are ErrInvalidKey.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.prepareKey).
func (s *Store) prepareKey(key string) (string, error) {
	if key == "" || key == "/" {
		return "", NewInvalidKeyError(key, "empty key")
	}
	for _, seg := range []string{".", ".."} {
		if key == seg || strings.HasPrefix(key, seg+"/") || strings.HasSuffix(key, "/"+seg) || strings.Contains(key, "/"+seg+"/") {
			return "", NewInvalidKeyError(key, fmt.Sprintf("key holds a %q segment", seg))
		}
	}
	return s.pathPrefix + strings.TrimPrefix(key, "/"), nil
}

// storedValue is one value read from etcd: the key it is under, its
// bytes, and the revision to report as its resourceVersion.
type storedValue struct {
	key  string
	data []byte
	rev  int64
}

// decode reads stored bytes into a new object, converts it and sets its
// resourceVersion to rev. Stored data that does not decode is an error,
// never a panic.
func (s *Store) decode(ctx context.Context, key string, data []byte, rev int64) (runtime.Object, error) {
	objs, err := s.decodeAll(ctx, []storedValue{{key: key, data: data, rev: rev}})
	if err != nil {
		return nil, err
	}
	return objs[0], nil
}

// written is the result of a write of obj as data at revision rev. data
// is obj's JSON unless a Converter changed obj for storage, so obj (which
// the store owns by then) with the resourceVersion set is what decoding
// data would give, at a third of the cost of the decode; with a
// Converter, data is decoded as a read would.
func (s *Store) written(ctx context.Context, key string, obj runtime.Object, data []byte, rev int64) (runtime.Object, error) {
	if s.converter != nil {
		return s.decode(ctx, key, data, rev)
	}
	metav1.MustAccessor(obj).ResourceVersion = strconv.FormatInt(rev, 10)
	return obj, nil
}

// decodeAll decodes values as decode does, converting them in one call of
// the Converter.
func (s *Store) decodeAll(ctx context.Context, values []storedValue) ([]runtime.Object, error) {
	objs := make([]runtime.Object, len(values))
	decoder, _ := s.converter.(StorageDecoder)
	for i, v := range values {
		if decoder != nil {
			obj, err := decoder.DecodeFromStorage(v.data)
			if err != nil {
				return nil, fmt.Errorf("decode %s %s at revision %d: %w", s.gr, v.key, v.rev, err)
			}
			objs[i] = obj
			continue
		}
		obj := s.newFunc()
		// json.Unmarshal rather than runtime.Decode: stored bytes are JSON
		// we wrote, so there is no YAML to convert and no unknown field to
		// report, and runtime.Decode's second pass for unknown fields would
		// double the cost of every list.
		if err := json.Unmarshal(v.data, obj); err != nil {
			return nil, fmt.Errorf("decode %s %s at revision %d: %w", s.gr, v.key, v.rev, err)
		}
		objs[i] = obj
	}
	if s.converter != nil && decoder == nil && len(objs) > 0 {
		if err := s.converter.FromStorage(ctx, objs); err != nil {
			return nil, fmt.Errorf("decode %s %s: %w", s.gr, values[0].key, err)
		}
	}
	// The resourceVersion is set after the conversion, as upstream's
	// decode does: a converter sees the stored form, which has none.
	for i, obj := range objs {
		// NewStore checked that NewFunc's objects have ObjectMeta.
		metav1.MustAccessor(obj).ResourceVersion = strconv.FormatInt(values[i].rev, 10)
	}
	return objs, nil
}

// storedValues are the values of kvs, each at its own revision.
func (s *Store) storedValues(kvs []*mvccpb.KeyValue) []storedValue {
	values := make([]storedValue, len(kvs))
	for i, kv := range kvs {
		values[i] = storedValue{key: s.unprefix(kv.Key), data: kv.Value, rev: kv.ModRevision}
	}
	return values
}

// encode returns obj's stored form: its JSON with the resourceVersion
// cleared, because the revision of the write (not yet known) is the
// resourceVersion. It clears obj's resourceVersion in place, so obj must
// belong to the store.
func (s *Store) encode(ctx context.Context, obj runtime.Object) ([]byte, error) {
	meta, err := metav1.Accessor(obj)
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", s.gr, err)
	}
	meta.ResourceVersion = ""
	stored, err := s.toStorage(ctx, obj)
	if err != nil {
		return nil, fmt.Errorf("encode %s %s: %w", s.gr, meta.Name, err)
	}
	data, err := runtime.Encode(stored)
	if err != nil {
		return nil, fmt.Errorf("encode %s %s: %w", s.gr, meta.Name, err)
	}
	return data, nil
}

// objState is an object as read from etcd: decoded, raw, and the revision
// that wrote it (0 when the key is empty).
type objState struct {
	obj    runtime.Object
	data   []byte
	rev    int64
	exists bool
}

// toStorage is the form of obj to write: obj itself unless a Converter
// says otherwise.
func (s *Store) toStorage(ctx context.Context, obj runtime.Object) (runtime.Object, error) {
	if s.converter == nil {
		return obj, nil
	}
	return s.converter.ToStorage(ctx, obj)
}

// getState turns the response of a Get of key into an objState. An empty
// key is ErrNotFound unless ignoreNotFound, which gives a zero object.
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.getState).
func (s *Store) getState(ctx context.Context, key string, resp *clientv3.GetResponse, ignoreNotFound bool) (*objState, error) {
	if len(resp.Kvs) == 0 {
		if !ignoreNotFound {
			return nil, NewNotFoundError(key, 0)
		}
		return &objState{obj: s.newFunc()}, nil
	}
	kv := resp.Kvs[0]
	obj, err := s.decode(ctx, key, kv.Value, kv.ModRevision)
	if err != nil {
		return nil, err
	}
	return &objState{obj: obj, data: kv.Value, rev: kv.ModRevision, exists: true}, nil
}

// parseResourceVersion reads a resourceVersion: "" is 0, anything else must
// be a non-negative decimal revision.
//
// Upstream: k8s.io/apiserver/pkg/storage (APIObjectVersioner.ParseResourceVersion).
func parseResourceVersion(key, rv string) (int64, error) {
	if rv == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(rv, 10, 64)
	if err != nil || n < 0 {
		return 0, NewInvalidResourceVersionError(key, rv)
	}
	return n, nil
}

// validateMinimumResourceVersion fails with ErrTooLargeResourceVersion when
// the client asks for a state newer than etcd has (it read a revision from
// another API server whose etcd member is ahead of ours).
//
// Upstream: k8s.io/apiserver/pkg/storage/etcd3 (store.validateMinimumResourceVersion).
func validateMinimumResourceVersion(key string, minimum, current int64) error {
	if minimum > current {
		return NewTooLargeResourceVersionError(key, minimum, current)
	}
	return nil
}

// observe times one etcd request of operation for the RequestObserver:
// call the func it returns once etcd answered.
func (s *Store) observe(operation string) (done func()) {
	if s.observer == nil {
		return func() {}
	}
	return s.observer(operation)
}
