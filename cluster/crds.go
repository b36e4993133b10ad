package cluster

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"sigs.k8s.io/yaml"

	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	"github.com/minicp/minicp/api/watch"
	"github.com/minicp/minicp/apiserver"
	"github.com/minicp/minicp/client"
)

// ReadCRDs reads the CustomResourceDefinitions in paths: files of YAML
// (several documents separated by "---") or JSON, or directories whose
// .yaml, .yml and .json files are read, not recursively, in name order.
// Documents of other kinds are skipped, as envtest skips them, so a
// directory of manifests can be given whole. A path that does not exist
// is an error.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/envtest (ReadCRDFiles).
func ReadCRDs(paths ...string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	var out []*apiextensionsv1.CustomResourceDefinition
	for _, p := range paths {
		files, err := manifestFiles(p)
		if err != nil {
			return nil, err
		}
		for _, f := range files {
			crds, err := readCRDFile(f)
			if err != nil {
				return nil, err
			}
			out = append(out, crds...)
		}
	}
	return out, nil
}

func manifestFiles(p string) ([]string, error) {
	info, err := os.Stat(p)
	if err != nil {
		return nil, fmt.Errorf("read CRDs: %w", err)
	}
	if !info.IsDir() {
		return []string{p}, nil
	}
	entries, err := os.ReadDir(p)
	if err != nil {
		return nil, fmt.Errorf("read CRDs: %w", err)
	}
	var files []string
	for _, e := range entries {
		switch filepath.Ext(e.Name()) {
		case ".yaml", ".yml", ".json":
			if !e.IsDir() {
				files = append(files, filepath.Join(p, e.Name()))
			}
		}
	}
	slices.Sort(files)
	return files, nil
}

func readCRDFile(name string) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read CRDs: %w", err)
	}
	var out []*apiextensionsv1.CustomResourceDefinition
	for i, doc := range splitYAMLDocuments(data) {
		js, err := yaml.YAMLToJSON(doc)
		if err != nil {
			return nil, fmt.Errorf("read CRDs: %s, document %d: %w", name, i+1, err)
		}
		var tm struct{ APIVersion, Kind string }
		if err := json.Unmarshal(js, &tm); err != nil || tm.Kind != "CustomResourceDefinition" {
			continue
		}
		if tm.APIVersion != apiextensionsv1.SchemeGroupVersion.String() {
			return nil, fmt.Errorf("read CRDs: %s, document %d: %s is not served (use %s)", name, i+1, tm.APIVersion, apiextensionsv1.SchemeGroupVersion)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := json.Unmarshal(js, crd); err != nil {
			return nil, fmt.Errorf("read CRDs: %s, document %d: %w", name, i+1, err)
		}
		out = append(out, crd)
	}
	return out, nil
}

// splitYAMLDocuments splits a YAML stream at its "---" lines, dropping
// empty documents.
func splitYAMLDocuments(data []byte) [][]byte {
	var docs [][]byte
	var cur bytes.Buffer
	flush := func() {
		if len(bytes.TrimSpace(cur.Bytes())) > 0 {
			docs = append(docs, bytes.Clone(cur.Bytes()))
		}
		cur.Reset()
	}
	for line := range bytes.Lines(data) {
		if strings.HasPrefix(strings.TrimRight(string(line), " \t\r\n"), "---") && len(bytes.TrimSpace(line)) == 3 {
			flush()
			continue
		}
		cur.Write(line)
	}
	flush()
	return docs
}

