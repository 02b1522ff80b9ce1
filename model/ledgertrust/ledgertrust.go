// Package ledgertrust decides, from one ledger commit's changes, whether the
// commit only added records or made one of aayu's own documented updates,
// or whether it deleted or rewrote an existing record: tampering (SPEC §11,
// "The ledger is append-only"). It is the one place that rule lives; ghx
// reads the history, the readers (inbox, plan, ship, audit, doctor) act on
// the findings. Pure: no I/O, no GitHub types.
package ledgertrust

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/untrusted"
)

// GitHub's words for a file's status in a commit (REST "Get a commit",
// files[].status).
const (
	Added     = "added"
	Modified  = "modified"
	Removed   = "removed"
	Renamed   = "renamed"
	Copied    = "copied"
	Changed   = "changed"
	Unchanged = "unchanged"
)

// SamplesPath is the audited merges' samples (one JSON line each), the
// file whose sample for a pull request makes removing its audit entry
// aayu's own update.
const SamplesPath = "autonomy/samples.jsonl"

// Change is one file of one commit, as GitHub lists it, with the contents
// Needs asked for (nil otherwise).
type Change struct {
	Path     string
	Previous string // a rename's old path
	Status   string
	Old, New []byte
}

// Commit is one ledger commit and the facts its documented updates are
// checked against.
type Commit struct {
	SHA    string
	Parent string // the first parent: where a tampered record's last trusted version is
	Author string // as git records it (name and email, or GitHub's login)
	// Changes are the commit's files against its first parent.
	Changes []Change
	// Samples is SamplesPath at this commit, read when NeedsSamples.
	Samples []byte
	// Comments are the bodies of the comments on each Story NeedsComments
	// names.
	Comments map[int][]string
}

// Finding is one tampering: a record deleted or rewritten by a commit that
// is none of aayu's documented updates.
type Finding struct {
	Commit  string `json:"commit"`
	Author  string `json:"author"`
	Path    string `json:"path"`
	What    string `json:"what"`    // "deleted" or "rewritten" (a force-push: the words of what it removed)
	Trusted string `json:"trusted"` // the commit holding the record's last untampered version
}

// Line is the finding in one line of words, its GitHub-supplied parts
// neutralised for a terminal.
func (f Finding) Line() string {
	sha := f.Commit
	if len(sha) > 12 {
		sha = sha[:12]
	}
	verb := "rewrote"
	if f.What == "deleted" {
		verb = "deleted"
	}
	return fmt.Sprintf("Ledger tampering: commit %s by %s %s %s",
		sha, untrusted.RecordLine(f.Author), verb, untrusted.RecordLine(f.Path))
}

var (
	auditRe   = lazyre.New(`^autonomy/audit/([1-9][0-9]*)\.json$`)
	readyRe   = lazyre.New(`^specs/([1-9][0-9]*)/ready\.md$`)
	planRe    = lazyre.New(`^specs/([1-9][0-9]*)/plan-review\.json$`)
	recordRe  = lazyre.New(`^approvals/[0-9a-f]{12}\.json$`)
	advisory  = lazyre.New(`^(proof/[1-9][0-9]*/[0-9a-f]{40}/advisory)/`)
	stateFile = lazyre.New(`^approvals/(?:[0-9a-f]{12}\.[a-z-]+\.json|sessions/[^/]+\.json)$`)
)

// NeedsContent says whether checking ch needs its old and new contents.
func NeedsContent(ch Change) bool {
	if ch.Status != Modified && ch.Status != Changed {
		return false
	}
	return strings.HasSuffix(ch.Path, ".jsonl") || readyRe().MatchString(ch.Path) || planRe().MatchString(ch.Path)
}

// NeedsSamples says whether checking c needs SamplesPath at c: it removes
// an audit entry.
func NeedsSamples(c Commit) bool {
	for _, ch := range c.Changes {
		if gone(ch) != "" && auditRe().MatchString(gone(ch)) {
			return true
		}
	}
	return false
}

