package ship

import (
	"fmt"
	"slices"
	"strings"

	"github.com/aayudha/aayu/actions/approve"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/model/untrusted"
)

// MaxListedFiles is how many files GitHub lists for a pull request; one
// with more needs a person, as ship cannot see them all.
const MaxListedFiles = pass.MaxListedFiles

// PlanReviewedPrefix starts a comment on the story by which a person who
// is not the author records the plan-time review a never layer needs.
const PlanReviewedPrefix = pass.PlanReviewedPrefix

// checkHumanPass is gate 4: the facts from GitHub and the ledger, judged by
// pass.HumanPass under the base branch's policy.
func (r *run) checkHumanPass() (gateOutcome, error) {
	if r.evidence.base == nil {
		return gateOutcome{refusals: []string{"the human pass cannot be judged without the base branch's policy"}}, nil
	}
	in, err := r.passInput()
	if err != nil {
		return gateOutcome{}, err
	}
	res := pass.HumanPass(in)
	if !res.Passed && r.target.resume != nil {
		res = r.passFromTrailers(res)
	}
	if res.Passed && res.Kind == pass.KindReview && r.passing.byRecord != "" && res.ReviewURL == r.passing.byRecord {
		res.Note = recordNote
	}
	r.passing.pass = res
	var detail []string
	for _, why := range pass.AlwaysPerson(in.Changed, in.Policy.AlwaysPerson) {
		detail = append(detail, "needs a person: "+why)
	}
	for _, why := range in.NeedsPerson {
		detail = append(detail, "needs a person: "+why)
	}
	detail = append(detail, r.passing.teamNotes...)
	detail = append(detail, r.evidence.proofNotes...)
	if res.Passed && res.Kind == pass.KindSoloBypass && !r.cfg.SoloBypass && r.target.resume == nil {
		// The bypass is judged as it would stand, so the person learns it is
		// the only pass; it is taken only when they ask for it.
		r.passing.bypassNotAsked = true
		noBypass := in
		noBypass.SoloBypass = nil
		refusals := append(pass.HumanPass(noBypass).Refusals, fmt.Sprintf(
			"only your Solo-mode bypass could pass head %s (in solo mode nobody else can review it), and ship takes a bypass only when you ask for it: run aayu ship %d --solo-bypass (its comment and the ship record say no review happened)",
			gitsha.Short(r.target.head), r.pr))
		r.passing.passOutcome = gateOutcome{refusals: refusals, detail: detail}
		return r.passing.passOutcome, nil
	}
	if !res.Passed {
		refusals := res.Refusals
		if r.cfg.SoloBypass && !identity.SoloMode(r.evidence.base.identity) {
			refusals = append(append([]string(nil), refusals...), noBypassHere)
		}
		r.passing.passOutcome = gateOutcome{refusals: refusals, detail: detail}
		return r.passing.passOutcome, nil
	}
	return gateOutcome{words: passWords(res), detail: detail}, nil
}

// noBypassHere follows the missing review when --solo-bypass was asked for
// in a repository that is not in solo mode: the bypass was never on offer,
// so its refusals are not listed as if the person had tried one.
const noBypassHere = "the solo-mode bypass is not available: this repository has a bot identity, so agents do not write as you and a review can be given — ask for one"

// plannedSession is the approval the bypass is judged with before anyone is
// asked: the one given earlier, else — where this process needs the
// presence check — the admin approval ship will ask for next, which
// checkPresence then holds the real one to. aayu's own lane and CI are
// never given one.
func (r *run) plannedSession() *identity.Session {
	cmd, need := Command(r.pr), identity.NeedFor(true)
	if r.cfg.Presence.Covers(cmd, need) {
		return r.cfg.Presence
	}
	d := r.human(need)
	if d.Outcome == identity.NeedsPresence && r.cfg.AskPresence != nil {
		return &identity.Session{Command: cmd, Login: r.cfg.Viewer, Access: need, Method: "the presence check, asked next"}
	}
	return r.cfg.Presence
}

func passWords(res pass.PassResult) string {
	switch res.Kind {
	case pass.KindReview:
		if res.Note == recordNote {
			return fmt.Sprintf("approved by @%s on head %s, by the review record %s", res.Login, gitsha.Short(res.Commit), res.ReviewURL)
		}
		return fmt.Sprintf("approved by @%s on head %s", res.Login, gitsha.Short(res.Commit))
	case pass.KindSoloBypass:
		return fmt.Sprintf("solo-mode bypass by @%s for head %s: no review happened, and the record will say so", res.Login, gitsha.Short(res.Commit))
	}
	return res.Kind + ": " + res.Note
}

