package proof

import (
	"fmt"
	"strconv"
	"strings"
)

// Artifact retention limits GitHub sets on run artifacts.
const (
	RetentionPublicMaxDays  = 90
	RetentionPrivateMaxDays = 400
	retentionMinDays        = 1
)

// ArtifactRetention decides how many days the aayudha-pack run artifact is
// kept: [proof] retention_days, capped at 90 for a public repository and 400
// for a private one, and at GITHUB_RETENTION_DAYS (the repository's own
// setting, which Actions passes) when that is set to a whole number of days.
// It is at least one day. note says in words which rule decided, so the
// person reading the log knows why the number is not the one configured.
// env may be nil (no environment).
func ArtifactRetention(configured int, private bool, env func(string) string) (days int, note string) {
	days = configured
	repoCap, repoKind := RetentionPublicMaxDays, "public"
	if private {
		repoCap, repoKind = RetentionPrivateMaxDays, "private"
	}
	var notes []string
	switch {
	case days < retentionMinDays:
		days = retentionMinDays
		notes = append(notes, fmt.Sprintf("%d day: retention_days %d is below the minimum of one day", days, configured))
	case days > repoCap:
		days = repoCap
		notes = append(notes, fmt.Sprintf("%d days: capped at the %d-day limit for a %s repository (retention_days is %d)", days, repoCap, repoKind, configured))
	}
	if env != nil {
		if raw := strings.TrimSpace(env("GITHUB_RETENTION_DAYS")); raw != "" {
			limit, err := strconv.Atoi(raw)
			switch {
			case err != nil || limit < retentionMinDays:
				notes = append(notes, fmt.Sprintf("GITHUB_RETENTION_DAYS %q is not a whole number of days and was ignored", clipText(raw)))
			case limit < days:
				days = limit
				// The repository's setting is the tighter rule; it replaces any
				// earlier note about the configured value.
				notes = []string{fmt.Sprintf("%d days: capped at GITHUB_RETENTION_DAYS, the repository's artifact retention (retention_days is %d)", days, configured)}
			}
		}
	}
	if len(notes) == 0 {
		return days, fmt.Sprintf("%d days, as [proof] retention_days says", days)
	}
	return days, strings.Join(notes, "; ")
}
