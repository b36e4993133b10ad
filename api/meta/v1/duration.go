package v1

import (
	"encoding/json"
	"time"
)

// Duration is a time.Duration that is a string on the wire ("10s",
// "1m30s"), as Go's time.Duration.String writes it and
// time.ParseDuration reads it, so that JSON, YAML and map keys carry a
// readable span instead of nanoseconds. In protobuf it is the message
// {1: nanoseconds}. The metrics API's window is one.
//
// Upstream: k8s.io/apimachinery/pkg/apis/meta/v1 (Duration).
type Duration struct {
	time.Duration `protobuf:"varint,1,opt,name=duration,casttype=time.Duration"`
}

// MarshalJSON implements json.Marshaler.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(d.Duration.String()) }

// UnmarshalJSON implements json.Unmarshaler: a string time.ParseDuration
// accepts.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pd, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	d.Duration = pd
	return nil
}
