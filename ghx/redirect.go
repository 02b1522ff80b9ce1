package ghx

import (
	"errors"
	"fmt"
	"net/http"
)

// maxRedirects is how many same-host redirects one request follows, as
// net/http's own default.
const maxRedirects = 10

// CrossHostRedirectError is a redirect aayu refused to follow because it
// leaves the host the request was sent to. An API read is only ever
// decoded as GitHub's answer when it came from the API host; the Actions
// artifact's one legitimate hop to a storage host is taken by
// DownloadArtifact itself, as a fresh request that carries no token and
// whose body is never decoded as JSON.
type CrossHostRedirectError struct {
	From, To string // hosts only: the URLs can carry signatures
	Status   int
}

func (e *CrossHostRedirectError) Error() string {
	return fmt.Sprintf("%s answered %d with a redirect to another host, %s, which aayu does not follow", e.From, e.Status, e.To)
}

// SameHostRedirect is the redirect policy of every http.Client aayu talks
// to GitHub with (the API client's, the device flow's): follow a redirect
// on the same scheme and host as the first request, at most maxRedirects
// of them; refuse any other, so a server (or anyone who can make it
// redirect) can never have aayu read another host's answer as GitHub's, or
// re-send a form (a device code) elsewhere.
func SameHostRedirect(req *http.Request, via []*http.Request) error {
	if len(via) == 0 {
		return nil
	}
	first := via[0].URL
	if req.URL.Host != first.Host || req.URL.Scheme != first.Scheme {
		status := 0
		if req.Response != nil {
			status = req.Response.StatusCode
		}
		return &CrossHostRedirectError{From: first.Scheme + "://" + first.Host, To: req.URL.Scheme + "://" + req.URL.Host, Status: status}
	}
	if len(via) >= maxRedirects {
		return errors.New("stopped after " + fmt.Sprint(maxRedirects) + " redirects")
	}
	return nil
}
