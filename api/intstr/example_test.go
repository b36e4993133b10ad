package intstr_test

import (
	"fmt"

	"github.com/minicp/minicp/api/intstr"
)

func ExampleGetScaledValueFromIntOrPercent() {
	maxSurge := intstr.FromString("25%")
	maxUnavailable := intstr.FromString("25%")
	surge, _ := intstr.GetScaledValueFromIntOrPercent(&maxSurge, 10, true)
	unavailable, _ := intstr.GetScaledValueFromIntOrPercent(&maxUnavailable, 10, false)
	fmt.Println(surge, unavailable)
	// Output: 3 2
}
