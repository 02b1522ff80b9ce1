package proof

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

func TestIsMedia(t *testing.T) {
	tests := []struct {
		path, kind string
		want       bool
	}{
		{"screens/1.png", KindScreenshot, true},
		{"recordings/1.webm", KindRecording, true},
		{"sr/1.txt", KindSRTranscript, true},
		{"evidence/criterion-1.jsonl", KindAPITrace, false},
		{"reports/coverage.json", KindReport, false},
		{"reports/a11y.PDF", KindReport, true},
		{"reports/shot.JPeG", KindReport, true},
		{"metrics/lcp.json", KindMetric, false},
		{"audio/read.opus", KindReport, true},
		{"video/demo.m4v", KindReport, true},
		{"x/icon.svg", KindReport, true},
		{"x/photo.heic", KindReport, true},
		{"x/notes.txt", KindReport, false},
		{"x/png", KindReport, false}, // a name, not an extension
		{"x/archive.png.txt", KindReport, false},
	}
	for _, tc := range tests {
		if got := IsMedia(Artifact{Path: tc.path, Kind: tc.kind}); got != tc.want {
			t.Errorf("IsMedia(%s, %s) = %v, want %v", tc.path, tc.kind, got, tc.want)
		}
	}
}

func TestMediaNeedABucket(t *testing.T) {
	trace := Artifact{Path: "evidence/criterion-1.jsonl", Kind: KindAPITrace, Store: StoreGit}
	shotGit := Artifact{Path: "screens/1.png", Kind: KindScreenshot, Store: StoreGit}
	videoLFS := Artifact{Path: "recordings/1.webm", Kind: KindRecording, Store: StoreLFS}
	pdfGit := Artifact{Path: "reports/audit.pdf", Kind: KindReport, Store: StoreGit}
	shotNone := Artifact{Path: "screens/2.png", Kind: KindScreenshot, Store: StoreNone}
	shotBucket := Artifact{Path: "screens/3.png", Kind: KindScreenshot, Store: StoreBucket, Object: "131/screens/3.png"}

	tests := []struct {
		name      string
		artifacts []Artifact
		bucket    string
		refused   bool     // wraps ErrMediaRefused
		words     []string // the error says all of these
	}{
		{"data only, no bucket", []Artifact{trace}, "", false, nil},
		{"media kept as hashes only", []Artifact{trace, shotNone}, "", false, nil},
		{"media in git without a bucket", []Artifact{trace, shotGit, videoLFS, pdfGit}, "", true,
			[]string{"3 would", "screens/1.png (store git)", "recordings/1.webm (store lfs)", "reports/audit.pdf (store git)", "set [proof] media"}},
		{"bucket store without a bucket", []Artifact{shotBucket}, "", true, []string{"screens/3.png (store bucket, but no bucket is configured)"}},
		{"bucket configured, media in bucket", []Artifact{trace, shotBucket, shotNone}, "s3://acme-proof-media", false, nil},
		{"bucket configured, media still in git", []Artifact{shotGit}, "gs://acme-proof", true, []string{"screens/1.png (store git)", "give them store bucket or store none"}},
		{"r2 bucket", []Artifact{shotBucket}, "r2://proof/prefix", false, nil},
		{"azure bucket", []Artifact{shotBucket}, "azblob://account/container", false, nil},
		{"unsupported scheme", []Artifact{shotBucket}, "ftp://example.com/media", false, []string{"names a ftp:// store", "s3://, r2://, azblob:// and gs://"}},
		{"plain https", []Artifact{trace}, "https://example.com/bucket", false, []string{"names a https:// store"}},
		{"not a URL", []Artifact{trace}, "acme-proof-media", false, []string{"is not a bucket URL"}},
		{"no bucket name", []Artifact{trace}, "s3://", false, []string{"names no bucket after s3://"}},
		{"credential in URL", []Artifact{trace}, "s3://AKIAEXAMPLE:hunter2@bucket", false, []string{"carries a credential"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckMediaStore(tc.artifacts, tc.bucket)
			if len(tc.words) == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				return
			}
			if err == nil {
				t.Fatal("accepted")
			}
			if errors.Is(err, ErrMediaRefused) != tc.refused {
				t.Errorf("errors.Is(err, ErrMediaRefused) = %v, want %v (%v)", !tc.refused, tc.refused, err)
			}
			for _, w := range tc.words {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "hunter2") {
				t.Errorf("error repeats a credential: %q", err)
			}
		})
	}
}

func TestLedgerCopy(t *testing.T) {
	ninety := 90.0
	p := Pack{
		Story:     131,
		Footprint: []string{"L04"},
		Criteria:  []Criterion{{ID: 1, Evidence: []string{"evidence/criterion-1.jsonl", "screens/1.png"}}},
		Artifacts: []Artifact{
			{Path: "evidence/criterion-1.jsonl", Kind: KindAPITrace, SHA256: strings.Repeat("a", 64), Size: 615, Store: StoreGit},
			{Path: "screens/1.png", Kind: KindScreenshot, SHA256: strings.Repeat("b", 64), Size: 2048, Store: StoreBucket, Object: "131/screens/1.png"},
			{Path: "reports/a11y.pdf", Kind: KindReport, SHA256: strings.Repeat("c", 64), Size: 99, Store: StoreGit},
			{Path: "screens/old.png", Kind: KindScreenshot, SHA256: strings.Repeat("d", 64), Size: 7, Store: StoreNone, Tombstone: &Tombstone{PurgedAt: "2026-01-01T00:00:00Z", Reason: "retention"}},
		},
		Checks: []Check{{Floor: "coverage", Result: ResultPass, Threshold: &ninety}},
	}
	before, _ := json.Marshal(p)
	c := LedgerCopy(p)

	want := []Artifact{
		p.Artifacts[0],
		{Path: "screens/1.png", Kind: KindScreenshot, SHA256: strings.Repeat("b", 64), Size: 2048, Store: StoreNone},
		{Path: "reports/a11y.pdf", Kind: KindReport, SHA256: strings.Repeat("c", 64), Size: 99, Store: StoreNone},
		p.Artifacts[3],
	}
	for i, a := range c.Artifacts {
		if a.Path != want[i].Path || a.Store != want[i].Store || a.Object != want[i].Object || a.SHA256 != want[i].SHA256 || a.Size != want[i].Size || (a.Tombstone == nil) != (want[i].Tombstone == nil) {
			t.Errorf("artifact %d: got %+v, want %+v", i, a, want[i])
		}
	}
	if err := CheckMediaStore(c.Artifacts, ""); err != nil {
		t.Errorf("the ledger copy is itself refused: %v", err)
	}

	// Changing the copy must not reach the original.
	c.Criteria[0].Evidence[0] = "changed"
	c.Artifacts[3].Tombstone.Reason = "changed"
	*c.Checks[0].Threshold = 1
	c.Footprint[0] = "L09"
	if after, _ := json.Marshal(p); string(after) != string(before) {
		t.Errorf("LedgerCopy shares memory with its input:\nbefore %s\nafter  %s", before, after)
	}
}
