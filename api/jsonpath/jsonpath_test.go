package jsonpath_test

import (
	"bytes"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/api/jsonpath"
	"github.com/minicp/minicp/api/meta/v1/unstructured"
)

// decode reads JSON the way unstructured objects hold it: integers as
// int64, other numbers as float64.
func decode(t *testing.T, s string) any {
	t.Helper()
	v, err := unstructured.DecodeValue([]byte(s))
	require.NoError(t, err, "decode %s", s)
	return v
}

type test struct {
	name     string
	template string
	want     string
	// wantErr is true when Execute (not Parse) fails.
	wantErr bool
}

// run parses and executes each template against data.
func run(t *testing.T, tests []test, data any, allowMissingKeys bool) {
	t.Helper()
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j, err := jsonpath.Parse(tc.template)
			require.NoError(t, err, "Parse(%q)", tc.template)
			j.AllowMissingKeys(allowMissingKeys)
			var buf bytes.Buffer
			err = j.Execute(&buf, data)
			if tc.wantErr {
				assert.Error(t, err, "Execute(%q) = %q", tc.template, buf.String())
				return
			}
			require.NoError(t, err, "Execute(%q)", tc.template)
			assert.Equal(t, tc.want, buf.String(), "Execute(%q)", tc.template)
		})
	}
}

// nodes is the input of upstream's TestKubernetes, and of the examples in
// https://kubernetes.io/docs/reference/kubectl/jsonpath/.
const nodes = `{
  "kind": "List",
  "items":[
    {
      "kind":"None",
      "metadata":{"name":"127.0.0.1", "labels":{"kubernetes.io/hostname":"127.0.0.1"}},
      "status":{
        "capacity":{"cpu":"4"},
        "ready": true,
        "addresses":[{"type": "LegacyHostIP", "address":"127.0.0.1"}]
      }
    },
    {
      "kind":"None",
      "metadata":{"name":"127.0.0.2", "labels":{"kubernetes.io/hostname":"127.0.0.2"}},
      "status":{
        "capacity":{"cpu":"8"},
        "ready": false,
        "addresses":[
          {"type": "LegacyHostIP", "address":"127.0.0.2"},
          {"type": "another", "address":"127.0.0.3"}
        ]
      }
    }
  ],
  "users":[
    {"name": "myself", "user": {}},
    {"name": "e2e", "user": {"username": "admin", "password": "secret"}}
  ]
}`

// The documented examples. Upstream prints maps as JSON since it stopped
// printing Go's map[cpu:4] (the page still shows the old form).
func TestKubernetesDocs(t *testing.T) {
	data := decode(t, nodes)
	whole, err := json.Marshal(data)
	require.NoError(t, err)
	run(t, []test{
		{name: "text", template: "kind is {.kind}", want: "kind is List"},
		{name: "current object", template: "{@}", want: string(whole)},
		{name: "child", template: "{.kind}", want: "List"},
		{name: "child bracket", template: "{['kind']}", want: "List"},
		{name: "recursive descent", template: "{..name}", want: "127.0.0.1 127.0.0.2 myself e2e"},
		{name: "wildcard", template: "{.items[*].metadata.name}", want: "127.0.0.1 127.0.0.2"},
		{name: "subscript", template: "{.users[0].name}", want: "myself"},
		{name: "union", template: "{.items[*]['metadata.name', 'status.capacity']}",
			want: `127.0.0.1 127.0.0.2 {"cpu":"4"} {"cpu":"8"}`},
		{name: "filter", template: `{.users[?(@.name=="e2e")].user.password}`, want: "secret"},
		{name: "range", template: "{range .items[*]}[{.metadata.name}, {.status.capacity}] {end}",
			want: `[127.0.0.1, {"cpu":"4"}] [127.0.0.2, {"cpu":"8"}] `},
		{name: "quote", template: `{range .items[*]}{.metadata.name}{'\t'}{end}`, want: "127.0.0.1\t127.0.0.2\t"},
		{name: "escape", template: `{.items[0].metadata.labels.kubernetes\.io/hostname}`, want: "127.0.0.1"},
	}, data, false)
}