// NeedsComments names the Stories whose comments checking c needs: their
// Ready snapshot changed.
func NeedsComments(c Commit) []int {
	var out []int
	for _, ch := range c.Changes {
		if m := readyRe().FindStringSubmatch(ch.Path); m != nil && (ch.Status == Modified || ch.Status == Changed) {
			n, _ := strconv.Atoi(m[1])
			out = append(out, n)
		}
	}
	return out
}

// gone is the path a change removes from the ledger: a removed file, or a
// rename's old path.
func gone(ch Change) string {
	switch ch.Status {
	case Removed:
		return ch.Path
	case Renamed:
		return ch.Previous
	}
	return ""
}

// Check returns the records c deletes or rewrites outside aayu's documented
// updates, each checked as the update it claims to be:
//   - an append to a .jsonl (the old bytes a prefix of the new), and in
//     autonomy/samples.jsonl a sample recorded clean marked a correction
//     in place (the inbox's "correction" on an audited merge);
//   - an audit entry autonomy/audit/N.json removed once the samples hold
//     pull request N's sample (the inbox's audit look, which appends the
//     sample first and removes the entry last);
//   - a Ready snapshot re-frozen with `aayu ready N --again`, its comment on
//     the Story naming the old and the new completion_goal_hash;
//   - a plan review replaced by a new review or bypass (another comment_url:
//     the plan reader checks that comment), never the same comment's record
//     widened;
//   - a batch's state files under approvals/ (never the batch record
//     approvals/HASH.json, which holds what the person was shown);
//   - an advisory pack pushed again over its own folder (the commit lands
//     that folder's pack.json).
//
// Added files are never findings. Everything else is.
func Check(c Commit) []Finding {
	var out []Finding
	find := func(path, what string) {
		out = append(out, Finding{Commit: c.SHA, Author: c.Author, Path: path, What: what, Trusted: c.Parent})
	}
	packs := map[string]bool{}
	for _, ch := range c.Changes {
		if m := advisory().FindStringSubmatch(ch.Path); m != nil && ch.Path == m[1]+"/pack.json" && ch.Status != Removed {
			packs[m[1]] = true
		}
	}
	for _, ch := range c.Changes {
		if p := gone(ch); p != "" {
			if !removalIsAayus(c, p, packs) {
				find(p, "deleted")
			}
			continue
		}
		switch ch.Status {
		case Added, Copied, Unchanged:
			continue
		}
		if !rewriteIsAayus(c, ch, packs) {
			find(ch.Path, "rewritten")
		}
	}
	return out
}

func removalIsAayus(c Commit, p string, packs map[string]bool) bool {
	if m := auditRe().FindStringSubmatch(p); m != nil {
		n, _ := strconv.Atoi(m[1])
		return hasSample(c.Samples, n)
	}
	if m := advisory().FindStringSubmatch(p); m != nil {
		return packs[m[1]]
	}
	return stateFile().MatchString(p)
}

func rewriteIsAayus(c Commit, ch Change, packs map[string]bool) bool {
	switch {
	case recordRe().MatchString(ch.Path):
		return false
	case stateFile().MatchString(ch.Path):
		return true
	case strings.HasSuffix(ch.Path, ".jsonl"):
		return appended(ch.Old, ch.New) || (ch.Path == SamplesPath && corrected(ch.Old, ch.New))
	case readyRe().MatchString(ch.Path):
		n, _ := strconv.Atoi(readyRe().FindStringSubmatch(ch.Path)[1])
		return refrozen(n, ch.Old, ch.New, c.Comments[n])
	case planRe().MatchString(ch.Path):
		return newReview(ch.Old, ch.New)
	}
	if m := advisory().FindStringSubmatch(ch.Path); m != nil {
		return packs[m[1]]
	}
	return false
}

