package resource

import (
	"errors"
	"fmt"
	"math"
)

// Format is the suffix family a Quantity prints in.
type Format string

// The suffix families of Kubernetes quantities.
const (
	// DecimalExponent prints as "12e6".
	DecimalExponent Format = "DecimalExponent"
	// BinarySI prints with the base-1024 suffixes Ki, Mi, Gi, Ti, Pi, Ei.
	BinarySI Format = "BinarySI"
	// DecimalSI prints with the base-1000 suffixes m, k, M, G, T, P, E.
	DecimalSI Format = "DecimalSI"
)

// Quantity is a fixed-point amount of a resource: "100m", "0.5", "2",
// "128Mi", "1Gi", "1G", "1k", "1e3".
//
// The value is an int64 count of milli-units, so a Quantity holds at most
// ±9,223,372,036,854,775.807 units (about 8 Pi, or 9.2 P). Parsing a larger
// value is an error; Add and Sub saturate at that bound. Precision is one
// milli-unit: a finer value such as "1u" or "0.5m" is rounded up, away from
// zero, to the next milli-unit (upstream rounds at nano-units the same way),
// so asking for some of a resource always gets some.
//
// The zero value is 0. Quantities are values: copy them freely. Compare them
// with Cmp or Equal; == also compares the Format.
//
// Upstream: k8s.io/apimachinery/pkg/api/resource (Quantity).
type Quantity struct {
	milli int64
	// Format is the suffix family String uses; parsing sets it from the
	// suffix of the input.
	Format
}

// The errors ParseQuantity wraps.
var (
	ErrFormatWrong = errors.New("quantities must match the regular expression '^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'")
	ErrNumeric     = errors.New("unable to parse numeric part of quantity")
	ErrSuffix      = errors.New("unable to parse quantity's suffix")
	// ErrOutOfRange is a value beyond what an int64 of milli-units holds.
	ErrOutOfRange = errors.New("quantity is out of range: at most ±9223372036854775.807 is supported")
)

// NewQuantity returns value whole units printed in format. Values beyond the
// supported range saturate.
func NewQuantity(value int64, format Format) Quantity {
	return Quantity{milli: mulSat(value, 1000), Format: format}
}

// NewMilliQuantity returns milli thousandths of a unit printed in format.
func NewMilliQuantity(milli int64, format Format) Quantity {
	return Quantity{milli: milli, Format: format}
}

// MustParse is ParseQuantity for constants known to be valid; it panics on
// an error, so use it only in tests and package-level initialisation.
func MustParse(s string) Quantity {
	q, err := ParseQuantity(s)
	if err != nil {
		panic(fmt.Errorf("cannot parse '%v': %w", s, err))
	}
	return q
}

// MilliValue returns the value in thousandths of a unit: 100 for "100m",
// 1000 for "1".
func (q Quantity) MilliValue() int64 { return q.milli }

// Value returns the value in whole units, rounded up away from zero: 1 for
// "100m", 2 for "1.5".
func (q Quantity) Value() int64 {
	v := q.milli / 1000
	switch r := q.milli % 1000; {
	case r > 0:
		v++
	case r < 0:
		v--
	}
	return v
}

// IsZero reports whether the value is 0. It also makes `omitzero` drop a
// zero Quantity.
func (q Quantity) IsZero() bool { return q.milli == 0 }

// Sign returns -1, 0 or 1.
func (q Quantity) Sign() int {
	switch {
	case q.milli < 0:
		return -1
	case q.milli > 0:
		return 1
	}
	return 0
}

// Cmp returns -1, 0 or 1 as q is less than, equal to or greater than y.
func (q Quantity) Cmp(y Quantity) int {
	switch {
	case q.milli < y.milli:
		return -1
	case q.milli > y.milli:
		return 1
	}
	return 0
}

// Equal reports whether q and y have the same value, whatever their Format.
func (q Quantity) Equal(y Quantity) bool { return q.milli == y.milli }

// Add adds y to q. A zero q takes y's Format. The sum saturates at the
// supported range.
func (q *Quantity) Add(y Quantity) {
	if q.milli == 0 {
		q.Format = y.Format
	}
	q.milli = addSat(q.milli, y.milli)
}

// Sub subtracts y from q. A zero q takes y's Format. The difference
// saturates at the supported range.
func (q *Quantity) Sub(y Quantity) {
	if q.milli == 0 {
		q.Format = y.Format
	}
	q.milli = addSat(q.milli, -max(y.milli, -math.MaxInt64))
}

// addSat adds without wrapping around, clamping to ±MaxInt64 (MinInt64 is
// never produced, so negation is always safe).
func addSat(a, b int64) int64 {
	s := a + b
	switch {
	case a > 0 && b > 0 && s < 0:
		return math.MaxInt64
	case a < 0 && b < 0 && s >= 0:
		return -math.MaxInt64
	case s == math.MinInt64:
		return -math.MaxInt64
	}
	return s
}

func mulSat(a, b int64) int64 {
	if a == 0 || b == 0 {
		return 0
	}
	p := a * b
	if p/b != a || p == math.MinInt64 {
		if (a < 0) != (b < 0) {
			return -math.MaxInt64
		}
		return math.MaxInt64
	}
	return p
}
