// Package audit reconciles the record a solo founder keeps: every
// Solo-mode bypass (from ship.json on the ledger, and from admin merges
// that carry the bypass comment without a ship record), every ledger
// commit written under the human-fallback identity, and every bypass
// comment recorded after its merge ("recorded late", seed 001). It is pure:
// ghx/auditread gathers the facts, the audit screen shows the report.
package audit

import (
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/model/untrusted"
)

// BypassPrefix starts the comment a person posts from their own account to
// record that no review happened (seed 001, "Solo mode").
const BypassPrefix = "Solo-mode bypass:"

// UnusedPrefix starts a bypass comment aayu ship edited because the merge
// it was posted for never happened: the head moved first
// (identity.UnusedSoloBypassPrefix). It grants nothing, and audit lists it.
const UnusedPrefix = "Unused Solo-mode bypass:"

// FallbackTrailer is the trailer the ledger writer adds to every commit
// made under the human-fallback identity (ghx.HumanFallbackTrailer).
const FallbackTrailer = "Aayudha-Identity: human-fallback"

// ShipRecord is what audit reads of one ship.json on the ledger.
type ShipRecord struct {
	Path      string // on the ledger
	Story     int
	PR        int
	Head      string
	Kind      string // human_pass.kind: review, autonomous, proof or solo-bypass
	Login     string // human_pass.login
	Comment   string // human_pass.comment_url
	Commit    string // human_pass.commit
	ShippedAt time.Time
	ShippedBy string
	// Plan is the never-layer plan review's bypass, when it was one.
	Plan *PlanBypass
}

// PlanBypass is plan_review.bypass of a ship record.
type PlanBypass struct {
	RecordedBy string
	RecordedAt time.Time
	Comment    string
}

// Comment is one Solo-mode bypass: comment on a pull request.
type Comment struct {
	ID        int64
	URL       string
	Login     string
	CreatedAt time.Time
}

// MergedPR is a merged pull request and the bypass comments on it.
type MergedPR struct {
	Number   int
	MergedAt time.Time
	Bypasses []Comment // oldest first
}

// LedgerCommit is one commit on the ledger branch.
type LedgerCommit struct {
	SHA     string
	Message untrusted.Text // as the committer wrote it
	Author  untrusted.Text // the commit's author name, free text
	When    time.Time
}

// Unused is one bypass comment ship marked as not used: its merge was
// refused because the head moved after the comment was posted.
type Unused struct {
	PR      int
	Comment Comment
}

// PlanRecord is a plan review's bypass as aayu plan landed it on the ledger
// (specs/N/plan-review.json, kind solo-bypass).
type PlanRecord struct {
	Story      int
	RecordedBy string
	RecordedAt time.Time
	Comment    string
}

// Facts are what the ledger and GitHub hold.
type Facts struct {
	Ships []ShipRecord
	// Plans are the plan bypasses aayu plan recorded, shipped or not.
	Plans   []PlanRecord
	Merged  map[int]MergedPR
	Unused  []Unused // on any pull request, open or closed
	Commits []LedgerCommit
	// Incomplete says, in words, what could not be read in full (a
	// truncated tree, a history longer than audit walks); "" when nothing.
	Incomplete []string
	// Tampering are the ledger commits that deleted or rewrote a record
	// outside aayu's own updates (ledgertrust), one line each.
	Tampering []string
}

// Bypass is one Solo-mode bypass in the report.
type Bypass struct {
	PR, Story int
	Login     string
	Via       string // "aayu ship --solo-bypass", "an admin merge without aayu ship", "the plan review"
	Head      string
	Comment   *Comment // nil when the comment is not on GitHub
	MergedAt  time.Time
	Late      bool // the comment came after the merge
}

// Fallback is one ledger commit under the human-fallback identity.
type Fallback struct {
	SHA             string
	Subject, Author untrusted.Text
	When            time.Time
}

// Report is the audit: each list sorted, Late a subset of Bypasses.
type Report struct {
	Bypasses   []Bypass
	Fallbacks  []Fallback
	Late       []Bypass
	Unused     []Unused // by pull request, then oldest first
	Incomplete []string
	Tampering  []string
}

