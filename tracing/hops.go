package tracing

import "go.opentelemetry.io/otel/attribute"

// Hop names: the span names of the steps a request takes, stable so that
// printers, the web view and tests can rely on them. They are the hop
// attribute of minicp's Debug logs too.
const (
	HopRequest             = "request"
	HopAuthn               = "authn"
	HopAuthz               = "authz"
	HopAdmissionMutating   = "admission.mutating"
	HopValidation          = "validation"
	HopAdmissionValidating = "admission.validating"
	HopEtcdTxn             = "etcd.txn"
	HopWatchCacheDispatch  = "watchcache.dispatch"
	HopInformerDelta       = "informer.delta"
	HopReconcile           = "reconcile"
	HopSchedulerCycle      = "scheduler.cycle"
	HopSchedulerFilter     = "scheduler.filter"
	HopSchedulerScore      = "scheduler.score"
	HopSchedulerBind       = "scheduler.bind"
	HopKubeletSync         = "kubelet.sync"
	HopRuntimeSandbox      = "runtime.sandbox"
	HopCNIAdd              = "cni.add"
	HopRuntimeContainer    = "runtime.container.start"
	HopKubeletStatus       = "kubelet.status"
	// HopDNSQuery is cluster DNS answering one question; HopProxyForward
	// is kube-proxy taking one connection to a backend.
	HopDNSQuery     = "dns.query"
	HopProxyForward = "proxy.forward"
)

// Attribute keys, the same as the log attributes' keys.
const (
	KeyVerb      = attribute.Key("verb")
	KeyResource  = attribute.Key("resource")
	KeyNamespace = attribute.Key("namespace")
	KeyName      = attribute.Key("name")
	KeyRV        = attribute.Key("rv")
	KeyUser      = attribute.Key("user")
	KeyNode      = attribute.Key("node")
	KeyPlugin    = attribute.Key("plugin")
	KeyInformer  = attribute.Key("informer")
	KeyCode      = attribute.Key("code")
)
