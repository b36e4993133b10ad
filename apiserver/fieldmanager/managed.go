package fieldmanager

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

// Managed is an object's managedFields as structured-merge-diff works
// with them: each manager's field set, by manager identifier (see
// BuildManagerIdentifier), and the time of each manager's last change.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal (Managed).
type Managed struct {
	Fields fieldpath.ManagedFields
	Times  map[string]*metav1.Time
}

// newEmptyManaged is a Managed with no managers.
func newEmptyManaged() *Managed {
	return &Managed{Fields: fieldpath.ManagedFields{}, Times: map[string]*metav1.Time{}}
}

// DecodeManagedFields reads managedFields entries. Every entry must have
// an Apply or Update operation, an apiVersion and fieldsType FieldsV1.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (DecodeManagedFields).
func DecodeManagedFields(entries []metav1.ManagedFieldsEntry) (*Managed, error) {
	m := &Managed{
		Fields: make(fieldpath.ManagedFields, len(entries)),
		Times:  make(map[string]*metav1.Time, len(entries)),
	}
	for i := range entries {
		e := &entries[i]
		switch e.Operation {
		case metav1.ManagedFieldsOperationApply, metav1.ManagedFieldsOperationUpdate:
		default:
			return nil, errors.New("operation must be `Apply` or `Update`")
		}
		if e.APIVersion == "" {
			return nil, errors.New("apiVersion must not be empty")
		}
		switch e.FieldsType {
		case "FieldsV1":
		case "":
			return nil, fmt.Errorf("missing fieldsType in managed fields entry %d", i)
		default:
			return nil, fmt.Errorf("invalid fieldsType %q in managed fields entry %d", e.FieldsType, i)
		}
		manager, err := BuildManagerIdentifier(e)
		if err != nil {
			return nil, fmt.Errorf("error decoding manager from %v: %w", e, err)
		}
		var set fieldpath.Set
		raw := []byte("{}")
		if e.FieldsV1 != nil && e.FieldsV1.Raw != nil {
			raw = e.FieldsV1.Raw
		}
		if err := set.FromJSON(strings.NewReader(string(raw))); err != nil {
			return nil, fmt.Errorf("error decoding versioned set from %v: error decoding set: %w", e, err)
		}
		m.Fields[manager] = fieldpath.NewVersionedSet(&set, fieldpath.APIVersion(e.APIVersion), e.Operation == metav1.ManagedFieldsOperationApply)
		m.Times[manager] = e.Time
	}
	return m, nil
}

// managerIdentity is what identifies a manager: the JSON of its entry
// without fields, fieldsType, time, and (for appliers) apiVersion. Its
// fields are in ManagedFieldsEntry's order, so identifiers are the bytes
// upstream builds.
type managerIdentity struct {
	Manager     string `json:"manager,omitempty"`
	Operation   string `json:"operation,omitempty"`
	APIVersion  string `json:"apiVersion,omitempty"`
	Subresource string `json:"subresource,omitempty"`
}

// BuildManagerIdentifier is the key of an entry's manager in Managed:
// {"manager":"kubectl","operation":"Apply"} or, for an updater, with its
// apiVersion (and subresource, if any). An applier keeps one identity
// whatever version it applies.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (BuildManagerIdentifier).
func BuildManagerIdentifier(e *metav1.ManagedFieldsEntry) (string, error) {
	id := managerIdentity{Manager: e.Manager, Operation: e.Operation, APIVersion: e.APIVersion, Subresource: e.Subresource}
	if e.Operation == metav1.ManagedFieldsOperationApply {
		id.APIVersion = ""
	}
	b, err := json.Marshal(id)
	if err != nil {
		return "", fmt.Errorf("error marshalling manager identifier: %w", err)
	}
	return string(b), nil
}

// EncodeManagedFields writes m as managedFields entries, in upstream's
// order: by operation (Apply first), then time, manager, apiVersion and
// subresource. No managers is nil.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (encodeManagedFields, sortEncodedManagedFields).
func EncodeManagedFields(m *Managed) ([]metav1.ManagedFieldsEntry, error) {
	if len(m.Fields) == 0 {
		return nil, nil
	}
	out := make([]metav1.ManagedFieldsEntry, 0, len(m.Fields))
	for manager, vs := range m.Fields {
		var id managerIdentity
		if err := json.Unmarshal([]byte(manager), &id); err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: error unmarshalling manager identifier: %w", manager, err)
		}
		raw, err := vs.Set().ToJSON()
		if err != nil {
			return nil, fmt.Errorf("error encoding versioned set for %v: %w", manager, err)
		}
		e := metav1.ManagedFieldsEntry{
			Manager:     id.Manager,
			Operation:   id.Operation,
			APIVersion:  string(vs.APIVersion()),
			FieldsType:  "FieldsV1",
			FieldsV1:    &metav1.FieldsV1{Raw: raw},
			Subresource: id.Subresource,
			Time:        m.Times[manager],
		}
		if vs.Applied() {
			e.Operation = metav1.ManagedFieldsOperationApply
		}
		out = append(out, e)
	}
	slices.SortStableFunc(out, compareEntries)
	return out, nil
}

func compareEntries(p, q metav1.ManagedFieldsEntry) int {
	if c := strings.Compare(p.Operation, q.Operation); c != 0 {
		return c
	}
	var ps, qs int64
	if p.Time != nil {
		ps = p.Time.Unix()
	}
	if q.Time != nil {
		qs = q.Time.Unix()
	}
	switch {
	case ps < qs:
		return -1
	case ps > qs:
		return 1
	}
	if c := strings.Compare(p.Manager, q.Manager); c != 0 {
		return c
	}
	if c := strings.Compare(p.APIVersion, q.APIVersion); c != 0 {
		return c
	}
	return strings.Compare(p.Subresource, q.Subresource)
}

// isResetManagedFields reports a request that asks to clear the
// managedFields: an empty (non-nil) list, or a list of one empty entry.
//
// Upstream: k8s.io/apimachinery/pkg/util/managedfields/internal
// (isResetManagedFields).
func isResetManagedFields(entries []metav1.ManagedFieldsEntry) bool {
	switch len(entries) {
	case 0:
		return entries != nil
	case 1:
		return reflect.DeepEqual(entries[0], metav1.ManagedFieldsEntry{})
	}
	return false
}
