// Package restget reads an answer of a Hadoop daemon's web endpoints (YARN's REST
// API, a NameNode's JMX and /conf): one GET asking for JSON, refused unless it is a
// 200, and bounded, since the operator reads them inside reconcile passes.
package restget

import (
	"context"
	"fmt"
	"io"
	"net/http"
)

// Get reads u with c and returns the body of a 200 answer of at most limit bytes.
func Get(ctx context.Context, c *http.Client, u string, limit int) ([]byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, http.NoBody)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", "application/json")
	resp, err := c.Do(req)
	if err != nil {
		return nil, err
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("GET %s: %s", u, resp.Status)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(limit)+1))
	if err != nil {
		return nil, fmt.Errorf("GET %s: %w", u, err)
	}
	if len(body) > limit {
		return nil, fmt.Errorf("GET %s: the answer is larger than %d bytes", u, limit)
	}
	return body, nil
}
