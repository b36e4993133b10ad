package schema

// Default fills in the defaults of s in x, in place, top-down: a missing
// property (or a null one, unless nullable) gets a deep copy of its
// default, and is then defaulted itself, as are the values of maps
// (additionalProperties) and the elements of arrays; null elements and
// map values take their schema's default unless it is nullable. Values of
// the wrong type are left alone; validation reports them. x must be the
// value after Prune, and s should have gone through PruneDefaults, so
// that defaults cannot bring back pruned fields.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting (Default).
func Default(x any, s *Structural) {
	if s == nil {
		return
	}
	switch x := x.(type) {
	case map[string]any:
		for k, prop := range s.Properties {
			if prop.Default.Object == nil {
				continue
			}
			if v, found := x[k]; !found || isNonNullableNull(v, &prop) {
				x[k] = deepCopyJSON(prop.Default.Object)
			}
		}
		for k, v := range x {
			if prop, found := s.Properties[k]; found {
				Default(v, &prop)
			} else if s.AdditionalProperties != nil {
				ap := s.AdditionalProperties.Structural
				if isNonNullableNull(v, ap) {
					x[k] = deepCopyJSON(ap.Default.Object)
				}
				Default(x[k], ap)
			}
		}
	case []any:
		for i := range x {
			if isNonNullableNull(x[i], s.Items) {
				x[i] = deepCopyJSON(s.Items.Default.Object)
			}
			Default(x[i], s.Items)
		}
	}
}

func isNonNullableNull(x any, s *Structural) bool {
	return x == nil && s != nil && !s.Nullable
}

// PruneNonNullableNullsWithoutDefaults drops, in place, object fields
// that are null where the schema neither allows null nor has a default:
// the API server's decoder drops them before defaulting, as
// encoding/json leaves a Go field at its zero value for null.
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting (PruneNonNullableNullsWithoutDefaults).
func PruneNonNullableNullsWithoutDefaults(x any, s *Structural) {
	switch x := x.(type) {
	case map[string]any:
		for k, v := range x {
			schema := schemaForField(k, s)
			if v == nil && schema != nil && !schema.Nullable && schema.Default.Object == nil {
				delete(x, k)
			} else {
				PruneNonNullableNullsWithoutDefaults(v, schema)
			}
		}
	case []any:
		var items *Structural
		if s != nil {
			items = s.Items
		}
		for _, v := range x {
			PruneNonNullableNullsWithoutDefaults(v, items)
		}
	}
}

func schemaForField(field string, s *Structural) *Structural {
	if s == nil {
		return nil
	}
	if prop, ok := s.Properties[field]; ok {
		return &prop
	}
	if s.AdditionalProperties != nil {
		return s.AdditionalProperties.Structural
	}
	return nil
}
