package validation

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

func validMeta() metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:        "web-1",
		Namespace:   "shop",
		Labels:      map[string]string{"app": "web", "example.com/tier": "front_end"},
		Annotations: map[string]string{"Example.com/Note": "anything at all: ok"},
		OwnerReferences: []metav1.OwnerReference{
			{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "u1", Controller: ptrTo(true)},
			{APIVersion: "v1", Kind: "ConfigMap", Name: "cfg", UID: "u2"},
		},
		Finalizers: []string{"kubernetes", "example.com/cleanup", "foregroundDeletion"},
	}
}

func TestValidateObjectMeta(t *testing.T) {
	tests := []struct {
		name          string
		mutate        func(*metav1.ObjectMeta)
		clusterScoped bool
		nameFn        ValidateNameFunc
		want          []string
	}{
		{name: "valid", mutate: func(*metav1.ObjectMeta) {}, want: []string{}},
		{name: "generateName only", mutate: func(m *metav1.ObjectMeta) { m.Name = ""; m.GenerateName = "web-" },
			want: []string{"FieldValueRequired metadata.name"}},
		{name: "generateName with name", mutate: func(m *metav1.ObjectMeta) { m.GenerateName = "web-" }, want: []string{}},
		{name: "bad generateName", mutate: func(m *metav1.ObjectMeta) { m.GenerateName = "Web-" },
			want: []string{"FieldValueInvalid metadata.generateName"}},
		{name: "no name", mutate: func(m *metav1.ObjectMeta) { m.Name = "" }, want: []string{"FieldValueRequired metadata.name"}},
		{name: "bad name", mutate: func(m *metav1.ObjectMeta) { m.Name = "Web_1" }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "dots ok in subdomain", mutate: func(m *metav1.ObjectMeta) { m.Name = "a.b" }, want: []string{}},
		{name: "dots not ok in label", nameFn: NameIsDNSLabel, mutate: func(m *metav1.ObjectMeta) { m.Name = "a.b"; m.Namespace = "" },
			clusterScoped: true, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "no namespace", mutate: func(m *metav1.ObjectMeta) { m.Namespace = "" }, want: []string{"FieldValueRequired metadata.namespace"}},
		{name: "bad namespace", mutate: func(m *metav1.ObjectMeta) { m.Namespace = "a.b" }, want: []string{"FieldValueInvalid metadata.namespace"}},
		{name: "namespace on cluster-scoped", clusterScoped: true, mutate: func(*metav1.ObjectMeta) {},
			want: []string{"FieldValueForbidden metadata.namespace"}},
		{name: "negative generation", mutate: func(m *metav1.ObjectMeta) { m.Generation = -1 }, want: []string{"FieldValueInvalid metadata.generation"}},
		{name: "bad label key", mutate: func(m *metav1.ObjectMeta) { m.Labels["-x"] = "y" }, want: []string{"FieldValueInvalid metadata.labels"}},
		{name: "bad label value", mutate: func(m *metav1.ObjectMeta) { m.Labels["x"] = "y z" }, want: []string{"FieldValueInvalid metadata.labels"}},
		{name: "bad annotation key", mutate: func(m *metav1.ObjectMeta) { m.Annotations["a b"] = "" }, want: []string{"FieldValueInvalid metadata.annotations"}},
		{name: "annotations too big", mutate: func(m *metav1.ObjectMeta) { m.Annotations["big"] = strings.Repeat("x", 256*1024) },
			want: []string{"FieldValueTooLong metadata.annotations"}},
		{name: "annotations at the limit", mutate: func(m *metav1.ObjectMeta) {
			m.Annotations = map[string]string{"big": strings.Repeat("x", 256*1024-3)}
		}, want: []string{}},
		{name: "owner reference fields", mutate: func(m *metav1.ObjectMeta) { m.OwnerReferences = []metav1.OwnerReference{{APIVersion: "apps/"}} },
			want: []string{
				"FieldValueInvalid metadata.ownerReferences.apiVersion", "FieldValueInvalid metadata.ownerReferences.kind",
				"FieldValueInvalid metadata.ownerReferences.name", "FieldValueInvalid metadata.ownerReferences.uid",
			}},
		{name: "two controllers", mutate: func(m *metav1.ObjectMeta) { m.OwnerReferences[1].Controller = ptrTo(true) },
			want: []string{"FieldValueInvalid metadata.ownerReferences"}},
		{name: "unqualified finalizer", mutate: func(m *metav1.ObjectMeta) { m.Finalizers = []string{"cleanup"} },
			want: []string{"FieldValueInvalid metadata.finalizers"}},
		{name: "orphan and foreground", mutate: func(m *metav1.ObjectMeta) { m.Finalizers = []string{"orphan", "foregroundDeletion"} },
			want: []string{"FieldValueInvalid metadata.finalizers"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			meta := validMeta()
			tc.mutate(&meta)
			nameFn := tc.nameFn
			if nameFn == nil {
				nameFn = NameIsDNSSubdomain
			}
			got := ValidateObjectMeta(&meta, !tc.clusterScoped, nameFn, "metadata")
			assert.Equal(t, tc.want, summary(got), "ValidateObjectMeta(%s): %v", tc.name, got)
		})
	}
}