// Upstream's TestKubernetes.
func TestKubernetes(t *testing.T) {
	data := decode(t, nodes)
	run(t, []test{
		{name: "range item", template: `{range .items[*]}{.metadata.name}, {end}{.kind}`, want: "127.0.0.1, 127.0.0.2, List"},
		{name: "range item with quote", template: `{range .items[*]}{.metadata.name}{"\t"}{end}`, want: "127.0.0.1\t127.0.0.2\t"},
		{name: "range addresses", template: `{.items[*].status.addresses[*].address}`, want: "127.0.0.1 127.0.0.2 127.0.0.3"},
		{name: "double range", template: `{range .items[*]}{range .status.addresses[*]}{.address}, {end}{end}`,
			want: "127.0.0.1, 127.0.0.2, 127.0.0.3, "},
		{name: "hostname filter", template: `{.items[?(@.metadata.labels.kubernetes\.io/hostname=="127.0.0.1")].kind}`, want: "None"},
		{name: "hostname bracket", template: `{.items[1].metadata.labels['kubernetes\.io/hostname']}`, want: "127.0.0.2"},
		{name: "bool item", template: `{.items[?(@..ready==true)].metadata.name}`, want: "127.0.0.1"},
		{name: "bool not equal", template: `{.items[?(@.status.ready!=true)].metadata.name}`, want: "127.0.0.2"},
		{name: "dollar", template: `{$.kind}`, want: "List"},
	}, data, false)
}

// Upstream's TestTypesInput, over decoded JSON.
func TestTypes(t *testing.T) {
	data := decode(t, `{
		"bools": [true, false, true, false],
		"integers": [1, 2, 3, 4],
		"floats": [1.0, 2.2, 3.3, 4.0],
		"strings": ["one", "two", "three", "four"],
		"interfaces": [true, "one", 1, 1.1],
		"maps": [{"name": "one", "value": 1}, {"name": "two", "value": 2.02},
			{"name": "three", "value": 3.03}, {"name": "four", "value": 4.04}],
		"null": null
	}`)
	run(t, []test{
		{name: "bool slice", template: `{ .bools }`, want: `[true,false,true,false]`},
		{name: "bool index", template: `{ .bools[0] }`, want: `true`},
		{name: "bool negative index", template: `{ .bools[-1] }`, want: `false`},
		{name: "bool sub slice", template: `{ .bools[0:2] }`, want: `true false`},
		{name: "bool first 2", template: `{ .bools[:2] }`, want: `true false`},
		{name: "bool step 2", template: `{ .bools[:4:2] }`, want: `true true`},
		{name: "integer slice", template: `{ .integers }`, want: `[1,2,3,4]`},
		{name: "integer index", template: `{ .integers[0] }`, want: `1`},
		{name: "integer negative index", template: `{ .integers[-2] }`, want: `3`},
		{name: "integer step 2", template: `{ .integers[:4:2] }`, want: `1 3`},
		{name: "float slice", template: `{ .floats }`, want: `[1,2.2,3.3,4]`},
		{name: "float index", template: `{ .floats[0] }`, want: `1`},
		{name: "float negative index", template: `{ .floats[-2] }`, want: `3.3`},
		{name: "float sub slice", template: `{ .floats[0:2] }`, want: `1 2.2`},
		{name: "string slice", template: `{ .strings }`, want: `["one","two","three","four"]`},
		{name: "string negative index", template: `{ .strings[-2] }`, want: `three`},
		{name: "string step 2", template: `{ .strings[:4:2] }`, want: `one three`},
		{name: "mixed slice", template: `{ .interfaces }`, want: `[true,"one",1,1.1]`},
		{name: "mixed sub slice", template: `{ .interfaces[0:2] }`, want: `true one`},
		{name: "mixed step 2", template: `{ .interfaces[:4:2] }`, want: `true 1`},
		{name: "map slice", template: `{ .maps[0] }`, want: `{"name":"one","value":1}`},
		{name: "map negative index", template: `{ .maps[-2] }`, want: `{"name":"three","value":3.03}`},
		{name: "map step odd", template: `{ .maps[::2] }`, want: `{"name":"one","value":1} {"name":"three","value":3.03}`},
		{name: "map step even", template: `{ .maps[1::2] }`, want: `{"name":"two","value":2.02} {"name":"four","value":4.04}`},
		{name: "wildcard over an array", template: `{ .integers.* }`, want: `1 2 3 4`},
		{name: "null", template: `{ .null }`, want: `<nil>`},
		{name: "index on null", template: `{ .null[0] }`, want: ``},
	}, data, false)
}

