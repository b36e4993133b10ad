package validation

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestIsDNS1123Label(t *testing.T) {
	valid := []string{"a", "ab", "a-b", "0", "123-abc", "my-name", strings.Repeat("a", 63)}
	for _, v := range valid {
		assert.Empty(t, IsDNS1123Label(v), "IsDNS1123Label(%q)", v)
	}
	tests := []struct {
		in   string
		want []string
	}{
		{in: "", want: []string{"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"}},
		{in: "A", want: []string{"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"}},
		{in: "-a", want: []string{"a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')"}},
		{in: "a.b", want: []string{"must not contain dots"}},
		{in: strings.Repeat("a", 64), want: []string{"must be no more than 63 characters"}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, IsDNS1123Label(tc.in), "IsDNS1123Label(%q)", tc.in)
	}
}

func TestIsDNS1123Subdomain(t *testing.T) {
	valid := []string{"a", "a.b", "example.com", "a-b.c-d", "web-7d4b9c8f6-x2x9k", strings.Repeat("a.", 126) + "a"}
	for _, v := range valid {
		assert.Empty(t, IsDNS1123Subdomain(v), "IsDNS1123Subdomain(%q)", v)
	}
	msg := "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"
	for _, v := range []string{"", "A", "a..b", ".a", "a.", "a_b", "a/b"} {
		assert.Equal(t, []string{msg}, IsDNS1123Subdomain(v), "IsDNS1123Subdomain(%q)", v)
	}
	assert.Equal(t, []string{"must be no more than 253 characters"}, IsDNS1123Subdomain(strings.Repeat("a", 254)))
}

func TestIsQualifiedName(t *testing.T) {
	valid := []string{"a", "A", "MyName", "my.name", "123-abc", "a_b", "example.com/MyName", "kubernetes.io/hostname", "a/b", strings.Repeat("a", 63)}
	for _, v := range valid {
		assert.Empty(t, IsQualifiedName(v), "IsQualifiedName(%q)", v)
	}
	nameMsg := "name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')"
	tests := []struct {
		in   string
		want []string
	}{
		{in: "", want: []string{"name part must be non-empty", nameMsg}},
		{in: "-a", want: []string{nameMsg}},
		{in: "a b", want: []string{nameMsg}},
		{in: strings.Repeat("a", 64), want: []string{"name part must be no more than 63 characters"}},
		{in: "/a", want: []string{"prefix part must be non-empty"}},
		{in: "a/", want: []string{"name part must be non-empty", nameMsg}},
		{in: "Example.com/a", want: []string{"prefix part a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or '.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"}},
		{in: "a/b/c", want: []string{"a qualified name must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]') with an optional DNS subdomain prefix and '/' (e.g. 'example.com/MyName')"}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, IsQualifiedName(tc.in), "IsQualifiedName(%q)", tc.in)
	}
}

func TestIsValidLabelValue(t *testing.T) {
	for _, v := range []string{"", "a", "MyValue", "my_value", "12345", "a.b-c_d", strings.Repeat("a", 63)} {
		assert.Empty(t, IsValidLabelValue(v), "IsValidLabelValue(%q)", v)
	}
	msg := "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', regex used for validation is '(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"
	for _, v := range []string{"-a", "a-", "a b", "a/b", "ü"} {
		assert.Equal(t, []string{msg}, IsValidLabelValue(v), "IsValidLabelValue(%q)", v)
	}
	assert.Equal(t, []string{"must be no more than 63 characters"}, IsValidLabelValue(strings.Repeat("a", 64)))
}

func TestIsValidPortName(t *testing.T) {
	for _, v := range []string{"http", "h2c", "web-api", "a", "http-8080", strings.Repeat("a", 15)} {
		assert.Empty(t, IsValidPortName(v), "IsValidPortName(%q)", v)
	}
	tests := []struct {
		in   string
		want []string
	}{
		{in: "", want: []string{"must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)", "must contain at least one letter (a-z)"}},
		{in: "8080", want: []string{"must contain at least one letter (a-z)"}},
		{in: "HTTP", want: []string{"must contain only alpha-numeric characters (a-z, 0-9), and hyphens (-)", "must contain at least one letter (a-z)"}},
		{in: "a--b", want: []string{"must not contain consecutive hyphens"}},
		{in: "-ab", want: []string{"must not begin or end with a hyphen"}},
		{in: strings.Repeat("a", 16), want: []string{"must be no more than 15 characters"}},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, IsValidPortName(tc.in), "IsValidPortName(%q)", tc.in)
	}
}

func TestOtherNameRules(t *testing.T) {
	tests := []struct {
		name  string
		fn    func(string) []string
		valid []string
		bad   []string
	}{
		{name: "IsEnvVarName", fn: IsEnvVarName, valid: []string{"A", "my.env-name", "MY_ENV.NAME", "_x", "a1"}, bad: []string{"", "1A", "a=b", "a b", ".", "..", "..a"}},
		{name: "IsConfigMapKey", fn: IsConfigMapKey, valid: []string{"a", "key.name", "KEY_NAME", "key-name", ".a"}, bad: []string{"", "a/b", ".", "..", "..a", "a b"}},
		{name: "IsHTTPHeaderName", fn: IsHTTPHeaderName, valid: []string{"X-Probe", "Accept"}, bad: []string{"", "X Probe", "X:Probe"}},
		{name: "IsValidIP", fn: IsValidIP, valid: []string{"10.0.0.1", "::1", "2001:db8::ffff"}, bad: []string{"", "10.0.0", "10.0.0.256", "fe80::1%eth0", "host"}},
		{name: "IsValidCIDR", fn: IsValidCIDR, valid: []string{"10.244.0.0/24", "2001:db8::/64"}, bad: []string{"", "10.0.0.1", "10.0.0.0/33"}},
		{name: "IsValidPathSegmentName", fn: IsValidPathSegmentName, valid: []string{"a", "a.b", "a..b"}, bad: []string{".", "..", "a/b", "a%b"}},
	}
	for _, tc := range tests {
		for _, v := range tc.valid {
			assert.Empty(t, tc.fn(v), "%s(%q)", tc.name, v)
		}
		for _, v := range tc.bad {
			assert.NotEmpty(t, tc.fn(v), "%s(%q)", tc.name, v)
		}
	}
	assert.Nil(t, IsValidPortNum(1))
	assert.Nil(t, IsValidPortNum(65535))
	assert.Equal(t, []string{"must be between 1 and 65535, inclusive"}, IsValidPortNum(0))
	assert.Equal(t, []string{"must be between 1 and 65535, inclusive"}, IsValidPortNum(65536))
	assert.Nil(t, IsValidUserID(0))
	assert.Equal(t, []string{"must be between 0 and 2147483647, inclusive"}, IsValidUserID(-1))
	assert.Equal(t, []string{"must be between 0 and 2147483647, inclusive"}, IsValidGroupID(1<<31))
}
