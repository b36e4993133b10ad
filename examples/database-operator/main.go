// Command database-operator runs an operator, a custom controller over a
// custom resource, in the spirit of the Zalando Postgres operator (a
// Postgres custom resource becomes the Secrets, workloads and Services
// of a database), against a fresh minicp cluster, and prints what
// happens:
//
//  1. the Database CRD is installed: the API server serves databases;
//  2. the operator starts in this process: a validating admission
//     webhook (an HTTPS server with its own CA) registered with a
//     ValidatingWebhookConfiguration, and a manager running the Database
//     controller, built with controllers/builder on the operator's own Go
//     types (types.go);
//  3. a Database asking for 7 replicas of "oracle" is refused by the
//     webhook, before it reaches etcd;
//  4. the Database orders (postgres 16, 2 replicas, 1Gi) is created; the
//     operator adds its finalizer, creates a Secret of generated
//     credentials, a Deployment running postgres:16 and a Service on port
//     5432, all controlled by the Database (ownerReferences), and reports
//     the endpoint and the ready replicas in its status, phase Ready;
//  5. spec.replicas is edited to 3: the operator scales the Deployment
//     and the status follows;
//  6. the Database is deleted: its finalizer holds it while the operator
//     deletes the Secret and records an event, then the API server deletes
//     it and the garbage collector deletes the Deployment (with its
//     ReplicaSet and pods) and the Service.
//
// Each line is a change seen on a watch, prefixed with its etcd revision
// and printed in revision order. The reconciler (reconciler.go) is
// idempotent: a reconcile that finds everything as it should be writes
// nothing. Run it with:
//
//	go run ./examples/database-operator
package main

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"os"
	"time"

	"sigs.k8s.io/yaml"

	admissionregistrationv1 "github.com/minicp/minicp/api/admissionregistration/v1"
	"github.com/minicp/minicp/api/apierrors"
	apiextensionsv1 "github.com/minicp/minicp/api/apiextensions/v1"
	metav1 "github.com/minicp/minicp/api/meta/v1"
	"github.com/minicp/minicp/client"
	"github.com/minicp/minicp/clock"
	"github.com/minicp/minicp/cluster"
)

//go:embed manifests
var manifests embed.FS

func main() {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := run(ctx, os.Stdout, nil); err != nil {
		fmt.Fprintln(os.Stderr, "database-operator:", err)
		os.Exit(1)
	}
}

// namespace is where the Databases live.
const namespace = "default"

// run starts a cluster with one node, plays the flow on it, printing to
// out, and then, while the cluster still runs, calls inspect when it is
// not nil (the test checks the end state there). Nothing in the flow
// waits for time to pass, so the cluster runs on the real clock.
func run(ctx context.Context, out io.Writer, inspect func(ctx context.Context, cl *client.Client) error) error {
	// The Service gets its ClusterIP from the API server; nothing
	// connects to it, so the cluster leaves the host's Service network
	// alone: the example runs beside a `minicp up`, which holds it.
	opts := cluster.Options{Nodes: 1, DisableServiceNetwork: true}
	return cluster.Run(ctx, opts, func(ctx context.Context, c *cluster.Cluster, _ *client.Clientset) error {
		if err := c.WaitIdle(ctx); err != nil {
			return err
		}
		cl, err := newClient(c)
		if err != nil {
			return err
		}
		defer cl.CloseIdleConnections()
		if err := play(ctx, cl, out); err != nil {
			return err
		}
		if inspect != nil {
			return inspect(ctx, cl)
		}
		return nil
	})
}