// store is upstream's TestStructInput store, as JSON.
const store = `{
	"Name": "jsonpath",
	"Book": [
		{"Category": "reference", "Author": "Nigel Rees", "Title": "Sayings of the Centurey", "Price": 8.95},
		{"Category": "fiction", "Author": "Evelyn Waugh", "Title": "Sword of Honour", "Price": 12.99},
		{"Category": "fiction", "Author": "Herman Melville", "Title": "Moby Dick", "Price": 8.99}
	],
	"Bicycle": [
		{"Color": "red", "Price": 19.95, "IsNew": true},
		{"Color": "green", "Price": 20.01, "IsNew": false}
	],
	"Labels": {"engieer": 10, "web/html": 15, "k8s-app": 20},
	"Employees": {"jason": "manager", "dan": "clerk"}
}`

// Upstream's TestStructInput. Objects are visited in key order, where
// upstream's structs follow field order and its maps random order.
func TestStore(t *testing.T) {
	data := decode(t, store)
	run(t, []test{
		{name: "plain", template: "hello jsonpath", want: "hello jsonpath"},
		{name: "variable", template: "hello {.Name}", want: "hello jsonpath"},
		{name: "dict slash", template: "{$.Labels.web/html}", want: "15"},
		{name: "dict employee", template: "{$.Employees.jason}", want: "manager"},
		{name: "dict dash", template: "{.Labels.k8s-app}", want: "20"},
		{name: "nest", template: "{.Bicycle[*].Color}", want: "red green"},
		{name: "all array", template: "{.Book[*].Author}", want: "Nigel Rees Evelyn Waugh Herman Melville"},
		{name: "all fields", template: `{range .Bicycle[*]}{ "{" }{ @.* }{ "} " }{end}`, want: "{red true 19.95} {green false 20.01} "},
		{name: "recursive fields", template: "{..Price}", want: "19.95 20.01 8.95 12.99 8.99"},
		{name: "recursive dot fields", template: "{...Price}", want: "19.95 20.01 8.95 12.99 8.99"},
		{name: "all structs", template: `{range .Bicycle[*]}{ @ }{ " " }{end}`,
			want: `{"Color":"red","IsNew":true,"Price":19.95} {"Color":"green","IsNew":false,"Price":20.01} `},
		{name: "last array", template: "{.Book[-1:]}",
			want: `{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}`},
		{name: "recursive array", template: "{..Book[2]}",
			want: `{"Author":"Herman Melville","Category":"fiction","Price":8.99,"Title":"Moby Dick"}`},
		{name: "bool", template: "{.Bicycle[?(@.IsNew==true)].Color}", want: "red"},
		{name: "less than float", template: "{.Book[?(@.Price<10)].Title}", want: "Sayings of the Centurey Moby Dick"},
		{name: "greater equal", template: "{.Book[?(@.Price>=8.99)].Title}", want: "Sword of Honour Moby Dick"},
		{name: "string less", template: `{.Book[?(@.Author<"F")].Author}`, want: "Evelyn Waugh"},
		{name: "nonexistent field", template: "{.hello}", wantErr: true},
		{name: "index of an object", template: "{.Labels[0]}", wantErr: true},
		{name: "filter an object", template: "{.Labels[?(@.x)]}", wantErr: true},
	}, data, false)

	run(t, []test{
		{name: "nonexistent field", template: "{.hello}", want: ""},
		{name: "nonexistent field in text", template: "before-{.hello}after", want: "before-after"},
		{name: "nonexistent nested", template: "{.Book[*].ISBN}", want: ""},
	}, data, true)
}

