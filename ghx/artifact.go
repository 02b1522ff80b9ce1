package ghx

import (
	"context"
	"fmt"
	"io"
	"net/http"

	"github.com/google/go-github/v66/github"
)

// DownloadArtifact fetches an Actions artifact's zip into w, refusing more
// than maxBytes. It asks the API for the short-lived signed URL (a 302) and
// fetches that URL with the same client, whose transport sends the token to
// the API host only, never to the blob host. This is the one hop to
// another host aayu takes, and the blob's bytes are copied out, never
// decoded as the API's JSON. An expired artifact's 410 comes
// back as ErrArtifactExpired instead of go-github's bare "unexpected status".
func DownloadArtifact(ctx context.Context, client *github.Client, owner, repo string, id int64, w io.Writer, maxBytes int64) (int64, error) {
	// No redirect is followed to find the address (go-github would follow a
	// 301 to any host): the API's own answer must be the 302.
	where, resp, err := client.Actions.DownloadArtifact(ctx, owner, repo, id, 0)
	if err != nil {
		if resp != nil && resp.StatusCode == http.StatusGone {
			return 0, fmt.Errorf("artifact %d of %s/%s: %w", id, owner, repo, ErrArtifactExpired)
		}
		if resp != nil && resp.StatusCode != http.StatusFound {
			return 0, fmt.Errorf("asking GitHub for artifact %d of %s/%s: GitHub answered %s", id, owner, repo, resp.Status)
		}
		return 0, fmt.Errorf("asking GitHub for artifact %d of %s/%s: %w", id, owner, repo, err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, where.String(), nil)
	if err != nil {
		return 0, fmt.Errorf("artifact %d of %s/%s: GitHub gave an unusable download address: %w", id, owner, repo, err)
	}
	blob, err := client.Client().Do(req)
	if err != nil {
		return 0, fmt.Errorf("downloading artifact %d of %s/%s from %s: %s", id, owner, repo, where.Host, maskErrorText(err.Error()))
	}
	defer blob.Body.Close()
	if blob.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("downloading artifact %d of %s/%s: the storage host %s answered %s", id, owner, repo, where.Host, blob.Status)
	}
	n, err := io.Copy(w, io.LimitReader(blob.Body, maxBytes+1))
	if err != nil {
		return n, fmt.Errorf("downloading artifact %d of %s/%s: %w", id, owner, repo, err)
	}
	if n > maxBytes {
		return n, fmt.Errorf("artifact %d of %s/%s is larger than the %d bytes aayu accepts", id, owner, repo, maxBytes)
	}
	return n, nil
}
