package cel

import (
	"fmt"
	"regexp"

	"github.com/google/cel-go/cel"
	"github.com/google/cel-go/common/types"
	"github.com/google/cel-go/common/types/ref"
	"github.com/google/cel-go/common/types/traits"
)

// Kubernetes' list library: isSorted, sum, min, max, indexOf and
// lastIndexOf on lists.
//
// Upstream: k8s.io/apiserver/pkg/cel/library (Lists, version 0).
func listsLibrary() cel.EnvOption {
	comparable := map[string]*cel.Type{
		"int": cel.IntType, "uint": cel.UintType, "double": cel.DoubleType, "bool": cel.BoolType,
		"duration": cel.DurationType, "timestamp": cel.TimestampType, "string": cel.StringType, "bytes": cel.BytesType,
	}
	summable := map[string]ref.Val{
		"int": types.Int(0), "uint": types.Uint(0), "double": types.Double(0), "duration": types.Duration{},
	}
	var isSortedOpts, minOpts, maxOpts, sumOpts []cel.FunctionOpt
	for name, t := range comparable {
		isSortedOpts = append(isSortedOpts, cel.MemberOverload(fmt.Sprintf("list_%s_is_sorted_bool", name),
			[]*cel.Type{cel.ListType(t)}, cel.BoolType, cel.UnaryBinding(isSorted)))
		maxOpts = append(maxOpts, cel.MemberOverload(fmt.Sprintf("list_%s_max_%s", name, name),
			[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(extreme("max", types.IntNegOne))))
		minOpts = append(minOpts, cel.MemberOverload(fmt.Sprintf("list_%s_min_%s", name, name),
			[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(extreme("min", types.IntOne))))
		if zero, ok := summable[name]; ok {
			sumOpts = append(sumOpts, cel.MemberOverload(fmt.Sprintf("list_%s_sum_%s", name, name),
				[]*cel.Type{cel.ListType(t)}, t, cel.UnaryBinding(sum(zero))))
		}
	}
	paramA := cel.TypeParamType("A")
	return cel.Lib(library{options: []cel.EnvOption{
		cel.Function("isSorted", isSortedOpts...),
		cel.Function("sum", sumOpts...),
		cel.Function("max", maxOpts...),
		cel.Function("min", minOpts...),
		cel.Function("indexOf", cel.MemberOverload("list_a_index_of_int",
			[]*cel.Type{cel.ListType(paramA), paramA}, cel.IntType, cel.BinaryBinding(indexOf(false)))),
		cel.Function("lastIndexOf", cel.MemberOverload("list_a_last_index_of_int",
			[]*cel.Type{cel.ListType(paramA), paramA}, cel.IntType, cel.BinaryBinding(indexOf(true)))),
	}})
}

// Kubernetes' regex library: find and findAll on strings.
//
// Upstream: k8s.io/apiserver/pkg/cel/library (Regex).
func regexLibrary() cel.EnvOption {
	return cel.Lib(library{options: []cel.EnvOption{
		cel.Function("find", cel.MemberOverload("string_find_string",
			[]*cel.Type{cel.StringType, cel.StringType}, cel.StringType, cel.BinaryBinding(find))),
		cel.Function("findAll",
			cel.MemberOverload("string_find_all_string", []*cel.Type{cel.StringType, cel.StringType},
				cel.ListType(cel.StringType), cel.BinaryBinding(func(s, re ref.Val) ref.Val { return findAll(s, re, types.Int(-1)) })),
			cel.MemberOverload("string_find_all_string_int", []*cel.Type{cel.StringType, cel.StringType, cel.IntType},
				cel.ListType(cel.StringType), cel.FunctionBinding(findAll))),
	}})
}

// library is a cel.Library of compile options only.
type library struct{ options []cel.EnvOption }

func (l library) CompileOptions() []cel.EnvOption { return l.options }

func (library) ProgramOptions() []cel.ProgramOption { return nil }

func isSorted(val ref.Val) ref.Val {
	iterable, ok := val.(traits.Iterable)
	if !ok {
		return types.MaybeNoSuchOverloadErr(val)
	}
	var prev traits.Comparer
	for it := iterable.Iterator(); it.HasNext() == types.True; {
		next := it.Next()
		cmp, ok := next.(traits.Comparer)
		if !ok {
			return types.MaybeNoSuchOverloadErr(next)
		}
		if prev != nil && prev.Compare(next) == types.IntOne {
			return types.False
		}
		prev = cmp
	}
	return types.True
}

func sum(zero ref.Val) func(ref.Val) ref.Val {
	return func(val ref.Val) ref.Val {
		iterable, ok := val.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(val)
		}
		acc, _ := zero.(traits.Adder)
		for it := iterable.Iterator(); it.HasNext() == types.True; {
			next := it.Next()
			s, ok := acc.Add(next).(traits.Adder)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			acc = s
		}
		return acc.(ref.Val)
	}
}

// extreme returns the element that compares to all others as prefer.
func extreme(name string, prefer ref.Val) func(ref.Val) ref.Val {
	return func(val ref.Val) ref.Val {
		iterable, ok := val.(traits.Iterable)
		if !ok {
			return types.MaybeNoSuchOverloadErr(val)
		}
		var result traits.Comparer
		for it := iterable.Iterator(); it.HasNext() == types.True; {
			next := it.Next()
			cmp, ok := next.(traits.Comparer)
			if !ok {
				return types.MaybeNoSuchOverloadErr(next)
			}
			if result == nil || result.Compare(next) == prefer {
				result = cmp
			}
		}
		if result == nil {
			return types.NewErr("%s called on empty list", name)
		}
		return result.(ref.Val)
	}
}

func indexOf(last bool) func(list, item ref.Val) ref.Val {
	return func(list, item ref.Val) ref.Val {
		lister, ok := list.(traits.Lister)
		if !ok {
			return types.MaybeNoSuchOverloadErr(list)
		}
		n := lister.Size().(types.Int)
		for j := types.Int(0); j < n; j++ {
			i := j
			if last {
				i = n - 1 - j
			}
			if lister.Get(i).Equal(item) == types.True {
				return i
			}
		}
		return types.Int(-1)
	}
}

func find(strVal, reVal ref.Val) ref.Val {
	str, ok := strVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(strVal)
	}
	pattern, ok := reVal.Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(reVal)
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return types.NewErr("Illegal regex: %v", err.Error())
	}
	return types.String(re.FindString(str))
}

func findAll(args ...ref.Val) ref.Val {
	if len(args) < 2 || len(args) > 3 {
		return types.NoSuchOverloadErr()
	}
	str, ok := args[0].Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[0])
	}
	pattern, ok := args[1].Value().(string)
	if !ok {
		return types.MaybeNoSuchOverloadErr(args[1])
	}
	n := int64(-1)
	if len(args) == 3 {
		if n, ok = args[2].Value().(int64); !ok {
			return types.MaybeNoSuchOverloadErr(args[2])
		}
	}
	re, err := regexp.Compile(pattern)
	if err != nil {
		return types.NewErr("Illegal regex: %v", err.Error())
	}
	return types.NewStringList(types.DefaultTypeAdapter, re.FindAllString(str, int(n)))
}