func TestValidateObjectMetaMessages(t *testing.T) {
	meta := metav1.ObjectMeta{Namespace: "x"}
	assert.EqualError(t, ValidateObjectMeta(&meta, true, NameIsDNSSubdomain, "metadata"),
		"metadata.name: Required value: name or generateName is required")
	meta = metav1.ObjectMeta{Name: "x", Namespace: "x"}
	assert.EqualError(t, ValidateObjectMeta(&meta, false, NameIsDNSSubdomain, "metadata"),
		"metadata.namespace: Forbidden: not allowed on this type")
	meta = metav1.ObjectMeta{Name: "x", Labels: map[string]string{"a": "-"}}
	assert.EqualError(t, ValidateObjectMeta(&meta, false, NameIsDNSSubdomain, "metadata"),
		`metadata.labels: Invalid value: "-": a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')`)
	meta = metav1.ObjectMeta{Name: "x", Annotations: map[string]string{"a": strings.Repeat("x", 256*1024)}}
	assert.EqualError(t, ValidateObjectMeta(&meta, false, NameIsDNSSubdomain, "metadata"),
		"metadata.annotations: Too long: must have at most 262144 bytes")
}

func TestNameFuncsWithPrefix(t *testing.T) {
	assert.Empty(t, NameIsDNSSubdomain("web-", true), "a generateName prefix may end with a dash")
	assert.NotEmpty(t, NameIsDNSSubdomain("web-", false))
	assert.Empty(t, NameIsDNSLabel("ns-", true))
	assert.Empty(t, NameIsPathSegment("a.", true))
	assert.NotEmpty(t, NameIsPathSegment("a/", true))
	assert.NotEmpty(t, NameIsPathSegment("..", false))
}

func TestValidateObjectMetaUpdate(t *testing.T) {
	created := metav1.NewTime(time.Date(2024, 9, 12, 10, 0, 0, 0, time.UTC))
	deleted := metav1.NewTime(time.Date(2024, 9, 12, 11, 0, 0, 0, time.UTC))
	old := func() metav1.ObjectMeta {
		m := validMeta()
		m.UID = "uid-1"
		m.ResourceVersion = "5"
		m.Generation = 2
		m.CreationTimestamp = created
		return m
	}
	tests := []struct {
		name      string
		mutateOld func(*metav1.ObjectMeta)
		mutateNew func(*metav1.ObjectMeta)
		want      []string
	}{
		{name: "no change", want: []string{}},
		{name: "labels may change", mutateNew: func(m *metav1.ObjectMeta) { m.Labels = map[string]string{"x": "y"} }, want: []string{}},
		{name: "same instant in another zone", mutateNew: func(m *metav1.ObjectMeta) {
			m.CreationTimestamp = metav1.Time{Time: created.In(time.FixedZone("x", 3600))}
		}, want: []string{}},
		{name: "name", mutateNew: func(m *metav1.ObjectMeta) { m.Name = "other" }, want: []string{"FieldValueInvalid metadata.name"}},
		{name: "namespace", mutateNew: func(m *metav1.ObjectMeta) { m.Namespace = "other" }, want: []string{"FieldValueInvalid metadata.namespace"}},
		{name: "uid", mutateNew: func(m *metav1.ObjectMeta) { m.UID = "uid-2" }, want: []string{"FieldValueInvalid metadata.uid"}},
		{name: "creationTimestamp", mutateNew: func(m *metav1.ObjectMeta) { m.CreationTimestamp = deleted },
			want: []string{"FieldValueInvalid metadata.creationTimestamp"}},
		{name: "deletionTimestamp set by a client", mutateNew: func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &deleted },
			want: []string{"FieldValueInvalid metadata.deletionTimestamp"}},
		{name: "no resourceVersion", mutateNew: func(m *metav1.ObjectMeta) { m.ResourceVersion = "" },
			want: []string{"FieldValueInvalid metadata.resourceVersion"}},
		{name: "generation decremented", mutateNew: func(m *metav1.ObjectMeta) { m.Generation = 1 },
			want: []string{"FieldValueInvalid metadata.generation"}},
		{name: "finalizer added while deleting",
			mutateOld: func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &deleted },
			mutateNew: func(m *metav1.ObjectMeta) {
				m.DeletionTimestamp = &deleted
				m.Finalizers = append(m.Finalizers, "example.com/new")
			},
			want: []string{"FieldValueForbidden metadata.finalizers[3]"}},
		{name: "finalizer removed while deleting",
			mutateOld: func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &deleted },
			mutateNew: func(m *metav1.ObjectMeta) { m.DeletionTimestamp = &deleted; m.Finalizers = nil },
			want:      []string{}},
		{name: "bad label", mutateNew: func(m *metav1.ObjectMeta) { m.Labels["x"] = "-" }, want: []string{"FieldValueInvalid metadata.labels"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o, n := old(), old()
			if tc.mutateOld != nil {
				tc.mutateOld(&o)
			}
			if tc.mutateNew != nil {
				tc.mutateNew(&n)
			}
			got := ValidateObjectMetaUpdate(&n, &o, "metadata")
			assert.Equal(t, tc.want, summary(got), "ValidateObjectMetaUpdate(%s): %v", tc.name, got)
		})
	}
	o, n := old(), old()
	n.Name = "other"
	assert.EqualError(t, ValidateObjectMetaUpdate(&n, &o, "metadata"), `metadata.name: Invalid value: "other": field is immutable`)
}