// passFromTrailers is the pass an earlier run merged with, when the facts
// no longer read the same after the merge (a dismissed review, say).
func (r *run) passFromTrailers(now pass.PassResult) pass.PassResult {
	t := r.target.resume
	res := pass.PassResult{Passed: true, Kind: t.PassKind, Login: t.PassBy, Commit: r.target.head, Footprint: now.Footprint, Plan: now.Plan,
		Note: "recorded in the merge commit by the aayu ship run that merged it; read again now it does not pass: " + strings.Join(now.Refusals, "; ")}
	if t.PassKind == pass.KindSoloBypass {
		res.CommentURL = t.PassURL
	} else {
		res.ReviewURL = t.PassURL
	}
	return res
}

func (r *run) passInput() (pass.PassInput, error) {
	b := r.evidence.base
	in := pass.PassInput{Author: r.target.author, Head: r.target.head, BaseRef: r.target.baseRef, Policy: b.policy, Layers: b.layers, Codeowners: b.codeowners}
	var err error
	if in.Reviews, err = r.reviews(); err != nil {
		return in, err
	}
	rec, ok, err := r.recordedReview()
	if err != nil {
		return in, err
	}
	if ok {
		// The record is judged as a review like any other: one by the pull
		// request's author never counts (seed 001). In solo mode agents
		// write with the person's token, so the person is the author of
		// their pull requests and only the recorded bypass can pass them.
		in.Reviews = append(in.Reviews, rec)
		r.passing.byRecord = rec.URL
	}
	if in.Changed, in.NeedsPerson, err = r.changedFiles(); err != nil {
		return in, err
	}
	r.evidence.codeownerPaths = codeownerPaths(in.Changed, b.codeowners)
	if in.Teams, r.passing.teamNotes, err = r.teams(in); err != nil {
		return in, err
	}
	if in.Streaks, err = r.streaks(); err != nil {
		return in, err
	}
	never := pass.NeverTouched(in.Changed, b.layers, b.policy.Never)
	if len(never) > 0 {
		if in.PlanReview, err = r.planReview(never); err != nil {
			return in, err
		}
		r.passing.plan = in.PlanReview
	}
	if in.OnProof, err = r.onProof(); err != nil {
		return in, err
	}
	// Outside solo mode the bypass is never judged: the review is the pass.
	// In solo mode it is judged whether or not it was asked for, so a ship
	// that only a bypass could pass says so before anyone is asked.
	if identity.SoloMode(b.identity) {
		if err := r.loadPerson(); err != nil {
			return in, err
		}
		if err := r.loadComments(); err != nil {
			return in, err
		}
		here := r.process()
		in.SoloBypass = &identity.SoloBypassInput{Command: Command(r.pr), Here: &here,
			Session: r.plannedSession(), Identity: b.identity, Person: r.passing.person,
			Seats: map[string]string{"Engineering Manager": b.policy.EngineeringManager}, Comments: r.plannedComments(), Head: r.target.head}
	}
	return in, nil
}

// plannedComments are the pull request's comments plus, when the person has
// none for this head yet, the bypass comment ship will post once every
// check has passed: the bypass is judged as it will stand, and the comment
// is never posted for a ship that is refused.
func (r *run) plannedComments() []identity.Comment {
	if _, ok := identity.FindSoloBypassComment(r.passing.comments, r.cfg.Viewer, r.target.head, r.evidence.base.identity.BotLogins); ok {
		return r.passing.comments
	}
	planned := identity.Comment{Author: identity.Account{Login: r.cfg.Viewer, Permission: r.passing.person.Permission},
		Body: untrusted.Text(identity.SoloBypassComment(r.target.head, r.bypassWhy())), CreatedAt: r.cfg.Now()}
	return append(append([]identity.Comment(nil), r.passing.comments...), planned)
}

func (r *run) bypassWhy() string {
	if why := untrusted.RecordLine(r.cfg.SoloBypassWhy); why != "" {
		return why // one line: the reason cannot add a line of its own to the comment
	}
	return "solo mode: GitHub refuses self-approval and no bot App exists, so no second person can review this pull request; shipped with aayu ship --solo-bypass"
}

func (r *run) reviews() ([]pass.Review, error) {
	list, err := r.readReviews()
	if err != nil {
		return nil, fmt.Errorf("reading the reviews of #%d: %s", r.pr, ghx.Describe(err))
	}
	out := make([]pass.Review, 0, len(list))
	for _, v := range list {
		out = append(out, pass.Review{ID: v.GetID(), State: v.GetState(), CommitID: v.GetCommitID(), SubmittedAt: v.GetSubmittedAt().Time,
			URL: v.GetHTMLURL(), Author: identity.Account{Login: v.GetUser().GetLogin(), Bot: v.GetUser().GetType() == "Bot"}})
	}
	return out, nil
}

