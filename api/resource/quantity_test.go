package resource

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseQuantity(t *testing.T) {
	tests := []struct {
		in         string
		wantMilli  int64
		wantFormat Format
		wantString string
	}{
		{in: "0", wantMilli: 0, wantFormat: DecimalSI, wantString: "0"},
		{in: "100m", wantMilli: 100, wantFormat: DecimalSI, wantString: "100m"},
		{in: "1000m", wantMilli: 1000, wantFormat: DecimalSI, wantString: "1"},
		{in: "1500m", wantMilli: 1500, wantFormat: DecimalSI, wantString: "1500m"},
		{in: "0.5", wantMilli: 500, wantFormat: DecimalSI, wantString: "500m"},
		{in: ".5", wantMilli: 500, wantFormat: DecimalSI, wantString: "500m"},
		{in: "1.", wantMilli: 1000, wantFormat: DecimalSI, wantString: "1"},
		{in: "2", wantMilli: 2000, wantFormat: DecimalSI, wantString: "2"},
		{in: "+2", wantMilli: 2000, wantFormat: DecimalSI, wantString: "2"},
		{in: "-2", wantMilli: -2000, wantFormat: DecimalSI, wantString: "-2"},
		{in: "-100m", wantMilli: -100, wantFormat: DecimalSI, wantString: "-100m"},
		{in: "1500", wantMilli: 1500000, wantFormat: DecimalSI, wantString: "1500"},
		{in: "1000", wantMilli: 1000000, wantFormat: DecimalSI, wantString: "1k"},
		{in: "1k", wantMilli: 1000000, wantFormat: DecimalSI, wantString: "1k"},
		{in: "1G", wantMilli: 1e12, wantFormat: DecimalSI, wantString: "1G"},
		{in: "1.5G", wantMilli: 1.5e12, wantFormat: DecimalSI, wantString: "1500M"},
		{in: "12M", wantMilli: 12e9, wantFormat: DecimalSI, wantString: "12M"},
		{in: "1T", wantMilli: 1e15, wantFormat: DecimalSI, wantString: "1T"},
		{in: "1P", wantMilli: 1e18, wantFormat: DecimalSI, wantString: "1P"},
		{in: "128Mi", wantMilli: 128 << 20 * 1000, wantFormat: BinarySI, wantString: "128Mi"},
		{in: "1Gi", wantMilli: 1 << 30 * 1000, wantFormat: BinarySI, wantString: "1Gi"},
		{in: "1024Mi", wantMilli: 1 << 30 * 1000, wantFormat: BinarySI, wantString: "1Gi"},
		{in: "1.5Gi", wantMilli: 1536 << 20 * 1000, wantFormat: BinarySI, wantString: "1536Mi"},
		{in: "0.5Gi", wantMilli: 512 << 20 * 1000, wantFormat: BinarySI, wantString: "512Mi"},
		{in: "1.5Ki", wantMilli: 1536000, wantFormat: BinarySI, wantString: "1536"},
		{in: "1Ki", wantMilli: 1024000, wantFormat: BinarySI, wantString: "1Ki"},
		{in: "1Pi", wantMilli: 1 << 50 * 1000, wantFormat: BinarySI, wantString: "1Pi"},
		{in: "0.5Ki", wantMilli: 512000, wantFormat: BinarySI, wantString: "512"},
		{in: "0.0001Ki", wantMilli: 103, wantFormat: DecimalSI, wantString: "103m"},
		{in: "1e3", wantMilli: 1000000, wantFormat: DecimalExponent, wantString: "1e3"},
		{in: "1E3", wantMilli: 1000000, wantFormat: DecimalExponent, wantString: "1e3"},
		{in: "1.5e3", wantMilli: 1500000, wantFormat: DecimalExponent, wantString: "1500"},
		{in: "1e-3", wantMilli: 1, wantFormat: DecimalExponent, wantString: "1e-3"},
		{in: "1e+6", wantMilli: 1e9, wantFormat: DecimalExponent, wantString: "1e6"},
		{in: "12e6", wantMilli: 12e9, wantFormat: DecimalExponent, wantString: "12e6"},
		{in: "1u", wantMilli: 1, wantFormat: DecimalSI, wantString: "1m"},
		{in: "1n", wantMilli: 1, wantFormat: DecimalSI, wantString: "1m"},
		{in: "0.1m", wantMilli: 1, wantFormat: DecimalSI, wantString: "1m"},
		{in: "-0.1m", wantMilli: -1, wantFormat: DecimalSI, wantString: "-1m"},
		{in: "1e-100", wantMilli: 1, wantFormat: DecimalExponent, wantString: "1e-3"},
		{in: "0Gi", wantMilli: 0, wantFormat: DecimalSI, wantString: "0"},
		{in: "000100m", wantMilli: 100, wantFormat: DecimalSI, wantString: "100m"},
		{in: "9223372036854775807m", wantMilli: 9223372036854775807, wantFormat: DecimalSI, wantString: "9223372036854775807m"},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			q, err := ParseQuantity(tc.in)
			require.NoError(t, err, "ParseQuantity(%q)", tc.in)
			assert.Equal(t, tc.wantMilli, q.MilliValue(), "ParseQuantity(%q).MilliValue()", tc.in)
			assert.Equal(t, tc.wantFormat, q.Format, "ParseQuantity(%q).Format", tc.in)
			assert.Equal(t, tc.wantString, q.String(), "ParseQuantity(%q).String()", tc.in)
			again, err := ParseQuantity(q.String())
			require.NoError(t, err, "ParseQuantity(%q) of the canonical form of %q", q.String(), tc.in)
			assert.True(t, q.Equal(again), "canonical form of %q parses back to the same value", tc.in)
		})
	}
}

