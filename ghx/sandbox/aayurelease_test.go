package sandbox_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
	"github.com/aayudha/aayu/proof/attest"
)

// TestAayuReleaseServedAttestedAndTamperable: aayudha/aayu's release as
// GitHub serves one (validated against the description), its file
// attested by the release workflow at the tag, and each knob the
// self-update tests turn: a tampered file keeps its recorded digest,
// another repository's signature is refused by attest, an unattested file
// answers 404.
func TestAayuReleaseServedAttestedAndTamperable(t *testing.T) {
	t.Parallel()
	file := []byte("aayu v0.99.0")
	name := "aayu_linux_amd64"
	srv, _, base := startValidated(t, sandbox.Options{ShareSeed: true, AayuRelease: &sandbox.AayuRelease{Files: map[string][]byte{name: file}}})
	gh := client(t, base, "sandbox-reader")
	ctx := context.Background()
	rel, _, err := gh.Repositories.GetLatestRelease(ctx, sandbox.AayuOwner, sandbox.AayuRepo)
	if err != nil || rel.GetTagName() != sandbox.AayuReleaseTag || len(rel.Assets) != 1 {
		t.Fatalf("release %v, %v", rel, err)
	}
	id := rel.Assets[0].GetID()
	if a, _, err := gh.Repositories.GetReleaseAsset(ctx, sandbox.AayuOwner, sandbox.AayuRepo, id); err != nil || a.GetName() != name || a.GetSize() != len(file) {
		t.Fatalf("asset %v, %v", a, err)
	}
	download := func() []byte {
		t.Helper()
		rc, _, err := gh.Repositories.DownloadReleaseAsset(ctx, sandbox.AayuOwner, sandbox.AayuRepo, id, http.DefaultClient)
		if err != nil {
			t.Fatal(err)
		}
		defer rc.Close()
		b, _ := io.ReadAll(rc)
		return b
	}
	if got := download(); string(got) != string(file) {
		t.Fatalf("downloaded %q", got)
	}
	sum := sha256.Sum256(file)
	digest := hex.EncodeToString(sum[:])
	exp := attest.BuildExpect{Repo: "aayudha/aayu", WorkflowPath: sandbox.AayuReleaseWorkflow, Tag: sandbox.AayuReleaseTag, Name: name, SHA256: digest}
	bundles := func() []json.RawMessage {
		t.Helper()
		req, _ := gh.NewRequest("GET", "repos/aayudha/aayu/attestations/sha256:"+digest, nil)
		var out struct {
			Attestations []struct {
				Bundle json.RawMessage `json:"bundle"`
			} `json:"attestations"`
		}
		resp, err := gh.Do(ctx, req, &out)
		if resp != nil && resp.StatusCode == http.StatusNotFound {
			return nil
		}
		if err != nil {
			t.Fatal(err)
		}
		var bs []json.RawMessage
		for _, a := range out.Attestations {
			bs = append(bs, a.Bundle)
		}
		return bs
	}
	if _, err := attest.VerifyBuild(srv.TrustedRoot(), bundles(), exp); err != nil {
		t.Fatalf("the served release's attestation: %v", err)
	}

	if err := srv.AttestAayuRelease(name, func(c *vsigstore.Claims) { c.Repository = "mallory/aayu" }); err != nil {
		t.Fatal(err)
	}
	if _, err := attest.VerifyBuild(srv.TrustedRoot(), bundles(), exp); err == nil || !strings.Contains(err.Error(), "another repository") {
		t.Fatalf("another repository's attestation: %v", err)
	}
	if err := srv.UnattestAayuRelease(name); err != nil {
		t.Fatal(err)
	}
	if b := bundles(); len(b) != 0 {
		t.Fatalf("%d attestations after UnattestAayuRelease", len(b))
	}
	if err := srv.TamperAayuRelease(name, []byte("evil")); err != nil {
		t.Fatal(err)
	}
	if got := download(); string(got) != "evil" {
		t.Fatalf("tampered download %q", got)
	}
	if a, _, _ := gh.Repositories.GetReleaseAsset(ctx, sandbox.AayuOwner, sandbox.AayuRepo, id); a == nil {
		t.Fatal("no asset after tampering")
	}
	if err := srv.AttestAayuRelease(name, nil); err == nil {
		t.Fatal("a tampered file was attested again")
	}
}
