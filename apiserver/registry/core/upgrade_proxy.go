package core

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sync"

	"github.com/minicp/minicp/api/apierrors"
)

// proxyUpgrade sends r to loc over a connection of its own and, when
// the backend answers 101 Switching Protocols, hands the client that
// answer and then copies bytes both ways until either side closes or
// r's context ends; it closes both connections before it returns. Any
// other answer goes to refused, whose error (a Status) is returned, as
// is a backend that cannot be reached; nothing was written to w then.
//
// It ends at the first side's end, not at both, as upstream's proxy
// does: a client that goes away (kubectl killed) closes its connection
// without a word of the stream protocol, and the kubelet must learn it
// then, not when its command ends.
//
// Upstream: k8s.io/apimachinery/pkg/util/proxy (UpgradeAwareHandler.tryUpgrade).
func proxyUpgrade(w http.ResponseWriter, r *http.Request, loc *url.URL, dial DialFunc, refused func(*http.Response) error) error {
	ctx := r.Context()
	backend, err := dial(ctx, "tcp", loc.Host)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("error dialing backend: %w", err))
	}
	defer backend.Close()
	out := r.Clone(ctx)
	out.URL, out.Host, out.RequestURI = loc, loc.Host, ""
	stripCredentials(out.Header)
	if err := out.Write(backend); err != nil {
		return apierrors.NewInternalError(fmt.Errorf("error sending request to backend: %w", err))
	}
	backendR := bufio.NewReader(backend)
	resp, err := http.ReadResponse(backendR, out)
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("error reading backend response: %w", err))
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusSwitchingProtocols {
		return refused(resp)
	}
	client, clientRW, err := http.NewResponseController(w).Hijack()
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("unable to upgrade: %w", err))
	}
	defer client.Close()
	// The answer as the backend wrote it: Response.Write would add a
	// Connection: close the upgrade must not have.
	head := bufio.NewWriter(client)
	fmt.Fprintf(head, "HTTP/1.1 %s\r\n", resp.Status)
	_ = resp.Header.Write(head)
	_, _ = head.WriteString("\r\n")
	if err := head.Flush(); err != nil {
		return nil // the client is gone
	}
	var once sync.Once
	closeBoth := func() {
		once.Do(func() {
			_ = client.Close()
			_ = backend.Close()
		})
	}
	stop := context.AfterFunc(ctx, closeBoth)
	defer stop()
	var wg sync.WaitGroup
	// Each copy starts with what its reader buffered: frames the client
	// sent right behind its request, or the backend behind its answer.
	wg.Go(func() {
		_, _ = io.Copy(backend, clientRW.Reader)
		closeBoth()
	})
	wg.Go(func() {
		_, _ = io.Copy(client, backendR)
		closeBoth()
	})
	wg.Wait()
	return nil
}
