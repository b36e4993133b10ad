package printers_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/apierrors"
	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/apiserver/printers"
)

const day = 24 * time.Hour

// The want column is what kubectl prints: the output of
// k8s.io/apimachinery/pkg/util/duration.HumanDuration for the same input.
func TestHumanDuration(t *testing.T) {
	tests := []struct {
		d    time.Duration
		want string
	}{
		{d: 0, want: "0s"},
		{d: 999 * time.Millisecond, want: "0s"},
		{d: 59 * time.Second, want: "59s"},
		{d: 119 * time.Second, want: "119s"},
		{d: 2 * time.Minute, want: "2m"},
		{d: 5*time.Minute + 30*time.Second, want: "5m30s"},
		{d: 9*time.Minute + 59*time.Second, want: "9m59s"},
		{d: 10 * time.Minute, want: "10m"},
		{d: 10*time.Minute + 59*time.Second, want: "10m"},
		{d: 179 * time.Minute, want: "179m"},
		{d: 3 * time.Hour, want: "3h"},
		{d: 5*time.Hour + 10*time.Minute, want: "5h10m"},
		{d: 7*time.Hour + 59*time.Minute, want: "7h59m"},
		{d: 8 * time.Hour, want: "8h"},
		{d: 47*time.Hour + 59*time.Minute, want: "47h"},
		{d: 2 * day, want: "2d"},
		{d: 3*day + 4*time.Hour, want: "3d4h"},
		{d: 7*day + 23*time.Hour, want: "7d23h"},
		{d: 8 * day, want: "8d"},
		{d: 400 * day, want: "400d"},
		{d: 729 * day, want: "729d"},
		{d: 730 * day, want: "2y"},
		{d: 3 * 365 * day, want: "3y"},
		{d: 3*365*day + 40*day, want: "3y40d"},
		{d: 7*365*day + 364*day, want: "7y364d"},
		{d: 8 * 365 * day, want: "8y"},
		{d: 8*365*day + 40*day, want: "8y"},
		{d: 20 * 365 * day, want: "20y"},
		// Clock skew between the server and the object's writer: under
		// two seconds in the future counts as now.
		{d: -500 * time.Millisecond, want: "0s"},
		{d: -time.Second, want: "0s"},
		{d: -1999 * time.Millisecond, want: "0s"},
		{d: -2 * time.Second, want: "<invalid>"},
		{d: -time.Hour, want: "<invalid>"},
	}
	for _, tc := range tests {
		t.Run(tc.d.String(), func(t *testing.T) {
			assert.Equal(t, tc.want, printers.HumanDuration(tc.d), "HumanDuration(%v)", tc.d)
		})
	}
}

var created = time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)

func pod(name, rv string) corev1.Pod {
	return corev1.Pod{
		TypeMeta: metav1.TypeMeta{Kind: "Pod", APIVersion: "v1"},
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: "ns", ResourceVersion: rv, UID: "uid-" + name,
			CreationTimestamp: metav1.NewTime(created),
			Labels:            map[string]string{"app": name},
		},
		Spec: corev1.PodSpec{NodeName: "node-1"},
	}
}

func TestAge(t *testing.T) {
	p := pod("a", "1")
	assert.Equal(t, "5m30s", printers.Age(&p, created.Add(5*time.Minute+30*time.Second)))
	p.CreationTimestamp = metav1.Time{}
	assert.Equal(t, "<unknown>", printers.Age(&p, created), "Age without a creationTimestamp")
}

func TestDefaultConvertToTableObject(t *testing.T) {
	p := pod("a", "7")
	table, err := printers.Default.ConvertToTable(context.Background(), &p, "", created.Add(time.Hour))
	require.NoError(t, err, "ConvertToTable(pod)")
	assert.Equal(t, metav1.TypeMeta{Kind: "Table", APIVersion: "meta.k8s.io/v1"}, table.TypeMeta)
	assert.Equal(t, "7", table.ResourceVersion, "an object's table has its resourceVersion")
	require.Len(t, table.ColumnDefinitions, 2)
	assert.Equal(t, "Name", table.ColumnDefinitions[0].Name)
	assert.Equal(t, "Created At", table.ColumnDefinitions[1].Name)
	require.Len(t, table.Rows, 1)
	assert.Equal(t, []any{"a", "2024-05-06T07:08:09Z"}, table.Rows[0].Cells)
}

