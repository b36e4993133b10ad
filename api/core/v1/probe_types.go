package v1

import "github.com/minicp/minicp/api/intstr"

// Probe is a health check the kubelet runs against a container.
type Probe struct {
	ProbeHandler        `json:",inline"`
	InitialDelaySeconds int32 `json:"initialDelaySeconds,omitempty"`
	// TimeoutSeconds defaults to 1.
	TimeoutSeconds int32 `json:"timeoutSeconds,omitempty"`
	// PeriodSeconds defaults to 10.
	PeriodSeconds int32 `json:"periodSeconds,omitempty"`
	// SuccessThreshold defaults to 1, and must be 1 for liveness and
	// startup probes.
	SuccessThreshold int32 `json:"successThreshold,omitempty"`
	// FailureThreshold defaults to 3.
	FailureThreshold              int32  `json:"failureThreshold,omitempty"`
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty"`
}

// ProbeHandler is the check a Probe runs; exactly one field is set.
type ProbeHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty"`
	GRPC      *GRPCAction      `json:"grpc,omitempty"`
}

// ExecAction runs a command in the container; exit 0 is healthy.
type ExecAction struct {
	Command []string `json:"command,omitempty"`
}

// HTTPGetAction sends a GET; a 2xx or 3xx status is healthy.
type HTTPGetAction struct {
	// Path defaults to "/".
	Path string `json:"path,omitempty"`
	// Port is a number or the name of a container port.
	Port intstr.IntOrString `json:"port"`
	// Host defaults to the pod IP.
	Host string `json:"host,omitempty"`
	// Scheme defaults to HTTP.
	Scheme      URIScheme    `json:"scheme,omitempty"`
	HTTPHeaders []HTTPHeader `json:"httpHeaders,omitempty"`
}

// URIScheme is HTTP or HTTPS.
type URIScheme string

// The URI schemes of HTTPGetAction.
const (
	URISchemeHTTP  URIScheme = "HTTP"
	URISchemeHTTPS URIScheme = "HTTPS"
)

// HTTPHeader is a header an HTTPGetAction sends.
type HTTPHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// TCPSocketAction opens a TCP connection; success is healthy.
type TCPSocketAction struct {
	Port intstr.IntOrString `json:"port"`
	Host string             `json:"host,omitempty"`
}

// GRPCAction calls the gRPC health checking protocol.
type GRPCAction struct {
	Port    int32   `json:"port"`
	Service *string `json:"service"`
}
