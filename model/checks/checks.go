// Package checks judges "every required check of the base is green" as
// GitHub judges it for a ruleset or branch protection: a required check is
// met by a commit status of its context or a check run of its name, the
// newest of each; a status is green on success, a check run when completed
// with success, neutral or skipped. Any failing check on the head — a
// required one or another workflow's — is named, so ship refuses it and the
// inbox flags it.
package checks

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aayudha/aayu/model/untrusted"
)

// State is one check's state on a commit.
type State string

const (
	Green   State = "green"
	Pending State = "pending" // queued, in progress, or a pending status
	Failing State = "failing"
)

// Check is one commit status or check run on a commit.
type Check struct {
	Name  string // the status's context, or the check run's name
	Kind  string // "status" or "check run"
	State State
	// Detail is the conclusion or state as GitHub gave it ("failure",
	// "timed_out", "error").
	Detail string
	By     string // the status's creator, or the check run's app slug
	URL    string // target_url or details_url
	// Summary is the status's description, or the check run's output
	// title: where inspect states its rung.
	Summary string
}

// FromStatus reads a commit status.
func FromStatus(context, state, creator, url string) Check {
	c := Check{Name: context, Kind: "status", Detail: state, By: creator, URL: url, State: Failing}
	switch state {
	case "success":
		c.State = Green
	case "pending":
		c.State = Pending
	}
	return c
}

// FromCheckRun reads a check run: skipped and neutral are green, as GitHub
// counts them for a required check.
func FromCheckRun(name, status, conclusion, app, url string) Check {
	// GraphQL spells states in capitals, REST in lower case.
	c := Check{Name: name, Kind: "check run", Detail: strings.ToLower(conclusion), By: app, URL: url, State: Pending}
	if strings.EqualFold(status, "completed") {
		c.State = Failing
		switch strings.ToLower(conclusion) {
		case "success", "neutral", "skipped":
			c.State = Green
		}
	}
	if c.Detail == "" {
		c.Detail = strings.ToLower(status)
	}
	return c
}

// Required is one check the base branch requires, and what requires it.
type Required struct {
	Name string
	By   string // "a ruleset" or "branch protection"
}

// Rule is the one "green" rule in the seed's words, as ship, merge on
// proof and the inbox's card hold a head to it (Judge decides it): a check
// nobody requires may still be running, but none may fail.
const Rule = "every required check of the base branch must be green, and no check may fail; a skipped or neutral required check counts as green, as GitHub counts it"

// Verdict is the head's checks judged against the base's requirements.
type Verdict struct {
	Failing []Check    // every failing check, required or not
	Missing []Required // required and never reported
	Pending []Required // required and not finished
	// Required lists the requirements judged, for the words of a pass.
	Required []Required
}

// Green says nothing fails and every required check passed: Rule.
func (v Verdict) Green() bool {
	return len(v.Failing) == 0 && len(v.Missing) == 0 && len(v.Pending) == 0
}

// Judge holds the checks on a head to the base's requirements. A name
// reported by both a status and a check run counts by its worst.
func Judge(list []Check, required []Required) Verdict {
	v := Verdict{Required: required}
	worst := map[string]State{}
	for _, c := range list {
		if c.State == Failing {
			v.Failing = append(v.Failing, c)
		}
		if cur, ok := worst[c.Name]; !ok || rank(c.State) > rank(cur) {
			worst[c.Name] = c.State
		}
	}
	seen := map[string]bool{}
	for _, r := range required {
		if seen[r.Name] {
			continue
		}
		seen[r.Name] = true
		switch st, ok := worst[r.Name]; {
		case !ok:
			v.Missing = append(v.Missing, r)
		case st == Pending:
			v.Pending = append(v.Pending, r)
		}
	}
	slices.SortStableFunc(v.Failing, func(a, b Check) int { return strings.Compare(a.Name, b.Name) })
	return v
}

func rank(s State) int {
	switch s {
	case Failing:
		return 2
	case Pending:
		return 1
	}
	return 0
}

// Describe names a check in words, sanitised: GitHub's names are untrusted.
func (c Check) Describe() string {
	by := ""
	if c.By != "" {
		if c.Kind == "status" {
			by = " posted by @" + untrusted.Line(c.By)
		} else {
			by = " of " + untrusted.Line(c.By)
		}
	}
	return fmt.Sprintf("the %s %q%s (%s)", c.Kind, untrusted.Line(c.Name), by, untrusted.Line(c.Detail))
}

// Refusals words a verdict that is not green, one line per reason, for the
// head (short SHA) and base branch named.
func (v Verdict) Refusals(head, base string) []string {
	var out []string
	for _, c := range v.Failing {
		out = append(out, fmt.Sprintf("%s failed on head %s; ship's rule is that %s — fix it or re-run it", c.Describe(), head, Rule))
	}
	for _, r := range v.Missing {
		out = append(out, fmt.Sprintf("the check %q, required on %s by %s, has not reported on head %s", untrusted.Line(r.Name), base, r.By, head))
	}
	for _, r := range v.Pending {
		out = append(out, fmt.Sprintf("the check %q, required on %s by %s, is still running on head %s; ship again when it is done", untrusted.Line(r.Name), base, r.By, head))
	}
	return out
}
