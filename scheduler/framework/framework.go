package framework

import (
	"context"
	"fmt"
	"log/slog"

	corev1 "github.com/minicp/minicp/api/core/v1"
	"github.com/minicp/minicp/logging"
	"github.com/minicp/minicp/scheduler/config"
)

// Options configures a Framework. The zero Options is a framework with no
// plugins, on which every node fits and scores the same.
type Options struct {
	// Profile names the scheduler and lists its plugins. Pass a profile
	// from config.Load or config.Default, which have the default plugins
	// merged in; a bare profile runs only what it lists. Its
	// SchedulerName defaults to "default-scheduler".
	Profile config.KubeSchedulerProfile
	// Registry holds the plugins the profile may name. Defaults to none;
	// use plugins.NewInTreeRegistry.
	Registry Registry
	// Parallelism bounds the goroutines that filter and score the nodes of
	// one cycle; 1 runs everything on the caller's goroutine. Defaults to
	// config.DefaultParallelism (16).
	Parallelism int
	// Logger defaults to discarding.
	Logger *slog.Logger
}

// Framework runs the plugins of one profile over the nodes of a
// scheduling cycle. It is safe for concurrent use by cycles with separate
// CycleStates, provided its plugins are (the in-tree ones are).
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/runtime
// (frameworkImpl).
type Framework struct {
	profileName      string
	preFilterPlugins []PreFilterPlugin
	filterPlugins    []FilterPlugin
	preScorePlugins  []PreScorePlugin
	scorePlugins     []ScorePlugin
	// scoreWeights[i] is the weight of scorePlugins[i], at least 1.
	scoreWeights []int64
	parallelism  int
	logger       *slog.Logger
}

// New builds the framework of opts.Profile. It instantiates every plugin
// the profile enables (once, even if it serves Filter and Score) and
// returns an error if the profile names a plugin the registry does not
// have, enables one at an extension point it does not implement, or
// enables one twice.
//
// The plugins of each extension point run in this order (upstream's):
// MultiPoint plugins that the point's own list re-configures, in that
// list's order; the other MultiPoint plugins, unless disabled at the point;
// then the rest of the point's list. A plugin's PreFilter runs when its
// Filter is enabled, its PreScore when its Score is, in the same order.
func New(opts Options) (*Framework, error) {
	f := &Framework{
		profileName: opts.Profile.SchedulerName,
		parallelism: opts.Parallelism,
		logger:      logging.OrDiscard(opts.Logger).With("component", "scheduler"),
	}
	if f.profileName == "" {
		f.profileName = corev1.DefaultSchedulerName
	}
	if f.parallelism <= 0 {
		f.parallelism = config.DefaultParallelism
	}
	plugins := opts.Profile.Plugins
	instances := map[string]Plugin{}
	get := func(name string) (Plugin, bool, error) {
		if pl, ok := instances[name]; ok {
			return pl, true, nil
		}
		factory, ok := opts.Registry[name]
		if !ok {
			return nil, false, nil
		}
		pl, err := factory()
		if err != nil {
			return nil, false, fmt.Errorf("initializing plugin %q: %w", name, err)
		}
		instances[name] = pl
		return pl, true, nil
	}

	filters, err := expand("FilterPlugin", plugins.Filter, plugins.MultiPoint, get, func(pl Plugin) bool {
		_, ok := pl.(FilterPlugin)
		return ok
	})
	if err != nil {
		return nil, err
	}
	for _, pl := range filters {
		f.filterPlugins = append(f.filterPlugins, pl.(FilterPlugin))
		// PreFilterPlugin is an optional capability of a FilterPlugin;
		// see its doc.
		if pre, ok := pl.(PreFilterPlugin); ok {
			f.preFilterPlugins = append(f.preFilterPlugins, pre)
		}
	}

	scores, err := expand("ScorePlugin", plugins.Score, plugins.MultiPoint, get, func(pl Plugin) bool {
		_, ok := pl.(ScorePlugin)
		return ok
	})
	if err != nil {
		return nil, err
	}
	for _, pl := range scores {
		f.scorePlugins = append(f.scorePlugins, pl.(ScorePlugin))
		// PreScorePlugin is an optional capability of a ScorePlugin; see
		// its doc.
		if pre, ok := pl.(PreScorePlugin); ok {
			f.preScorePlugins = append(f.preScorePlugins, pre)
		}
		// Weights are int32, so a TotalScore of at most
		// plugins * 2^31 * MaxNodeScore cannot overflow an int64 (upstream
		// checks anyway; it would take some 40 million plugins).
		f.scoreWeights = append(f.scoreWeights, scoreWeight(pl.Name(), plugins))
	}
	return f, nil
}

