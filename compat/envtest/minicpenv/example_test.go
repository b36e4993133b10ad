package minicpenv_test

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"

	"github.com/minicp/minicp/compat/envtest/minicpenv"
)

// An envtest suite moves to minicp by changing the type of its
// environment; the rest of the suite is unchanged.
func ExampleEnvironment() {
	testEnv := &minicpenv.Environment{ // was: &envtest.Environment{
		CRDDirectoryPaths:     []string{"testdata/crds"},
		ErrorIfCRDPathMissing: true,
	}
	cfg, err := testEnv.Start()
	if err != nil {
		fmt.Println(err)
		return
	}
	defer testEnv.Stop()

	c, err := client.New(cfg, client.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	ns := &corev1.Namespace{}
	err = c.Get(context.Background(), client.ObjectKey{Name: "default"}, ns)
	fmt.Println(ns.Name, err, testEnv.CRDs[0].Name)
	// Output: default <nil> widgets.example.minicp.io
}