// play runs the six steps.
func play(ctx context.Context, cl *client.Client, out io.Writer) (err error) {
	cs, err := client.NewClientset(cl)
	if err != nil {
		return err
	}
	databases, err := client.NewResource[*Database, *DatabaseList](cl, databasesGVR)
	if err != nil {
		return err
	}
	databases = databases.Namespace(namespace)

	fmt.Fprintln(out, "1. kubectl apply -f database-crd.yaml")
	crd, err := readCRD()
	if err != nil {
		return err
	}
	if _, err := cluster.InstallCRDs(ctx, cl, []*apiextensionsv1.CustomResourceDefinition{crd}); err != nil {
		return err
	}
	fmt.Fprintf(out, "  customresourcedefinition %s established: /apis/%s/namespaces/*/%s is served\n",
		crd.Name, databasesGVR.GroupVersion(), databasesGVR.Resource)

	fmt.Fprintln(out, "\n2. start the operator: its webhook and its manager")
	op, err := startOperator(ctx, cl, clock.Real)
	if err != nil {
		return err
	}
	defer func() { err = errors.Join(err, op.stop()) }()
	fmt.Fprintf(out, "  webhook serving AdmissionReviews at %s\n", op.webhook.URL())
	if err := registerWebhook(ctx, cl, op.webhook); err != nil {
		return err
	}
	fmt.Fprintf(out, "  validatingwebhookconfiguration %s created: CREATE and UPDATE of databases go to the webhook, its CA as caBundle\n",
		op.webhook.Configuration().Name)
	fmt.Fprintln(out, "  manager running the database controller: For Database, Owns Deployment, Service and Secret")

	obs, err := observe(ctx, cl, cs, namespace, out)
	if err != nil {
		return err
	}
	defer obs.stop()

	obs.section("3. kubectl create -f too-big.yaml (engine oracle, 7 replicas)")
	bad, err := readDatabase("manifests/too-big.yaml")
	if err != nil {
		return err
	}
	_, err = databases.Create(ctx, bad, client.WriteOptions{})
	switch {
	case err == nil:
		return errors.New("the webhook let too-big.yaml in")
	case !apierrors.IsForbidden(err):
		return fmt.Errorf("create too-big.yaml: %w", err)
	}
	fmt.Fprintf(out, "  Error from server (Forbidden): %v\n", err)

	obs.section("4. kubectl create -f orders.yaml (postgres 16, 2 replicas, 1Gi)")
	orders, err := readDatabase("manifests/orders.yaml")
	if err != nil {
		return err
	}
	if orders, err = databases.Create(ctx, orders, client.WriteOptions{}); err != nil {
		return fmt.Errorf("create orders.yaml: %w", err)
	}
	if err := obs.waitReady(ctx, orders.Name, orders.Generation, 2); err != nil {
		return err
	}

	obs.section("5. kubectl edit database orders: spec.replicas 2 → 3")
	if orders, err = databases.Patch(ctx, orders.Name, client.MergePatchType, []byte(`{"spec":{"replicas":3}}`), client.WriteOptions{}); err != nil {
		return fmt.Errorf("scale: %w", err)
	}
	if err := obs.waitReady(ctx, orders.Name, orders.Generation, 3); err != nil {
		return err
	}

	obs.section("6. kubectl delete database orders")
	if err := databases.Delete(ctx, orders.Name, metav1.DeleteOptions{}); err != nil {
		return fmt.Errorf("delete: %w", err)
	}
	if err := obs.waitGone(ctx, orders.Name); err != nil {
		return err
	}
	obs.flush()
	fmt.Fprintf(out, "  deleted in this order: %s\n", obs.deletionOrder())
	return nil
}

// registerWebhook creates the webhook's configuration and waits until
// the API server uses it. The admission plugin reads configurations from
// the watch cache, which may be a moment behind the create; a list at
// the created resourceVersion returns once the cache has caught up.
func registerWebhook(ctx context.Context, cl *client.Client, wh *Webhook) error {
	configs, err := client.NewResource[*admissionregistrationv1.ValidatingWebhookConfiguration, *admissionregistrationv1.ValidatingWebhookConfigurationList](
		cl, admissionregistrationv1.SchemeGroupVersion.WithResource("validatingwebhookconfigurations"))
	if err != nil {
		return err
	}
	created, err := configs.Create(ctx, wh.Configuration(), client.WriteOptions{})
	if err != nil {
		return fmt.Errorf("register webhook: %w", err)
	}
	if _, err := configs.List(ctx, client.ListOptions{ResourceVersion: created.ResourceVersion}); err != nil {
		return fmt.Errorf("register webhook: %w", err)
	}
	return nil
}

// readCRD reads the Database CRD from its embedded manifest.
func readCRD() (*apiextensionsv1.CustomResourceDefinition, error) {
	data, err := manifests.ReadFile("manifests/database-crd.yaml")
	if err != nil {
		return nil, err
	}
	crd := &apiextensionsv1.CustomResourceDefinition{}
	if err := yaml.Unmarshal(data, crd); err != nil {
		return nil, fmt.Errorf("database-crd.yaml: %w", err)
	}
	return crd, nil
}

// readDatabase reads a Database from an embedded manifest into the
// operator's Go type.
func readDatabase(name string) (*Database, error) {
	data, err := manifests.ReadFile(name)
	if err != nil {
		return nil, err
	}
	db := &Database{}
	if err := yaml.Unmarshal(data, db); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return db, nil
}