// expand returns the plugins of one extension point, in order; see New.
//
// Upstream: frameworkImpl.expandMultiPointPlugins and updatePluginList.
func expand(kind string, set, multi config.PluginSet, get func(string) (Plugin, bool, error), implements func(Plugin) bool) ([]Plugin, error) {
	explicit := map[string]bool{}
	for _, p := range set.Enabled {
		pl, ok, err := get(p.Name)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, fmt.Errorf("%s %q does not exist", kind, p.Name)
		case !implements(pl):
			return nil, fmt.Errorf("plugin %q does not extend %s plugin", p.Name, kind)
		case explicit[p.Name]:
			return nil, fmt.Errorf("plugin %q already registered as %q", p.Name, kind)
		}
		explicit[p.Name] = true
	}
	disabled := map[string]bool{}
	for _, p := range set.Disabled {
		disabled[p.Name] = true
	}
	var overridden map[string]bool
	var fromMulti []string
	if !disabled["*"] {
		overridden = map[string]bool{}
		seen := map[string]bool{}
		for _, p := range multi.Enabled {
			pl, ok, err := get(p.Name)
			switch {
			case err != nil:
				return nil, err
			case !ok:
				return nil, fmt.Errorf("%s %q does not exist", kind, p.Name)
			case !implements(pl), disabled[p.Name]:
				continue
			case explicit[p.Name]:
				// The point's own entry wins (its weight, its position).
				overridden[p.Name] = true
				continue
			case seen[p.Name]:
				return nil, fmt.Errorf("plugin %q already registered as %q", p.Name, kind)
			}
			seen[p.Name] = true
			fromMulti = append(fromMulti, p.Name)
		}
	}
	var out []Plugin
	for _, p := range set.Enabled {
		if overridden[p.Name] {
			out = append(out, instanceOf(get, p.Name))
		}
	}
	for _, name := range fromMulti {
		out = append(out, instanceOf(get, name))
	}
	for _, p := range set.Enabled {
		if !overridden[p.Name] {
			out = append(out, instanceOf(get, p.Name))
		}
	}
	return out, nil
}

// instanceOf returns a plugin that expand has already instantiated.
func instanceOf(get func(string) (Plugin, bool, error), name string) Plugin {
	pl, _, _ := get(name)
	return pl
}

// scoreWeight is the weight of the Score entry for name, else of its
// MultiPoint entry; unset (0) means 1.
func scoreWeight(name string, plugins config.Plugins) int64 {
	for _, set := range []config.PluginSet{plugins.Score, plugins.MultiPoint} {
		for _, p := range set.Enabled {
			if p.Name == name {
				return max(int64(p.Weight), 1)
			}
		}
	}
	return 1
}

// ProfileName returns the scheduler name of the profile.
func (f *Framework) ProfileName() string { return f.profileName }

// ListPlugins returns the plugins that run, in order: Filter.Enabled and
// Score.Enabled (with each plugin's effective weight). PreFilter and
// PreScore follow them.
func (f *Framework) ListPlugins() config.Plugins {
	var out config.Plugins
	for _, pl := range f.filterPlugins {
		out.Filter.Enabled = append(out.Filter.Enabled, config.Plugin{Name: pl.Name()})
	}
	for i, pl := range f.scorePlugins {
		out.Score.Enabled = append(out.Score.Enabled, config.Plugin{Name: pl.Name(), Weight: int32(f.scoreWeights[i])})
	}
	return out
}

// RunPreFilterPlugins runs PreFilter of every filter plugin that has one,
// in order, and records in state the plugins that returned Skip. It
// returns the first rejection (with its plugin recorded), or an Error
// status if a plugin failed.
func (f *Framework) RunPreFilterPlugins(ctx context.Context, state *CycleState, pod *corev1.Pod) *Status {
	for _, pl := range f.preFilterPlugins {
		s := pl.PreFilter(ctx, state, pod)
		switch {
		case s.IsSuccess():
		case s.IsSkip():
			if state.skipFilterPlugins == nil {
				state.skipFilterPlugins = map[string]struct{}{}
			}
			state.skipFilterPlugins[pl.Name()] = struct{}{}
		case s.IsRejected():
			s.plugin = pl.Name()
			return s
		default:
			s = AsStatus(fmt.Errorf("running PreFilter plugin %q: %w", pl.Name(), s.AsError()))
			s.plugin = pl.Name()
			return s
		}
	}
	return nil
}

