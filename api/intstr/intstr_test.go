package intstr

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestJSONRoundTrip(t *testing.T) {
	tests := []struct {
		name string
		json string
		want IntOrString
	}{
		{name: "int", json: `8080`, want: FromInt32(8080)},
		{name: "zero", json: `0`, want: FromInt32(0)},
		{name: "negative", json: `-1`, want: FromInt32(-1)},
		{name: "string", json: `"http"`, want: FromString("http")},
		{name: "percent", json: `"25%"`, want: FromString("25%")},
		{name: "numeric string stays a string", json: `"80"`, want: FromString("80")},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got IntOrString
			require.NoError(t, json.Unmarshal([]byte(tc.json), &got), "Unmarshal(%s)", tc.json)
			assert.Equal(t, tc.want, got, "Unmarshal(%s)", tc.json)
			out, err := json.Marshal(got)
			require.NoError(t, err, "Marshal(%#v)", got)
			assert.JSONEq(t, tc.json, string(out), "round trip of %s", tc.json)
		})
	}
}

func TestUnmarshalErrors(t *testing.T) {
	for _, in := range []string{`1.5`, `true`, `{}`, `99999999999`} {
		var v IntOrString
		assert.Error(t, json.Unmarshal([]byte(in), &v), "Unmarshal(%s)", in)
	}
}

func TestUnmarshalInStruct(t *testing.T) {
	var s struct {
		Port IntOrString `json:"port"`
	}
	require.NoError(t, json.Unmarshal([]byte(`{"port":"metrics"}`), &s))
	assert.Equal(t, FromString("metrics"), s.Port)
	require.NoError(t, json.Unmarshal([]byte(`{"port":9090}`), &s))
	assert.Equal(t, FromInt32(9090), s.Port, "a number after a string resets the string")
}

func TestStringAndIntValue(t *testing.T) {
	tests := []struct {
		in      IntOrString
		wantStr string
		wantInt int
	}{
		{in: FromInt32(42), wantStr: "42", wantInt: 42},
		{in: FromString("42"), wantStr: "42", wantInt: 42},
		{in: FromString("http"), wantStr: "http", wantInt: 0},
		{in: IntOrString{}, wantStr: "0", wantInt: 0},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.wantStr, tc.in.String(), "String(%#v)", tc.in)
		assert.Equal(t, tc.wantInt, tc.in.IntValue(), "IntValue(%#v)", tc.in)
	}
}

func TestParse(t *testing.T) {
	assert.Equal(t, FromInt32(10), Parse("10"))
	assert.Equal(t, FromString("25%"), Parse("25%"))
	assert.Equal(t, FromString("99999999999"), Parse("99999999999"), "beyond int32 stays a string")
}

func TestGetScaledValueFromIntOrPercent(t *testing.T) {
	tests := []struct {
		name    string
		in      IntOrString
		total   int
		roundUp bool
		want    int
		wantErr string
	}{
		{name: "int ignores total", in: FromInt32(3), total: 10, want: 3},
		{name: "25% of 10 up", in: FromString("25%"), total: 10, roundUp: true, want: 3},
		{name: "25% of 10 down", in: FromString("25%"), total: 10, want: 2},
		{name: "exact", in: FromString("50%"), total: 10, roundUp: true, want: 5},
		{name: "100%", in: FromString("100%"), total: 7, want: 7},
		{name: "0%", in: FromString("0%"), total: 7, roundUp: true, want: 0},
		{name: "1% of 1 up", in: FromString("1%"), total: 1, roundUp: true, want: 1},
		{name: "1% of 1 down", in: FromString("1%"), total: 1, want: 0},
		{name: "not a percentage", in: FromString("25"), total: 10, wantErr: "invalid value for IntOrString: invalid type: string is not a percentage"},
		{name: "bad number", in: FromString("x%"), total: 10, wantErr: `invalid value for IntOrString: invalid value "x%"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := GetScaledValueFromIntOrPercent(&tc.in, tc.total, tc.roundUp)
			if tc.wantErr != "" {
				require.Error(t, err, "GetScaledValueFromIntOrPercent(%v, %d)", tc.in, tc.total)
				assert.Contains(t, err.Error(), tc.wantErr, "GetScaledValueFromIntOrPercent(%v, %d)", tc.in, tc.total)
				return
			}
			require.NoError(t, err, "GetScaledValueFromIntOrPercent(%v, %d)", tc.in, tc.total)
			assert.Equal(t, tc.want, got, "GetScaledValueFromIntOrPercent(%v, %d, %v)", tc.in, tc.total, tc.roundUp)
		})
	}
	_, err := GetScaledValueFromIntOrPercent(nil, 1, false)
	assert.EqualError(t, err, "nil value for IntOrString")
}
