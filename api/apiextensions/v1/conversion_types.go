package v1

// ConversionStrategyType is how custom resources are converted between
// versions.
type ConversionStrategyType string

// The conversion strategies.
const (
	// NoneConverter only rewrites apiVersion and leaves the rest alone.
	NoneConverter ConversionStrategyType = "None"
	// WebhookConverter sends a ConversionReview to a webhook.
	WebhookConverter ConversionStrategyType = "Webhook"
)

// CustomResourceConversion says how to convert objects between versions.
type CustomResourceConversion struct {
	// Strategy is None or Webhook.
	Strategy ConversionStrategyType `json:"strategy" protobuf:"bytes,1,name=strategy"`
	// Webhook is required when Strategy is Webhook, and forbidden otherwise.
	Webhook *WebhookConversion `json:"webhook,omitempty" protobuf:"bytes,2,opt,name=webhook"`
}

// WebhookConversion says how to call a conversion webhook.
type WebhookConversion struct {
	ClientConfig *WebhookClientConfig `json:"clientConfig,omitempty" protobuf:"bytes,2,name=clientConfig"`
	// ConversionReviewVersions are the ConversionReview versions the
	// webhook understands, preferred first.
	ConversionReviewVersions []string `json:"conversionReviewVersions" protobuf:"bytes,3,rep,name=conversionReviewVersions"`
}

// WebhookClientConfig is how to reach a webhook over TLS: exactly one of
// URL and Service.
type WebhookClientConfig struct {
	// URL is https://host:port/path, without user info, query or fragment.
	URL *string `json:"url,omitempty" protobuf:"bytes,3,opt,name=url"`
	// Service is an in-cluster Service to call instead.
	Service *ServiceReference `json:"service,omitempty" protobuf:"bytes,1,opt,name=service"`
	// CABundle is PEM certificates to verify the webhook with; the system
	// roots when empty.
	CABundle []byte `json:"caBundle,omitempty" protobuf:"bytes,2,opt,name=caBundle"`
}

// ServiceReference names the Service a webhook runs behind.
type ServiceReference struct {
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	Name      string `json:"name" protobuf:"bytes,2,opt,name=name"`
	// Path is the URL path to call.
	Path *string `json:"path,omitempty" protobuf:"bytes,3,opt,name=path"`
	// Port is the Service port. Defaults to 443.
	Port *int32 `json:"port,omitempty" protobuf:"varint,4,opt,name=port"`
}
