package pass

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aayudha/aayu/model/identity"
)

// Kinds of human pass, as ship.json's human_pass.kind records them.
const (
	KindReview     = "review"
	KindAutonomous = "autonomous"
	KindProof      = "proof"
	KindSoloBypass = "solo-bypass"
)

// SoloBypassNote is the note a bypass record carries: no review happened.
const SoloBypassNote = "solo mode: GitHub refuses self-approval and no bot App exists, so no second person could review"

// PlanReview is the plan-time review a never layer needs, as the caller
// found it on the story.
type PlanReview struct {
	Reviewed   bool   // a person who is not the author reviewed the plan
	By         string // who, when Reviewed
	Bypass     bool   // a recorded plan bypass (aayu plan --solo-bypass) stands in for it
	CommentURL string // the bypass comment
	// Record is specs/N/plan-review.json as ship found and checked it,
	// copied into ship.json; nil when there is none.
	Record *PlanRecord
	// Missing says, when there is neither, why the review found does not
	// count and which command records one; "" says the story has none.
	Missing string
}

// PassInput is every fact the human pass is judged on. Policy, Layers and
// Codeowners are the base branch's, never the pull request's.
type PassInput struct {
	Author     string // the pull request's author
	Head       string // its current head SHA
	BaseRef    string // the branch it merges into
	Reviews    []Review
	Policy     Policy
	Changed    []ChangedFile
	Layers     []Layer
	Codeowners *Codeowners         // nil when the base branch has none
	Teams      map[string][]string // "@org/team" → member logins, when read
	PlanReview PlanReview
	Streaks    map[string]int // correction-free merges per layer id
	// OnProof says ship found every merge-on-proof condition holding:
	// required checks green, the pack verified with floors holding, and a
	// fresh inspect judgement at a rung in proof_rungs, all from merge-gate
	// runs for this pull request.
	OnProof bool
	// NeedsPerson lists reasons found outside this package that a person
	// must pass this pull request (a workflow that holds a credential, more
	// files than GitHub lists).
	NeedsPerson []string
	// SoloBypass is set when the person asked for --solo-bypass.
	SoloBypass *identity.SoloBypassInput
}

// ReviewVerdict says whether one reviewer's latest decisive review counts.
type ReviewVerdict struct {
	Review Review
	Counts bool
	Why    string // why it does not count; "" when it does
}

// PlanResult is the never-layer plan review's part of the answer.
type PlanResult struct {
	Required bool
	Layers   []string // the never layers in the footprint
	By       string
	Bypass   bool
}

// PassResult is the human pass's answer: passed with a kind, or refused
// with every reason.
type PassResult struct {
	Passed     bool
	Kind       string // KindReview, KindAutonomous, KindProof, KindSoloBypass
	Login      string // who gave the pass (the reviewer, or the person who bypassed)
	Commit     string // the head it is for
	ReviewURL  string
	CommentURL string // the Solo-mode bypass: comment
	Note       string
	Footprint  []string
	Plan       PlanResult
	Reviews    []ReviewVerdict // each reviewer's latest decisive review, sorted by login
	Refusals   []string
}