// changedFiles lists the pull request's files (a rename's old path too) and
// the reasons among them that a person must pass it.
func (r *run) changedFiles() ([]pass.ChangedFile, []string, error) {
	list, err := r.readFiles()
	if err != nil {
		return nil, nil, fmt.Errorf("reading the files of #%d: %s", r.pr, ghx.Describe(err))
	}
	var needs []string
	if why := pass.UnlistedFiles(len(list), r.target.pull.GetChangedFiles()); why != "" {
		needs = append(needs, why)
	}
	out := make([]pass.ChangedFile, 0, len(list))
	for _, f := range list {
		out = append(out, pass.ChangedFile{Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename()})
		for _, p := range []string{f.GetFilename(), f.GetPreviousFilename()} {
			if !isWorkflow(p) {
				continue
			}
			ref := r.target.head
			if f.GetStatus() == "removed" || p == f.GetPreviousFilename() {
				ref = r.evidence.base.tip
			}
			text, err := r.readFile(ref, p)
			if err != nil && !ghx.IsNotFound(err) {
				return nil, nil, fmt.Errorf("reading %s: %s", p, ghx.Describe(err))
			}
			if why := holdsCredential(text); why != "" {
				needs = append(needs, fmt.Sprintf("workflow %s %s", p, why))
			}
		}
	}
	return out, needs, nil
}

func (r *run) loadPerson() error {
	if r.passing.person.Login != "" {
		return nil
	}
	perm, err := ghx.Access(r.readPermission())
	if err != nil {
		return fmt.Errorf("reading your access to %s: %s", r.repoName(), ghx.Describe(err))
	}
	r.passing.person = identity.Account{Login: r.cfg.Viewer, Permission: perm}
	return nil
}

func (r *run) loadComments() error {
	if r.passing.comments != nil {
		return nil
	}
	var list []identity.Comment
	var err error
	if !r.passing.commentsTaken {
		// The first load is the human pass's, from the read-only round;
		// every later one (the bypass's compare-and-set, a Ready to ship
		// comment read back) asks GitHub again.
		r.passing.commentsTaken = true
		raw, rerr := r.readComments(r.pr)
		list, err = commentsOf(r.pr, raw, rerr)
	} else {
		list, err = r.issueComments(r.pr)
	}
	if err != nil {
		return err
	}
	r.passing.comments = list
	if r.passing.comments == nil {
		r.passing.comments = []identity.Comment{}
	}
	return nil
}

func (r *run) issueComments(n int) ([]identity.Comment, error) {
	list, err := r.listComments(r.ctx, n)
	return commentsOf(n, list, err)
}

// commentsOf is issue n's comments as identity reads them, or the read's
// error in words.
func commentsOf(n int, list []*github.IssueComment, err error) ([]identity.Comment, error) {
	if err != nil {
		return nil, fmt.Errorf("reading the comments of #%d: %w", n, described{err})
	}
	out := make([]identity.Comment, 0, len(list))
	for _, c := range list {
		out = append(out, identity.Comment{ID: c.GetID(), Body: untrusted.Text(c.GetBody()), CreatedAt: c.GetCreatedAt().Time, UpdatedAt: c.GetUpdatedAt().Time, URL: c.GetHTMLURL(),
			Author: identity.Account{Login: c.GetUser().GetLogin(), Bot: c.GetUser().GetType() == "Bot"}})
	}
	return out, nil
}