func TestParseQuantityErrors(t *testing.T) {
	tests := []struct {
		in   string
		want error
	}{
		{in: "", want: ErrFormatWrong},
		{in: "abc", want: ErrNumeric},
		{in: "Gi", want: ErrNumeric},
		{in: ".", want: ErrNumeric},
		{in: "-", want: ErrNumeric},
		{in: "1 Gi", want: ErrFormatWrong},
		{in: " 1", want: ErrNumeric},
		{in: "1.2.3", want: ErrFormatWrong},
		{in: "1Kb", want: ErrFormatWrong},
		{in: "1K", want: ErrSuffix},
		{in: "1KiB", want: ErrFormatWrong},
		{in: "1mi", want: ErrSuffix},
		{in: "1e", want: ErrSuffix},
		{in: "1e99999999999", want: ErrSuffix},
		{in: "1E", want: ErrOutOfRange},
		{in: "10P", want: ErrOutOfRange},
		{in: "8Ei", want: ErrOutOfRange},
		{in: "1e20", want: ErrOutOfRange},
		{in: "9223372036854775808m", want: ErrOutOfRange},
	}
	for _, tc := range tests {
		_, err := ParseQuantity(tc.in)
		require.Error(t, err, "ParseQuantity(%q)", tc.in)
		assert.ErrorIs(t, err, tc.want, "ParseQuantity(%q)", tc.in)
		assert.Contains(t, err.Error(), `"`+tc.in+`"`, "ParseQuantity(%q) names its input", tc.in)
	}
}

func TestMustParsePanics(t *testing.T) {
	assert.Panics(t, func() { MustParse("nope") })
	assert.Equal(t, "2Gi", MustParse("2Gi").String())
}

func TestValueRoundsUpAwayFromZero(t *testing.T) {
	tests := []struct {
		in   string
		want int64
	}{
		{"100m", 1}, {"1", 1}, {"1001m", 2}, {"1.5", 2}, {"0", 0}, {"-100m", -1}, {"-1.5", -2}, {"1Ki", 1024},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, MustParse(tc.in).Value(), "MustParse(%q).Value()", tc.in)
	}
}

