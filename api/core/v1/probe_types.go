package v1

import "github.com/minicp/minicp/api/intstr"

// Probe is a health check the kubelet runs against a container.
type Probe struct {
	ProbeHandler        `json:"" protobuf:"bytes,1,opt,name=handler"`
	InitialDelaySeconds int32 `json:"initialDelaySeconds,omitempty" protobuf:"varint,2,opt,name=initialDelaySeconds"`
	// TimeoutSeconds defaults to 1.
	TimeoutSeconds int32 `json:"timeoutSeconds,omitempty" protobuf:"varint,3,opt,name=timeoutSeconds"`
	// PeriodSeconds defaults to 10.
	PeriodSeconds int32 `json:"periodSeconds,omitempty" protobuf:"varint,4,opt,name=periodSeconds"`
	// SuccessThreshold defaults to 1, and must be 1 for liveness and
	// startup probes.
	SuccessThreshold int32 `json:"successThreshold,omitempty" protobuf:"varint,5,opt,name=successThreshold"`
	// FailureThreshold defaults to 3.
	FailureThreshold              int32  `json:"failureThreshold,omitempty" protobuf:"varint,6,opt,name=failureThreshold"`
	TerminationGracePeriodSeconds *int64 `json:"terminationGracePeriodSeconds,omitempty" protobuf:"varint,7,opt,name=terminationGracePeriodSeconds"`
}

// ProbeHandler is the check a Probe runs; exactly one field is set.
type ProbeHandler struct {
	Exec      *ExecAction      `json:"exec,omitempty" protobuf:"bytes,1,opt,name=exec"`
	HTTPGet   *HTTPGetAction   `json:"httpGet,omitempty" protobuf:"bytes,2,opt,name=httpGet"`
	TCPSocket *TCPSocketAction `json:"tcpSocket,omitempty" protobuf:"bytes,3,opt,name=tcpSocket"`
	GRPC      *GRPCAction      `json:"grpc,omitempty" protobuf:"bytes,4,opt,name=grpc"`
}

// ExecAction runs a command in the container; exit 0 is healthy.
type ExecAction struct {
	Command []string `json:"command,omitempty" protobuf:"bytes,1,rep,name=command"`
}

// HTTPGetAction sends a GET; a 2xx or 3xx status is healthy.
type HTTPGetAction struct {
	// Path defaults to "/".
	Path string `json:"path,omitempty" protobuf:"bytes,1,opt,name=path"`
	// Port is a number or the name of a container port.
	Port intstr.IntOrString `json:"port" protobuf:"bytes,2,opt,name=port"`
	// Host defaults to the pod IP.
	Host string `json:"host,omitempty" protobuf:"bytes,3,opt,name=host"`
	// Scheme defaults to HTTP.
	Scheme      URIScheme    `json:"scheme,omitempty" protobuf:"bytes,4,opt,name=scheme,casttype=URIScheme"`
	HTTPHeaders []HTTPHeader `json:"httpHeaders,omitempty" protobuf:"bytes,5,rep,name=httpHeaders"`
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
	Name  string `json:"name" protobuf:"bytes,1,opt,name=name"`
	Value string `json:"value" protobuf:"bytes,2,opt,name=value"`
}

// TCPSocketAction opens a TCP connection; success is healthy.
type TCPSocketAction struct {
	Port intstr.IntOrString `json:"port" protobuf:"bytes,1,opt,name=port"`
	Host string             `json:"host,omitempty" protobuf:"bytes,2,opt,name=host"`
}

// GRPCAction calls the gRPC health checking protocol.
type GRPCAction struct {
	Port    int32   `json:"port" protobuf:"bytes,1,opt,name=port"`
	Service *string `json:"service" protobuf:"bytes,2,opt,name=service"`
}
