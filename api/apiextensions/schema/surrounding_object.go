package schema

import (
	"errors"
	"fmt"
)

// A default is checked and pruned inside the object it would land in:
// a default of spec.template.replicas becomes
// {"spec": {"template": {"replicas": <default>}}}, so that pruning and
// metadata rules that depend on where a value sits apply to it.
// surroundingObjectFunc builds that object around a value and returns an
// accessor that finds the value in it again (after pruning, maybe not).
//
// Upstream: k8s.io/apiextensions-apiserver/pkg/apiserver/schema/defaulting/surroundingobject.go.
type surroundingObjectFunc func(focus any) (map[string]any, accessorFunc, error)

type accessorFunc func(obj map[string]any) (x any, found bool, err error)

func rootObjectFunc() surroundingObjectFunc {
	return func(x any) (map[string]any, accessorFunc, error) {
		obj, ok := x.(map[string]any)
		if !ok {
			return nil, nil, errors.New("object root default value must be of object type")
		}
		return obj, func(root map[string]any) (any, bool, error) { return root, true, nil }, nil
	}
}

// withTypeMeta adds a kind and apiVersion to the surrounding object, as
// a resource needs them.
func (f surroundingObjectFunc) withTypeMeta(apiVersion, kind string) surroundingObjectFunc {
	return func(x any) (map[string]any, accessorFunc, error) {
		obj, acc, err := f(x)
		if err != nil {
			return nil, nil, err
		}
		if obj == nil {
			obj = map[string]any{}
		}
		if _, found := obj["kind"]; !found {
			obj["kind"] = kind
		}
		if _, found := obj["apiVersion"]; !found {
			obj["apiVersion"] = apiVersion
		}
		return obj, acc, nil
	}
}

func (f surroundingObjectFunc) child(k string) surroundingObjectFunc {
	return func(x any) (map[string]any, accessorFunc, error) {
		obj, acc, err := f(map[string]any{k: x})
		if err != nil {
			return nil, nil, err
		}
		return obj, func(obj map[string]any) (any, bool, error) {
			x, found, err := acc(obj)
			if err != nil {
				return nil, false, fmt.Errorf(".%s%v", k, err)
			}
			if !found {
				return nil, false, nil
			}
			m, ok := x.(map[string]any)
			if !ok {
				return nil, false, fmt.Errorf(".%s must be of object type", k)
			}
			v, found := m[k]
			return v, found, nil
		}, nil
	}
}

func (f surroundingObjectFunc) index() surroundingObjectFunc {
	return func(focus any) (map[string]any, accessorFunc, error) {
		obj, acc, err := f([]any{focus})
		if err != nil {
			return nil, nil, err
		}
		return obj, func(obj map[string]any) (any, bool, error) {
			x, found, err := acc(obj)
			if err != nil {
				return nil, false, fmt.Errorf("[]%v", err)
			}
			if !found {
				return nil, false, nil
			}
			l, ok := x.([]any)
			if !ok {
				return nil, false, errors.New("[] must be of array type")
			}
			if len(l) == 0 {
				return nil, false, nil
			}
			return l[0], true, nil
		}, nil
	}
}