// RunFilterPlugins runs the Filter plugins on one node, in order, skipping
// those whose PreFilter returned Skip, and returns the first status that
// is not Success, with its plugin recorded (nil if the pod fits). As
// upstream, later plugins do not run, so a node is counted once in the
// FailedScheduling message, under its first plugin's reasons. A plugin
// that fails yields an Error status.
func (f *Framework) RunFilterPlugins(ctx context.Context, state *CycleState, pod *corev1.Pod, nodeInfo *NodeInfo) *Status {
	for _, pl := range f.filterPlugins {
		if _, skip := state.skipFilterPlugins[pl.Name()]; skip {
			continue
		}
		s := pl.Filter(ctx, state, pod, nodeInfo)
		if s.IsSuccess() {
			continue
		}
		if !s.IsRejected() {
			s = AsStatus(fmt.Errorf("running %q filter plugin: %w", pl.Name(), s.AsError()))
		}
		s.plugin = pl.Name()
		return s
	}
	return nil
}

// RunPreScorePlugins runs PreScore of every score plugin that has one, in
// order, with the feasible nodes, and records in state the plugins that
// returned Skip. It returns an Error status if a plugin failed.
func (f *Framework) RunPreScorePlugins(ctx context.Context, state *CycleState, pod *corev1.Pod, nodes []*NodeInfo) *Status {
	for _, pl := range f.preScorePlugins {
		s := pl.PreScore(ctx, state, pod, nodes)
		switch {
		case s.IsSuccess():
		case s.IsSkip():
			if state.skipScorePlugins == nil {
				state.skipScorePlugins = map[string]struct{}{}
			}
			state.skipScorePlugins[pl.Name()] = struct{}{}
		default:
			s = AsStatus(fmt.Errorf("running PreScore plugin %q: %w", pl.Name(), s.AsError()))
			s.plugin = pl.Name()
			return s
		}
	}
	return nil
}

// RunScorePlugins scores nodes (up to Parallelism at once) with every
// Score plugin whose PreScore did not Skip, normalizes each plugin's
// scores, checks they are in [MinNodeScore, MaxNodeScore] and multiplies
// them by the plugin's weight. It returns one NodePluginScores per node,
// in the order of nodes, or an Error status (a plugin failed, a score was
// out of range, or ctx ended).
func (f *Framework) RunScorePlugins(ctx context.Context, state *CycleState, pod *corev1.Pod, nodes []*NodeInfo) ([]NodePluginScores, *Status) {
	var plugins []ScorePlugin
	var weights []int64
	for i, pl := range f.scorePlugins {
		if _, skip := state.skipScorePlugins[pl.Name()]; !skip {
			plugins = append(plugins, pl)
			weights = append(weights, f.scoreWeights[i])
		}
	}
	scores := make([]NodeScoreList, len(plugins))
	for i := range scores {
		scores[i] = make(NodeScoreList, len(nodes))
	}
	errs := make([]*Status, len(nodes))
	f.parallelize(ctx, len(nodes), func(i int) {
		name := nodes[i].Node().Name
		for j, pl := range plugins {
			s, status := pl.Score(ctx, state, pod, nodes[i])
			if !status.IsSuccess() {
				errs[i] = AsStatus(fmt.Errorf("plugin %q failed with: %w", pl.Name(), status.AsError()))
				errs[i].plugin = pl.Name()
				return
			}
			scores[j][i] = NodeScore{Name: name, Score: s}
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, AsStatus(err)
	}
	// The first failure in node order, so the error does not depend on
	// which goroutine ran first.
	for _, s := range errs {
		if s != nil {
			return nil, s
		}
	}
	for j, pl := range plugins {
		if ext := pl.ScoreExtensions(); ext != nil {
			if s := ext.NormalizeScore(ctx, state, pod, scores[j]); !s.IsSuccess() {
				s = AsStatus(fmt.Errorf("running Normalize on Score plugins: plugin %q failed with: %w", pl.Name(), s.AsError()))
				s.plugin = pl.Name()
				return nil, s
			}
		}
	}
	result := make([]NodePluginScores, len(nodes))
	// One backing array for every node's Scores: one allocation, not one
	// per node.
	all := make([]PluginScore, len(nodes)*len(plugins))
	for i := range nodes {
		r := &result[i]
		r.Name = nodes[i].Node().Name
		r.Scores = all[i*len(plugins) : (i+1)*len(plugins) : (i+1)*len(plugins)]
		for j, pl := range plugins {
			s := scores[j][i].Score
			if s < MinNodeScore || s > MaxNodeScore {
				st := AsStatus(fmt.Errorf("plugin %q returns an invalid score %v, it should in the range of [%v, %v] after normalizing",
					pl.Name(), s, MinNodeScore, MaxNodeScore))
				st.plugin = pl.Name()
				return nil, st
			}
			r.Scores[j] = PluginScore{Name: pl.Name(), Score: s * weights[j]}
			r.TotalScore += s * weights[j]
		}
	}
	return result, nil
}

// HasScorePlugins reports whether the profile has any Score plugin.
func (f *Framework) HasScorePlugins() bool { return len(f.scorePlugins) > 0 }
