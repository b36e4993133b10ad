package v1

import (
	"errors"

	"google.golang.org/protobuf/encoding/protowire"
)

// decodeSchema merges the JSONSchemaProps message in data into s, as
// generated Unmarshal code does: scalars replaced, repeated fields and
// maps appended to. depth is the nesting of s below the outermost schema.
func decodeSchema(data []byte, s *JSONSchemaProps, depth int) error {
	if depth > maxSchemaDepth {
		return errors.New("schema nested too deeply")
	}
	return walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		switch num {
		case 1, 2, 3, 4, 5, 6, 7, 15, 23, 41, 42, 43:
			v, n, err := consumeBytes(typ, b)
			if err != nil {
				return 0, err
			}
			setSchemaString(s, num, string(v))
			return n, nil
		case 10, 12, 18, 37, 38, 39, 40:
			v, n, err := consumeVarint(typ, b)
			if err != nil {
				return 0, err
			}
			setSchemaBool(s, num, protowire.DecodeBool(v))
			return n, nil
		case 13, 14, 16, 17, 21, 22:
			v, n, err := consumeVarint(typ, b)
			if err != nil {
				return 0, err
			}
			i := int64(v)
			setSchemaInt(s, num, &i)
			return n, nil
		case 9:
			v, n, err := consumeDouble(typ, b)
			s.Maximum = v
			return n, err
		case 11:
			v, n, err := consumeDouble(typ, b)
			s.Minimum = v
			return n, err
		case 19:
			v, n, err := consumeDouble(typ, b)
			s.MultipleOf = v
			return n, err
		}
		v, n, err := consumeBytes(typ, b)
		if err != nil {
			if num > 44 {
				// An unknown field of any wire type: skip it.
				return -1, nil
			}
			return 0, err
		}
		return n, decodeSchemaMessage(s, num, v, depth)
	})
}

func setSchemaString(s *JSONSchemaProps, num protowire.Number, v string) {
	switch num {
	case 1:
		s.ID = v
	case 2:
		s.Schema = JSONSchemaURL(v)
	case 3:
		s.Ref = &v
	case 4:
		s.Description = v
	case 5:
		s.Type = v
	case 6:
		s.Format = v
	case 7:
		s.Title = v
	case 15:
		s.Pattern = v
	case 23:
		s.Required = append(s.Required, v)
	case 41:
		s.XListMapKeys = append(s.XListMapKeys, v)
	case 42:
		s.XListType = &v
	case 43:
		s.XMapType = &v
	}
}

func setSchemaBool(s *JSONSchemaProps, num protowire.Number, v bool) {
	switch num {
	case 10:
		s.ExclusiveMaximum = v
	case 12:
		s.ExclusiveMinimum = v
	case 18:
		s.UniqueItems = v
	case 37:
		s.Nullable = v
	case 38:
		s.XPreserveUnknownFields = &v
	case 39:
		s.XEmbeddedResource = v
	case 40:
		s.XIntOrString = v
	}
}

func setSchemaInt(s *JSONSchemaProps, num protowire.Number, v *int64) {
	switch num {
	case 13:
		s.MaxLength = v
	case 14:
		s.MinLength = v
	case 16:
		s.MaxItems = v
	case 17:
		s.MinItems = v
	case 21:
		s.MaxProperties = v
	case 22:
		s.MinProperties = v
	}
}

