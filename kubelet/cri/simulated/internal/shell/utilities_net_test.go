package shell_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/minicp/minicp/kubelet/cri/simulated/internal/shell"
)

// fakeNetwork resolves names from a table and connects cluster
// addresses to real loopback ones.
type fakeNetwork struct {
	names map[string]string // short or full name -> IP
	// routes maps a cluster address to the test server's address.
	routes map[string]string
}

func (n *fakeNetwork) DialContext(ctx context.Context, network, address string) (net.Conn, error) {
	real, ok := n.routes[address]
	if !ok {
		return nil, &net.OpError{Op: "dial", Net: network, Err: syscall.ECONNREFUSED}
	}
	var d net.Dialer
	return d.DialContext(ctx, network, real)
}

func (n *fakeNetwork) LookupHost(_ context.Context, host string) (string, []netip.Addr, error) {
	for name, ip := range n.names {
		if host == name || strings.HasPrefix(name, host+".") {
			return name + ".", []netip.Addr{netip.MustParseAddr(ip)}, nil
		}
	}
	return "", nil, fmt.Errorf("lookup %s: no such host", host)
}

func (n *fakeNetwork) Nameserver() netip.AddrPort { return netip.MustParseAddrPort("10.96.0.10:53") }

// runNet runs argv to its end as a runtime would: network I/O off Run,
// then Run again.
func runNet(t *testing.T, argv []string, cfg shell.Config) (*recorder, int) {
	t.Helper()
	rec := &recorder{}
	cfg.Host = rec
	p := shell.NewProcess(argv, cfg)
	for range 1000 {
		res := p.Run(epoch)
		switch res.Kind {
		case shell.Waiting:
			res.IO(t.Context())
		case shell.Exited:
			return rec, res.ExitCode
		default:
			t.Fatalf("%q: unexpected result %v", argv, res.Kind)
		}
	}
	t.Fatalf("%q did not finish", argv)
	return nil, 0
}

func TestNetworkUtilities(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/missing" {
			http.NotFound(w, r)
			return
		}
		fmt.Fprint(w, "<h1>Welcome to nginx!</h1>\n")
	}))
	defer srv.Close()
	nw := &fakeNetwork{
		names:  map[string]string{"web.default.svc.cluster.local": "10.96.0.20"},
		routes: map[string]string{"10.96.0.20:80": srv.Listener.Addr().String()},
	}
	tests := []struct {
		name     string
		script   string
		want     string
		wantErr  string
		wantCode int
	}{
		{name: "wget -qO- by service name", script: "wget -qO- http://web.default.svc.cluster.local",
			want: "<h1>Welcome to nginx!</h1>\n"},
		{name: "wget -q -O - by short name", script: "wget -q -O - web", want: "<h1>Welcome to nginx!</h1>\n"},
		{name: "wget by IP, verbose", script: "wget -O- http://10.96.0.20/",
			want:    "<h1>Welcome to nginx!</h1>\n",
			wantErr: "Connecting to 10.96.0.20 (10.96.0.20:80)\nwriting to stdout\n-                    100% |********************************|    27  0:00:00 ETA\nwritten to stdout\n"},
		{name: "wget to a file", script: "wget -q -T 5 -O /tmp/page http://web/ && cat /tmp/page", want: "<h1>Welcome to nginx!</h1>\n"},
		{name: "wget default file name", script: "cd /tmp; wget -q http://web/ && cat index.html", want: "<h1>Welcome to nginx!</h1>\n"},
		{name: "wget --spider", script: "wget --spider http://web/ && echo ok", want: "ok\n",
			wantErr: "Connecting to web (10.96.0.20:80)\nremote file exists\n"},
		{name: "wget 404", script: "wget -qO- http://web/missing", wantCode: 1,
			wantErr: "wget: server returned error: HTTP/1.1 404 Not Found\n"},
		{name: "wget bad address", script: "wget -qO- http://nope/", wantCode: 1, wantErr: "wget: bad address 'nope'\n"},
		{name: "wget refused", script: "wget -qO- http://10.96.0.21/", wantCode: 1,
			wantErr: "wget: can't connect to remote host (10.96.0.21): Connection refused\n"},
		{name: "nc -z open", script: "nc -z web 80 && echo open", want: "open\n"},
		{name: "nc -z closed", script: "nc -z web 81 || echo closed", want: "closed\n"},
		{name: "nc -zv", script: "nc -zv web 80", wantErr: "web (10.96.0.20:80) open\n"},
		{name: "nc sends stdin", script: "printf 'GET /missing HTTP/1.0\\r\\n\\r\\n' > /tmp/req; nc web 80 < /tmp/req > /tmp/resp; read line < /tmp/resp; echo \"$line\"",
			want: "HTTP/1.0 404 Not Found\r\n"},
		{name: "nslookup", script: "nslookup web",
			want: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\nName:\tweb.default.svc.cluster.local\nAddress: 10.96.0.20\n\n"},
		{name: "nslookup unknown", script: "nslookup nope", wantCode: 1,
			want: "Server:\t\t10.96.0.10\nAddress:\t10.96.0.10:53\n\n** server can't find nope: NXDOMAIN\n\n"},
		{name: "no command substitution", script: "x=$(wget -qO- http://web/)", wantCode: 1,
			wantErr: "wget: cannot run in a command substitution\n"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cfg := testConfig(nil, nil)
			cfg.Network = nw
			rec, code := runNet(t, sh(tc.script), cfg)
			assert.Equal(t, tc.want, rec.out.String(), "stdout")
			assert.Equal(t, tc.wantErr, rec.err.String(), "stderr")
			assert.Equal(t, tc.wantCode, code, "exit code")
		})
	}
}

// TestNoNetwork: a process given no network resolves nothing.
func TestNoNetwork(t *testing.T) {
	rec, code := runNet(t, sh("wget -qO- http://web/"), testConfig(nil, nil))
	require.Equal(t, 1, code)
	assert.Equal(t, "wget: bad address 'web'\n", rec.err.String())
}