// HumanPass applies seed 001's "The human pass" and SPEC §5. A pull request
// that needs no person (no never layer, no always_person path, nothing the
// caller flagged) passes on proof into the integration branch when
// autonomy.proof is on, or as autonomous when every layer of a non-empty
// footprint has a long enough correction-free streak. Otherwise it needs a
// review by the pass rule — the Engineering Manager seat's paired human,
// else autonomy.approver, else any human who is not the author — of the
// current head, never by a bot or the author; a never layer also needs a
// CODEOWNER of each of its changed paths and a plan review. With
// --solo-bypass and no review pass, the bypass passes when identity allows
// it and the never-layer rules still hold for the person.
func HumanPass(in PassInput) PassResult {
	res := PassResult{Commit: in.Head, Footprint: Footprint(in.Changed, in.Layers)}
	if in.Head == "" {
		res.Refusals = []string{"the pull request's head is not known, so no review can be matched to it"}
		return res
	}
	never := intersect(res.Footprint, in.Policy.Never)
	res.Plan = PlanResult{Required: len(never) > 0, Layers: never}
	needsPerson := append([]string(nil), in.NeedsPerson...)
	if len(never) > 0 {
		needsPerson = append(needsPerson, "it touches never layer "+strings.Join(never, ", "))
	}
	needsPerson = append(needsPerson, AlwaysPerson(in.Changed, in.Policy.AlwaysPerson)...)

	if len(needsPerson) == 0 {
		if in.Policy.Proof && in.OnProof && in.BaseRef == in.Policy.integrationBranch() {
			res.Passed, res.Kind = true, KindProof
			res.Note = fmt.Sprintf("merged into %s on proof with no review; audited", in.BaseRef)
			return res
		}
		if autonomous(res.Footprint, in.Streaks, in.Policy.Streak) {
			res.Passed, res.Kind = true, KindAutonomous
			res.Note = fmt.Sprintf("every layer of the footprint (%s) has at least %d correction-free merges; audited",
				strings.Join(res.Footprint, ", "), in.Policy.Streak)
			return res
		}
	}

	res.Reviews = verdicts(in)
	reviewRefusals, reviewer := passRule(in, res.Reviews)
	var approvers []string
	for _, v := range res.Reviews {
		if v.Counts {
			approvers = append(approvers, v.Review.Author.Login)
		}
	}
	neverRefusals := neverOwners(in, never, approvers)
	planRefusals := planReview(in.PlanReview, never, &res.Plan)
	if len(reviewRefusals)+len(neverRefusals)+len(planRefusals) == 0 {
		res.Passed, res.Kind = true, KindReview
		res.Login, res.ReviewURL = reviewer.Author.Login, reviewer.URL
		return res
	}
	if in.SoloBypass == nil {
		res.Refusals = concat(reviewRefusals, neverRefusals, planRefusals)
		return res
	}
	bypass := *in.SoloBypass
	bypass.Head = in.Head
	refusals := identity.SoloBypassRefusals(bypass)
	refusals = append(refusals, neverOwners(in, never, []string{bypass.Person.Login})...)
	if len(refusals)+len(planRefusals) > 0 {
		res.Refusals = concat(reviewRefusals, neverRefusals, planRefusals, prefixAll("the solo-mode bypass is refused: ", refusals))
		return res
	}
	c, _ := identity.FindSoloBypassComment(bypass.Comments, bypass.Person.Login, in.Head, bypass.Identity.BotLogins)
	res.Passed, res.Kind = true, KindSoloBypass
	res.Login, res.CommentURL, res.Note = bypass.Person.Login, c.URL, SoloBypassNote
	return res
}

func verdicts(in PassInput) []ReviewVerdict {
	var out []ReviewVerdict
	for _, r := range LatestDecisive(in.Reviews) {
		why := countsAsPass(r, in.Author, in.Head, in.Policy.BotLogins)
		out = append(out, ReviewVerdict{Review: r, Counts: why == "", Why: why})
	}
	sort.Slice(out, func(i, j int) bool {
		return strings.ToLower(out[i].Review.Author.Login) < strings.ToLower(out[j].Review.Author.Login)
	})
	return out
}

// passRule picks whose approval is the pass and says why it is missing.
func passRule(in PassInput, vs []ReviewVerdict) ([]string, Review) {
	who, role := in.Policy.EngineeringManager, "the Engineering Manager seat's paired human"
	if who == "" {
		who, role = in.Policy.Approver, "the [autonomy] approver"
	}
	if who == "" {
		for _, v := range vs {
			if v.Counts {
				return nil, v.Review
			}
		}
		reason := fmt.Sprintf("no human who is not the author (@%s) has approved head %s", in.Author, short(in.Head))
		return []string{withWhy(reason, vs)}, Review{}
	}
	who = strings.TrimPrefix(who, "@")
	if identity.SameLogin(who, in.Author) {
		return []string{fmt.Sprintf("the pass must come from %s, @%s, who is the author; an author's review never counts", role, who)}, Review{}
	}
	for _, v := range vs {
		if identity.SameLogin(v.Review.Author.Login, who) {
			if v.Counts {
				return nil, v.Review
			}
			return []string{fmt.Sprintf("the pass must come from %s, @%s, and %s", role, who, v.Why)}, Review{}
		}
	}
	return []string{fmt.Sprintf("the pass must come from %s, @%s, who has not approved head %s", role, who, short(in.Head))}, Review{}
}

