package resource_test

import (
	"fmt"

	"github.com/minicp/minicp/api/resource"
)

func ExampleParseQuantity() {
	for _, s := range []string{"100m", "0.5", "1000m", "1.5Gi", "1e3"} {
		q, err := resource.ParseQuantity(s)
		if err != nil {
			panic(err)
		}
		fmt.Printf("%s -> %s (milli %d, value %d)\n", s, q.String(), q.MilliValue(), q.Value())
	}
	// Output:
	// 100m -> 100m (milli 100, value 1)
	// 0.5 -> 500m (milli 500, value 1)
	// 1000m -> 1 (milli 1000, value 1)
	// 1.5Gi -> 1536Mi (milli 1610612736000, value 1610612736)
	// 1e3 -> 1e3 (milli 1000000, value 1000)
}

func ExampleQuantity_Add() {
	used := resource.MustParse("250m")
	used.Add(resource.MustParse("1"))
	fmt.Println(used.String(), used.Cmp(resource.MustParse("2")))
	// Output: 1250m -1
}
