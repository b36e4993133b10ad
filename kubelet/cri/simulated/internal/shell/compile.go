package shell

// Program is a parsed script, compiled to a flat list of instructions so
// that a Process can stop in the middle of it (at a sleep) and resume
// later without a goroutine holding its place: the program counter is the
// whole continuation.
type Program struct {
	ops []op
}

type opKind uint8

const (
	opCmd       opKind = iota // run cmd; set status
	opJmp                     // jump to target
	opJz                      // jump to target if status == 0
	opJnz                     // jump to target if status != 0
	opNot                     // status = !status
	opStatus0                 // status = 0
	opForInit                 // expand the for loop's words into its slot
	opForNext                 // set the loop variable to the next word, or jump to target
	opCaseInit                // expand the case word into its slot
	opCaseMatch               // jump to target unless the word matches one of the item's patterns
	opRedir                   // save fds and stdin and apply redirs; on failure jump to target
	opRedirPop                // restore what the last opRedir saved
)

type op struct {
	kind   opKind
	target int
	cmd    *simpleCmd
	// cond marks a command whose failure does not trigger set -e: in an
	// if or while condition, left of && or ||, or under !.
	cond bool
	// exec marks the command of a direct (non-shell) container command:
	// it replaces the shell, as exec does.
	exec bool
	// loop is the for loop of opForInit and opForNext.
	loop *forNode
	// caseOf and item are the case command and the index of its item of
	// opCaseInit and opCaseMatch.
	caseOf *caseNode
	item   int
	// redirs are the redirections of opRedir.
	redirs []redirect
}

type compiler struct {
	ops []op
	// loops is the stack of enclosing loops, for break and continue.
	loops []*loopLabels
	// redirDepth counts the enclosing redirected compound commands: a
	// break or continue out of one restores its fds first.
	redirDepth int
}

type loopLabels struct {
	continueAt int
	breaks     []int // ops to patch with the loop's end
	redirDepth int   // the compiler's redirDepth at the loop
}

func compile(list listNode) *Program {
	c := &compiler{}
	c.list(list, false)
	return &Program{ops: c.ops}
}

func (c *compiler) emit(o op) int {
	c.ops = append(c.ops, o)
	return len(c.ops) - 1
}

func (c *compiler) patch(at int) { c.ops[at].target = len(c.ops) }

func (c *compiler) list(list listNode, cond bool) {
	for _, n := range list {
		c.node(n, cond)
	}
}

