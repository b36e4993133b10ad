// Command crd-developers plays the classic first demo of custom resources
// on a fresh minicp cluster: a CustomResourceDefinition teaches the API
// server a new kind, Developer, and from then on developers are stored,
// listed and printed like pods, with nothing but the API server involved.
// Custom resources are extensions of the Kubernetes API that simply store
// and retrieve structured data; a controller can then act on them (see
// examples/database-operator).
//
//  1. kubectl apply -f developers-crd.yaml: the CRD is created, its names
//     accepted and the resource established; discovery lists developers,
//     with the singular developer and the short name devs;
//  2. kubectl create -f megyo.yaml, named Megyo as the demo spells it: refused
//     with 422 Invalid, because object names are lowercase DNS names;
//  3. kubectl create -f megyo.yaml, named megyo (the person's name, in any
//     case, is data in spec.name): created;
//  4. kubectl get developers, 5. kubectl get developer megyo (and
//     Megyo, which is not found), 6. kubectl get devs: each word is
//     resolved through discovery, as kubectl does, and the rows printed
//     are the Table the API server rendered from the CRD's printer
//     columns;
//  7. kubectl create -f bad-developer.yaml: its level is not an integer,
//     and the CRD's OpenAPI schema has the API server refuse it with 422.
//
// Every request is plain HTTPS with the admin's token, as kubectl sends
// it, so each step prints the request and the answer's status code. The
// manifests are in manifests/, embedded in the binary. Run it with:
//
//	go run ./examples/crd-developers
//
// and compare with the real kubectl against `minicp up`:
//
//	kubectl apply -f examples/crd-developers/manifests/developers-crd.yaml
//	kubectl create -f examples/crd-developers/manifests/megyo.yaml
//	kubectl get developers; kubectl get developer megyo; kubectl get devs
package main

import (
	"context"
	"embed"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"sigs.k8s.io/yaml"

	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock/clocktest"
	"github.com/minicp/minicp/cluster"
)

//go:embed manifests
var manifests embed.FS

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "crd-developers:", err)
		os.Exit(1)
	}
}

// namespace is where the developers live: the kubeconfig's default.
const namespace = "default"

