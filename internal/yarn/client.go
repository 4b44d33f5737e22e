package yarn

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/hadoopceph/hadoop-ceph-operator/internal/restget"
)

// A reconcile pass waits for the answer, so a ResourceManager that does not answer
// may hold a pass this long at most; a healthy one answers in milliseconds.
const requestTimeout = 2 * time.Second

// maxResponseBytes bounds what is read of an answer. A stage's applications take a
// few kilobytes; a ResourceManager that ignored the tag filter would list every
// application it remembers, which is refused rather than read.
const maxResponseBytes = 1 << 20

// Client reads ResourceManagers' REST APIs. It is safe for concurrent use.
type Client struct {
	http *http.Client
	user string
}

// NewClient returns a Client that asks as user, with the timeout every request gets.
//
// With YARN's ACLs on, an anonymous reader (Hadoop's static web user, dr.who) sees an
// application's state, progress and tags, but its start and finish times as 0, and
// neither its ApplicationMaster's address nor its logs (Hadoop 3.4). Under simple
// authentication a reader names its user in the user.name parameter, which the
// ResourceManager's pseudo authentication filter accepts as it is; the operator names
// a YARN admin.
func NewClient(user string) *Client {
	return &Client{http: &http.Client{Timeout: requestTimeout}, user: user}
}

// ApplicationsByTag lists the applications tagged tag of the ResourceManager whose
// web address is baseURL, such as http://rm:8088. Applications without the tag are
// dropped even when the ResourceManager returns them.
func (c *Client) ApplicationsByTag(ctx context.Context, baseURL, tag string) ([]Application, error) {
	u, err := url.Parse(baseURL)
	if err != nil {
		return nil, fmt.Errorf("ResourceManager address %q: %w", baseURL, err)
	}
	u = u.JoinPath("ws", "v1", "cluster", "apps")
	u.RawQuery = url.Values{"applicationTags": {strings.ToLower(tag)}}.Encode()
	body, err := c.get(ctx, u)
	if err != nil {
		return nil, err
	}
	apps, err := DecodeApplications(body)
	if err != nil {
		return nil, err
	}
	tagged := apps[:0]
	for _, a := range apps {
		if a.HasTag(tag) {
			tagged = append(tagged, a)
		}
	}
	return tagged, nil
}

// get reads u as the client's user, refusing answers other than 200 and those larger
// than maxResponseBytes.
func (c *Client) get(ctx context.Context, u *url.URL) ([]byte, error) {
	if c.user != "" {
		q := u.Query()
		q.Set("user.name", c.user)
		u.RawQuery = q.Encode()
	}
	return restget.Get(ctx, c.http, u.String(), maxResponseBytes)
}
