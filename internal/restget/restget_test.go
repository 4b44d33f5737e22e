package restget

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestGet(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Accept") != "application/json" {
			http.Error(w, "JSON only", http.StatusNotAcceptable)
			return
		}
		switch r.URL.Path {
		case "/ok":
			_, _ = w.Write([]byte(`{"a":1}`))
		case "/big":
			_, _ = w.Write([]byte(strings.Repeat("x", 11)))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	ctx := context.Background()

	body, err := Get(ctx, srv.Client(), srv.URL+"/ok", 10)
	if err != nil || string(body) != `{"a":1}` {
		t.Errorf("Get /ok = %q, %v", body, err)
	}
	if _, err := Get(ctx, srv.Client(), srv.URL+"/big", 10); err == nil || !strings.Contains(err.Error(), "larger than 10 bytes") {
		t.Errorf("Get /big: err = %v, want the limit named", err)
	}
	if _, err := Get(ctx, srv.Client(), srv.URL+"/missing", 10); err == nil || !strings.Contains(err.Error(), "404 Not Found") {
		t.Errorf("Get /missing: err = %v, want the status named", err)
	}
}