func TestJSONInput(t *testing.T) {
	data := decode(t, `[
		{"id": "i1", "x":4, "y":-5},
		{"id": "i2", "x":-2, "y":-5, "z":1},
		{"id": "i3", "x":  8, "y":  3 },
		{"id": "i4", "x": -6, "y": -1 },
		{"id": "i5", "x":  0, "y":  2, "z": 1 },
		{"id": "i6", "x":  1, "y":  4, "z": null }
	]`)
	run(t, []test{
		{name: "exists filter", template: "{[?(@.z)].id}", want: "i2 i5 i6"},
		{name: "bracket key", template: "{[0]['id']}", want: "i1"},
		{name: "union of indexes", template: "{[1,3,4].id}", want: "i2 i4 i5"},
		{name: "negative compare", template: "{[?(@.x<-1)].id}", want: "i2 i4"},
		{name: "compare two fields", template: "{[?(@.x>@.y)].id}", want: "i1 i2 i3"},
		{name: "compare with float", template: "{[?(@.x>0.5)].id}", want: "i1 i3 i6"},
		{name: "empty slice", template: "{[2:2]}", want: ""},
		{name: "whole array slice", template: "{[:].id}", want: "i1 i2 i3 i4 i5 i6"},
		{name: "compare string with number", template: `{[?(@.id>1)].id}`, wantErr: true},
		{name: "compare with null", template: `{[?(@.z==1)].id}`, wantErr: true},
	}, data, true)
}

// Upstream's TestNegativeIndex and TestStep.
func TestSlices(t *testing.T) {
	data := decode(t, `{"spec": {"containers": [
		{"name": "fake0"}, {"name": "fake1"}, {"name": "fake2"},
		{"name": "fake3"}, {"name": "fake4"}, {"name": "fake5"}]}}`)
	run(t, []test{
		{name: "[0]", template: `{.spec.containers[0].name}`, want: "fake0"},
		{name: "[0:0] is empty", template: `{.spec.containers[0:0].name}`, want: ""},
		{name: "[0:-1]", template: `{.spec.containers[0:-1].name}`, want: "fake0 fake1 fake2 fake3 fake4"},
		{name: "[-1:0] fails", template: `{.spec.containers[-1:0].name}`, wantErr: true},
		{name: "[-1]", template: `{.spec.containers[-1].name}`, want: "fake5"},
		{name: "[-1:]", template: `{.spec.containers[-1:].name}`, want: "fake5"},
		{name: "[-2:]", template: `{.spec.containers[-2:].name}`, want: "fake4 fake5"},
		{name: "[-6]", template: `{.spec.containers[-6].name}`, want: "fake0"},
		{name: "[-7] is out of bounds", template: `{.spec.containers[-7].name}`, wantErr: true},
		{name: "[6] is out of bounds", template: `{.spec.containers[6].name}`, wantErr: true},
		{name: "[0:7] is out of bounds", template: `{.spec.containers[0:7].name}`, wantErr: true},
		{name: "[7:7] is empty", template: `{.spec.containers[7:7].name}`, want: ""},
		{name: "[-7:-7] is empty", template: `{.spec.containers[-7:-7].name}`, want: ""},
		{name: "[3:1] fails", template: `{.spec.containers[3:1].name}`, wantErr: true},
		{name: "[-1:-2] fails", template: `{.spec.containers[-1:-2].name}`, wantErr: true},
		{name: "[0:]", template: `{.spec.containers[0:].name}`, want: "fake0 fake1 fake2 fake3 fake4 fake5"},
		{name: "[0:6:]", template: `{.spec.containers[0:6:].name}`, want: "fake0 fake1 fake2 fake3 fake4 fake5"},
		{name: "[0:6:1]", template: `{.spec.containers[0:6:1].name}`, want: "fake0 fake1 fake2 fake3 fake4 fake5"},
		{name: "[0:6:0] fails", template: `{.spec.containers[0:6:0].name}`, wantErr: true},
		{name: "[0:6:-1] fails", template: `{.spec.containers[0:6:-1].name}`, wantErr: true},
		{name: "[1:4:2]", template: `{.spec.containers[1:4:2].name}`, want: "fake1 fake3"},
		{name: "[1:4:3]", template: `{.spec.containers[1:4:3].name}`, want: "fake1"},
		{name: "[1:4:4]", template: `{.spec.containers[1:4:4].name}`, want: "fake1"},
		{name: "[0:6:2]", template: `{.spec.containers[0:6:2].name}`, want: "fake0 fake2 fake4"},
		{name: "[0:6:5]", template: `{.spec.containers[0:6:5].name}`, want: "fake0 fake5"},
		{name: "[0:6:6]", template: `{.spec.containers[0:6:6].name}`, want: "fake0"},
		{name: "[*]", template: `{.spec.containers[*].name}`, want: "fake0 fake1 fake2 fake3 fake4 fake5"},
		{name: "[0,-1]", template: `{.spec.containers[0,-1].name}`, want: "fake0 fake5"},
	}, data, false)
}

