package proof

import (
	"strings"
	"testing"
)

func TestArtifactRetention(t *testing.T) {
	tests := []struct {
		name       string
		configured int
		private    bool
		env        map[string]string
		want       int
		words      string
	}{
		{"default on public", 30, false, nil, 30, "30 days, as [proof] retention_days says"},
		{"public at the cap", 90, false, nil, 90, "as [proof] retention_days says"},
		{"public over the cap", 120, false, nil, 90, "capped at the 90-day limit for a public repository (retention_days is 120)"},
		{"private over public cap", 120, true, nil, 120, "as [proof] retention_days says"},
		{"private over the cap", 1000, true, nil, 400, "capped at the 400-day limit for a private repository"},
		{"zero", 0, false, nil, 1, "below the minimum of one day"},
		{"negative", -5, true, nil, 1, "below the minimum of one day"},
		{"actions limit tighter", 30, false, map[string]string{"GITHUB_RETENTION_DAYS": "14"}, 14, "capped at GITHUB_RETENTION_DAYS"},
		{"actions limit tighter than repo cap", 365, false, map[string]string{"GITHUB_RETENTION_DAYS": "60"}, 60, "capped at GITHUB_RETENTION_DAYS, the repository's artifact retention (retention_days is 365)"},
		{"actions limit looser", 30, true, map[string]string{"GITHUB_RETENTION_DAYS": "400"}, 30, "as [proof] retention_days says"},
		{"actions limit looser than repo cap", 200, false, map[string]string{"GITHUB_RETENTION_DAYS": "400"}, 90, "90-day limit for a public repository"},
		{"actions limit with spaces", 30, false, map[string]string{"GITHUB_RETENTION_DAYS": " 7 "}, 7, "GITHUB_RETENTION_DAYS"},
		{"actions limit not a number", 30, false, map[string]string{"GITHUB_RETENTION_DAYS": "ninety"}, 30, `GITHUB_RETENTION_DAYS "ninety" is not a whole number of days and was ignored`},
		{"actions limit zero", 30, false, map[string]string{"GITHUB_RETENTION_DAYS": "0"}, 30, "was ignored"},
		{"actions limit negative", 30, false, map[string]string{"GITHUB_RETENTION_DAYS": "-3"}, 30, "was ignored"},
		{"actions limit empty", 30, false, map[string]string{"GITHUB_RETENTION_DAYS": ""}, 30, "as [proof] retention_days says"},
		{"zero configured, actions limit", 0, false, map[string]string{"GITHUB_RETENTION_DAYS": "5"}, 1, "below the minimum"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var env func(string) string
			if tc.env != nil {
				env = func(k string) string { return tc.env[k] }
			}
			days, note := ArtifactRetention(tc.configured, tc.private, env)
			if days != tc.want {
				t.Errorf("days = %d, want %d (note %q)", days, tc.want, note)
			}
			if !strings.Contains(note, tc.words) {
				t.Errorf("note %q does not say %q", note, tc.words)
			}
		})
	}
}