// appended: the old bytes are a prefix of the new, which end a line.
func appended(old, new []byte) bool {
	return old != nil && new != nil && len(new) > len(old) && bytes.HasPrefix(new, old) &&
		(len(old) == 0 || old[len(old)-1] == '\n')
}

type sample struct {
	PR         int  `json:"pr"`
	Correction bool `json:"correction"`
}

func hasSample(samples []byte, pr int) bool {
	for _, line := range lines(samples) {
		var s sample
		if json.Unmarshal(line, &s) == nil && s.PR == pr {
			return true
		}
	}
	return false
}

// corrected: each old line is kept, or is a clean sample now marked a
// correction and nothing else changed; new lines may follow.
func corrected(old, new []byte) bool {
	o, n := lines(old), lines(new)
	if old == nil || new == nil || len(n) < len(o) {
		return false
	}
	flipped := false
	for i := range o {
		if bytes.Equal(o[i], n[i]) {
			continue
		}
		var before, after map[string]any
		if json.Unmarshal(o[i], &before) != nil || json.Unmarshal(n[i], &after) != nil ||
			before["correction"] != false || after["correction"] != true {
			return false
		}
		before["correction"] = true
		b1, _ := json.Marshal(before)
		b2, _ := json.Marshal(after)
		if !bytes.Equal(b1, b2) {
			return false
		}
		flipped = true
	}
	return flipped || len(n) > len(o)
}

func lines(b []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(make([]byte, 0, 64*1024), len(b)+1)
	for sc.Scan() {
		if len(bytes.TrimSpace(sc.Bytes())) > 0 {
			out = append(out, append([]byte(nil), sc.Bytes()...))
		}
	}
	return out
}

// goalHash is a Ready snapshot's completion_goal_hash line.
func goalHash(b []byte) string {
	for _, line := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), "completion_goal_hash:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}

// refrozen: the Story carries the comment `aayu ready N --again` leaves,
// naming this change's old and new completion_goal_hash.
func refrozen(story int, old, new []byte, comments []string) bool {
	was, now := goalHash(old), goalHash(new)
	if was == "" || now == "" || was == now {
		return false
	}
	for _, body := range comments {
		if strings.Contains(body, fmt.Sprintf("`aayu ready %d --again`", story)) &&
			strings.Contains(body, "new completion_goal_hash: `"+now+"`") &&
			strings.Contains(body, "old completion_goal_hash: `"+was+"`") {
			return true
		}
	}
	return false
}

// newReview: the plan review names another comment than before, for the
// same Story: a new review or bypass replacing the old one. The same
// comment's record changed (layers widened, the reviewer swapped) is not.
func newReview(old, new []byte) bool {
	var a, b struct {
		Story      int    `json:"story"`
		CommentURL string `json:"comment_url"`
	}
	if json.Unmarshal(old, &a) != nil || json.Unmarshal(new, &b) != nil {
		return false
	}
	return b.CommentURL != "" && b.CommentURL != a.CommentURL && a.Story == b.Story
}

// RestoredAuditEntries are the pull requests whose audit entry a finding
// shows deleted by tampering and whose audit is still not done (samples,
// autonomy/samples.jsonl as it stands, holds no sample for them): the
// inbox keeps their audit card as if the entry were there.
func RestoredAuditEntries(findings []Finding, samples []byte) []int {
	var out []int
	for _, f := range findings {
		m := auditRe().FindStringSubmatch(f.Path)
		if m == nil || f.What != "deleted" {
			continue
		}
		n, _ := strconv.Atoi(m[1])
		if !hasSample(samples, n) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

// Recheck says whether f may still be withdrawn by a fact that comes after
// its commit: `aayu ready N --again` lands the snapshot first and comments
// on the Story after, so a rewritten Ready snapshot is judged again on
// each run until its comment is there.
func Recheck(f Finding) bool { return f.What == "rewritten" && readyRe().MatchString(f.Path) }