// planReview reads the plan-time review a never layer needs: the record
// aayu plan landed on the ledger (specs/N/plan-review.json), checked against
// the Story's comments. A review counts only when its "Plan reviewed:"
// comment is there, by the reviewer it names, a person who is not the pull
// request's author; a bypass only in solo mode, when its "Solo-mode bypass:"
// comment is there by the person who recorded it. Anything else is missing
// in words that name the command that records one.
func (r *run) planReview(never []string) (pass.PlanReview, error) {
	if r.target.story == 0 {
		return pass.PlanReview{Missing: "the pull request links no Story, so no plan review can be found; link it by a story/N-… or fix/N-… branch or Refs #N in its body"}, nil
	}
	next := "next: " + r.planCommand()
	path := pass.PlanRecordPath(r.target.story)
	b, err := r.readFile(LedgerBranch, path)
	if ghx.IsNotFound(err) {
		return pass.PlanReview{Missing: fmt.Sprintf("Story #%d has none recorded (%s on the ledger); %s", r.target.story, path, next)}, nil
	}
	if err != nil {
		return pass.PlanReview{}, fmt.Errorf("reading %s on the ledger: %s", path, ghx.Describe(err))
	}
	if f, err := ghx.RecordTampered(r.ctx, r.cfg.Client, r.cfg.Owner, r.cfg.Repo, LedgerBranch, path); err != nil {
		return pass.PlanReview{}, fmt.Errorf("checking the ledger's history of %s: %s", path, ghx.Describe(err))
	} else if f != nil {
		return pass.PlanReview{Missing: fmt.Sprintf("%s, so the plan review of Story #%d is not trusted; %s", f.Line(), r.target.story, next)}, nil
	}
	rec, err := pass.ParsePlanRecord(b)
	if err != nil {
		return pass.PlanReview{Missing: fmt.Sprintf("%s on the ledger does not read (%s); %s", path, untrusted.RecordLine(err.Error()), next)}, nil
	}
	if gap := rec.Gap(r.target.story, never, path); gap != "" {
		return pass.PlanReview{Missing: gap + "; " + next}, nil
	}
	comments, err := r.issueComments(r.target.story)
	if err != nil {
		return pass.PlanReview{}, err
	}
	var c *identity.Comment
	for i := range comments {
		if id := rec.CommentID(); (id != 0 && comments[i].ID == id) || (id == 0 && comments[i].URL == rec.CommentURL) {
			c = &comments[i]
		}
	}
	if c == nil {
		return pass.PlanReview{Missing: fmt.Sprintf("the comment the plan review of Story #%d stands on (%s) is not on the Story (deleted?); %s", r.target.story, untrusted.RecordLine(rec.CommentURL), next)}, nil
	}
	bots := r.evidence.base.policy.BotLogins
	switch rec.Kind {
	case pass.PlanKindReview:
		if isApprove, hash, ok := approve.ParseReply(c.Body.Raw()); ok && isApprove {
			// The person's own reply approving a batch that showed this
			// plan is their plan review (approve.applyPlan records it).
			if missing := r.batchPlanReview(*c, hash, rec, never, comments, bots); missing != "" {
				return pass.PlanReview{Missing: missing + "; " + next}, nil
			}
		} else if !strings.HasPrefix(strings.TrimSpace(c.Body.Raw()), PlanReviewedPrefix) || !identity.SameLogin(c.Author.Login, rec.Reviewer) || identity.IsBot(c.Author, bots) {
			return pass.PlanReview{Missing: fmt.Sprintf("the plan review of Story #%d names @%s, and its comment %s is not a %q comment by that person; %s",
				r.target.story, untrusted.RecordLine(rec.Reviewer), c.URL, PlanReviewedPrefix, next)}, nil
		}
		if identity.SameLogin(c.Author.Login, r.target.author) {
			return pass.PlanReview{Missing: fmt.Sprintf("the plan review of Story #%d is by @%s, the pull request's author, and an author's own plan review never counts; %s",
				r.target.story, c.Author.Login, next)}, nil
		}
		return pass.PlanReview{Reviewed: true, By: c.Author.Login, CommentURL: c.URL, Record: &rec}, nil
	case pass.KindSoloBypass:
		if !identity.SoloMode(r.evidence.base.identity) {
			return pass.PlanReview{Missing: fmt.Sprintf("the plan of Story #%d went through a solo-mode bypass, and this repository has a bot identity, so it needs a review; next: aayu plan %d by a person who is not the builder", r.target.story, r.target.story)}, nil
		}
		if _, ok := identity.FindSoloBypassComment([]identity.Comment{*c}, rec.RecordedBy, "", bots); !ok {
			return pass.PlanReview{Missing: fmt.Sprintf("the plan bypass of Story #%d stands on %s, which is not a %q comment by @%s; %s",
				r.target.story, c.URL, identity.SoloBypassPrefix, untrusted.RecordLine(rec.RecordedBy), next)}, nil
		}
		return pass.PlanReview{Bypass: true, CommentURL: c.URL, Record: &rec}, nil
	}
	return pass.PlanReview{Missing: fmt.Sprintf("%s on the ledger has kind %q; %s", path, untrusted.RecordLine(rec.Kind), next)}, nil
}

