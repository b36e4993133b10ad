package v1

import "encoding/json"

// WatchEvent is one line of a watch stream:
// {"type":"ADDED","object":{...}}. Object stays raw JSON so the stream can be
// decoded without knowing the kind in advance.
type WatchEvent struct {
	Type   string          `json:"type" protobuf:"bytes,1,opt,name=type"`
	Object json.RawMessage `json:"object" protobuf:"bytes,2,opt,name=object"`
}

// InitialEventsAnnotationKey marks the bookmark that ends the initial events
// of a watch with sendInitialEvents=true.
const InitialEventsAnnotationKey = "k8s.io/initial-events-end"