// Reconcile turns the facts into the report.
func Reconcile(f Facts) Report {
	var r Report
	shipped := map[int]bool{}
	for _, s := range f.Ships {
		if s.Plan != nil {
			r.Bypasses = append(r.Bypasses, Bypass{PR: s.PR, Story: s.Story, Login: s.Plan.RecordedBy, Via: "the plan review",
				Head: s.Head, Comment: &Comment{URL: s.Plan.Comment, Login: s.Plan.RecordedBy, CreatedAt: s.Plan.RecordedAt}})
		}
		if s.Kind != "solo-bypass" {
			continue
		}
		shipped[s.PR] = true
		pr := f.Merged[s.PR]
		b := Bypass{PR: s.PR, Story: s.Story, Login: s.Login, Via: "aayu ship --solo-bypass", Head: s.Commit, MergedAt: pr.MergedAt}
		b.Comment = find(pr.Bypasses, s.Comment, s.Login)
		b.Late = late(b.Comment, pr.MergedAt)
		r.Bypasses = append(r.Bypasses, b)
	}
	// A plan bypass counts from when aayu plan records it: one no ship has
	// carried into its record yet is listed by its Story.
	planShipped := map[int]bool{}
	for _, s := range f.Ships {
		if s.Plan != nil {
			planShipped[s.Story] = true
		}
	}
	for _, p := range f.Plans {
		if planShipped[p.Story] {
			continue
		}
		r.Bypasses = append(r.Bypasses, Bypass{Story: p.Story, Login: p.RecordedBy, Via: "aayu plan --solo-bypass (the plan review, not shipped yet)",
			Comment: &Comment{URL: p.Comment, Login: p.RecordedBy, CreatedAt: p.RecordedAt}})
	}
	for n, pr := range f.Merged {
		if shipped[n] || len(pr.Bypasses) == 0 {
			continue
		}
		c := pr.Bypasses[0]
		b := Bypass{PR: n, Login: c.Login, Via: "an admin merge without aayu ship", Comment: &c, MergedAt: pr.MergedAt}
		b.Late = late(b.Comment, pr.MergedAt)
		r.Bypasses = append(r.Bypasses, b)
	}
	sort.SliceStable(r.Bypasses, func(i, j int) bool {
		if r.Bypasses[i].PR != r.Bypasses[j].PR {
			return r.Bypasses[i].PR < r.Bypasses[j].PR
		}
		return r.Bypasses[i].Via < r.Bypasses[j].Via
	})
	for _, b := range r.Bypasses {
		if b.Late {
			r.Late = append(r.Late, b)
		}
	}
	for _, c := range f.Commits {
		if !hasTrailer(c.Message.Raw(), FallbackTrailer) {
			continue
		}
		subject, _, _ := strings.Cut(c.Message.Raw(), "\n")
		r.Fallbacks = append(r.Fallbacks, Fallback{SHA: c.SHA, Subject: untrusted.Text(subject), Author: c.Author, When: c.When})
	}
	sort.SliceStable(r.Fallbacks, func(i, j int) bool { return r.Fallbacks[i].When.Before(r.Fallbacks[j].When) })
	r.Unused = append([]Unused(nil), f.Unused...)
	sort.SliceStable(r.Unused, func(i, j int) bool {
		if r.Unused[i].PR != r.Unused[j].PR {
			return r.Unused[i].PR < r.Unused[j].PR
		}
		return r.Unused[i].Comment.ID < r.Unused[j].Comment.ID
	})
	r.Incomplete = f.Incomplete
	r.Tampering = f.Tampering
	return r
}

// find picks the comment a ship record names by its URL's id, else the
// bypass author's oldest bypass comment on the pull request.
func find(cs []Comment, url, login string) *Comment {
	if i := strings.LastIndex(url, "issuecomment-"); i >= 0 {
		if id, err := strconv.ParseInt(url[i+len("issuecomment-"):], 10, 64); err == nil {
			for _, c := range cs {
				if c.ID == id {
					return &c
				}
			}
		}
	}
	for _, c := range cs {
		if strings.EqualFold(c.Login, login) {
			return &c
		}
	}
	return nil
}

// late: the oldest bypass comment is newer than the merge. A merge time
// unknown (the pull request could not be read) is never called late.
func late(c *Comment, mergedAt time.Time) bool {
	return c != nil && !mergedAt.IsZero() && c.CreatedAt.After(mergedAt)
}

// hasTrailer: a line of the message's last paragraph is the trailer, so a
// subject that merely mentions it does not count.
func hasTrailer(message, trailer string) bool {
	paras := strings.Split(strings.TrimSpace(strings.ReplaceAll(message, "\r\n", "\n")), "\n\n")
	if len(paras) < 2 {
		return false
	}
	for _, l := range strings.Split(paras[len(paras)-1], "\n") {
		if strings.EqualFold(strings.TrimSpace(l), trailer) {
			return true
		}
	}
	return false
}