func withWhy(reason string, vs []ReviewVerdict) string {
	var whys []string
	for _, v := range vs {
		if !v.Counts {
			whys = append(whys, v.Why)
		}
	}
	if len(whys) == 0 {
		return reason
	}
	return reason + " (" + strings.Join(whys, "; ") + ")"
}

// neverOwners checks that each changed path in a never layer is passed by
// one of its CODEOWNERS among approvers.
func neverOwners(in PassInput, never []string, approvers []string) []string {
	if len(never) == 0 {
		return nil
	}
	if in.Codeowners == nil {
		return []string{fmt.Sprintf("never layer %s needs a CODEOWNER of each changed path, and the base branch has no CODEOWNERS", strings.Join(never, ", "))}
	}
	var out []string
	for _, p := range uniqueSorted(paths(in.Changed)) {
		layer := ""
		for _, l := range in.Layers {
			if contains(never, l.ID) && l.Matches(p) {
				layer = l.ID
				break
			}
		}
		if layer == "" {
			continue
		}
		owners := in.Codeowners.Owners(p)
		if len(owners) == 0 {
			out = append(out, fmt.Sprintf("%s is in never layer %s and has no CODEOWNER, so no one can pass it", p, layer))
			continue
		}
		ok := false
		for _, a := range approvers {
			if IsOwner(owners, a, in.Teams) {
				ok = true
				break
			}
		}
		if !ok {
			out = append(out, fmt.Sprintf("%s is in never layer %s and needs a pass of head %s from one of its CODEOWNERS (%s)",
				p, layer, short(in.Head), strings.Join(owners, ", ")))
		}
	}
	return out
}

func planReview(pr PlanReview, never []string, res *PlanResult) []string {
	if len(never) == 0 {
		return nil
	}
	switch {
	case pr.Reviewed:
		res.By = pr.By
	case pr.Bypass:
		res.Bypass = true
	case pr.Missing != "":
		return []string{fmt.Sprintf("never layer %s needs a plan-time review: %s", strings.Join(never, ", "), pr.Missing)}
	default:
		return []string{fmt.Sprintf("never layer %s needs a plan-time review, and the story has none", strings.Join(never, ", "))}
	}
	return nil
}

// AlwaysPerson says, in words, which changed paths (old names of renames
// too) fall under autonomy.always_person; a pattern it cannot evaluate
// fails closed and says so. Ship shows these lines as the pass rule judges
// them, from this one matcher.
func AlwaysPerson(changed []ChangedFile, globs []string) []string {
	var out []string
	for _, g := range globs {
		cg, err := compileGlob(g)
		if err != nil {
			out = append(out, fmt.Sprintf("autonomy.always_person pattern %q cannot be evaluated, so every change needs a person", g))
			continue
		}
		for _, p := range paths(changed) {
			if cg.match(p) {
				out = append(out, p+" is in autonomy.always_person")
			}
		}
	}
	return out
}

func autonomous(footprint []string, streaks map[string]int, need int) bool {
	if need <= 0 || len(footprint) == 0 {
		return false
	}
	for _, l := range footprint {
		if streaks[l] < need {
			return false
		}
	}
	return true
}

func intersect(a, b []string) []string {
	var out []string
	for _, x := range a {
		if contains(b, x) {
			out = append(out, x)
		}
	}
	return out
}

func contains(set []string, s string) bool {
	for _, x := range set {
		if x == s {
			return true
		}
	}
	return false
}

func concat(lists ...[]string) []string {
	var out []string
	for _, l := range lists {
		out = append(out, l...)
	}
	return out
}

func prefixAll(prefix string, in []string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = prefix + s
	}
	return out
}
