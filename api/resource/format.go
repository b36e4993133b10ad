package resource

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// String returns the canonical form Kubernetes prints: the shortest
// mantissa whose exponent is a multiple of 3 (of 10 bits for BinarySI) with
// the suffix of q's Format. "1000m" prints as "1", "0.5" as "500m", "1.5Gi"
// as "1536Mi", "1e3" as "1e3". A BinarySI value under 1024, or with a
// fraction, prints as DecimalSI so nothing is rounded.
//
// Upstream: k8s.io/apimachinery/pkg/api/resource (Quantity.CanonicalizeBytes).
func (q Quantity) String() string {
	if q.milli == 0 {
		return "0"
	}
	format := q.Format
	switch format {
	case DecimalSI, DecimalExponent:
	case BinarySI:
		if (q.milli > -1024000 && q.milli < 1024000) || q.milli%1000 != 0 {
			format = DecimalSI
		}
	default:
		format = DecimalExponent
	}
	if format == BinarySI {
		amount, power := q.milli/1000, 0
		for amount%1024 == 0 {
			amount /= 1024
			power++
		}
		return strconv.FormatInt(amount, 10) + binarySuffix[power]
	}

	amount, exponent := q.milli, -3
	for amount%10 == 0 {
		amount /= 10
		exponent++
	}
	// Step back to a multiple of 3; amount was divided by at least as
	// much as it is multiplied by here, so this cannot overflow.
	switch exponent % 3 {
	case 1, -2:
		amount *= 10
		exponent--
	case 2, -1:
		amount *= 100
		exponent -= 2
	}
	number := strconv.FormatInt(amount, 10)
	if format == DecimalExponent {
		if exponent == 0 {
			return number
		}
		return number + "e" + strconv.Itoa(exponent)
	}
	return number + decimalSuffix[exponent]
}

// decimalSuffix and binarySuffix invert the parse tables for the exponents
// String produces: milli-units never go below 10^-3, int64 never above
// 10^18 or 2^60.
var (
	decimalSuffix = map[int]string{-3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}
	binarySuffix  = map[int]string{0: "", 1: "Ki", 2: "Mi", 3: "Gi", 4: "Ti", 5: "Pi", 6: "Ei"}
)

// MarshalJSON writes the canonical form as a JSON string.
func (q Quantity) MarshalJSON() ([]byte, error) {
	return []byte(`"` + q.String() + `"`), nil
}

// UnmarshalJSON reads a JSON string ("100m") or a JSON number (0.5), as
// YAML manifests often give plain numbers; null is zero.
func (q *Quantity) UnmarshalJSON(b []byte) error {
	s := strings.TrimSpace(string(b))
	if s == "null" {
		*q = Quantity{}
		return nil
	}
	if strings.HasPrefix(s, `"`) {
		if err := json.Unmarshal(b, &s); err != nil {
			return fmt.Errorf("quantity: %w", err)
		}
	}
	parsed, err := ParseQuantity(strings.TrimSpace(s))
	if err != nil {
		return err
	}
	*q = parsed
	return nil
}
