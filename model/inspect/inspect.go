// Package inspect is the merge gate's judge of the agent's own choice of
// evidence (seed 001's inspect): for each criterion of the Ready snapshot,
// whether the tests the evidence map names for it ran and passed in this
// pack's events, exist at the head, can fail at all, were red on the base
// for a Bug, and are not spent on two unrelated criteria; then, when a
// reviewer model is configured, its rung and reasons per criterion; and
// from all of it the one aayudha/inspect status the gate posts. It is pure:
// the gate's reads and the model's call are the caller's, and nothing here
// writes anything — a model's answer can only choose a rung and reasons.
package inspect

import (
	"fmt"
	"slices"
	"strings"
)

// The rungs a review can reach (SPEC §11): A, B and C are a model's, the
// human rung waits for a person, and a review that did not converge in
// Rounds rounds on distinct heads stops.
const (
	RungA       = "A"
	RungB       = "B"
	RungC       = "C"
	RungHuman   = "human"
	RungStopped = "stopped"
)

// Rounds is how many rounds on distinct heads a review runs without
// converging before it stops and asks the builder to step back.
const Rounds = 3

// NoReviewer is why the gate waits at the human rung when no reviewer is
// configured: seed 001's words for the card.
const NoReviewer = "no reviewer app or paid model could review this head"

// Version is the judgement file's version.
const Version = 1

// Criterion is one criterion of the Ready snapshot with the tests the
// evidence map at the head names for it, and what the gate found of each.
type Criterion struct {
	ID   int    `json:"id"`
	Text string `json:"text"`
	// Tests are the mapped tests, "pkg/path:TestName".
	Tests []string `json:"tests"`
	// Problems are the deterministic findings, in words; none means the
	// mapped tests ran, passed, exist at the head and can fail.
	Problems []string `json:"problems,omitempty"`
	// Rung, Shown and Reasons are the reviewer model's answer; empty when
	// no model judged this criterion.
	Rung    string `json:"rung,omitempty"`
	Shown   bool   `json:"shown,omitempty"`
	Reasons string `json:"reasons,omitempty"`
}

// Spend is what the reviewer model cost for this head.
type Spend struct {
	TokensIn  int64   `json:"tokens_in"`
	TokensOut int64   `json:"tokens_out"`
	USD       float64 `json:"usd"`
}

// Judgement is inspect's judgement of one head: what the gate's comment
// lists and the status it posts.
type Judgement struct {
	Version  int         `json:"version"`
	PR       int         `json:"pr"`
	Head     string      `json:"head"`
	Story    int         `json:"story"`
	Bug      bool        `json:"bug,omitempty"`
	Criteria []Criterion `json:"criteria"`
	// Reviewer names the model that reviewed ("openai gpt-4o"); empty when
	// none did.
	Reviewer string `json:"reviewer,omitempty"`
	// Builder is the model that built the head, as the pack records it
	// (the head commit's Aayudha-Model trailer; the agent's word), and
	// ReviewerModel the [inspect] model that reviewed it: their families
	// cap the rung (Cap). Capped says why the rung was capped, "" when it
	// was not.
	Builder       string `json:"builder,omitempty"`
	ReviewerModel string `json:"reviewer_model,omitempty"`
	Capped        string `json:"capped,omitempty"`
	// Rung is the judgement's rung: A, B, C, human or stopped.
	Rung string `json:"rung"`
	// Why says, for the human rung, why no model's rung stands.
	Why   string `json:"why,omitempty"`
	Round int    `json:"round,omitempty"`
	Spend Spend  `json:"spend"`
}

// Problems counts the deterministic findings over every criterion.
func (j Judgement) Problems() int {
	n := 0
	for _, c := range j.Criteria {
		n += len(c.Problems)
	}
	return n
}

// notShown lists the criteria the review does not take as shown: a
// deterministic finding, or the model's "not shown".
func (j Judgement) notShown() []int {
	var ids []int
	for _, c := range j.Criteria {
		if len(c.Problems) > 0 || !c.Shown {
			ids = append(ids, c.ID)
		}
	}
	return ids
}

// Status is the aayudha/inspect commit status for the judgement: its state
// and its description, which begins with the rung as SPEC §11 fixes it.
// GitHub keeps at most 140 characters of a description.
func (j Judgement) Status() (state, description string) {
	switch j.Rung {
	case RungA, RungB, RungC:
		if missing := j.notShown(); len(missing) > 0 {
			return "failure", clip(fmt.Sprintf("rung %s: round %d of %d did not converge; not shown: %s", j.Rung, j.Round, Rounds, criteriaWords(missing)))
		}
		return "success", clip(fmt.Sprintf("rung %s: every criterion's mapped tests show its promise (%d %s)", j.Rung, len(j.Criteria), plural(len(j.Criteria), "criterion", "criteria")))
	case RungStopped:
		return "failure", clip(fmt.Sprintf("review stopped: %d rounds on distinct heads did not converge; step back and rethink the approach", Rounds))
	}
	why := j.Why
	if why == "" {
		why = NoReviewer
	}
	return "pending", clip("human rung: " + why)
}