// decodeSchemaMessage reads the length-delimited field num of s, whose
// body is v. Unknown numbers are ignored.
func decodeSchemaMessage(s *JSONSchemaProps, num protowire.Number, v []byte, depth int) error {
	switch num {
	case 8, 36:
		j, err := decodeJSON(v)
		if num == 8 {
			s.Default = &j
		} else {
			s.Example = &j
		}
		return err
	case 20:
		j, err := decodeJSON(v)
		s.Enum = append(s.Enum, j)
		return err
	case 24:
		return decodeItems(v, s, depth)
	case 25, 26, 27:
		var sub JSONSchemaProps
		if err := decodeSchema(v, &sub, depth+1); err != nil {
			return err
		}
		switch num {
		case 25:
			s.AllOf = append(s.AllOf, sub)
		case 26:
			s.OneOf = append(s.OneOf, sub)
		default:
			s.AnyOf = append(s.AnyOf, sub)
		}
		return nil
	case 28:
		s.Not = &JSONSchemaProps{}
		return decodeSchema(v, s.Not, depth+1)
	case 29:
		return decodeSchemaMapEntry(v, &s.Properties, depth)
	case 31:
		return decodeSchemaMapEntry(v, &s.PatternProperties, depth)
	case 34:
		m := map[string]JSONSchemaProps(s.Definitions)
		err := decodeSchemaMapEntry(v, &m, depth)
		s.Definitions = m
		return err
	case 30, 33:
		o, err := decodeOrBool(v, depth)
		if num == 30 {
			s.AdditionalProperties = o
		} else {
			s.AdditionalItems = o
		}
		return err
	case 32:
		return decodeDependency(v, s, depth)
	case 35:
		d, err := decodeExternalDocs(v)
		s.ExternalDocs = d
		return err
	case 44:
		r, err := decodeValidationRule(v)
		s.XValidations = append(s.XValidations, r)
		return err
	}
	return nil
}

func decodeItems(data []byte, s *JSONSchemaProps, depth int) error {
	if s.Items == nil {
		s.Items = &JSONSchemaPropsOrArray{}
	}
	return walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		if num != 1 && num != 2 {
			return -1, nil
		}
		v, n, err := consumeBytes(typ, b)
		if err != nil {
			return 0, err
		}
		var sub JSONSchemaProps
		if err := decodeSchema(v, &sub, depth+1); err != nil {
			return 0, err
		}
		if num == 1 {
			s.Items.Schema = &sub
		} else {
			s.Items.JSONSchemas = append(s.Items.JSONSchemas, sub)
		}
		return n, nil
	})
}

func decodeDependency(data []byte, s *JSONSchemaProps, depth int) error {
	var key string
	var val JSONSchemaPropsOrStringArray
	err := walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		switch num {
		case 1:
			v, n, err := consumeBytes(typ, b)
			key = string(v)
			return n, err
		case 2:
			v, n, err := consumeBytes(typ, b)
			if err != nil {
				return 0, err
			}
			return n, walk(v, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
				switch num {
				case 1:
					v, n, err := consumeBytes(typ, b)
					if err != nil {
						return 0, err
					}
					val.Schema = &JSONSchemaProps{}
					return n, decodeSchema(v, val.Schema, depth+1)
				case 2:
					v, n, err := consumeBytes(typ, b)
					val.Property = append(val.Property, string(v))
					return n, err
				}
				return -1, nil
			})
		}
		return -1, nil
	})
	if err != nil {
		return err
	}
	if s.Dependencies == nil {
		s.Dependencies = JSONSchemaDependencies{}
	}
	s.Dependencies[key] = val
	return nil
}

func decodeExternalDocs(data []byte) (*ExternalDocumentation, error) {
	d := &ExternalDocumentation{}
	err := walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		if num != 1 && num != 2 {
			return -1, nil
		}
		v, n, err := consumeBytes(typ, b)
		if num == 1 {
			d.Description = string(v)
		} else {
			d.URL = string(v)
		}
		return n, err
	})
	return d, err
}

func decodeValidationRule(data []byte) (ValidationRule, error) {
	var r ValidationRule
	err := walk(data, func(num protowire.Number, typ protowire.Type, b []byte) (int, error) {
		switch num {
		case 1, 2, 3, 4, 5:
			v, n, err := consumeBytes(typ, b)
			switch str := string(v); num {
			case 1:
				r.Rule = str
			case 2:
				r.Message = str
			case 3:
				r.MessageExpression = str
			case 4:
				reason := FieldValueErrorReason(str)
				r.Reason = &reason
			case 5:
				r.FieldPath = str
			}
			return n, err
		case 6:
			v, n, err := consumeVarint(typ, b)
			o := protowire.DecodeBool(v)
			r.OptionalOldSelf = &o
			return n, err
		}
		return -1, nil
	})
	return r, err
}
