package proof

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/aayudha/aayu/internal/lazyre"
)

// Ready is a parsed Ready snapshot (specs/STORY/ready.md on the ledger).
type Ready struct {
	Story        int
	Title        string
	RecordedHash string    // the completion_goal_hash line as written
	BodyHash     string    // SHA-256 of the Completion Goal body as read
	FrozenAt     time.Time // zero when absent
	Criteria     []ReadyCriterion
}

// ReadyCriterion is one numbered item of the Completion Goal.
type ReadyCriterion struct {
	ID   int
	Text string
}

// SelfConsistent reports whether the recorded hash matches the snapshot's
// own body; a snapshot that does not is itself a problem.
func (r *Ready) SelfConsistent() bool { return r.RecordedHash == r.BodyHash }

// MaxReadyBytes caps a Ready snapshot. A real one is a few kilobytes; the cap
// keeps a hostile ledger file from costing more than a glance.
const MaxReadyBytes = 1 << 20

const (
	readyGoalHeading = "## Completion Goal"
	readyHashKey     = "completion_goal_hash:"
	readyFrozenKey   = "frozen_at:"
)

var (
	// "# Ready: story 131 — title"; the dash may be an em dash, an en dash or
	// a hyphen, and the title may be absent.
	readyTitleLine = lazyre.New(`^# Ready: story ([0-9]+)(?:\s+(?:—|–|-)(?:\s+(.*))?)?\s*$`)
	readyItemLine  = lazyre.New(`^([0-9]+)\.(?:[ \t]+(.*))?$`)
	readyHexHash   = lazyre.New(`^[0-9a-f]{64}$`)
)

// ParseReady reads a Ready snapshot in the format SPEC §4 fixes. It refuses,
// with words, a snapshot it cannot read faithfully; a snapshot whose recorded
// hash does not match its body is accepted here and shows up as
// SelfConsistent() == false, because that is a finding about the snapshot,
// not a reason it cannot be read.
func ParseReady(b []byte) (*Ready, error) {
	if len(b) > MaxReadyBytes {
		return nil, fmt.Errorf("ready snapshot is %d bytes, more than the %d-byte limit", len(b), MaxReadyBytes)
	}
	lines := strings.Split(strings.ReplaceAll(string(b), "\r\n", "\n"), "\n")
	r := &Ready{}
	var (
		sawTitle, sawHash, sawFrozen bool
		goalStart                    = -1
	)
	for i, line := range lines {
		if strings.HasPrefix(line, "## ") {
			if strings.TrimRight(line, " \t") == readyGoalHeading {
				if goalStart >= 0 {
					return nil, fmt.Errorf("ready snapshot has two %q sections (lines %d and %d)", readyGoalHeading, goalStart, i+1)
				}
				goalStart = i + 1
			}
			continue
		}
		if goalStart >= 0 {
			continue // the header fields live before the first section
		}
		switch {
		case strings.HasPrefix(line, "# "):
			m := readyTitleLine().FindStringSubmatch(strings.TrimRight(line, " \t"))
			if m == nil {
				return nil, fmt.Errorf("ready snapshot line %d is not a title of the form \"# Ready: story N — title\": %q", i+1, clipText(line))
			}
			if sawTitle {
				return nil, fmt.Errorf("ready snapshot has a second title on line %d", i+1)
			}
			story, err := strconv.Atoi(m[1])
			if err != nil || story <= 0 {
				return nil, fmt.Errorf("ready snapshot title names story %q, which is not a positive number", clipText(m[1]))
			}
			r.Story, r.Title, sawTitle = story, strings.TrimSpace(m[2]), true
		case strings.HasPrefix(line, readyHashKey):
			if sawHash {
				return nil, fmt.Errorf("ready snapshot has a second completion_goal_hash line on line %d", i+1)
			}
			h := strings.TrimSpace(strings.TrimPrefix(line, readyHashKey))
			if !readyHexHash().MatchString(h) {
				return nil, fmt.Errorf("ready snapshot line %d: completion_goal_hash %q is not 64 lowercase hex digits", i+1, clipText(h))
			}
			r.RecordedHash, sawHash = h, true
		case strings.HasPrefix(line, readyFrozenKey):
			if sawFrozen {
				return nil, fmt.Errorf("ready snapshot has a second frozen_at line on line %d", i+1)
			}
			v := strings.TrimSpace(strings.TrimPrefix(line, readyFrozenKey))
			t, err := time.Parse(time.RFC3339, v)
			if err != nil {
				return nil, fmt.Errorf("ready snapshot line %d: frozen_at %q is not an RFC 3339 time such as 2026-10-12T07:30:00Z", i+1, clipText(v))
			}
			r.FrozenAt, sawFrozen = t, true
		}
	}
	if !sawTitle {
		return nil, fmt.Errorf("ready snapshot has no title line \"# Ready: story N — title\" before its first section")
	}
	if !sawHash {
		return nil, fmt.Errorf("ready snapshot has no completion_goal_hash line before its first section")
	}
	if goalStart < 0 {
		return nil, fmt.Errorf("ready snapshot has no %q section", readyGoalHeading)
	}
	body := readySection(lines, goalStart)
	r.BodyHash = GoalHash(strings.Join(body, "\n"))
	criteria, err := readyCriteria("ready snapshot", body, goalStart)
	if err != nil {
		return nil, err
	}
	r.Criteria = criteria
	return r, nil
}

