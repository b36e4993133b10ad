package labels_test

import (
	"fmt"

	"github.com/minicp/minicp/api/labels"
)

func ExampleParse() {
	sel, err := labels.Parse("tier in (fe, be), app = web, !canary")
	if err != nil {
		panic(err)
	}
	fmt.Println(sel.String())
	fmt.Println(sel.Matches(labels.Set{"app": "web", "tier": "fe"}))
	fmt.Println(sel.Matches(labels.Set{"app": "web", "tier": "fe", "canary": "true"}))
	v, ok := sel.RequiresExactMatch("app")
	fmt.Println(v, ok)
	// Output:
	// app=web,!canary,tier in (be,fe)
	// true
	// false
	// web true
}
