package v1_test

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	metav1 "github.com/minicp/minicp/api/meta/v1"
)

var cest = time.FixedZone("CEST", 2*3600)

func TestTimeMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   metav1.Time
		want string
	}{
		{name: "zero", in: metav1.Time{}, want: `null`},
		{name: "UTC", in: metav1.Time{Time: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)}, want: `"2024-05-06T07:08:09Z"`},
		{name: "other zone is written in UTC", in: metav1.Time{Time: time.Date(2024, 5, 6, 9, 8, 9, 0, cest)}, want: `"2024-05-06T07:08:09Z"`},
		{name: "fractions are dropped", in: metav1.Time{Time: time.Date(2024, 5, 6, 7, 8, 9, 999_999_999, time.UTC)}, want: `"2024-05-06T07:08:09Z"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.in)
			require.NoError(t, err, "Marshal(%v)", tc.in)
			assert.Equal(t, tc.want, string(got), "Marshal(%v)", tc.in)
		})
	}
}

func TestTimeUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{in: `null`, want: time.Time{}},
		{in: `"2024-05-06T07:08:09Z"`, want: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)},
		{in: `"2024-05-06T09:08:09+02:00"`, want: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)},
		{in: `"2024-05-06"`, wantErr: true},
		{in: `"yesterday"`, wantErr: true},
		{in: `""`, wantErr: true},
		{in: `1714979289`, wantErr: true},
		{in: `{}`, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			got := metav1.Time{Time: time.Now()}
			err := json.Unmarshal([]byte(tc.in), &got)
			if tc.wantErr {
				assert.Error(t, err, "Unmarshal(%s)", tc.in)
				return
			}
			require.NoError(t, err, "Unmarshal(%s)", tc.in)
			assert.True(t, tc.want.Equal(got.Time), "Unmarshal(%s) = %v, want %v", tc.in, got, tc.want)
			assert.Equal(t, tc.want.IsZero(), got.IsZero(), "Unmarshal(%s).IsZero()", tc.in)
		})
	}
}

func TestTimeRoundTrip(t *testing.T) {
	in := metav1.NewTime(time.Date(2024, 5, 6, 9, 8, 9, 123_456_789, cest))
	assert.Zero(t, in.Nanosecond(), "NewTime truncates to seconds")
	data, err := json.Marshal(in)
	require.NoError(t, err)
	var out metav1.Time
	require.NoError(t, json.Unmarshal(data, &out), "Unmarshal(%s)", data)
	assert.True(t, in.Equal(out.Time), "round trip of %v gave %v", in, out)
}

func TestTimeOmitzero(t *testing.T) {
	type holder struct {
		T metav1.Time  `json:"t,omitzero"`
		P *metav1.Time `json:"p,omitempty"`
	}
	got, err := json.Marshal(holder{})
	require.NoError(t, err)
	assert.JSONEq(t, `{}`, string(got), "zero times are omitted")

	zero := metav1.Time{}
	got, err = json.Marshal(holder{P: &zero})
	require.NoError(t, err)
	assert.JSONEq(t, `{"p":null}`, string(got), "a pointer to a zero time is null")
}

func TestMicroTimeMarshalJSON(t *testing.T) {
	tests := []struct {
		name string
		in   metav1.MicroTime
		want string
	}{
		{name: "zero", in: metav1.MicroTime{}, want: `null`},
		{name: "whole seconds keep six digits", in: metav1.MicroTime{Time: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)},
			want: `"2024-05-06T07:08:09.000000Z"`},
		{name: "micros", in: metav1.MicroTime{Time: time.Date(2024, 5, 6, 7, 8, 9, 123_456_000, time.UTC)},
			want: `"2024-05-06T07:08:09.123456Z"`},
		{name: "nanos are truncated, not rounded", in: metav1.MicroTime{Time: time.Date(2024, 5, 6, 7, 8, 9, 123_456_999, time.UTC)},
			want: `"2024-05-06T07:08:09.123456Z"`},
		{name: "other zone is written in UTC", in: metav1.MicroTime{Time: time.Date(2024, 5, 6, 9, 8, 9, 5000, cest)},
			want: `"2024-05-06T07:08:09.000005Z"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := json.Marshal(tc.in)
			require.NoError(t, err, "Marshal(%v)", tc.in)
			assert.Equal(t, tc.want, string(got), "Marshal(%v)", tc.in)
		})
	}
}

func TestMicroTimeUnmarshalJSON(t *testing.T) {
	tests := []struct {
		in      string
		want    time.Time
		wantErr bool
	}{
		{in: `null`, want: time.Time{}},
		{in: `"2024-05-06T07:08:09.123456Z"`, want: time.Date(2024, 5, 6, 7, 8, 9, 123_456_000, time.UTC)},
		{in: `"2024-05-06T07:08:09Z"`, want: time.Date(2024, 5, 6, 7, 8, 9, 0, time.UTC)},
		{in: `"2024-05-06T09:08:09.5+02:00"`, want: time.Date(2024, 5, 6, 7, 8, 9, 500_000_000, time.UTC)},
		{in: `"not a time"`, wantErr: true},
		{in: `12`, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			var got metav1.MicroTime
			err := json.Unmarshal([]byte(tc.in), &got)
			if tc.wantErr {
				assert.Error(t, err, "Unmarshal(%s)", tc.in)
				return
			}
			require.NoError(t, err, "Unmarshal(%s)", tc.in)
			assert.True(t, tc.want.Equal(got.Time), "Unmarshal(%s) = %v, want %v", tc.in, got, tc.want)
		})
	}
}

func TestMicroTimeRoundTrip(t *testing.T) {
	in := metav1.NewMicroTime(time.Date(2024, 5, 6, 9, 8, 9, 123_456_789, cest))
	assert.Equal(t, 123_456_000, in.Nanosecond(), "NewMicroTime truncates to microseconds")
	data, err := json.Marshal(in)
	require.NoError(t, err)
	var out metav1.MicroTime
	require.NoError(t, json.Unmarshal(data, &out), "Unmarshal(%s)", data)
	assert.True(t, in.Equal(out.Time), "round trip of %v gave %v", in, out)
}