// readySection returns the lines after the heading at index start-1 up to
// the next "## " heading or the end.
func readySection(lines []string, start int) []string {
	end := start
	for end < len(lines) && !strings.HasPrefix(lines[end], "## ") {
		end++
	}
	return lines[start:end]
}

// readyCriteria collects the numbered items of the Completion Goal. Prose
// before the first item is allowed; after it, every line is an item, an
// indented continuation or blank, so no criterion text is silently lost.
// firstLine is the 1-based line number of body[0], for messages; what names
// the text read ("ready snapshot", "Story #7's body"), so one rule serves the
// snapshot and the issue it is frozen from.
func readyCriteria(what string, body []string, firstLine int) ([]ReadyCriterion, error) {
	var (
		criteria []ReadyCriterion
		current  []string
	)
	flush := func() error {
		if current == nil {
			return nil
		}
		text := normalizeCriterion(strings.Join(current, "\n"))
		id := len(criteria) + 1
		if text == "" {
			return fmt.Errorf("%s: Completion Goal item %d has no text", what, id)
		}
		criteria = append(criteria, ReadyCriterion{ID: id, Text: text})
		current = nil
		return nil
	}
	for i, line := range body {
		lineNo := firstLine + i + 1
		if m := readyItemLine().FindStringSubmatch(line); m != nil {
			if err := flush(); err != nil {
				return nil, err
			}
			want := len(criteria) + 1
			n, err := strconv.Atoi(m[1])
			if err != nil || n != want {
				if n > 0 && n < want {
					return nil, fmt.Errorf("%s line %d: Completion Goal item number %s is used twice", what, lineNo, clipText(m[1]))
				}
				return nil, fmt.Errorf("%s line %d: Completion Goal item is numbered %s where %d was expected (items are numbered 1, 2, 3 … in order)", what, lineNo, clipText(m[1]), want)
			}
			current = []string{m[2]}
			continue
		}
		if strings.TrimSpace(line) == "" {
			continue
		}
		indented := line[0] == ' ' || line[0] == '\t'
		switch {
		case current != nil && indented:
			current = append(current, line)
		case current == nil && len(criteria) == 0:
			// Prose that introduces the list.
		default:
			return nil, fmt.Errorf("%s line %d in the Completion Goal is neither a numbered item nor an indented continuation: %q", what, lineNo, clipText(line))
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	if len(criteria) == 0 {
		return nil, fmt.Errorf("%s: %w (\"1. …\")", what, ErrNoGoalItems)
	}
	return criteria, nil
}

// normalizeCriterion is the one form a criterion's text takes: each line
// trimmed, blank lines dropped, lines joined by LF. Parse and Render share
// it so a rendered snapshot reads back to the same text.
func normalizeCriterion(s string) string {
	var kept []string
	for _, l := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// GoalHash is the SHA-256 (lowercase hex) of a Completion Goal section body:
// CRLF turned to LF, leading and trailing blank lines removed, lines joined
// by LF with no final LF.
func GoalHash(body string) string {
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	for len(lines) > 0 && strings.TrimSpace(lines[0]) == "" {
		lines = lines[1:]
	}
	for len(lines) > 0 && strings.TrimSpace(lines[len(lines)-1]) == "" {
		lines = lines[:len(lines)-1]
	}
	sum := sha256.Sum256([]byte(strings.Join(lines, "\n")))
	return hex.EncodeToString(sum[:])
}

// RenderReady writes a self-consistent Ready snapshot. Criteria are
// normalised as ParseReady reads them (lines trimmed, blank lines dropped);
// each must hold some text for the snapshot to read back. Newlines in the
// title become spaces.
func RenderReady(story int, title string, frozenAt time.Time, criteria []string) []byte {
	var goal strings.Builder
	for i, c := range criteria {
		for j, line := range strings.Split(normalizeCriterion(c), "\n") {
			if j == 0 {
				fmt.Fprintf(&goal, "%d. %s\n", i+1, line)
			} else {
				fmt.Fprintf(&goal, "   %s\n", line)
			}
		}
	}
	title = strings.Join(strings.Fields(title), " ")
	var b strings.Builder
	fmt.Fprintf(&b, "# Ready: story %d — %s\n", story, title)
	fmt.Fprintf(&b, "%s %s\n", readyHashKey, GoalHash(goal.String()))
	if !frozenAt.IsZero() {
		fmt.Fprintf(&b, "%s %s\n", readyFrozenKey, frozenAt.UTC().Format(time.RFC3339))
	}
	fmt.Fprintf(&b, "\n%s\n%s", readyGoalHeading, goal.String())
	return []byte(b.String())
}

// clip shortens untrusted text quoted in an error so one bad line cannot
// flood a screen.
func clipText(s string) string {
	const max = 80
	if len(s) <= max {
		return s
	}
	cut := max
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
