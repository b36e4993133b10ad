package runtime_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

func widget(name string) *Widget {
	return &Widget{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{"n": name}}}
}

func TestSetListItems(t *testing.T) {
	a, b := widget("a"), widget("b")
	list := &WidgetList{}
	require.NoError(t, runtime.SetListItems(list, []runtime.Object{a, b}), "SetListItems(a, b)")
	require.Len(t, list.Items, 2)
	assert.Equal(t, *a, list.Items[0])
	assert.Equal(t, *b, list.Items[1])

	// The list holds copies of the item values.
	a.Name = "changed"
	assert.Equal(t, "a", list.Items[0].Name, "list item after changing the original")

	require.NoError(t, runtime.SetListItems(list, nil), "SetListItems(nil)")
	assert.NotNil(t, list.Items, "items after SetListItems(nil): [] encodes as [], nil as null")
	assert.Empty(t, list.Items)
}

func TestSetListItemsErrors(t *testing.T) {
	tests := []struct {
		name  string
		list  runtime.Object
		items []runtime.Object
	}{
		{name: "other kind", list: &WidgetList{}, items: []runtime.Object{widget("a"), &Gadget{}}},
		{name: "list as item", list: &WidgetList{}, items: []runtime.Object{&WidgetList{}}},
		{name: "no Items", list: &Widget{}, items: []runtime.Object{widget("a")}},
		{name: "not a struct pointer", list: valueKind{}, items: nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Error(t, runtime.SetListItems(tc.list, tc.items), "SetListItems(%T, %d items)", tc.list, len(tc.items))
		})
	}
}

func TestSetListItemsLeavesListOnError(t *testing.T) {
	list := &WidgetList{Items: []Widget{*widget("keep")}}
	require.Error(t, runtime.SetListItems(list, []runtime.Object{widget("a"), &Gadget{}}))
	require.Len(t, list.Items, 1)
	assert.Equal(t, "keep", list.Items[0].Name)
}

func TestListItems(t *testing.T) {
	list := &WidgetList{Items: []Widget{*widget("a"), *widget("b")}}
	items, err := runtime.ListItems(list)
	require.NoError(t, err, "ListItems")
	require.Len(t, items, 2)
	assert.Equal(t, "a", items[0].(*Widget).Name)
	assert.Equal(t, "b", items[1].(*Widget).Name)

	// The items alias the list.
	items[1].(*Widget).Name = "changed"
	assert.Equal(t, "changed", list.Items[1].Name, "list after changing an item")

	empty, err := runtime.ListItems(&WidgetList{})
	require.NoError(t, err, "ListItems(empty)")
	assert.Empty(t, empty)

	_, err = runtime.ListItems(widget("a"))
	assert.Error(t, err, "ListItems(*Widget)")
	_, err = runtime.ListItems(valueKind{})
	assert.Error(t, err, "ListItems(valueKind)")
}
