package simulated

import (
	"path"
	"strings"
)

// serverKind is how a server program behaves on the network.
type serverKind uint8

const (
	// serverTCP accepts connections (through Runtime.DialContext) and
	// says nothing: enough for a TCP probe. Databases, pause, unknown
	// programs.
	serverTCP serverKind = iota
	serverNginx
	serverHTTPD
	// serverEcho answers with the request and the pod it reached, as
	// registry.k8s.io/echoserver does.
	serverEcho
	// serverText answers with its -text argument, as hashicorp/http-echo
	// does.
	serverText
	// serverProgram serves the handler of a Program (Options.Programs).
	serverProgram
)

func (k serverKind) http() bool { return k != serverTCP }

// imageProfile is what minicp knows about an image: what it runs by
// default and which programs it has.
type imageProfile struct {
	// shell images have /bin/sh and the busybox utilities.
	shell bool
	// entrypoint and cmd are the image's ENTRYPOINT and CMD.
	entrypoint, cmd []string
	// servers are the image's server programs, by base name.
	servers map[string]serverKind
	// ports are where its servers listen unless the container declares
	// ports.
	ports []int32
	size  uint64
	// unknown marks the profile of an image minicp does not know.
	unknown bool
}

const mb = 1 << 20

func shellImage(size uint64, cmd ...string) *imageProfile {
	return &imageProfile{shell: true, cmd: cmd, size: size * mb}
}

func serverImage(size uint64, kind serverKind, port int32, cmd ...string) *imageProfile {
	p := &imageProfile{shell: true, cmd: cmd, servers: map[string]serverKind{path.Base(cmd[0]): kind}, size: size * mb}
	if port != 0 {
		p.ports = []int32{port}
	}
	return p
}

// profiles are the images minicp knows, by repository path without the
// registry ("nginx", "minicp/http-echo") or, failing that, by its last
// element ("bitnami/nginx" is nginx).
var profiles = map[string]*imageProfile{
	// Shells with no command: an interactive shell with no terminal reads
	// an empty stdin and exits 0.
	"busybox": shellImage(4, "sh"),
	"alpine":  shellImage(8, "/bin/sh"),
	"ubuntu":  shellImage(78, "/bin/bash"),
	"debian":  shellImage(117, "bash"),
	"fedora":  shellImage(160, "/bin/bash"),
	"centos":  shellImage(231, "/bin/bash"),

	"nginx":     serverImage(70, serverNginx, 80, "nginx", "-g", "daemon off;"),
	"httpd":     serverImage(56, serverHTTPD, 80, "httpd-foreground"),
	"redis":     serverImage(40, serverTCP, 6379, "redis-server"),
	"postgres":  serverImage(150, serverTCP, 5432, "postgres"),
	"mysql":     serverImage(200, serverTCP, 3306, "mysqld"),
	"mongo":     serverImage(250, serverTCP, 27017, "mongod"),
	"memcached": serverImage(30, serverTCP, 11211, "memcached"),

	// echoserver is nginx with a script; answering is what matters.
	"echoserver": serverImage(46, serverEcho, 8080, "/usr/local/bin/run.sh"),

	// The pause image is one static binary that waits for a signal.
	"pause": {entrypoint: []string{"/pause"}, servers: map[string]serverKind{"pause": serverTCP}, size: mb / 2},
	// minicp/http-echo is minicp's own image, a static binary like
	// hashicorp/http-echo: it echoes the request and the pod's identity.
	"minicp/http-echo": {entrypoint: []string{"/http-echo"}, servers: map[string]serverKind{"http-echo": serverEcho}, ports: []int32{8080}, size: 5 * mb},
	"http-echo":        {entrypoint: []string{"/http-echo"}, servers: map[string]serverKind{"http-echo": serverEcho}, ports: []int32{8080}, size: 5 * mb},
	// hashicorp/http-echo answers with its -text argument on :5678.
	"hashicorp/http-echo": {entrypoint: []string{"/http-echo"}, servers: map[string]serverKind{"http-echo": serverText}, ports: []int32{5678}, size: 4 * mb},
}

// unknownProfile is the profile of images minicp does not know: most
// images are servers, so with no command they run until stopped, and a
// command that is not a shell or a builtin is taken to be their server.
// They have a shell, as most images built on a distribution do.
var unknownProfile = &imageProfile{shell: true, cmd: []string{unknownServer}, unknown: true, size: 100 * mb}

// unknownServer is the name of an unknown image's default program.
const unknownServer = "/entrypoint"

// profileFor returns the profile of a normalized image name.
func profileFor(ref string) *imageProfile {
	repo := repoOf(ref)
	_, repo, _ = strings.Cut(repo, "/") // the registry
	repo = strings.TrimPrefix(repo, "library/")
	repo = strings.TrimPrefix(repo, "google-containers/") // gcr.io/google-containers/pause
	if p, ok := profiles[repo]; ok {
		return p
	}
	if p, ok := profiles[path.Base(repo)]; ok {
		return p
	}
	return unknownProfile
}

// argv is the command line a container runs, by Kubernetes' rules:
// Command replaces the image's ENTRYPOINT, and Args its CMD; with a
// Command but no Args the image's CMD is dropped.
func (p *imageProfile) argv(command, args []string) []string {
	switch {
	case len(command) > 0:
		return append(append([]string{}, command...), args...)
	case len(args) > 0:
		return append(append([]string{}, p.entrypoint...), args...)
	}
	return append(append([]string{}, p.entrypoint...), p.cmd...)
}

// server returns the kind of a program, and whether it is one of the
// image's servers.
func (p *imageProfile) server(name string) (serverKind, bool) {
	k, ok := p.servers[name]
	return k, ok
}
