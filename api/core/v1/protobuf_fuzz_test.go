package v1

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// FuzzDecodeProtobuf feeds arbitrary bodies to DecodeProtobuf for the
// kinds a client sends. Decoding must never panic, and whatever it accepts
// must encode and decode again to an equal object, which encodes to the
// same bytes. The seeds are the golden bodies Kubernetes wrote.
//
//	go test -run '^$' -fuzz FuzzDecodeProtobuf -fuzztime 1m ./api/core/v1
func FuzzDecodeProtobuf(f *testing.F) {
	seeds, err := filepath.Glob(filepath.Join("testdata", "protobuf", "*.pb"))
	if err != nil {
		f.Fatal(err)
	}
	for _, path := range seeds {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte("k8s\x00"))
	f.Add([]byte("k8s\x00\x12\x03\x0a\x01\x00"))
	kinds := []func() runtime.Object{
		func() runtime.Object { return &Pod{} },
		func() runtime.Object { return &Node{} },
		func() runtime.Object { return &Namespace{} },
		func() runtime.Object { return &Event{} },
		func() runtime.Object { return &Binding{} },
		func() runtime.Object { return &metav1.DeleteOptions{} },
		func() runtime.Object { return &metav1.Status{} },
		func() runtime.Object { return &metav1.APIResourceList{} },
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, newObj := range kinds {
			obj := newObj()
			if err := runtime.DecodeProtobuf(data, obj); err != nil {
				continue
			}
			first, err := runtime.EncodeProtobuf(obj)
			if err != nil {
				t.Fatalf("EncodeProtobuf(%T) of a decoded body: %v", obj, err)
			}
			again := newObj()
			if err := runtime.DecodeProtobuf(first, again); err != nil {
				t.Fatalf("DecodeProtobuf(%T) of its own encoding: %v", obj, err)
			}
			second, err := runtime.EncodeProtobuf(again)
			if err != nil {
				t.Fatalf("EncodeProtobuf(%T) again: %v", obj, err)
			}
			if string(first) != string(second) {
				t.Fatalf("%T: encoding is not stable:\n%x\n%x", obj, first, second)
			}
			if !reflect.DeepEqual(obj, again) {
				t.Fatalf("%T: decode, encode, decode changes the object:\n%#v\n%#v", obj, obj, again)
			}
		}
	})
}
