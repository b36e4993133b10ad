package schema

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"
)

// validate checks data against the node, which is at name in the
// document ("" for the root, "spec.ports[0]" below it), in the order and
// with the counting of kube-openapi's SchemaValidator: type, junctors,
// string, format, number, array, enum, object. Each check that applies
// runs even after an earlier one failed.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (SchemaValidator.Validate).
func (v *vschema) validate(name string, data any) *result {
	res := new(result)
	if v == nil {
		return res
	}
	if data == nil {
		res.merge(v.validateType(name, data))
		res.merge(v.validateEnum(name, data))
		return res
	}
	kind := kindOf(data)
	if num, ok := data.(json.Number); ok && (v.hasType("number") || v.hasType("integer")) {
		// A json.Number is converted as kube-openapi converts it; the
		// package's own values never are json.Numbers.
		var err error
		if v.hasType("integer") {
			var i int64
			i, err = num.Int64()
			data = i
		} else {
			var f float64
			f, err = num.Float64()
			data = f
		}
		if err != nil {
			res.addErrors(plainErr("invalid type conversion in %s: %v ", name, err))
			res.inc()
			return res
		}
		kind = kindOf(data)
	}

	if len(v.types) > 0 || v.format != "" {
		res.merge(v.validateType(name, data))
		res.inc()
	}
	res.merge(v.validateJunctors(name, data))
	res.inc()
	if kind == reflect.String {
		res.merge(v.validateString(name, data))
		res.inc()
		if v.format != "" && knownFormat(v.format) {
			res.merge(v.validateFormat(name, data.(string)))
			res.inc()
		}
	}
	if isNumberKind(kind) {
		res.merge(v.validateNumber(name, data))
		res.inc()
	}
	if kind == reflect.Slice {
		res.merge(v.validateSlice(name, data))
		res.inc()
	}
	res.merge(v.validateEnum(name, data))
	res.inc()
	if kind == reflect.Map {
		if m, ok := data.(map[string]any); ok {
			res.merge(v.validateObject(name, m))
		}
		res.inc()
	}
	res.inc()
	return res
}

// kindOf is the reflect kind of data, through pointers.
func kindOf(data any) reflect.Kind {
	t := reflect.TypeOf(data)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind()
}

func isNumberKind(k reflect.Kind) bool {
	return (k >= reflect.Int && k <= reflect.Uint64) || k == reflect.Float32 || k == reflect.Float64
}

// jsonTypeOf is the JSON schema type and format of a value.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (typeValidator.schemaInfoForType).
func jsonTypeOf(data any) (typ, format string) {
	val := reflect.Indirect(reflect.ValueOf(data))
	switch val.Kind() {
	case reflect.Bool:
		return "boolean", ""
	case reflect.String:
		return "string", ""
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Uint8, reflect.Uint16, reflect.Uint32:
		return "integer", "int32"
	case reflect.Int, reflect.Int64, reflect.Uint, reflect.Uint64:
		return "integer", "int64"
	case reflect.Float32:
		return "number", "float32"
	case reflect.Float64:
		return "number", "float64"
	case reflect.Slice:
		return "array", ""
	case reflect.Map, reflect.Struct:
		return "object", ""
	}
	return "", ""
}

// validateType checks the type, and the format of non-strings.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (typeValidator.Validate).
func (v *vschema) validateType(name string, data any) *result {
	if data == nil {
		if len(v.types) > 0 && !v.hasType("null") && !v.nullable {
			return errResult(invalidTypeErr(name, strings.Join(v.types, ","), "null"))
		}
		return &result{matchCount: 1}
	}
	val := reflect.Indirect(reflect.ValueOf(data))
	kind := val.Kind()
	schType, format := jsonTypeOf(data)

	isLowerInt := v.format == "int64" && format == "int32"
	isLowerFloat := v.format == "float64" && format == "float32"
	isFloatInt := schType == "number" && isFloat64AJSONInteger(val.Float()) && v.hasType("integer")
	isIntFloat := schType == "integer" && v.hasType("number")

	if kind != reflect.String && kind != reflect.Slice && v.format != "" &&
		!(v.hasType(schType) || format == v.format || isFloatInt || isIntFloat || isLowerInt || isLowerFloat) {
		return errResult(invalidTypeErr(name, v.format, format))
	}
	if !(v.hasType("number") || v.hasType("integer")) && v.format != "" && (kind == reflect.String || kind == reflect.Slice) {
		return &result{matchCount: 1}
	}
	if !(v.hasType(schType) || isFloatInt || isIntFloat) {
		return errResult(invalidTypeErr(name, strings.Join(v.types, ","), schType))
	}
	return &result{matchCount: 1}
}