// run starts a cluster, plays the flow on it, printing to out, and then,
// while the cluster still runs, calls inspect when it is not nil (the
// test looks at the end state and runs kubectl there).
//
// The cluster runs no nodes and no controllers: custom resources without
// a controller are data the API server stores and serves. Its clock is
// virtual and never stepped, so every AGE printed is 0s.
func run(ctx context.Context, out io.Writer, inspect func(ctx context.Context, c *cluster.Cluster) error) error {
	clk := clocktest.NewFake(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	opts := cluster.Options{Nodes: 0, Controllers: []string{}, Clock: clk}
	return cluster.Run(ctx, opts, func(ctx context.Context, c *cluster.Cluster, cs *client.Clientset) error {
		if err := play(ctx, rest{http: c.HTTPClient(), base: c.URL()}, cs.Client(), out); err != nil {
			return err
		}
		if inspect != nil {
			return inspect(ctx, c)
		}
		return nil
	})
}

// play runs the seven steps.
func play(ctx context.Context, api rest, cl *client.Client, out io.Writer) error {
	fmt.Fprintln(out, "1. kubectl apply -f developers-crd.yaml")
	developers, err := installCRD(ctx, api, cl, out)
	if err != nil {
		return err
	}

	fmt.Fprintln(out, "\n2. kubectl create -f megyo.yaml, with metadata.name Megyo, as the demo spells it")
	megyo, err := readManifest("manifests/megyo.yaml")
	if err != nil {
		return err
	}
	megyo["metadata"].(map[string]any)["name"] = "Megyo"
	if _, err := create(ctx, api, out, developers, megyo); err != nil {
		return err
	}
	fmt.Fprintln(out, "  object names are lowercase DNS names (RFC 1123): the person's name, Megyo, belongs in spec.name")

	fmt.Fprintln(out, "\n3. kubectl create -f megyo.yaml, with metadata.name megyo")
	if megyo, err = readManifest("manifests/megyo.yaml"); err != nil {
		return err
	}
	if _, err := create(ctx, api, out, developers, megyo); err != nil {
		return err
	}

	for _, get := range []struct{ heading, word, name, note string }{
		{"4. kubectl get developers", "developers", "", "the columns are the CRD's additionalPrinterColumns, rendered by the API server"},
		{"5. kubectl get developer megyo", "developer", "megyo", ""},
		{"5b. kubectl get developer Megyo, as the demo spells it", "developer", "Megyo", "names are case-sensitive: the object is megyo"},
		{"6. kubectl get devs", "devs", "", ""},
	} {
		fmt.Fprintf(out, "\n%s\n", get.heading)
		if err := kubectlGet(ctx, api, out, get.word, get.name); err != nil {
			return err
		}
		if get.note != "" {
			fmt.Fprintf(out, "  %s\n", get.note)
		}
	}

	fmt.Fprintln(out, "\n7. kubectl create -f bad-developer.yaml (spec.level: senior)")
	bad, err := readManifest("manifests/bad-developer.yaml")
	if err != nil {
		return err
	}
	resp, err := create(ctx, api, out, developers, bad)
	if err != nil {
		return err
	}
	if resp.code != http.StatusUnprocessableEntity {
		return fmt.Errorf("bad-developer.yaml: got %d, want 422 Invalid from the schema", resp.code)
	}
	fmt.Fprintln(out, "  the CRD's OpenAPI schema says level is an integer from 1 to 10")
	return nil
}

// installCRD creates the Developer CRD, waits until it is Established (a
// watch, in cluster.InstallCRDs) and shows what discovery now says.
func installCRD(ctx context.Context, api rest, cl *client.Client, out io.Writer) (resource, error) {
	crd := &apiextensionsv1.CustomResourceDefinition{}
	data, err := manifests.ReadFile("manifests/developers-crd.yaml")
	if err != nil {
		return resource{}, err
	}
	if err := yaml.Unmarshal(data, crd); err != nil {
		return resource{}, fmt.Errorf("developers-crd.yaml: %w", err)
	}
	installed, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{crd})
	if err != nil {
		return resource{}, err
	}
	crd = installed[0]
	fmt.Fprintf(out, "  POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions → 201: customresourcedefinition %s created\n", crd.Name)
	for _, c := range crd.Status.Conditions {
		fmt.Fprintf(out, "  condition %s=%s (%s): %s\n", c.Type, c.Status, c.Reason, c.Message)
	}
	developers, err := api.resolve(ctx, "developers")
	if err != nil {
		return resource{}, err
	}
	a := developers.api
	fmt.Fprintf(out, "  GET /apis/%s (discovery): %s, singular %s, short names %v, kind %s, namespaced %t\n",
		developers.groupVersion, a.Name, a.SingularName, a.ShortNames, a.Kind, a.Namespaced)
	return developers, nil
}

// create POSTs obj to the developers of the namespace, as `kubectl
// create -f` does, and prints the answer.
func create(ctx context.Context, api rest, out io.Writer, developers resource, obj map[string]any) (response, error) {
	body, err := json.Marshal(obj)
	if err != nil {
		return response{}, err
	}
	path := developers.path(namespace, "")
	resp, err := api.do(ctx, http.MethodPost, path, "", body)
	if err != nil {
		return response{}, err
	}
	fmt.Fprintf(out, "  POST %s → %d\n", path, resp.code)
	if resp.code != http.StatusCreated {
		fmt.Fprintf(out, "  %s\n", resp.errorLine())
		return resp, nil
	}
	var created struct {
		Metadata struct{ Name, ResourceVersion string }
	}
	if err := json.Unmarshal(resp.body, &created); err != nil {
		return response{}, fmt.Errorf("POST %s: %w", path, err)
	}
	fmt.Fprintf(out, "  %s.%s/%s created (resourceVersion %s)\n",
		developers.api.SingularName, developers.group(), created.Metadata.Name, created.Metadata.ResourceVersion)
	return resp, nil
}

// kubectlGet resolves word through discovery and prints the Table of
// the resource's objects, or of the one named.
func kubectlGet(ctx context.Context, api rest, out io.Writer, word, name string) error {
	res, err := api.resolve(ctx, word)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "  %q is the %s of %s (discovery)\n", word, res.matched, res)
	return api.getTable(ctx, out, res.path(namespace, name))
}

// readManifest reads an embedded YAML manifest as kubectl does before
// sending it: into generic JSON.
func readManifest(name string) (map[string]any, error) {
	data, err := manifests.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var obj map[string]any
	if err := yaml.Unmarshal(data, &obj); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return obj, nil
}