func TestDefaultConvertToTableList(t *testing.T) {
	remaining := int64(3)
	list := &corev1.PodList{
		TypeMeta: metav1.TypeMeta{Kind: "PodList", APIVersion: "v1"},
		ListMeta: metav1.ListMeta{ResourceVersion: "42", Continue: "token", RemainingItemCount: &remaining},
		Items:    []corev1.Pod{pod("a", "5"), pod("b", "6")},
	}
	table, err := printers.Default.ConvertToTable(context.Background(), list, "", created)
	require.NoError(t, err, "ConvertToTable(list)")
	assert.Equal(t, list.ListMeta, table.ListMeta, "the list's metadata is the table's")
	require.Len(t, table.Rows, 2)
	assert.Equal(t, "a", table.Rows[0].Cells[0])
	assert.Equal(t, "b", table.Rows[1].Cells[0])

	empty, err := printers.Default.ConvertToTable(context.Background(), &corev1.PodList{ListMeta: metav1.ListMeta{ResourceVersion: "9"}}, "", created)
	require.NoError(t, err, "ConvertToTable(empty list)")
	assert.Equal(t, "9", empty.ResourceVersion)
	require.NotNil(t, empty.Rows, "rows of an empty list")
	data, err := json.Marshal(empty)
	require.NoError(t, err)
	assert.Contains(t, string(data), `"rows":[]`, "an empty table has rows: [] for kubectl")
}

func TestConvertToTableIncludeObject(t *testing.T) {
	p := pod("a", "5")
	tests := []struct {
		includeObject string
		// want is the row's object: "" for none, else its kind.
		want string
	}{
		{includeObject: "", want: "PartialObjectMetadata"},
		{includeObject: "Metadata", want: "PartialObjectMetadata"},
		{includeObject: "Object", want: "Pod"},
		{includeObject: "None"},
	}
	for _, tc := range tests {
		t.Run(tc.includeObject, func(t *testing.T) {
			table, err := printers.Default.ConvertToTable(context.Background(), &p, tc.includeObject, created)
			require.NoError(t, err, "ConvertToTable(includeObject=%q)", tc.includeObject)
			require.Len(t, table.Rows, 1)
			raw := table.Rows[0].Object
			if tc.want == "" {
				assert.Nil(t, raw, "includeObject=%q", tc.includeObject)
				return
			}
			var obj struct {
				metav1.TypeMeta `json:",inline"`
				Metadata        metav1.ObjectMeta `json:"metadata"`
				Spec            *corev1.PodSpec   `json:"spec"`
			}
			require.NoError(t, json.Unmarshal(raw, &obj), "includeObject=%q: %s", tc.includeObject, raw)
			assert.Equal(t, tc.want, obj.Kind, "includeObject=%q", tc.includeObject)
			assert.Equal(t, "a", obj.Metadata.Name, "includeObject=%q", tc.includeObject)
			assert.Equal(t, "ns", obj.Metadata.Namespace, "includeObject=%q", tc.includeObject)
			assert.Equal(t, map[string]string{"app": "a"}, obj.Metadata.Labels, "includeObject=%q", tc.includeObject)
			if tc.want == "PartialObjectMetadata" {
				assert.Equal(t, "meta.k8s.io/v1", obj.APIVersion, "includeObject=%q", tc.includeObject)
				assert.Nil(t, obj.Spec, "includeObject=%q carries only metadata", tc.includeObject)
			} else {
				require.NotNil(t, obj.Spec, "includeObject=%q carries the spec", tc.includeObject)
				assert.Equal(t, "node-1", obj.Spec.NodeName)
			}
		})
	}
}

func TestConvertToTableInvalidIncludeObject(t *testing.T) {
	p := pod("a", "5")
	for _, v := range []string{"object", "All", "none"} {
		_, err := printers.Default.ConvertToTable(context.Background(), &p, v, created)
		assert.True(t, apierrors.IsBadRequest(err), "ConvertToTable(includeObject=%q) = %v, want 400", v, err)
	}
	// An empty list has no rows to render, but the parameter is still wrong.
	_, err := printers.Default.ConvertToTable(context.Background(), &corev1.PodList{}, "bogus", created)
	assert.True(t, apierrors.IsBadRequest(err), "ConvertToTable(empty list, includeObject=bogus) = %v, want 400", err)
}
