package ship

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestArtifactRetention: ship refuses an artifact past its expires_at by
// its own clock (GitHub's flag may lag), and records how long the run
// artifact, which alone keeps the media bytes, is kept: [proof]
// retention_days capped by the repository's limit and GITHUB_RETENTION_DAYS.
func TestArtifactRetention(t *testing.T) {
	t.Parallel()
	pr := sandbox.DemoPRReady
	for _, tc := range []struct {
		name string
		env  map[string]string
		days int
		note string
	}{
		{"as configured", nil, 30, "as [proof] retention_days says"},
		{"capped by GITHUB_RETENTION_DAYS", map[string]string{"GITHUB_RETENTION_DAYS": "5"}, 5, "GITHUB_RETENTION_DAYS"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newBotFixture(t)
			f.review("founder", pr, "APPROVE", "")
			cfg := f.config("founder")
			cfg.Env = envOf(tc.env)
			res, _, err := f.ship(cfg, pr)
			if err != nil || res.ExitCode != ExitShipped {
				t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
			}
			var rec ShipRecord
			if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
				t.Fatal(err)
			}
			if rec.Artifact.RetentionDays != tc.days || !strings.Contains(rec.Artifact.Retention, tc.note) || rec.Artifact.ExpiresAt == "" {
				t.Errorf("artifact = %+v, want %d days (%s)", rec.Artifact, tc.days, tc.note)
			}
		})
	}
	t.Run("an artifact past its expiry is refused", func(t *testing.T) {
		t.Parallel()
		f := newBotFixture(t)
		f.review("founder", pr, "APPROVE", "")
		cfg := f.config("founder")
		cfg.Now = func() time.Time { return time.Now().Add(31 * 24 * time.Hour) }
		before := f.snapshot(pr)
		res, _, err := f.ship(cfg, pr)
		if err != nil || res.ExitCode != ExitRefused || !hasWords(res.Refusals, "nothing qualifies") {
			t.Fatalf("err %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
		}
		for _, p := range res.Passed {
			if p.RunID == f.srv.RunID(sandbox.RunQualifying) && p.Reason != "its artifact expired" {
				t.Errorf("the qualifying run was passed over for %q", p.Reason)
			}
		}
		f.assertUnchanged(before, pr)
	})
}
