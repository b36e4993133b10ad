package shell

import (
	"fmt"
)

// The syntax tree. A script is a list of and-or lists; compile turns it
// into a Program.
type (
	node interface{ isNode() }

	assignment struct {
		name  string
		value word
	}
	redirect struct {
		fd     int
		op     string // > >> < >& <&
		target word
	}
	simpleCmd struct {
		assigns []assignment
		words   []word
		redirs  []redirect
	}
	listNode  []node
	andOrNode struct {
		first node
		rest  []andOrPart
	}
	andOrPart struct {
		and bool // && (else ||)
		cmd node
	}
	notNode struct{ cmd node }
	ifNode  struct {
		conds  []listNode
		bodies []listNode
		els    listNode // nil when there is no else
	}
	loopNode struct {
		until      bool
		cond, body listNode
	}
	// caseNode is case word in pattern|pattern) body;; ... esac.
	caseNode struct {
		word  word
		items []caseItem
	}
	caseItem struct {
		patterns []word
		body     listNode
	}
	// redirectedNode is a compound command with redirections after it:
	// `while read l; do ...; done <file`, `{ ...; } >log 2>&1`.
	redirectedNode struct {
		cmd    node
		redirs []redirect
	}
	forNode struct {
		name  string
		words []word // nil: "$@"
		body  listNode
	}
)

func (*simpleCmd) isNode() {}
func (listNode) isNode()   {}
func (*andOrNode) isNode() {}
func (*notNode) isNode()   {}
func (*ifNode) isNode()    {}
func (*loopNode) isNode()  {}
func (*forNode) isNode()   {}
func (*caseNode) isNode()  {}

func (*redirectedNode) isNode() {}

// String is for debugging test failures.
func (c *simpleCmd) String() string { return fmt.Sprintf("cmd(%d words)", len(c.words)) }
