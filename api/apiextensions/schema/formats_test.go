package schema

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFormats(t *testing.T) {
	tests := []struct {
		format  string
		valid   []string
		invalid []string
	}{
		{"date-time", []string{"2025-01-01T10:00:00Z", "2025-01-01t10:00:00.5+01:00", "2025-01-01T23:59:59.123456789z"}, []string{"2025-01-01", "2025-01-01T24:00:00Z", "x"}},
		{"datetime", []string{"2025-01-01T10:00:00Z"}, []string{"yesterday"}},
		{"date", []string{"2025-02-28"}, []string{"2025-02-30", "25-01-01"}},
		{"duration", []string{"1h30m", "3 days", "10s"}, []string{"forever", ""}},
		{"uuid", []string{"6f1c5e0a-2b1d-4f7e-9c3a-1d2e3f4a5b6c", "6F1C5E0A2B1D4F7E9C3A1D2E3F4A5B6C"}, []string{"x", "6f1c5e0a-2b1d-4f7e-9c3a"}},
		{"uuid4", []string{"6f1c5e0a-2b1d-4f7e-9c3a-1d2e3f4a5b6c"}, []string{"6f1c5e0a-2b1d-3f7e-9c3a-1d2e3f4a5b6c"}},
		{"email", []string{"a@example.com", "A <a@example.com>"}, []string{"a", "@x"}},
		{"hostname", []string{"example.com", "a", "xn--bcher-kva.example"}, []string{"-a", "a..b", "a_b.com"}},
		{"ipv4", []string{"10.0.0.1", "010.001.0.1"}, []string{"::1", "256.0.0.1", "1.2.3"}},
		{"ipv6", []string{"::1", "2001:db8::1", "::ffff:10.0.0.1"}, []string{"10.0.0.1", "::g"}},
		{"cidr", []string{"10.0.0.0/8", "2001:db8::/32", "010.0.0.0/08"}, []string{"10.0.0.0/33", "10.0.0.0", "10.0.0.0/-1"}},
		{"mac", []string{"01:23:45:67:89:ab", "0123.4567.89ab"}, []string{"01:23"}},
		{"uri", []string{"https://example.com/x", "/path?q"}, []string{"relative", ""}},
		{"byte", []string{"aGVsbG8=", "aGVsbG8h"}, []string{"!!", "aGVsbG8"}},
		{"k8s-short-name", []string{"abc", "a-1"}, []string{"A", "-a", "a.b"}},
		{"k8s-long-name", []string{"a.b-c", "abc"}, []string{"a..b", "A.b"}},
		{"isbn", []string{"0321751043", "978-0321751041"}, []string{"123"}},
		{"creditcard", []string{"4111111111111111"}, []string{"4111111111111112"}},
		{"ssn", []string{"123-45-6789"}, []string{"12-345-6789"}},
		{"hexcolor", []string{"#fff", "abcdef"}, []string{"#ggg"}},
		{"rgbcolor", []string{"rgb(1, 2, 3)"}, []string{"rgb(256,0,0)"}},
		{"bsonobjectid", []string{"507f1f77bcf86cd799439011"}, []string{"507f"}},
		{"password", []string{"", "anything"}, nil},
		{"unknown-format", []string{"anything"}, nil},
	}
	for _, tc := range tests {
		t.Run(tc.format, func(t *testing.T) {
			for _, v := range tc.valid {
				assert.True(t, validFormat(tc.format, v), "%s is a %s", v, tc.format)
			}
			for _, v := range tc.invalid {
				assert.False(t, validFormat(tc.format, v), "%s is not a %s", v, tc.format)
			}
		})
	}
}

func TestUnsupportedFormatsAreStripped(t *testing.T) {
	// A format the API server does not know for the type is not checked.
	s := structural(t, `{type: object, properties: {a: {type: string, format: int32}, b: {type: integer, format: uint8}, c: {type: number, format: decimal}}}`)
	assert.Empty(t, Validate(s, value(t, `{"a": "x", "b": 300, "c": 1.5}`), ""))
}