// validateJunctors checks anyOf, oneOf, allOf, not and dependencies. Of a
// failed anyOf or oneOf, only the errors of the alternative that matched
// most are reported.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (schemaPropsValidator.Validate).
func (v *vschema) validateJunctors(name string, data any) *result {
	main := new(result)
	if len(v.anyOf) > 0 {
		var best, firstSuccess *result
		succeeded := false
		for _, alt := range v.anyOf {
			r := alt.validate(name, data)
			if r.isValid() {
				best = nil
				succeeded = true
				firstSuccess = r
				break
			}
			if best == nil || r.matchCount > best.matchCount {
				best = r
			}
		}
		if !succeeded {
			main.addErrors(plainErr("%q must validate at least one schema (anyOf)", name))
		}
		if best != nil {
			main.merge(best)
		} else if firstSuccess != nil {
			main.merge(firstSuccess)
		}
	}
	if len(v.oneOf) > 0 {
		var best, firstSuccess *result
		validated := 0
		for _, alt := range v.oneOf {
			r := alt.validate(name, data)
			if r.isValid() {
				validated++
				best = nil
				if firstSuccess == nil {
					firstSuccess = r
				}
				continue
			}
			if validated == 0 && (best == nil || r.matchCount > best.matchCount) {
				best = r
			}
		}
		if validated != 1 {
			additional := "Found none valid"
			if validated > 1 {
				additional = "Found " + itoa(validated) + " valid alternatives"
			}
			main.addErrors(plainErr("%q must validate one and only one schema (oneOf). %s", name, additional))
			if best != nil {
				main.merge(best)
			}
		} else if firstSuccess != nil {
			main.merge(firstSuccess)
		}
	}
	if len(v.allOf) > 0 {
		validated := 0
		for _, alt := range v.allOf {
			r := alt.validate(name, data)
			if r.isValid() {
				validated++
			}
			main.merge(r)
		}
		if validated != len(v.allOf) {
			additional := ""
			if validated == 0 {
				additional = ". None validated"
			}
			main.addErrors(plainErr("%q must validate all the schemas (allOf)%s", name, additional))
		}
	}
	if v.not != nil {
		if v.not.validate(name, data).isValid() {
			main.addErrors(plainErr("%q must not validate the schema (not)", name))
		}
	}
	if m, ok := data.(map[string]any); ok && len(v.dependencies) > 0 {
		for _, key := range sortedKeys(m) {
			dep, ok := v.dependencies[key]
			if !ok {
				continue
			}
			if dep.schema != nil {
				main.merge(dep.schema.validate(name+"."+key, data))
				continue
			}
			for _, depKey := range dep.properties {
				if _, ok := m[depKey]; !ok {
					main.addErrors(plainErr("%q has a dependency on %s", name, depKey))
				}
			}
		}
	}
	main.inc()
	return main
}

// validateEnum checks data against the enum. A value matches an enum
// value of another Go type when it converts to it (reflect's
// conversions: int64(1) matches 1.0, and 1.5 matches 1).
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (basicCommonValidator.Validate).
func (v *vschema) validateEnum(name string, data any) *result {
	if len(v.enum) == 0 {
		return nil
	}
	for _, e := range v.enum {
		t := reflect.TypeOf(e)
		if t == nil {
			continue
		}
		dv := reflect.ValueOf(data)
		if dv.IsValid() && dv.Type().ConvertibleTo(t) && reflect.DeepEqual(convertValue(dv, t), e) {
			return nil
		}
	}
	return errResult(verr{code: codeEnum, name: name, value: data, values: v.enum,
		message: sprintf("%s in %s should be one of %v", name, in, v.enum)})
}

// convertValue is dv.Convert(t), which reflect only panics on for
// conversions ConvertibleTo allows but the value does not (a slice to a
// too long array), which JSON values never are.
func convertValue(dv reflect.Value, t reflect.Type) (out any) {
	defer func() {
		if recover() != nil {
			out = nil
		}
	}()
	return dv.Convert(t).Interface()
}