// Upstream's TestEmptyRange, TestNestedRanges and
// TestRunningPodsJSONPathOutput.
func TestRange(t *testing.T) {
	run(t, []test{
		{name: "empty range", template: `{range .items[*]}{.metadata.name}{end}`},
		{name: "empty nested range",
			template: `{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}`},
	}, decode(t, `{"items":[]}`), true)

	pods := decode(t, `{"items": [
		{"metadata": {"name": "pod1"}, "spec": {"containers": [
			{"name": "foo", "another": [{"name": "value1"}, {"name": "value2"}]},
			{"name": "bar", "another": [{"name": "value1"}, {"name": "value2"}]}]}},
		{"metadata": {"name": "pod2"}, "spec": {"containers": [
			{"name": "baz", "another": [{"name": "value1"}, {"name": "value2"}]}]}}]}`)
	run(t, []test{
		{name: "nested range",
			template: `{range .items[*]}{.metadata.name}{":"}{range @.spec.containers[*]}{.name}{","}{end}{"+"}{end}`,
			want:     "pod1:foo,bar,+pod2:baz,+"},
		{name: "nested range within a nested range",
			template: `{range .items[*]}{.metadata.name}{"~"}{range @.spec.containers[*]}{.name}{":"}` +
				`{range @.another[*]}{.name}{","}{end}{"+"}{end}{"#"}{end}`,
			want: "pod1~foo:value1,value2,+bar:value1,value2,+#pod2~baz:value1,value2,+#"},
		{name: "two nested ranges at the same level",
			template: `{range .items[*]}{.metadata.name}{"\t"}{range @.spec.containers[*]}{.name}{" "}{end}{"\t"}` +
				`{range @.spec.containers[*]}{.name}{" "}{end}{"\n"}{end}`,
			want: "pod1\tfoo bar \tfoo bar \npod2\tbaz \tbaz \n"},
		{name: "text after a range is evaluated once", template: `{range .items[*]}{.metadata.name} {end}done`,
			want: "pod1 pod2 done"},
	}, pods, false)

	running := decode(t, `{"items": [
		{"metadata": {"name": "pod1"}, "status": {"phase": "Running"}},
		{"metadata": {"name": "pod2"}, "status": {"phase": "Running"}},
		{"metadata": {"name": "pod3"}, "status": {"phase": "Pending"}},
		{"resourceVersion": ""}]}`)
	run(t, []test{
		{name: "range over a filter", template: `{range .items[?(.status.phase=="Running")]}{.metadata.name}{" is Running\n"}{end}`,
			want: "pod1 is Running\npod2 is Running\n"},
	}, running, true)
}

// Upstream's TestFilterPartialMatchesSometimesMissingAnnotations
// (https://issues.k8s.io/45546).
func TestFilterMissingKeys(t *testing.T) {
	data := decode(t, `{"items": [
		{"metadata": {"name": "pod1", "annotations": {"color": "blue"}}},
		{"metadata": {"name": "pod2"}},
		{"metadata": {"name": "pod3", "annotations": {"color": "green"}}},
		{"metadata": {"name": "pod4", "annotations": {"color": "blue"}}}]}`)
	tmpl := `{.items[?(@.metadata.annotations.color=="blue")].metadata.name}`
	run(t, []test{{name: "missing keys allowed", template: tmpl, want: "pod1 pod4"}}, data, true)
	run(t, []test{{name: "missing keys are errors", template: tmpl, wantErr: true}}, data, false)
}