// Decide sets the judgement's rung from the model's answers (already on
// each criterion) and the rounds before this one. reviewed says a model
// answered for every criterion; why, when it did not, is the reason the
// human rung stands. prior is how many earlier heads of the pull request
// the gate judged without converging (Prior). A model's rung never stands
// alone: the judgement's rung is the lowest the model gave any criterion,
// and never better than the builder's and the reviewer's families allow
// (Cap: an unknown builder family, or a same-family review, is rung C).
func (j *Judgement) Decide(reviewed bool, why string, prior int) {
	j.Round, j.Capped = 0, ""
	if !reviewed {
		j.Rung, j.Why = RungHuman, why
		if j.Why == "" {
			j.Why = NoReviewer
		}
		return
	}
	j.Why = ""
	j.Rung = RungA
	for _, c := range j.Criteria {
		if rungRank(c.Rung) > rungRank(j.Rung) {
			j.Rung = c.Rung
		}
	}
	if most, capped := Cap(j.Builder, j.ReviewerModel); rungRank(most) > rungRank(j.Rung) {
		j.Rung, j.Capped = most, capped
	}
	if len(j.notShown()) == 0 {
		return
	}
	j.Round = prior + 1
	if j.Round >= Rounds {
		j.Rung = RungStopped
	}
}

// rungRank orders the model's rungs, A best.
func rungRank(r string) int {
	return strings.Index("ABC", r)
}

// DidNotConverge says an aayudha/inspect status from the gate records a
// round that did not converge: the rounds Prior counts.
func DidNotConverge(state, description string) bool {
	return state == "failure" && strings.HasPrefix(description, "rung ") && strings.Contains(description, "did not converge")
}

// PriorStatus is the gate's aayudha/inspect status on an earlier head of
// the pull request.
type PriorStatus struct {
	Head, State, Description string
}

// Prior counts the distinct earlier heads (not head) whose gate judgement
// did not converge: the rounds before this one.
func Prior(statuses []PriorStatus, head string) int {
	seen := map[string]bool{}
	for _, s := range statuses {
		if strings.EqualFold(s.Head, head) || seen[strings.ToLower(s.Head)] {
			continue
		}
		if DidNotConverge(s.State, s.Description) {
			seen[strings.ToLower(s.Head)] = true
		}
	}
	return len(seen)
}

// Validate checks a judgement read back from the inspect job's file, so
// the comment job posts only what aayu itself would: the head it judged,
// a known rung, and criteria it can name.
func (j Judgement) Validate(pr int, head string) error {
	switch {
	case j.Version != Version:
		return fmt.Errorf("the judgement is version %d; this aayu reads version %d", j.Version, Version)
	case j.PR != pr:
		return fmt.Errorf("the judgement is of #%d, not #%d", j.PR, pr)
	case !strings.EqualFold(j.Head, head):
		return fmt.Errorf("the judgement is of head %s, not the pull request's head %s", j.Head, head)
	case !slices.Contains([]string{RungA, RungB, RungC, RungHuman, RungStopped}, j.Rung):
		return fmt.Errorf("the judgement's rung %q is none inspect gives", j.Rung)
	}
	if most, why := Cap(j.Builder, j.ReviewerModel); (j.Rung == RungA || j.Rung == RungB) && rungRank(j.Rung) < rungRank(most) {
		return fmt.Errorf("the judgement's rung %s is above rung %s, the most its families allow: %s", j.Rung, most, why)
	}
	for _, c := range j.Criteria {
		if c.Rung != "" && rungRank(c.Rung) < 0 {
			return fmt.Errorf("criterion %d's rung %q is none a model may give", c.ID, c.Rung)
		}
	}
	return nil
}

func criteriaWords(ids []int) string {
	w := make([]string, len(ids))
	for i, id := range ids {
		w[i] = fmt.Sprint(id)
	}
	return plural(len(ids), "criterion ", "criteria ") + strings.Join(w, ", ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// clip keeps a status description within GitHub's 140 characters.
func clip(s string) string {
	r := []rune(s)
	if len(r) <= 140 {
		return s
	}
	return string(r[:139]) + "…"
}