// validateObject checks the properties of an object.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (objectValidator.Validate).
func (v *vschema) validateObject(name string, val map[string]any) *result {
	res := new(result)
	numKeys := int64(len(val))
	if v.minProperties != nil && numKeys < *v.minProperties {
		res.addErrors(verr{code: codeTooFewProperties, name: name, value: numKeys, valid: *v.minProperties,
			message: sprintf("%s in %s should have at least %d properties", name, in, *v.minProperties)})
	}
	if v.maxProperties != nil && numKeys > *v.maxProperties {
		res.addErrors(verr{code: codeTooManyProperties, name: name, value: numKeys, valid: *v.maxProperties,
			message: sprintf("%s in %s should have at most %d properties", name, in, *v.maxProperties)})
	}
	keys := sortedKeys(val)
	if v.additionalProperties != nil && !v.additionalProperties.allows {
		for _, k := range keys {
			_, regular := v.properties[k]
			if !regular && !v.matchesPatternProperty(k) {
				res.addErrors(verr{code: codeUnallowedProperty, name: name, value: k,
					message: sprintf("%s.%s in %s is a forbidden property", name, k, in)})
			}
		}
	} else {
		for _, k := range keys {
			_, regular := v.properties[k]
			matched, _ := v.validatePatternProperty(name, k, val[k], res)
			if !regular && !matched && v.additionalProperties != nil && v.additionalProperties.schema != nil {
				res.merge(v.additionalProperties.schema.validate(name+"."+k, val[k]))
			}
		}
	}
	for _, p := range v.propertyNames {
		child := p
		if name != "" {
			child = name + "." + p
		}
		if value, ok := val[p]; ok {
			res.merge(v.properties[p].validate(child, value))
		}
	}
	for _, k := range v.required {
		if _, ok := val[k]; !ok {
			res.addErrors(requiredErr(name + "." + k))
		}
	}
	for _, k := range keys {
		_, regular := v.properties[k]
		matched, patterns := v.validatePatternProperty(name, k, val[k], res)
		if !regular && matched {
			for _, p := range patterns {
				res.merge(v.patternProperties[p].validate(name+"."+k, val[k]))
			}
		}
	}
	return res
}

func (v *vschema) matchesPatternProperty(key string) bool {
	for _, re := range v.patternREs {
		if re != nil && re.MatchString(key) {
			return true
		}
	}
	return false
}

// validatePatternProperty validates val against every pattern property
// key matches, into res, and returns the patterns that matched.
func (v *vschema) validatePatternProperty(name, key string, val any, res *result) (bool, []string) {
	var patterns []string
	for i, re := range v.patternREs {
		if re != nil && re.MatchString(key) {
			p := v.patternNames[i]
			patterns = append(patterns, p)
			res.merge(v.patternProperties[p].validate(name+"."+key, val))
		}
	}
	return len(patterns) > 0, patterns
}

// validateSlice checks the items and the array's size and uniqueness.
//
// Upstream: k8s.io/kube-openapi/pkg/validation/validate (schemaSliceValidator.Validate).
func (v *vschema) validateSlice(name string, data any) *result {
	res := new(result)
	val := reflect.ValueOf(data)
	size := val.Len()
	if v.items != nil {
		for i := range size {
			res.merge(v.items.validate(indexName(name, i), val.Index(i).Interface()))
		}
	}
	itemsSize := 0
	if len(v.itemsTuple) > 0 {
		itemsSize = len(v.itemsTuple)
		for i := 0; i < itemsSize && i < size; i++ {
			res.merge(v.itemsTuple[i].validate(indexName(name, i), val.Index(i).Interface()))
		}
	}
	if v.additionalItems != nil && itemsSize < size {
		if len(v.itemsTuple) > 0 && !v.additionalItems.allows {
			res.addErrors(plainErr("array doesn't allow for additional items"))
		}
		if v.additionalItems.schema != nil {
			// Upstream's bound, size-itemsSize+1, is kept as it is.
			for i := itemsSize; i < size-itemsSize+1 && i < size; i++ {
				res.merge(v.additionalItems.schema.validate(indexName(name, i), val.Index(i).Interface()))
			}
		}
	}
	if v.minItems != nil && int64(size) < *v.minItems {
		res.addErrors(verr{code: codeMinItems, name: name, value: int64(size), valid: *v.minItems,
			message: sprintf("%s in %s should have at least %d items", name, in, *v.minItems)})
	}
	if v.maxItems != nil && int64(size) > *v.maxItems {
		res.addErrors(verr{code: codeMaxItems, name: name, value: int64(size), valid: *v.maxItems,
			message: sprintf("%s in %s should have at most %d items", name, in, *v.maxItems)})
	}
	if v.uniqueItems {
		var seen []any
		for i := range size {
			e := val.Index(i).Interface()
			if slices.ContainsFunc(seen, func(u any) bool { return reflect.DeepEqual(e, u) }) {
				res.addErrors(verr{code: codeUnique, name: name, message: sprintf("%s in %s shouldn't contain duplicates", name, in)})
				break
			}
			seen = append(seen, e)
		}
	}
	res.inc()
	return res
}

func indexName(name string, i int) string { return name + "[" + itoa(i) + "]" }
