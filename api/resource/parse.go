package resource

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
)

// ParseQuantity parses a quantity: an optional sign, a decimal number
// ("2", "0.5", ".5", "1.") and an optional suffix that is a decimal SI
// suffix (n u m k M G T P E), a binary SI suffix (Ki Mi Gi Ti Pi Ei) or a
// decimal exponent ("e3", "E-2"). The suffix sets the Format. Errors wrap
// ErrFormatWrong, ErrNumeric, ErrSuffix or ErrOutOfRange.
//
// Upstream: k8s.io/apimachinery/pkg/api/resource (ParseQuantity).
func ParseQuantity(s string) (Quantity, error) {
	negative, intPart, fracPart, suffix, err := splitQuantity(s)
	if err != nil {
		return Quantity{}, fmt.Errorf("quantity %q: %w", s, err)
	}
	base, exponent, format, ok := interpretSuffix(suffix)
	if !ok {
		return Quantity{}, fmt.Errorf("quantity %q: %w", s, ErrSuffix)
	}
	milli, err := toMilli(intPart+fracPart, len(fracPart), base, exponent)
	if err != nil {
		return Quantity{}, fmt.Errorf("quantity %q: %w", s, err)
	}
	if negative {
		milli = -milli
	}
	// A binary quantity under one unit cannot be written with a binary
	// suffix, so it is decimal, as upstream decides.
	if format == BinarySI && milli > -1000 && milli < 1000 {
		format = DecimalSI
	}
	return Quantity{milli: milli, Format: format}, nil
}

// splitQuantity cuts s into sign, integer digits, fraction digits and
// suffix, following the grammar of upstream's parseQuantityString.
func splitQuantity(s string) (negative bool, intPart, fracPart, suffix string, err error) {
	if s == "" {
		return false, "", "", "", ErrFormatWrong
	}
	pos := 0
	switch s[0] {
	case '-':
		negative = true
		pos++
	case '+':
		pos++
	}
	start := pos
	for pos < len(s) && isDigit(s[pos]) {
		pos++
	}
	intPart = s[start:pos]
	if pos < len(s) && s[pos] == '.' {
		pos++
		start = pos
		for pos < len(s) && isDigit(s[pos]) {
			pos++
		}
		fracPart = s[start:pos]
	}
	if intPart == "" && fracPart == "" {
		return false, "", "", "", ErrNumeric
	}
	// The suffix is letters from the suffix alphabet, then an optional
	// signed integer (the exponent of "e-3").
	start = pos
	for pos < len(s) && isSuffixLetter(s[pos]) {
		pos++
	}
	if pos < len(s) && (s[pos] == '-' || s[pos] == '+') {
		pos++
	}
	for pos < len(s) && isDigit(s[pos]) {
		pos++
	}
	if pos != len(s) {
		return false, "", "", "", ErrFormatWrong
	}
	return negative, intPart, fracPart, s[start:], nil
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

func isSuffixLetter(c byte) bool {
	switch c {
	case 'e', 'E', 'i', 'n', 'u', 'm', 'k', 'K', 'M', 'G', 'T', 'P':
		return true
	}
	return false
}

// decimalSuffixes maps each decimal SI suffix to its power of ten.
var decimalSuffixes = map[string]int{
	"n": -9, "u": -6, "m": -3, "": 0, "k": 3, "M": 6, "G": 9, "T": 12, "P": 15, "E": 18,
}

// binarySuffixes maps each binary SI suffix to its power of two.
var binarySuffixes = map[string]int{
	"Ki": 10, "Mi": 20, "Gi": 30, "Ti": 40, "Pi": 50, "Ei": 60,
}

// interpretSuffix returns the base (2 or 10) and exponent a suffix stands
// for, and the Format it implies.
func interpretSuffix(suffix string) (base, exponent int, format Format, ok bool) {
	if e, ok := decimalSuffixes[suffix]; ok {
		return 10, e, DecimalSI, true
	}
	if e, ok := binarySuffixes[suffix]; ok {
		return 2, e, BinarySI, true
	}
	if len(suffix) > 1 && (suffix[0] == 'e' || suffix[0] == 'E') {
		// 32 bits bounds the exponent so the range check below stays cheap.
		e, err := strconv.ParseInt(suffix[1:], 10, 32)
		if err != nil {
			return 0, 0, "", false
		}
		return 10, int(e), DecimalExponent, true
	}
	return 0, 0, "", false
}

// toMilli returns digits × 10^-fracLen × base^exponent in milli-units,
// rounded up to a whole milli-unit, or ErrOutOfRange.
func toMilli(digits string, fracLen, base, exponent int) (int64, error) {
	n, ok := new(big.Int).SetString(digits, 10)
	if !ok {
		return 0, ErrNumeric
	}
	if n.Sign() == 0 {
		return 0, nil
	}
	// The value is n × 2^pow2 × 10^pow10, with 10^3 for milli-units.
	pow10 := 3 - fracLen
	pow2 := 0
	if base == 2 {
		pow2 = exponent
	} else {
		pow10 += exponent
	}
	// Skip the big arithmetic when the answer is already known: n ≥ 1, so
	// 10^19 milli-units or more overflow, and n × 2^60 < 10^(len+19), so a
	// power of ten below -(len+19) leaves less than one milli-unit, which
	// rounds up to one.
	switch {
	case pow10 >= 19:
		return 0, ErrOutOfRange
	case pow10 < -(len(digits) + 19):
		return 1, nil
	}
	n.Lsh(n, uint(pow2))
	ten := big.NewInt(10)
	if pow10 >= 0 {
		n.Mul(n, new(big.Int).Exp(ten, big.NewInt(int64(pow10)), nil))
	} else {
		var rem big.Int
		n.QuoRem(n, new(big.Int).Exp(ten, big.NewInt(int64(-pow10)), nil), &rem)
		if rem.Sign() != 0 {
			n.Add(n, big.NewInt(1))
		}
	}
	if !n.IsInt64() || n.Int64() == math.MinInt64 {
		return 0, ErrOutOfRange
	}
	return n.Int64(), nil
}
