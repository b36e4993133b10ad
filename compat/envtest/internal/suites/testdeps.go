//go:build crsuites_testdeps

package suites

// The packages of the suites and the packages their tests import:
// importing them here, under a tag no build sets, keeps their
// modules in go.mod and go.sum through `go mod tidy`, so `go test -c`
// can build controller-runtime's test binaries from this module.
import (
	_ "github.com/go-logr/logr/funcr"
	_ "github.com/google/go-cmp/cmp/cmpopts"
	_ "github.com/google/gofuzz"
	_ "github.com/onsi/ginkgo/v2"
	_ "github.com/onsi/gomega"
	_ "github.com/onsi/gomega/gbytes"
	_ "github.com/onsi/gomega/ghttp"
	_ "github.com/prometheus/client_model/go"
	_ "go.uber.org/goleak"
	_ "k8s.io/api/certificates/v1"
	_ "k8s.io/api/extensions/v1beta1"
	_ "k8s.io/api/policy/v1"
	_ "k8s.io/api/rbac/v1"
	_ "k8s.io/client-go/applyconfigurations/core/v1"
	_ "k8s.io/client-go/informers"
	_ "k8s.io/client-go/kubernetes"
	_ "k8s.io/client-go/tools/clientcmd"
	_ "k8s.io/client-go/tools/leaderelection/resourcelock"
	_ "k8s.io/client-go/tools/reference"
	_ "sigs.k8s.io/controller-runtime/pkg/builder"
	_ "sigs.k8s.io/controller-runtime/pkg/cache"
	_ "sigs.k8s.io/controller-runtime/pkg/client"
	_ "sigs.k8s.io/controller-runtime/pkg/cluster"
	_ "sigs.k8s.io/controller-runtime/pkg/controller"
	_ "sigs.k8s.io/controller-runtime/pkg/controller/controllerutil"
	_ "sigs.k8s.io/controller-runtime/pkg/controller/priorityqueue"
	_ "sigs.k8s.io/controller-runtime/pkg/envtest"
	_ "sigs.k8s.io/controller-runtime/pkg/handler"
	_ "sigs.k8s.io/controller-runtime/pkg/manager"
	_ "sigs.k8s.io/controller-runtime/pkg/metrics/filters"
	_ "sigs.k8s.io/controller-runtime/pkg/reconcile"
	_ "sigs.k8s.io/controller-runtime/pkg/source"
	_ "sigs.k8s.io/controller-runtime/pkg/webhook"
)
