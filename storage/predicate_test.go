package storage_test

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/fields"
	"github.com/minicp/minicp/api/labels"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/storage"
	"github.com/minicp/minicp/storage/storagetest"
)

func TestPredicateMatches(t *testing.T) {
	w := &storagetest.Widget{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "w", Labels: map[string]string{"app": "web"}},
		Spec:       storagetest.WidgetSpec{Color: "red"},
	}
	tests := []struct {
		name      string
		pred      storage.Predicate
		wantEmpty bool
		want      bool
	}{
		{"zero predicate", storage.Predicate{}, true, true},
		{"everything", storage.Predicate{Label: labels.Everything(), Field: fields.Everything()}, true, true},
		{"limit does not select", storage.Predicate{Limit: 1, Continue: "x"}, true, true},
		{"label match", storage.Predicate{Label: labels.SelectorFromSet(labels.Set{"app": "web"})}, false, true},
		{"label mismatch", storage.Predicate{Label: labels.SelectorFromSet(labels.Set{"app": "db"})}, false, false},
		{"default fields", storage.Predicate{Field: fields.SelectorFromSet(fields.Set{"metadata.name": "w", "metadata.namespace": "ns"})}, false, true},
		{"kind field without GetAttrs", storage.Predicate{Field: fields.OneTermEqualSelector("spec.color", "red")}, false, false},
		{"kind field with GetAttrs", storage.Predicate{Field: fields.OneTermEqualSelector("spec.color", "red"), GetAttrs: storagetest.WidgetAttrs}, false, true},
		{"label and field, one failing", storage.Predicate{
			Label: labels.SelectorFromSet(labels.Set{"app": "web"}),
			Field: fields.OneTermEqualSelector("metadata.name", "other"),
		}, false, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.wantEmpty, tc.pred.Empty(), "Empty()")
			got, err := tc.pred.Matches(w)
			require.NoError(t, err, "Matches")
			assert.Equal(t, tc.want, got, "Matches")
		})
	}
}

func TestPredicateMatchesAttrError(t *testing.T) {
	errAttrs := errors.New("attrs")
	pred := storage.Predicate{
		Label:    labels.SelectorFromSet(labels.Set{"app": "web"}),
		GetAttrs: func(runtime.Object) (labels.Set, fields.Set, error) { return nil, nil, errAttrs },
	}
	_, err := pred.Matches(&storagetest.Widget{})
	assert.ErrorIs(t, err, errAttrs, "Matches returns GetAttrs' error")
}

func TestPreconditionsCheck(t *testing.T) {
	w := &storagetest.Widget{ObjectMeta: metav1.ObjectMeta{UID: "u1", ResourceVersion: "7"}}
	uid, otherUID, rv, otherRV := "u1", "u2", "7", "6"
	tests := []struct {
		name       string
		p          *storage.Preconditions
		wantDetail string
	}{
		{"nil", nil, ""},
		{"empty", &storage.Preconditions{}, ""},
		{"both match", &storage.Preconditions{UID: &uid, ResourceVersion: &rv}, ""},
		{"UID differs", &storage.Preconditions{UID: &otherUID},
			"Precondition failed: UID in precondition: u2, UID in object meta: u1"},
		{"resourceVersion differs", &storage.Preconditions{ResourceVersion: &otherRV},
			"Precondition failed: ResourceVersion in precondition: 6, ResourceVersion in object meta: 7"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.p.Check("/widgets/ns/w", w)
			if tc.wantDetail == "" {
				assert.NoError(t, err, "Check")
				return
			}
			require.ErrorIs(t, err, storage.ErrConflict, "Check")
			var serr *storage.Error
			require.ErrorAs(t, err, &serr, "Check")
			assert.Equal(t, tc.wantDetail, serr.Detail, "detail")
			assert.Equal(t, "/widgets/ns/w", serr.Key, "key")
		})
	}
}
