package ghx

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"

	"github.com/google/go-github/v66/github"
)

// Release is a repository's published release as aayu reads it: its tag
// and files. Everything in it is untrusted text until checked.
type Release struct {
	TagName string         `json:"tag_name"`
	HTMLURL string         `json:"html_url"`
	Assets  []ReleaseAsset `json:"assets"`
}

// ReleaseAsset is one file of a release. Digest is GitHub's "sha256:HEX"
// of the file (null for files uploaded before GitHub recorded one): a
// hint only, since the bytes downloaded are what is hashed and checked.
type ReleaseAsset struct {
	ID     int64   `json:"id"`
	Name   string  `json:"name"`
	Size   int64   `json:"size"`
	Digest *string `json:"digest"`
}

// LatestRelease reads the repository's latest release (repos/get-latest-
// release, GET /repos/{owner}/{repo}/releases/latest: "the most recent
// non-prerelease, non-draft release"). It is read with its own type, not
// go-github v66's RepositoryRelease, which has no asset digest. found is
// false when the repository has none (GitHub's 404).
func LatestRelease(ctx context.Context, client *github.Client, owner, repo string) (rel Release, found bool, err error) {
	u := fmt.Sprintf("repos/%s/%s/releases/latest", url.PathEscape(owner), url.PathEscape(repo))
	req, err := client.NewRequest("GET", u, nil)
	if err != nil {
		return Release{}, false, fmt.Errorf("reading the latest release of %s/%s: %w", owner, repo, err)
	}
	if resp, err := client.Do(ctx, req, &rel); err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return Release{}, false, nil
		}
		return Release{}, false, fmt.Errorf("reading the latest release of %s/%s: %w", owner, repo, err)
	}
	return rel, true, nil
}

// DownloadReleaseAsset fetches a release file into w, refusing more than
// maxBytes (repos/get-release-asset with Accept: application/octet-stream:
// "API clients should handle both a 200 or 302 response"). A 302's address
// is fetched with the same client, whose transport sends the token to the
// API host only, as DownloadArtifact does.
func DownloadReleaseAsset(ctx context.Context, client *github.Client, owner, repo string, id int64, w io.Writer, maxBytes int64) (int64, error) {
	rc, where, err := client.Repositories.DownloadReleaseAsset(ctx, owner, repo, id, nil)
	if err != nil {
		return 0, fmt.Errorf("downloading release file %d of %s/%s: %w", id, owner, repo, err)
	}
	if rc == nil {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, where, nil)
		if err != nil {
			return 0, fmt.Errorf("release file %d of %s/%s: GitHub gave an unusable download address: %w", id, owner, repo, err)
		}
		req.Header.Set("Accept", "application/octet-stream")
		blob, err := client.Client().Do(req)
		if err != nil {
			return 0, fmt.Errorf("downloading release file %d of %s/%s: %s", id, owner, repo, maskErrorText(err.Error()))
		}
		if blob.StatusCode != http.StatusOK {
			blob.Body.Close()
			return 0, fmt.Errorf("downloading release file %d of %s/%s: the storage host %s answered %s", id, owner, repo, req.URL.Host, blob.Status)
		}
		rc = blob.Body
	}
	defer rc.Close()
	n, err := io.Copy(w, io.LimitReader(rc, maxBytes+1))
	if err != nil {
		return n, fmt.Errorf("downloading release file %d of %s/%s: %w", id, owner, repo, err)
	}
	if n > maxBytes {
		return n, fmt.Errorf("release file %d of %s/%s is larger than the %d bytes aayu accepts", id, owner, repo, maxBytes)
	}
	return n, nil
}
