package protobuf

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/protobuf/encoding/protowire"
)

// stripFields returns a copy of the Kubernetes protobuf body data (magic
// prefix included) without the fields at paths. A path is field numbers
// from the envelope (runtime.Unknown) down; every occurrence of each
// message on the way is visited, so repeated fields (list items) are
// covered.
func stripFields(t *testing.T, data []byte, paths [][]protowire.Number) []byte {
	t.Helper()
	body := data[4:]
	for _, p := range paths {
		var err error
		if body, err = stripPath(body, p); err != nil {
			t.Fatalf("strip %v: %v", p, err)
		}
	}
	return append(append([]byte{}, data[:4]...), body...)
}

func stripPath(msg []byte, path []protowire.Number) ([]byte, error) {
	var out []byte
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			return nil, protowire.ParseError(n)
		}
		m := protowire.ConsumeFieldValue(num, typ, msg[n:])
		if m < 0 {
			return nil, protowire.ParseError(m)
		}
		field := msg[:n+m]
		msg = msg[n+m:]
		switch {
		case num != path[0]:
			out = append(out, field...)
		case len(path) == 1:
			// dropped
		case typ != protowire.BytesType:
			return nil, fmt.Errorf("field %d is not a message", num)
		default:
			inner, _ := protowire.ConsumeBytes(field[n:])
			stripped, err := stripPath(inner, path[1:])
			if err != nil {
				return nil, err
			}
			out = protowire.AppendTag(out, num, typ)
			out = protowire.AppendBytes(out, stripped)
		}
	}
	return out, nil
}

// dump renders a protobuf message as an indented tree of field numbers,
// reading a length-delimited value as a nested message when it parses as
// one, to show where two encodings differ.
func dump(msg []byte, indent string) string {
	var sb strings.Builder
	for len(msg) > 0 {
		num, typ, n := protowire.ConsumeTag(msg)
		if n < 0 {
			fmt.Fprintf(&sb, "%s!! %x\n", indent, msg)
			break
		}
		msg = msg[n:]
		m := protowire.ConsumeFieldValue(num, typ, msg)
		if m < 0 {
			fmt.Fprintf(&sb, "%s%d: !! %x\n", indent, num, msg)
			break
		}
		switch typ {
		case protowire.VarintType:
			v, _ := protowire.ConsumeVarint(msg)
			fmt.Fprintf(&sb, "%s%d: %d\n", indent, num, int64(v))
		case protowire.BytesType:
			v, _ := protowire.ConsumeBytes(msg)
			if looksLikeMessage(v) {
				fmt.Fprintf(&sb, "%s%d: {\n%s%s}\n", indent, num, dump(v, indent+"  "), indent)
			} else {
				fmt.Fprintf(&sb, "%s%d: %q\n", indent, num, v)
			}
		default:
			fmt.Fprintf(&sb, "%s%d: wire type %d\n", indent, num, typ)
		}
		msg = msg[m:]
	}
	return sb.String()
}

func looksLikeMessage(b []byte) bool {
	if len(b) == 0 {
		return false
	}
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 || num > 1000 {
			return false
		}
		m := protowire.ConsumeFieldValue(num, typ, b[n:])
		if m < 0 {
			return false
		}
		b = b[n+m:]
	}
	return true
}

// diffDumps shows the first lines where the dumps of two messages differ,
// with some context.
func diffDumps(want, got []byte) string {
	w := strings.Split(dump(want, ""), "\n")
	g := strings.Split(dump(got, ""), "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	from := max(i-8, 0)
	return fmt.Sprintf("kubernetes (from line %d):\n%s\nminicp:\n%s", from,
		strings.Join(w[from:min(i+8, len(w))], "\n"), strings.Join(g[from:min(i+8, len(g))], "\n"))
}