// Quotes and parentheses inside a filter's operand, from upstream's
// parser tests.
func TestFilterQuotes(t *testing.T) {
	data := decode(t, `{"items": [
		{"name": "a", "image": "()"}, {"name": "b", "image": "(\"\")"}, {"name": "c", "image": "())("},
		{"name": "d", "image": "Linux"}, {"name": "e", "image": "{[()]}"}, {"name": "f", "image": "''"},
		{"name": "g", "image": "\"\""}, {"name": "h", "image": "\\'"}]}`)
	run(t, []test{
		{name: "paired parentheses in quotes", template: `{.items[?(@.image == "()")].name}`, want: "a"},
		{name: "escaped double quotes", template: `{.items[?(@.image == "(\"\")")].name}`, want: "b"},
		{name: "unpaired parentheses in quotes", template: `{.items[?(@.image == "())(")].name}`, want: "c"},
		{name: "single quotes", template: `{.items[?(@.image == 'Linux')].name}`, want: "d"},
		{name: "braces in quotes", template: `{.items[?(@.image == "{[()]}")].name}`, want: "e"},
		{name: "single inside double", template: `{.items[?(@.image == "''")].name}`, want: "f"},
		{name: "double inside single", template: `{.items[?(@.image == '""')].name}`, want: "g"},
		{name: "escaped single", template: `{.items[?(@.image == '\\\'')].name}`, want: "h"},
		{name: "not equal", template: `{.items[?(@.image != "Linux")].name}`, want: "a b c e f g h"},
	}, data, false)
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		name     string
		template string
		want     string
	}{
		{name: "unclosed action", template: "{.hello", want: "unclosed action"},
		{name: "newline in action", template: "{.a\n}", want: "unclosed action"},
		{name: "unrecognized character", template: "{*}", want: "unrecognized character in action: U+002A '*'"},
		{name: "invalid number", template: "{+12.3.0}", want: "cannot parse number +12.3.0"},
		{name: "unterminated array", template: "{[1}", want: "unterminated array"},
		{name: "unterminated filter", template: "{[?(.price]}", want: "unterminated filter"},
		{name: "filter without bracket", template: "{[?(@.price)x}", want: "unclosed array expect ]"},
		{name: "multiple recursive descent", template: "{........}", want: "invalid multiple recursive descent"},
		{name: "malformed", template: `{\\\}`, want: "unrecognized character"},
		{name: "unrecognized identifier", template: "{hello}", want: "unrecognized identifier hello"},
		{name: "keyword inside an action", template: "{.a range}", want: "unrecognized identifier range"},
		{name: "bad operator", template: "{.a[?(@.x<>1)]}", want: "unrecognized filter operator <>"},
		{name: "single equals", template: "{.a[?(@.x=1)]}", want: "unrecognized filter operator ="},
		{name: "invalid index", template: "{.a[x]}", want: "invalid array index x"},
		{name: "double quoted key", template: `{.a["x"]}`, want: `invalid array index "x"`},
		{name: "bad union part", template: "{.a[0,x]}", want: "invalid array index x"},
		{name: "unterminated quote", template: `{"abc}`, want: "unterminated quoted string"},
		{name: "bad escape", template: `{"\q"}`, want: "unquote string"},
		{name: "end without range", template: "{end}", want: "not in range, nothing to end"},
		{name: "redundant end", template: "{range .a}{@}{end}{end}", want: "not in range, nothing to end"},
		{name: "range without end", template: "{range .a}{@}", want: "range without end"},
		{name: "end with an expression", template: "{range .a}{end .b}", want: "{end} takes no expression"},
		{name: "stray brace in a bracket key", template: "{['a}']}", want: "unrecognized character in action: U+007D '}'"},
		{name: "braced printer column", template: "{{.spec.replicas}}", want: "unrecognized character in action: U+007B '{'"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			j, err := jsonpath.Parse(tc.template)
			require.Error(t, err, "Parse(%q)", tc.template)
			assert.Nil(t, j, "Parse(%q)", tc.template)
			assert.Contains(t, err.Error(), tc.want, "Parse(%q)", tc.template)
		})
	}
}

