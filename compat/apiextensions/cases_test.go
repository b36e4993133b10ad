package apiextensions

// schemaCase is a schema and objects to run through both engines. The
// objects are mostly invalid on purpose.
type schemaCase struct {
	name    string
	schema  string
	objects []string
}

var schemaCases = []schemaCase{
	{
		name: "types",
		schema: `
type: object
properties:
  i: {type: integer}
  n: {type: number}
  s: {type: string}
  b: {type: boolean}
  a: {type: array, items: {type: string}}
  o: {type: object, properties: {x: {type: string}}}
  nn: {type: string, nullable: true}
`,
		objects: []string{
			`{"i": 1, "n": 1.5, "s": "x", "b": true, "a": ["x"], "o": {"x": "y"}, "nn": null}`,
			`{"i": "string", "n": "x", "s": 1, "b": "true", "a": {}, "o": [], "nn": 1}`,
			`{"i": 1.0, "n": 1, "s": null, "b": null, "a": null, "o": null}`,
			`{"i": 1.5, "n": true, "s": [], "b": 0, "a": [1, null, {}], "o": "x"}`,
			`{"i": 9007199254740993, "n": 1e308, "s": "", "a": []}`,
			`"not an object"`,
			`[1, 2]`,
			`null`,
		},
	},
	{
		name: "numbers",
		schema: `
type: object
properties:
  i32: {type: integer, format: int32}
  i64: {type: integer, format: int64}
  f: {type: number, format: float}
  d: {type: number, format: double}
  max: {type: integer, maximum: 10}
  xmax: {type: integer, maximum: 10, exclusiveMaximum: true}
  min: {type: number, minimum: -1.5}
  xmin: {type: number, minimum: -1.5, exclusiveMinimum: true}
  fracmax: {type: integer, maximum: 10.5}
  mult: {type: integer, multipleOf: 3}
  fmult: {type: number, multipleOf: 0.1}
  halfmult: {type: integer, multipleOf: 0.5}
  badfmt: {type: integer, format: uint8}
`,
		objects: []string{
			`{"i32": 2147483647, "i64": 9223372036854775807, "f": 1.5, "d": 1e300, "max": 10, "xmax": 9, "min": -1.5, "xmin": -1.4, "mult": 9, "fmult": 0.3}`,
			`{"i32": 2147483648, "f": 1e300, "max": 11, "xmax": 10, "min": -2, "xmin": -1.5, "mult": 10, "fmult": 0.35}`,
			`{"max": 10.5, "xmax": 10.0, "min": -2, "fracmax": 11, "halfmult": 3, "badfmt": 300}`,
			`{"i32": -2147483649, "max": 1e3, "mult": 9.0, "fracmax": 10}`,
			`{"i64": 1.5, "i32": 1.0, "mult": 3.5}`,
		},
	},
	{
		name: "strings",
		schema: `
type: object
properties:
  max: {type: string, maxLength: 3}
  min: {type: string, minLength: 2}
  one: {type: string, maxLength: 1}
  pat: {type: string, pattern: "^[a-z]+$"}
  all: {type: string, maxLength: 5, minLength: 2, pattern: "^a"}
  e: {type: string, enum: [a, b, "c d", "\"q\""]}
  ne: {type: integer, enum: [1, 2.5]}
  me: {enum: [{"a": 1}, [1, 2], null, true], x-kubernetes-preserve-unknown-fields: true}
`,
		objects: []string{
			`{"max": "abc", "min": "ab", "pat": "abc", "all": "abcd", "e": "a", "ne": 1}`,
			`{"max": "abcd", "min": "a", "one": "ab", "pat": "ABC", "all": "b", "e": "x", "ne": 3}`,
			`{"max": "äöü", "min": "ä", "all": "abcdef", "e": "\"q\"", "ne": 2.5}`,
			`{"max": "äöüß", "e": 1, "ne": "1", "me": {"a": 1}}`,
			`{"me": [1, 2], "ne": 1.0}`,
			`{"me": 7, "ne": 2}`,
			`{"me": null}`,
			`{"me": true, "e": null}`,
		},
	},
	{
		name: "formats",
		schema: `
type: object
properties:
  dt: {type: string, format: date-time}
  d: {type: string, format: date}
  dur: {type: string, format: duration}
  uuid: {type: string, format: uuid}
  email: {type: string, format: email}
  host: {type: string, format: hostname}
  ip4: {type: string, format: ipv4}
  ip6: {type: string, format: ipv6}
  cidr: {type: string, format: cidr}
  mac: {type: string, format: mac}
  uri: {type: string, format: uri}
  byte: {type: string, format: byte}
  short: {type: string, format: k8s-short-name}
  long: {type: string, format: k8s-long-name}
  unknown: {type: string, format: int32}
  intfmt: {type: integer, format: date}
  hex: {type: string, format: hexcolor}
  isbn: {type: string, format: isbn}
  cc: {type: string, format: creditcard}
  ssn: {type: string, format: ssn}
  rgb: {type: string, format: rgbcolor}
  bson: {type: string, format: bsonobjectid}
  pw: {type: string, format: password}
`,
		objects: []string{
			`{"dt": "2025-01-01T10:00:00Z", "d": "2025-01-01", "dur": "1h30m", "uuid": "6F1C5E0A-2B1D-4F7E-9C3A-1D2E3F4A5B6C",
			  "email": "a@example.com", "host": "example.com", "ip4": "10.0.0.1", "ip6": "::1", "cidr": "10.0.0.0/8",
			  "mac": "01:23:45:67:89:ab", "uri": "https://example.com/x", "byte": "aGVsbG8=", "short": "abc", "long": "a.b-c",
			  "unknown": "x", "intfmt": 1, "hex": "#fff", "isbn": "0321751043", "cc": "4111111111111111", "ssn": "123-45-6789",
			  "rgb": "rgb(1,2,3)", "bson": "507f1f77bcf86cd799439011", "pw": "x"}`,
			`{"dt": "2025-01-01", "d": "2025-13-01", "dur": "forever", "uuid": "x", "email": "nope", "host": "-bad-",
			  "ip4": "::1", "ip6": "10.0.0.1", "cidr": "10.0.0.0/33", "mac": "zz", "uri": "relative", "byte": "!!", "short": "A",
			  "long": "a..b", "hex": "#ggg", "isbn": "123", "cc": "4111111111111112", "ssn": "12-345-6789", "rgb": "rgb(256,0,0)",
			  "bson": "xyz"}`,
			`{"dt": "2025-01-01t25:00:00z", "dur": "3 days", "ip4": "010.001.0.1", "cidr": "010.0.0.0/8", "uri": "/path?q"}`,
			`{"dt": "2025-01-01T23:59:59.123456789+01:00", "d": 20250101, "uuid": 1, "intfmt": "x"}`,
		},
	},
	{
		name: "arrays",
		schema: `
type: object
properties:
  min: {type: array, minItems: 2, items: {type: integer}}
  max: {type: array, maxItems: 2, items: {type: integer}}
  one: {type: array, maxItems: 1, items: {type: integer}}
  uniq: {type: array, uniqueItems: true, items: {x-kubernetes-preserve-unknown-fields: true}}
  nested: {type: array, items: {type: array, items: {type: object, required: [a], properties: {a: {type: string}}}}}
`,
		objects: []string{
			`{"min": [1, 2], "max": [1], "uniq": [1, 2, "1"], "nested": [[{"a": "x"}]]}`,
			`{"min": [1], "max": [1, 2, 3], "one": [1, 2], "uniq": [1, 2, 1, 2], "nested": [[{}], [{"a": 1}, {"b": 2}]]}`,
			`{"min": ["x"], "max": [1, "x", 3], "uniq": [{"a": 1}, {"a": 1}, [1], [1]]}`,
			`{"uniq": [1, 1.0], "nested": [null, [null]]}`,
		},
	},
	{
		name: "objects",
		schema: `
type: object
required: [spec]
properties:
  spec:
    type: object
    required: [a, b]
    minProperties: 2
    maxProperties: 3
    properties:
      a: {type: string}
      b: {type: string}
      c: {type: object, x-kubernetes-preserve-unknown-fields: true}
      d: {type: string}
  labels:
    type: object
    additionalProperties: {type: string, maxLength: 3}
  free:
    type: object
    additionalProperties: true
  one:
    type: object
    maxProperties: 1
    additionalProperties: {type: integer}
`,
		objects: []string{
			`{"spec": {"a": "x", "b": "y"}, "labels": {"k": "v"}, "free": {"x": [1]}}`,
			`{}`,
			`{"spec": {}}`,
			`{"spec": {"a": "x", "b": "y", "c": {}, "d": "z"}, "labels": {"a.b/c": "long value", "x": 1}, "one": {"a": 1, "b": "x"}}`,
			`{"spec": {"a": 1}, "labels": null, "extra": true}`,
		},
	},
	{
		name: "int-or-string",
		schema: `
type: object
properties:
  port:
    x-kubernetes-int-or-string: true
  patterned:
    x-kubernetes-int-or-string: true
    anyOf: [{type: integer}, {type: string}]
    pattern: "^[0-9]+%$"
  bounded:
    x-kubernetes-int-or-string: true
    allOf:
    - anyOf: [{type: integer}, {type: string}]
    - anyOf: [{type: integer, minimum: 1}, {type: string, maxLength: 3}]
  fmt:
    x-kubernetes-int-or-string: true
    format: int32
`,
		objects: []string{
			`{"port": 80, "patterned": "25%", "bounded": 5}`,
			`{"port": "http", "patterned": 25, "bounded": "50%"}`,
			`{"port": 1.5, "patterned": "x", "bounded": 0}`,
			`{"port": true, "patterned": [], "bounded": "1000%", "fmt": "x"}`,
			`{"port": null, "bounded": {}, "fmt": 5000000000}`,
		},
	},
	{
		name: "junctors",
		schema: `
type: object
properties:
  one:
    type: object
    properties:
      a: {type: string}
      b: {type: string}
    oneOf:
    - required: [a]
    - required: [b]
  any:
    type: object
    properties:
      a: {type: string}
      b: {type: integer}
    anyOf:
    - required: [a]
      properties: {a: {maxLength: 2}}
    - required: [b]
      properties: {b: {minimum: 5}}
  all:
    type: string
    allOf:
    - minLength: 2
    - pattern: "^x"
  not:
    type: string
    not:
      enum: [forbidden]
  nested:
    type: array
    items:
      type: integer
    allOf:
    - items: {maximum: 5}
`,
		objects: []string{
			`{"one": {"a": "x"}, "any": {"a": "x"}, "all": "xy", "not": "ok", "nested": [1, 5]}`,
			`{"one": {}, "any": {}, "all": "a", "not": "forbidden", "nested": [6, 7]}`,
			`{"one": {"a": "x", "b": "y"}, "any": {"a": "long", "b": 1}, "all": "y", "nested": ["x"]}`,
			`{"any": {"b": 4}, "all": 1, "not": 1}`,
		},
	},
	{
		name: "list and map types",
		schema: `
type: object
properties:
  set:
    type: array
    x-kubernetes-list-type: set
    items: {type: string}
  objset:
    type: array
    x-kubernetes-list-type: set
    items: {type: object, x-kubernetes-map-type: atomic, x-kubernetes-preserve-unknown-fields: true}
  map:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name]
    items:
      type: object
      required: [name]
      properties:
        name: {type: string}
        value: {type: string}
  map2:
    type: array
    x-kubernetes-list-type: map
    x-kubernetes-list-map-keys: [name, protocol]
    items:
      type: object
      properties:
        name: {type: string}
        protocol: {type: string, default: TCP}
        port: {type: integer}
  deep:
    type: object
    additionalProperties:
      type: array
      x-kubernetes-list-type: set
      items: {type: integer}
  atomic:
    type: object
    x-kubernetes-map-type: atomic
    additionalProperties: {type: string}
`,
		objects: []string{
			`{"set": ["a", "b"], "map": [{"name": "a"}, {"name": "b"}], "map2": [{"name": "a", "protocol": "TCP"}, {"name": "a", "protocol": "UDP"}]}`,
			`{"set": ["a", "b", "a", "a", "b"], "map": [{"name": "a", "value": "1"}, {"name": "a", "value": "2"}, {"value": "3"}, {"value": "4"}]}`,
			`{"objset": [{"a": 1}, {"a": 1}, [1], [1]], "map2": [{"name": "a"}, {"name": "a"}, {"protocol": "TCP"}, {"protocol": "TCP"}]}`,
			`{"map": ["x", {"name": "a"}], "deep": {"k": [1, 2, 1], "l": [1.5, 1.5]}}`,
			`{"map": [null, null, {"name": 1}, {"name": 1}], "set": [1, "1", 1.0, 1]}`,
		},
	},
	{
		name: "embedded resources",
		schema: `
type: object
properties:
  template:
    type: object
    x-kubernetes-embedded-resource: true
    x-kubernetes-preserve-unknown-fields: true
  typed:
    type: object
    x-kubernetes-embedded-resource: true
    properties:
      apiVersion: {type: string}
      kind: {type: string}
      metadata: {type: object}
      spec: {type: object, properties: {x: {type: string}}}
  list:
    type: array
    items:
      type: object
      x-kubernetes-embedded-resource: true
      x-kubernetes-preserve-unknown-fields: true
`,
		objects: []string{
			`{"template": {"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "b"}}, "spec": {}}}`,
			`{"template": {}, "typed": {"apiVersion": "a/b/c", "kind": "not a kind!", "metadata": {"name": "a/b", "labels": {"-x": "y"}}}}`,
			`{"template": {"apiVersion": 1, "kind": "", "metadata": "x"}, "list": [{"apiVersion": "", "kind": "K", "metadata": {"namespace": "NS", "generateName": "x%"}}]}`,
			`{"typed": {"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"annotations": {"a": 1}}, "spec": {"x": 1}}}`,
		},
	},
	{
		name: "root metadata and meta fields",
		schema: `
type: object
properties:
  apiVersion: {type: string}
  kind: {type: string}
  metadata:
    type: object
    properties:
      name: {type: string, maxLength: 5}
  spec:
    type: object
    properties:
      replicas: {type: integer, minimum: 0, default: 1}
`,
		objects: []string{
			`{"apiVersion": "example.com/v1", "kind": "Foo", "metadata": {"name": "toolongname"}, "spec": {"replicas": -1}}`,
			`{"apiVersion": 1, "kind": true, "metadata": {"name": 7}, "spec": {"replicas": "x"}}`,
		},
	},
	{
		name: "preserve unknown fields",
		schema: `
type: object
x-kubernetes-preserve-unknown-fields: true
properties:
  spec:
    type: object
    properties:
      known: {type: string}
      nested:
        type: object
        x-kubernetes-preserve-unknown-fields: true
        properties:
          strict: {type: object, properties: {a: {type: integer}}}
  list:
    type: array
    items:
      type: object
      properties:
        a: {type: string}
`,
		objects: []string{
			`{"spec": {"known": "x", "unknown": 1, "nested": {"any": [1], "strict": {"a": 1, "b": 2}}}, "top": {"x": 1}, "list": [{"a": "x", "b": "y"}, {"c": 1}]}`,
			`{"spec": {"known": 1}, "list": [null, "x"]}`,
		},
	},
}
