package intstr

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// Type says which of the two values an IntOrString holds.
type Type int64

// The two kinds of IntOrString.
const (
	Int    Type = iota // IntVal is set.
	String             // StrVal is set.
)

// IntOrString is an int32 or a string. It goes on the wire as a JSON number
// or a JSON string, whichever it holds. The zero value is the integer 0.
//
// Upstream: k8s.io/apimachinery/pkg/util/intstr (IntOrString).
type IntOrString struct {
	Type   Type   `protobuf:"varint,1,opt,name=type,casttype=Type"`
	IntVal int32  `protobuf:"varint,2,opt,name=intVal"`
	StrVal string `protobuf:"bytes,3,opt,name=strVal"`
}

// FromInt32 returns an IntOrString holding the integer v.
func FromInt32(v int32) IntOrString { return IntOrString{Type: Int, IntVal: v} }

// FromString returns an IntOrString holding the string v.
func FromString(v string) IntOrString { return IntOrString{Type: String, StrVal: v} }

// Parse returns an integer IntOrString when v is a decimal int32 and a string
// one otherwise, as a command-line flag would be read.
func Parse(v string) IntOrString {
	i, err := strconv.ParseInt(v, 10, 32)
	if err != nil {
		return FromString(v)
	}
	return FromInt32(int32(i))
}

// String returns the string, or the integer in decimal.
func (v IntOrString) String() string {
	if v.Type == String {
		return v.StrVal
	}
	return strconv.Itoa(int(v.IntVal))
}

// IntValue returns the integer, or the string parsed as a decimal integer
// (0 when it is not one).
func (v IntOrString) IntValue() int {
	if v.Type == String {
		i, _ := strconv.Atoi(v.StrVal)
		return i
	}
	return int(v.IntVal)
}

// MarshalJSON writes a JSON number or a JSON string.
func (v IntOrString) MarshalJSON() ([]byte, error) {
	if v.Type == String {
		return json.Marshal(v.StrVal)
	}
	return json.Marshal(v.IntVal)
}

// UnmarshalJSON reads a JSON string or a JSON number that fits in an int32.
func (v *IntOrString) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		v.Type = String
		v.IntVal = 0
		return json.Unmarshal(b, &v.StrVal)
	}
	v.Type = Int
	v.StrVal = ""
	return json.Unmarshal(b, &v.IntVal)
}

// GetScaledValueFromIntOrPercent resolves v against total: an integer is
// returned as is, a percentage string ("25%") becomes that share of total,
// rounded up when roundUp is set and down otherwise. This is how
// maxSurge (rounded up) and maxUnavailable (rounded down) become pod counts.
// Any other string is an error. The arithmetic is exact integer arithmetic.
//
// Upstream: k8s.io/apimachinery/pkg/util/intstr (GetScaledValueFromIntOrPercent).
func GetScaledValueFromIntOrPercent(v *IntOrString, total int, roundUp bool) (int, error) {
	if v == nil {
		return 0, errors.New("nil value for IntOrString")
	}
	value, isPercent, err := intOrPercent(v)
	if err != nil {
		return 0, fmt.Errorf("invalid value for IntOrString: %w", err)
	}
	if !isPercent {
		return value, nil
	}
	product := int64(value) * int64(total)
	scaled := product / 100
	// Go division truncates toward zero; move to the ceiling or the floor.
	if rem := product % 100; rem != 0 {
		if roundUp && product > 0 {
			scaled++
		} else if !roundUp && product < 0 {
			scaled--
		}
	}
	return int(scaled), nil
}

func intOrPercent(v *IntOrString) (value int, isPercent bool, err error) {
	switch v.Type {
	case Int:
		return int(v.IntVal), false, nil
	case String:
		s, ok := strings.CutSuffix(v.StrVal, "%")
		if !ok {
			return 0, false, errors.New("invalid type: string is not a percentage")
		}
		i, err := strconv.Atoi(s)
		if err != nil {
			return 0, false, fmt.Errorf("invalid value %q: %w", v.StrVal, err)
		}
		return i, true, nil
	}
	return 0, false, errors.New("invalid type: neither int nor percentage")
}