// InstallCRDs creates each CRD, or updates it to what is given when it
// exists (as kubectl apply would), and waits until every one is
// Established: its resource is served. It returns the CRDs as stored.
//
// Upstream: sigs.k8s.io/controller-runtime/pkg/envtest (InstallCRDs,
// WaitForCRDs).
func InstallCRDs(ctx context.Context, c *client.Client, crds []*apiextensionsv1.CustomResourceDefinition) ([]*apiextensionsv1.CustomResourceDefinition, error) {
	api, err := client.NewResource[*apiextensionsv1.CustomResourceDefinition, *apiextensionsv1.CustomResourceDefinitionList](
		c, apiextensionsv1.SchemeGroupVersion.WithResource("customresourcedefinitions"))
	if err != nil {
		return nil, fmt.Errorf("install CRDs: %w", err)
	}
	// Watch from before the writes, so no Established event is missed.
	list, err := api.List(ctx, client.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("install CRDs: %w", err)
	}
	w, err := api.Watch(ctx, client.ListOptions{ResourceVersion: list.ResourceVersion})
	if err != nil {
		return nil, fmt.Errorf("install CRDs: %w", err)
	}
	defer w.Stop()
	pending := map[string]bool{}
	out := make([]*apiextensionsv1.CustomResourceDefinition, 0, len(crds))
	for _, crd := range crds {
		stored, err := applyCRD(ctx, api, crd)
		if err != nil {
			return nil, err
		}
		out = append(out, stored)
		if !apiextensionsv1.IsCRDConditionTrue(stored, apiextensionsv1.Established) {
			pending[stored.Name] = true
		}
	}
	for len(pending) > 0 {
		select {
		case <-ctx.Done():
			return nil, fmt.Errorf("install CRDs: waiting for %d to be established: %w", len(pending), ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				return nil, fmt.Errorf("install CRDs: the watch ended with %d not established", len(pending))
			}
			crd, isCRD := ev.Object.(*apiextensionsv1.CustomResourceDefinition)
			if ev.Type == watch.Error || !isCRD {
				continue
			}
			if apiextensionsv1.IsCRDConditionTrue(crd, apiextensionsv1.Established) {
				delete(pending, crd.Name)
				for i := range out {
					if out[i].Name == crd.Name {
						out[i] = crd
					}
				}
			}
		}
	}
	return out, nil
}

// applyCRD creates crd, or replaces the spec of the one stored.
func applyCRD(ctx context.Context, api *client.Resource[*apiextensionsv1.CustomResourceDefinition, *apiextensionsv1.CustomResourceDefinitionList],
	crd *apiextensionsv1.CustomResourceDefinition) (*apiextensionsv1.CustomResourceDefinition, error) {
	in := crd.DeepCopy()
	in.ResourceVersion = ""
	stored, err := api.Create(ctx, in, client.WriteOptions{})
	if err == nil {
		return stored, nil
	}
	if !apierrors.IsAlreadyExists(err) {
		return nil, fmt.Errorf("install CRD %s: %w", crd.Name, err)
	}
	var out *apiextensionsv1.CustomResourceDefinition
	err = client.RetryOnConflict(ctx, client.DefaultRetry, func() error {
		cur, err := api.Get(ctx, crd.Name, client.GetOptions{})
		if err != nil {
			return err
		}
		cur.Spec = crd.Spec
		out, err = api.Update(ctx, cur, client.WriteOptions{})
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("install CRD %s: %w", crd.Name, err)
	}
	return out, nil
}

// installCRDs installs Options.CRDs and the CRDs in Options.CRDPaths
// through the API server's whole handler chain, as a client would.
func (c *Cluster) installCRDs(ctx context.Context, server *apiserver.Server) error {
	crds, err := ReadCRDs(c.opts.CRDPaths...)
	if err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	crds = append(slices.Clone(c.opts.CRDs), crds...)
	if len(crds) == 0 {
		return nil
	}
	cl, err := client.New(client.Config{
		Host: "http://in-memory", Transport: client.NewInMemoryTransport(server.Handler()),
		BearerToken: c.token, Clock: c.opts.Clock,
	})
	if err != nil {
		return fmt.Errorf("cluster: client: %w", err)
	}
	if _, err := InstallCRDs(ctx, cl, crds); err != nil {
		return fmt.Errorf("cluster: %w", err)
	}
	return nil
}
