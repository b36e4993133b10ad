package framework

import "fmt"

// PluginFactory builds one instance of a plugin. New calls it once per
// Framework for every plugin its profile enables, however many extension
// points the plugin serves.
type PluginFactory func() (Plugin, error)

// Registry maps plugin names, as the configuration spells them, to their
// factories. plugins.NewInTreeRegistry returns minicp's; a program (or a
// workshop exercise) adds its own plugins with Register.
//
// Upstream: k8s.io/kubernetes/pkg/scheduler/framework/runtime (Registry).
type Registry map[string]PluginFactory

// Register adds factory under name; it is an error if name is taken.
func (r Registry) Register(name string, factory PluginFactory) error {
	if _, ok := r[name]; ok {
		return fmt.Errorf("a plugin named %v already exists", name)
	}
	r[name] = factory
	return nil
}

// Unregister removes name; it is an error if name is not registered.
func (r Registry) Unregister(name string) error {
	if _, ok := r[name]; !ok {
		return fmt.Errorf("no plugin named %v exists", name)
	}
	delete(r, name)
	return nil
}

// Merge registers every plugin of in; it stops at the first name already
// taken.
func (r Registry) Merge(in Registry) error {
	for name, factory := range in {
		if err := r.Register(name, factory); err != nil {
			return err
		}
	}
	return nil
}
