package runtime

import (
	"fmt"
	"reflect"
)

// SetListItems fills list's Items field (a []Kind of values) from items,
// which must be pointers to that Kind. It copies the values: the list does
// not share them with items.
func SetListItems(list Object, items []Object) error {
	field, err := itemsField(list)
	if err != nil {
		return err
	}
	elemType := field.Type().Elem()
	slice := reflect.MakeSlice(field.Type(), len(items), len(items))
	for i, item := range items {
		v := reflect.ValueOf(item)
		if v.Kind() != reflect.Pointer || v.Elem().Type() != elemType {
			return fmt.Errorf("list %T cannot hold item %T", list, item)
		}
		slice.Index(i).Set(v.Elem())
	}
	field.Set(slice)
	return nil
}

// ListItems returns pointers to the items of list. The pointers alias the
// list's storage: modifying an item modifies the list.
func ListItems(list Object) ([]Object, error) {
	field, err := itemsField(list)
	if err != nil {
		return nil, err
	}
	items := make([]Object, field.Len())
	for i := range field.Len() {
		obj, ok := field.Index(i).Addr().Interface().(Object)
		if !ok {
			return nil, fmt.Errorf("list %T item is not an Object", list)
		}
		items[i] = obj
	}
	return items, nil
}

func itemsField(list Object) (reflect.Value, error) {
	v := reflect.ValueOf(list)
	if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
		return reflect.Value{}, fmt.Errorf("list %T is not a pointer to a struct", list)
	}
	field := v.Elem().FieldByName("Items")
	if !field.IsValid() || field.Kind() != reflect.Slice {
		return reflect.Value{}, fmt.Errorf("list %T has no Items slice", list)
	}
	return field, nil
}