// batchPlanReview judges a plan review that stands on a reply whose first
// line is exactly `Approve batch HASH` (SPEC §10's reply): it counts only
// when the reply is the reviewer's own, never a bot's; the ledger's
// approvals/HASH.json is the batch it names (it hashes to HASH) and holds
// a plan review step for this Story covering every never layer this pull
// request touches; and the batch comment on the Story is exactly what
// aayu renders from that record, posted before the reply — the steps the
// person was shown. "" means it counts; otherwise the reason in words.
func (r *run) batchPlanReview(c identity.Comment, hash string, rec pass.PlanRecord, never []string, comments []identity.Comment, bots []string) string {
	if identity.IsBot(c.Author, bots) {
		return fmt.Sprintf("the plan review of Story #%d stands on an `Approve batch %s` comment by @%s, a bot, and a bot's comment is never a plan review", r.target.story, hash, c.Author.Login)
	}
	if !identity.SameLogin(c.Author.Login, rec.Reviewer) {
		return fmt.Sprintf("the plan review of Story #%d names @%s, and its `Approve batch %s` comment is by @%s", r.target.story, untrusted.RecordLine(rec.Reviewer), hash, c.Author.Login)
	}
	if c.Edited() {
		return fmt.Sprintf("the `Approve batch %s` reply the plan review of Story #%d stands on was edited after it was posted, so it could have said something else when it was read", hash, r.target.story)
	}
	st, found, err := approve.Ledger{Client: r.cfg.Client, Owner: r.cfg.Owner, Repo: r.cfg.Repo, Branch: LedgerBranch}.Stored(r.ctx, hash)
	switch {
	case err != nil:
		return fmt.Sprintf("batch %s, which the plan review of Story #%d stands on, could not be read (%s)", hash, r.target.story, untrusted.RecordLine(err.Error()))
	case !found:
		return fmt.Sprintf("the plan review of Story #%d stands on a reply to batch %s, and the ledger has no record of that batch (%s)", r.target.story, hash, approve.Path(hash))
	case st.Hash != hash || st.Record.Hash() != hash:
		return fmt.Sprintf("the ledger's record of batch %s does not hash to its name, so it is not the batch the reply approved", hash)
	}
	if _, ok := st.Record.PlanItemFor(r.target.story, never); !ok {
		for _, it := range st.Record.Items {
			if it.Kind == approve.KindPlan && it.Story == r.target.story && !it.Bypass {
				return fmt.Sprintf("batch %s's plan step for Story #%d covers %s, and this pull request touches %s", hash, r.target.story, orNone(it.Layers), strings.Join(never, ", "))
			}
		}
		return fmt.Sprintf("batch %s, which the reply approved, holds no plan review step for Story #%d, so the reply is no review of its plan", hash, r.target.story)
	}
	var batch *identity.Comment
	for i := range comments {
		if approve.MarkerIn(comments[i].Body.Raw()) == hash {
			batch = &comments[i]
			break
		}
	}
	switch {
	case batch == nil:
		return fmt.Sprintf("no comment of batch %s is on Story #%d, so nothing shows what the reply approved", hash, r.target.story)
	case batch.ID >= c.ID:
		return fmt.Sprintf("the reply approving batch %s came before the batch's comment on Story #%d", hash, r.target.story)
	case strings.TrimSpace(batch.Body.Raw()) != strings.TrimSpace(approve.Render(st.Record)):
		return fmt.Sprintf("the comment of batch %s on Story #%d is not what aayu renders from its record, so the reply may have approved other steps", hash, r.target.story)
	case batch.Edited():
		return fmt.Sprintf("the comment of batch %s on Story #%d was edited after it was posted, so its steps may not be the ones the reply approved", hash, r.target.story)
	}
	return ""
}

// planCommand is the command that records the plan review this pull
// request's Story needs: in solo mode nobody else can review it, so the
// bypass.
func (r *run) planCommand() string {
	if identity.SoloMode(r.evidence.base.identity) {
		return fmt.Sprintf("aayu plan %d --solo-bypass", r.target.story)
	}
	return fmt.Sprintf("aayu plan %d (by a person who is not the builder)", r.target.story)
}

func orNone(list []string) string {
	if len(list) == 0 {
		return "no never layer"
	}
	return strings.Join(list, ", ")
}

// codeownerPaths are the changed paths (a rename's old path too) that the
// base branch's CODEOWNERS names an owner for, in order, each once: ship
// records them when it merges on proof (seed 001: "ship records the merge
// as proof, with the checks, the rung, and any CODEOWNERS paths it
// merged").
func codeownerPaths(changed []pass.ChangedFile, owners *pass.Codeowners) []string {
	if owners == nil {
		return nil
	}
	var out []string
	for _, f := range changed {
		for _, p := range []string{f.Path, f.PreviousPath} {
			if p != "" && len(owners.Owners(p)) > 0 && !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	return out
}
