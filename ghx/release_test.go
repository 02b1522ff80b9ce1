package ghx_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestLatestReleaseAndItsFile: aayudha/aayu's latest release read with
// its files' recorded digests, and a file downloaded through the API's
// 302 to the signed storage address, byte for byte.
func TestLatestReleaseAndItsFile(t *testing.T) {
	t.Parallel()
	file := []byte("aayu v0.99.0 for linux/arm64")
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{AayuRelease: &sandbox.AayuRelease{
		Files: map[string][]byte{"aayu_linux_arm64": file}}}})
	ctx := context.Background()
	rel, found, err := ghx.LatestRelease(ctx, env.client, sandbox.AayuOwner, sandbox.AayuRepo)
	if err != nil || !found {
		t.Fatalf("found %v, %v", found, err)
	}
	sum := sha256.Sum256(file)
	if rel.TagName != sandbox.AayuReleaseTag || len(rel.Assets) != 1 || rel.Assets[0].Name != "aayu_linux_arm64" ||
		rel.Assets[0].Digest == nil || *rel.Assets[0].Digest != "sha256:"+hex.EncodeToString(sum[:]) {
		t.Fatalf("release %+v", rel)
	}
	var got bytes.Buffer
	if _, err := ghx.DownloadReleaseAsset(ctx, env.client, sandbox.AayuOwner, sandbox.AayuRepo, rel.Assets[0].ID, &got, 1<<20); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Bytes(), file) {
		t.Fatalf("downloaded %q", got.Bytes())
	}
	if _, err := ghx.DownloadReleaseAsset(ctx, env.client, sandbox.AayuOwner, sandbox.AayuRepo, rel.Assets[0].ID, &got, 4); err == nil {
		t.Fatal("a file over the cap was taken")
	}
	bundles, err := ghx.ListAttestations(ctx, env.client, sandbox.AayuOwner, sandbox.AayuRepo, hex.EncodeToString(sum[:]))
	if err != nil || len(bundles) != 1 {
		t.Fatalf("attestations %d, %v", len(bundles), err)
	}
}