// Printer columns: the apiserver wraps a CRD column's jsonPath in braces
// and allows missing keys.
func TestPrinterColumnPaths(t *testing.T) {
	obj := decode(t, `{
		"apiVersion": "example.com/v1", "kind": "Database",
		"metadata": {"name": "db", "labels": {"app.kubernetes.io/name": "pg"}, "creationTimestamp": "2024-05-06T07:08:09Z"},
		"spec": {"replicas": 3, "ratio": 0.5, "hosts": ["a", "b"]},
		"status": {"conditions": [
			{"type": "Progressing", "status": "False"},
			{"type": "Ready", "status": "True", "lastTransitionTime": "2024-05-06T08:00:00Z"}]}
	}`)
	tests := []struct {
		path string
		want []any
	}{
		{path: ".spec.replicas", want: []any{int64(3)}},
		{path: ".spec.ratio", want: []any{0.5}},
		{path: ".spec.hosts", want: []any{[]any{"a", "b"}}},
		{path: ".spec.hosts[*]", want: []any{"a", "b"}},
		{path: ".spec.missing", want: nil},
		{path: ".metadata.name", want: []any{"db"}},
		{path: ".metadata.creationTimestamp", want: []any{"2024-05-06T07:08:09Z"}},
		{path: `.metadata.labels.app\.kubernetes\.io/name`, want: []any{"pg"}},
		{path: `.metadata.labels['app\.kubernetes\.io/name']`, want: []any{"pg"}},
		{path: `.status.conditions[?(@.type=="Ready")].status`, want: []any{"True"}},
		{path: `.status.conditions[?(@.type=='Ready')].lastTransitionTime`, want: []any{"2024-05-06T08:00:00Z"}},
		{path: `.status.conditions[?(@.type=="Unknown")].status`, want: nil},
		{path: `.status.conditions[?(@.lastTransitionTime)].type`, want: []any{"Ready"}},
		{path: `.status.conditions[*].type`, want: []any{"Progressing", "Ready"}},
		{path: `.status.conditions[-1].type`, want: []any{"Ready"}},
	}
	for _, tc := range tests {
		t.Run(tc.path, func(t *testing.T) {
			j, err := jsonpath.Parse("{" + tc.path + "}")
			require.NoError(t, err, "Parse(%q)", tc.path)
			results, err := j.AllowMissingKeys(true).FindResults(obj)
			require.NoError(t, err, "FindResults(%q)", tc.path)
			require.Len(t, results, 1, "one action, one result list")
			assert.Equal(t, tc.want, results[0], "FindResults(%q)", tc.path)
		})
	}
}

func TestFindResultsLayout(t *testing.T) {
	j, err := jsonpath.Parse(`a{.x}b{range .l[*]}[{@}]{end}`)
	require.NoError(t, err)
	assert.Equal(t, `a{.x}b{range .l[*]}[{@}]{end}`, j.String())
	results, err := j.FindResults(decode(t, `{"x": null, "l": [1, 2]}`))
	require.NoError(t, err)
	assert.Equal(t, [][]any{
		{"a"}, {nil}, {"b"},
		{"["}, {int64(1)}, {"]"},
		{"["}, {int64(2)}, {"]"},
	}, results, "text, then the action (null is a result), then each iteration")
}

func TestPrintResults(t *testing.T) {
	var buf bytes.Buffer
	require.NoError(t, jsonpath.PrintResults(&buf, []any{
		"s", int64(42), 3.5, 1e21, true, nil, map[string]any{"b": int64(1), "a": "<"}, []any{"x", nil},
	}))
	assert.Equal(t, `s 42 3.5 1e+21 true <nil> {"a":"\u003c","b":1} ["x",null]`, buf.String())
}

// A compiled path is shared by concurrent requests, as a printer column's
// is; run with -race.
func TestConcurrentUse(t *testing.T) {
	j, err := jsonpath.Parse(`{range .items[*]}{.metadata.name}{end}{..name}`)
	require.NoError(t, err)
	data := decode(t, nodes)
	want, err := j.FindResults(data)
	require.NoError(t, err)
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			got, err := j.FindResults(data)
			assert.NoError(t, err)
			assert.Equal(t, want, got)
		})
	}
	wg.Wait()
}

// Parse and evaluation return errors for any input, never panic.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"{.a}", "{range .items[*]}{.x}{end}", `{.a[?(@.b=="c")]}`, "{..a}", "{.a[1:-1:2]}", "{['a','b']}",
		"{[?(@.x)]}", `{"\t"}`, "{.a\\.b}", "{[]}", "{[-9]}", "{@}", "{$.a.*}", "{..[0]}", "{.a[?(1<2)]}",
	} {
		f.Add(s)
	}
	data, err := unstructured.DecodeValue([]byte(nodes))
	require.NoError(f, err)
	f.Fuzz(func(t *testing.T, template string) {
		j, err := jsonpath.Parse(template)
		if err != nil {
			return
		}
		for _, allow := range []bool{false, true} {
			_ = j.AllowMissingKeys(allow).Execute(&bytes.Buffer{}, data)
		}
	})
}
