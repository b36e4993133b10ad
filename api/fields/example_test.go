package fields_test

import (
	"fmt"

	"github.com/minicp/minicp/api/fields"
)

func ExampleParseSelector() {
	sel, err := fields.ParseSelector("status.phase!=Succeeded,spec.nodeName==node-1")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String())
	fmt.Println(sel.Matches(fields.Set{"spec.nodeName": "node-1", "status.phase": "Running"}))
	node, ok := sel.RequiresExactMatch("spec.nodeName")
	fmt.Println(node, ok)
	// Output:
	// spec.nodeName=node-1,status.phase!=Succeeded
	// true
	// node-1 true
}