func TestArithmetic(t *testing.T) {
	q := MustParse("100m")
	q.Add(MustParse("900m"))
	assert.Equal(t, "1", q.String(), "100m + 900m")
	q.Sub(MustParse("1.5"))
	assert.Equal(t, "-500m", q.String(), "1 - 1.5")

	var zero Quantity
	zero.Add(MustParse("1Gi"))
	assert.Equal(t, "1Gi", zero.String(), "a zero quantity takes the Format of what is added")
	mem := MustParse("1Gi")
	mem.Add(MustParse("512Mi"))
	assert.Equal(t, "1536Mi", mem.String(), "1Gi + 512Mi")
	mem.Sub(MustParse("1536Mi"))
	assert.True(t, mem.IsZero(), "1536Mi - 1536Mi")

	big := NewMilliQuantity(9223372036854775000, DecimalSI)
	big.Add(MustParse("1"))
	assert.Equal(t, int64(9223372036854775807), big.MilliValue(), "Add saturates")
	neg := NewMilliQuantity(-9223372036854775000, DecimalSI)
	neg.Sub(MustParse("1"))
	assert.Equal(t, int64(-9223372036854775807), neg.MilliValue(), "Sub saturates")
}

func TestCmp(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"1", "1000m", 0}, {"1Gi", "1024Mi", 0}, {"1G", "1Gi", -1}, {"2", "1500m", 1}, {"-1", "0", -1},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, MustParse(tc.a).Cmp(MustParse(tc.b)), "Cmp(%q, %q)", tc.a, tc.b)
		assert.Equal(t, tc.want == 0, MustParse(tc.a).Equal(MustParse(tc.b)), "Equal(%q, %q)", tc.a, tc.b)
	}
	assert.Equal(t, 1, MustParse("5m").Sign())
	assert.Equal(t, -1, MustParse("-5m").Sign())
	assert.Equal(t, 0, MustParse("0").Sign())
}

func TestConstructors(t *testing.T) {
	assert.Equal(t, "4Gi", NewQuantity(4<<30, BinarySI).String())
	assert.Equal(t, "110", NewQuantity(110, DecimalSI).String())
	assert.Equal(t, "250m", NewMilliQuantity(250, DecimalSI).String())
	assert.Equal(t, "1", NewMilliQuantity(1000, BinarySI).String())
	assert.Equal(t, "1500", NewQuantity(1500, BinarySI).String(), "BinarySI not a multiple of 1024")
	assert.Equal(t, "5e3", NewQuantity(5000, DecimalExponent).String())
	assert.Equal(t, "5e-3", NewMilliQuantity(5, DecimalExponent).String())
	assert.Equal(t, int64(9223372036854775807), NewQuantity(1<<62, DecimalSI).MilliValue(), "NewQuantity saturates")
}

func TestJSON(t *testing.T) {
	tests := []struct {
		in   string
		want string
	}{
		{in: `"100m"`, want: `"100m"`},
		{in: `"1.5Gi"`, want: `"1536Mi"`},
		{in: `0.5`, want: `"500m"`},
		{in: `2`, want: `"2"`},
		{in: `1e3`, want: `"1e3"`},
		{in: `" 1 "`, want: `"1"`},
		{in: `null`, want: `"0"`},
	}
	for _, tc := range tests {
		var q Quantity
		require.NoError(t, json.Unmarshal([]byte(tc.in), &q), "Unmarshal(%s)", tc.in)
		out, err := json.Marshal(q)
		require.NoError(t, err, "Marshal of %s", tc.in)
		assert.Equal(t, tc.want, string(out), "round trip of %s", tc.in)
	}
	for _, in := range []string{`"abc"`, `true`, `"1 Gi"`, `{}`} {
		var q Quantity
		assert.Error(t, json.Unmarshal([]byte(in), &q), "Unmarshal(%s)", in)
	}

	var m map[string]Quantity
	require.NoError(t, json.Unmarshal([]byte(`{"cpu":"250m","memory":"64Mi","pods":110}`), &m))
	out, err := json.Marshal(m)
	require.NoError(t, err)
	assert.JSONEq(t, `{"cpu":"250m","memory":"64Mi","pods":"110"}`, string(out))
}
