package yarn

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// resourceManager serves body at the Cluster Applications API and records the
// requests it got.
func resourceManager(t *testing.T, status int, body []byte) (*httptest.Server, *[]*http.Request) {
	t.Helper()
	var requests []*http.Request
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests = append(requests, r)
		if r.URL.Path != "/ws/v1/cluster/apps" {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	return srv, &requests
}

func TestApplicationsByTagAsksForTheTagAndKeepsOnlyItsApplications(t *testing.T) {
	srv, requests := resourceManager(t, http.StatusOK, fixture(t, "unfiltered.json"))
	apps, err := NewClient("hadoop").ApplicationsByTag(context.Background(), srv.URL, "Sort-TeraGen-r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) != 1 || apps[0].ID != "application_1795318800000_0001" {
		t.Errorf("got %+v, want only application_1795318800000_0001", apps)
	}
	if len(*requests) != 1 {
		t.Fatalf("%d requests, want 1", len(*requests))
	}
	r := (*requests)[0]
	if got := r.URL.Query().Get("applicationTags"); got != "sort-teragen-r1" {
		t.Errorf("applicationTags = %q, want the tag lower-cased as YARN stores it", got)
	}
	if got := r.URL.Query().Get("user.name"); got != "hadoop" {
		t.Errorf("user.name = %q, want the client's user, whom YARN's ACLs show the whole application", got)
	}
	if got := r.Header.Get("Accept"); got != "application/json" {
		t.Errorf("Accept = %q, want application/json", got)
	}
}

func TestApplicationsByTagWithoutApplications(t *testing.T) {
	srv, _ := resourceManager(t, http.StatusOK, fixture(t, "none.json"))
	apps, err := NewClient("hadoop").ApplicationsByTag(context.Background(), srv.URL+"/", "sort-teragen-r1")
	if err != nil {
		t.Fatal(err)
	}
	if len(apps) != 0 {
		t.Errorf("got %+v, want none", apps)
	}
}

func TestApplicationsByTagFailures(t *testing.T) {
	closed := httptest.NewServer(http.NotFoundHandler())
	closed.Close()
	standby, _ := resourceManager(t, http.StatusServiceUnavailable, []byte("This is standby RM."))
	huge, _ := resourceManager(t, http.StatusOK, []byte(`{"apps":{"app":[`+strings.Repeat(`{"id":"x"},`, maxResponseBytes/10)+`{}]}}`))
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	}))
	t.Cleanup(slow.Close)

	c := NewClient("hadoop")
	c.http.Timeout = 200 * time.Millisecond
	for name, tc := range map[string]struct{ url, want string }{
		"unreachable":  {closed.URL, "connect"},
		"not active":   {standby.URL, "503"},
		"too large":    {huge.URL, "larger than"},
		"not answered": {slow.URL, "Timeout"},
		"bad address":  {"http://rm:8088\x7f", "ResourceManager address"},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := c.ApplicationsByTag(context.Background(), tc.url, "sort-teragen-r1")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one that says %q", err, tc.want)
			}
		})
	}
}
