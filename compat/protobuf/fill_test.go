package protobuf

import (
	"encoding/json"
	"fmt"
	"reflect"
	"time"

	"github.com/minicp/minicp/api/intstr"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/resource"
	"github.com/minicp/minicp/api/runtime"
)

// filler sets every exported field of a minicp object to a non-zero value,
// so comparing the encodings of a filled object checks every field's tag.
// Values are deterministic: n counts the values handed out so far.
type filler struct{ n int }

// quantities are canonical forms, so parsing a Quantity's String gives it
// back with the same Format.
var quantities = []string{"100m", "1536Mi", "2", "1G", "5e3", "64Ki", "-3"}

var (
	typeMetaType    = reflect.TypeFor[runtime.TypeMeta]()
	timeType        = reflect.TypeFor[metav1.Time]()
	microTimeType   = reflect.TypeFor[metav1.MicroTime]()
	quantityType    = reflect.TypeFor[resource.Quantity]()
	intOrStringType = reflect.TypeFor[intstr.IntOrString]()
	rawMessageType  = reflect.TypeFor[json.RawMessage]()
	fieldsV1Type    = reflect.TypeFor[metav1.FieldsV1]()
)

// fill fills obj, which must be a pointer, leaving its TypeMeta alone.
func fill[T any](obj T) T {
	(&filler{}).value(reflect.ValueOf(obj).Elem())
	return obj
}

func (f *filler) next() int {
	f.n++
	return f.n
}

func (f *filler) value(v reflect.Value) {
	n := f.next()
	switch v.Type() {
	case typeMetaType:
		return
	case timeType:
		v.Set(reflect.ValueOf(metav1.NewTime(time.Unix(1700000000+int64(n)*3607, 0))))
		return
	case microTimeType:
		v.Set(reflect.ValueOf(metav1.NewMicroTime(time.Unix(1700000000+int64(n), int64(n)*1000+123000000))))
		return
	case quantityType:
		v.Set(reflect.ValueOf(resource.MustParse(quantities[n%len(quantities)])))
		return
	case intOrStringType:
		if n%2 == 0 {
			v.Set(reflect.ValueOf(intstr.FromInt32(int32(8000 + n))))
		} else {
			v.Set(reflect.ValueOf(intstr.FromString(fmt.Sprintf("port-%d", n))))
		}
		return
	case rawMessageType:
		v.SetBytes([]byte(fmt.Sprintf(`{"kind":"Pod","n":%d}`, n)))
		return
	case fieldsV1Type:
		// A managedFields document: JSON, which upstream's MarshalJSON
		// checks.
		v.Set(reflect.ValueOf(metav1.FieldsV1{Raw: []byte(fmt.Sprintf(`{"f:metadata":{"f:labels":{"f:l%d":{}}}}`, n))}))
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("%s-%d", v.Type().Name(), n))
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		// Mix signs and sizes: negative ints are ten-byte varints.
		v.SetInt(int64(n*1009%3000 - 1000))
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		f.value(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 2, 2))
		for i := range 2 {
			f.value(v.Index(i))
		}
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		// Inserted out of order: the encodings sort keys.
		for _, k := range []string{"zone", "app"} {
			key := reflect.New(v.Type().Key()).Elem()
			key.SetString(fmt.Sprintf("%s-%d", k, n))
			val := reflect.New(v.Type().Elem()).Elem()
			f.value(val)
			v.SetMapIndex(key, val)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				f.value(v.Field(i))
			}
		}
	}
}