func (c *compiler) node(n node, cond bool) {
	switch n := n.(type) {
	case *simpleCmd:
		c.simple(n, cond)
	case listNode:
		c.list(n, cond)
	case *notNode:
		c.node(n.cmd, true)
		c.emit(op{kind: opNot})
	case *andOrNode:
		// a && b || c runs as: a; jnz L1; b; L1: jz L2; c; L2.
		// Every command but the last is a condition.
		var jumps []int
		c.node(n.first, true)
		for i, r := range n.rest {
			kind := opJnz
			if !r.and {
				kind = opJz
			}
			jumps = append(jumps, c.emit(op{kind: kind}))
			c.node(r.cmd, cond || i < len(n.rest)-1)
			c.patch(jumps[len(jumps)-1])
		}
	case *ifNode:
		var ends []int
		for i := range n.conds {
			c.list(n.conds[i], true)
			next := c.emit(op{kind: opJnz})
			c.list(n.bodies[i], cond)
			ends = append(ends, c.emit(op{kind: opJmp}))
			c.patch(next)
		}
		if n.els != nil {
			c.list(n.els, cond)
		} else {
			// An if whose conditions all failed exits 0.
			c.emit(op{kind: opStatus0})
		}
		for _, e := range ends {
			c.patch(e)
		}
	case *loopNode:
		start := len(c.ops)
		labels := &loopLabels{continueAt: start, redirDepth: c.redirDepth}
		c.list(n.cond, true)
		kind := opJnz
		if n.until {
			kind = opJz
		}
		exit := c.emit(op{kind: kind})
		c.loops = append(c.loops, labels)
		c.list(n.body, cond)
		c.loops = c.loops[:len(c.loops)-1]
		c.emit(op{kind: opJmp, target: start})
		c.patch(exit)
		for _, b := range labels.breaks {
			c.patch(b)
		}
		c.emit(op{kind: opStatus0})
	case *caseNode:
		// case w in p1|p2) b1;; p3) b2;; esac runs as: init;
		// L1: match p1|p2 else L2; b1; jmp end; L2: match p3 else L3; b2;
		// jmp end; L3: status 0; end. A matched item keeps the status
		// its body leaves (0 for an empty body); no match is 0.
		c.emit(op{kind: opCaseInit, caseOf: n})
		var ends []int
		for i, item := range n.items {
			miss := c.emit(op{kind: opCaseMatch, caseOf: n, item: i})
			if len(item.body) == 0 {
				c.emit(op{kind: opStatus0})
			}
			c.list(item.body, cond)
			ends = append(ends, c.emit(op{kind: opJmp}))
			c.patch(miss)
		}
		c.emit(op{kind: opStatus0})
		for _, e := range ends {
			c.patch(e)
		}
	case *redirectedNode:
		// The redirections hold for the whole command: opRedir saves the
		// fds, opRedirPop restores them. If they fail, the command does
		// not run and the status is 1.
		at := c.emit(op{kind: opRedir, redirs: n.redirs})
		c.redirDepth++
		c.node(n.cmd, cond)
		c.redirDepth--
		c.emit(op{kind: opRedirPop})
		c.patch(at)
	case *forNode:
		c.emit(op{kind: opForInit, loop: n})
		next := c.emit(op{kind: opForNext, loop: n})
		labels := &loopLabels{continueAt: next, redirDepth: c.redirDepth}
		c.loops = append(c.loops, labels)
		c.list(n.body, cond)
		c.loops = c.loops[:len(c.loops)-1]
		c.emit(op{kind: opJmp, target: next})
		c.patch(next)
		for _, b := range labels.breaks {
			c.patch(b)
		}
		c.emit(op{kind: opStatus0})
	}
}

// simple compiles a simple command; break and continue become jumps.
func (c *compiler) simple(n *simpleCmd, cond bool) {
	if len(n.words) > 0 && len(n.assigns) == 0 && len(n.redirs) == 0 {
		if name, ok := plainWord(n.words[0]); ok && (name == "break" || name == "continue") {
			levels := 1
			if len(n.words) > 1 {
				if arg, ok := plainWord(n.words[1]); ok {
					if v, err := parseInt(arg); err == nil && v > 0 {
						levels = int(v)
					}
				}
			}
			if len(c.loops) == 0 {
				c.emit(op{kind: opStatus0}) // break outside a loop does nothing
				return
			}
			levels = min(levels, len(c.loops))
			target := c.loops[len(c.loops)-levels]
			for range c.redirDepth - target.redirDepth {
				c.emit(op{kind: opRedirPop})
			}
			if name == "continue" {
				c.emit(op{kind: opJmp, target: target.continueAt})
				return
			}
			target.breaks = append(target.breaks, c.emit(op{kind: opJmp}))
			return
		}
	}
	c.emit(op{kind: opCmd, cmd: n, cond: cond})
}

// plainWord returns w's text if it is unquoted literal text.
func plainWord(w word) (string, bool) {
	s := ""
	for _, p := range w {
		if p.kind != pLit {
			return "", false
		}
		s += p.text
	}
	return s, true
}

// execProgram is the Program of a direct command: argv run as PID 1 with
// no shell, its words taken literally.
func execProgram(argv []string) *Program {
	cmd := &simpleCmd{}
	for _, a := range argv {
		cmd.words = append(cmd.words, word{{kind: pLit, quoted: true, text: a}})
	}
	return &Program{ops: []op{{kind: opCmd, cmd: cmd, exec: true}}}
}
