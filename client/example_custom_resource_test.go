package client_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
	"github.com/minicp/minicp/api/runtime"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/cluster"
)

// Developer is a program's own Go type for the Developer custom resource:
// TypeMeta, ObjectMeta and the fields the CRD's schema describes.
type Developer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitzero"`
	Spec              DeveloperSpec `json:"spec,omitzero"`
}

// DeveloperSpec is what a Developer asks for.
type DeveloperSpec struct {
	Language string `json:"language,omitempty"`
}

// DeveloperList is a list of Developers.
type DeveloperList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitzero"`
	Items           []Developer `json:"items"`
}

func (d *Developer) DeepCopyObject() runtime.Object     { return runtime.DeepCopy(d) }
func (d *DeveloperList) DeepCopyObject() runtime.Object { return runtime.DeepCopy(d) }

// addDeveloperTypes registers the Developer Go types and their resource,
// as an operator's AddToScheme does.
func addDeveloperTypes(s *runtime.Scheme) error {
	s.AddKnownTypes(developersGVR.GroupVersion(), &Developer{}, &DeveloperList{})
	return s.AddResource(runtime.ResourceInfo{GVR: developersGVR, Kind: "Developer", Namespaced: true,
		Verbs: runtime.AllVerbs, Subresources: []string{"status"}})
}

// A custom resource without Go types: create its CRD through the API,
// watch the CRD until the server says it serves the resource
// (Established), then read and write Developers as unstructured objects.
func ExampleNewDynamicResource() {
	err := cluster.Run(context.Background(), cluster.Options{Controllers: []string{}}, func(ctx context.Context, _ *cluster.Cluster, cs *client.Clientset) error {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		crds, err := client.NewResource[*apiextensionsv1.CustomResourceDefinition, *apiextensionsv1.CustomResourceDefinitionList](
			cs.Client(), apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"))
		if err != nil {
			return err
		}
		// Watch from before the create, so the Established change cannot
		// be missed.
		w, err := crds.Watch(ctx, client.ListOptions{FieldSelector: "metadata.name=developers.example.com"})
		if err != nil {
			return err
		}
		defer w.Stop()
		if _, err := crds.Create(ctx, developersCRD(), client.WriteOptions{}); err != nil {
			return err
		}
		for established := false; !established; {
			ev, ok := <-w.ResultChan()
			if !ok {
				return errors.New("the watch of the CRD ended")
			}
			crd, isCRD := ev.Object.(*apiextensionsv1.CustomResourceDefinition)
			established = isCRD && apiextensionsv1.IsCRDConditionTrue(crd, apiextensionsv1.Established)
		}

		// Discovery lists the new resource.
		infos, err := client.NewDiscoveryClient(cs.Client()).ServerPreferredResources(ctx)
		if err != nil {
			return err
		}
		for _, info := range infos {
			if info.GVR.Group == "example.com" {
				fmt.Println("discovered:", info.GVR, info.Kind, info.ShortNames)
			}
		}

		r, err := client.NewDynamicResource(ctx, cs.Client(), developersGVR)
		if err != nil {
			return err
		}
		devs := r.Namespace("default")
		events, err := devs.Watch(ctx, client.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return err
		}
		defer events.Stop()
		_, err = devs.Create(ctx, &unstructured.Unstructured{
			TypeMeta:   metav1.TypeMeta{APIVersion: "example.com/v1", Kind: "Developer"},
			ObjectMeta: metav1.ObjectMeta{Name: "megyo"},
			Content:    map[string]any{"spec": map[string]any{"language": "go"}},
		}, client.WriteOptions{})
		if err != nil {
			return err
		}
		ev := <-events.ResultChan()
		dev := ev.Object.(*unstructured.Unstructured)
		language, _ := unstructured.NestedString(dev.Content, "spec", "language")
		fmt.Println(ev.Type, dev.Kind, dev.Name, language)
		return nil
	})
	fmt.Println("cluster stopped:", err)
	// Output:
	// discovered: example.com/v1, Resource=developers Developer [devs]
	// ADDED Developer megyo go
	// cluster stopped: <nil>
}

// A custom resource with the program's own Go types: register them in the
// client's scheme, and the typed client serves them like a built-in kind.
func ExampleNewResource_customResource() {
	err := cluster.Run(context.Background(), cluster.Options{Controllers: []string{}}, func(ctx context.Context, c *cluster.Cluster, _ *client.Clientset) error {
		ctx, cancel := context.WithTimeout(ctx, time.Minute)
		defer cancel()
		scheme, err := client.NewScheme()
		if err != nil {
			return err
		}
		if err := addDeveloperTypes(scheme); err != nil {
			return err
		}
		cl, err := client.New(client.Config{Host: c.URL(), CAData: c.CACertificate(), BearerToken: c.Token(), Scheme: scheme})
		if err != nil {
			return err
		}
		defer cl.CloseIdleConnections()
		// InstallCRDs creates the CRD and watches it until Established,
		// as ExampleNewDynamicResource does by hand.
		if _, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{developersCRD()}); err != nil {
			return err
		}

		devs, err := client.NewResource[*Developer, *DeveloperList](cl, developersGVR)
		if err != nil {
			return err
		}
		events, err := devs.Namespace("default").Watch(ctx, client.ListOptions{ResourceVersion: "0"})
		if err != nil {
			return err
		}
		defer events.Stop()
		_, err = devs.Namespace("default").Create(ctx, &Developer{
			ObjectMeta: metav1.ObjectMeta{Name: "megyo"},
			Spec:       DeveloperSpec{Language: "go"},
		}, client.WriteOptions{})
		if err != nil {
			return err
		}
		ev := <-events.ResultChan()
		if ev.Type == watch.Added {
			dev := ev.Object.(*Developer)
			fmt.Println(ev.Type, dev.Name, dev.Spec.Language)
		}
		return nil
	})
	fmt.Println("cluster stopped:", err)
	// Output:
	// ADDED megyo go
	// cluster stopped: <nil>
}
