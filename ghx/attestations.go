package ghx

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/google/go-github/v66/github"
)

// MaxAttestations caps the bundles read for one digest: the gate attests
// a pack once per run, so more than a page is something else.
const MaxAttestations = 30

// ListAttestations reads the Sigstore bundles GitHub keeps for a subject
// digest (repos/list-attestations, GET /repos/{owner}/{repo}/attestations/
// sha256:HEX), newest first, at most MaxAttestations. None is an empty
// list, not an error: GitHub answers a digest nothing attests with 404
// ("Not Found"), which means "not attested" and is read as such. The
// bundles are untrusted bytes until verified.
func ListAttestations(ctx context.Context, client *github.Client, owner, repo, sha256hex string) ([]json.RawMessage, error) {
	u := fmt.Sprintf("repos/%s/%s/attestations/sha256:%s?per_page=%d", owner, repo, sha256hex, MaxAttestations)
	req, err := client.NewRequest("GET", u, nil)
	if err != nil {
		return nil, fmt.Errorf("reading the attestations of sha256:%s: %w", sha256hex, err)
	}
	var out struct {
		Attestations []struct {
			Bundle json.RawMessage `json:"bundle"`
		} `json:"attestations"`
	}
	if resp, err := client.Do(ctx, req, &out); err != nil {
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return nil, nil // no attestation for this digest
		}
		return nil, fmt.Errorf("reading the attestations of sha256:%s: %w", sha256hex, err)
	}
	var bundles []json.RawMessage
	for _, a := range out.Attestations {
		if len(a.Bundle) > 0 && len(bundles) < MaxAttestations {
			bundles = append(bundles, a.Bundle)
		}
	}
	return bundles, nil
}
