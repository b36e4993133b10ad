package runtime_test

import (
	"fmt"

	corev1 "github.com/minicp/minicp/api/core/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/runtime"
)

// The body kubectl create namespace x sends, and reading it back.
func ExampleEncodeProtobuf() {
	ns := &corev1.Namespace{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Namespace"},
		ObjectMeta: metav1.ObjectMeta{Name: "x"},
	}
	data, err := runtime.EncodeProtobuf(ns)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%q\n", data)

	var got corev1.Namespace
	if err := runtime.DecodeProtobuf(data, &got); err != nil {
		panic(err)
	}
	fmt.Println(got.Kind, got.Name)
	// Output:
	// "k8s\x00\n\x0f\n\x02v1\x12\tNamespace\x12\x19\n\x11\n\x01x\x12\x00\x1a\x00\"\x00*\x002\x008\x00B\x00\x12\x00\x1a\x02\n\x00\x1a\x00\"\x00"
	// Namespace x
}
