package v1

import (
	"encoding/json"
	"time"
)

// Time is a timestamp that goes on the wire as RFC 3339 with second
// precision, and as null when zero, as Kubernetes writes it.
type Time struct {
	time.Time `protobuf:"-"`
}

// NewTime wraps t, truncated to the second precision the wire keeps, so a
// value read back from storage compares equal to the one written.
func NewTime(t time.Time) Time { return Time{t.Truncate(time.Second)} }

// IsZero reports whether t is unset; it also makes `omitzero` drop it.
func (t Time) IsZero() bool { return t.Time.IsZero() }

// MarshalJSON writes RFC 3339 in UTC, or null for the zero time.
func (t Time) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(time.RFC3339))
}

// UnmarshalJSON reads RFC 3339 or null.
func (t *Time) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}

// MicroTime is a timestamp with microsecond precision, used by Events and
// Leases.
type MicroTime struct {
	time.Time `protobuf:"-"`
}

// RFC3339Micro is the wire format of MicroTime.
const RFC3339Micro = "2006-01-02T15:04:05.000000Z07:00"

// NewMicroTime wraps t, truncated to microseconds.
func NewMicroTime(t time.Time) MicroTime { return MicroTime{t.Truncate(time.Microsecond)} }

// IsZero reports whether t is unset.
func (t MicroTime) IsZero() bool { return t.Time.IsZero() }

// MarshalJSON writes RFC 3339 with microseconds, or null for the zero time.
func (t MicroTime) MarshalJSON() ([]byte, error) {
	if t.IsZero() {
		return []byte("null"), nil
	}
	return json.Marshal(t.UTC().Format(RFC3339Micro))
}

// UnmarshalJSON reads RFC 3339 (with or without fractions) or null.
func (t *MicroTime) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		t.Time = time.Time{}
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	pt, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return err
	}
	t.Time = pt.Local()
	return nil
}
