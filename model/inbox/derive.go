package inbox

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/waiver"

	"github.com/aayudha/aayu/model/untrusted"
)

// Derive lists every step waiting in the snapshot, ordered: NeedsYou
// first, then Housekeeping; within a group by kind (Kinds order), then by
// item number.
func Derive(s Snapshot) []Step {
	var steps []Step
	for _, is := range s.Issues {
		if is.Open() && is.HasLabel(LabelDecision) {
			steps = append(steps, decisionStep(s, is))
		}
	}
	issues := issueIndex(s) // once: per pull request it made Derive quadratic
	for _, pr := range s.PullRequests {
		if st, ok := openPRStep(s, issues, pr); ok {
			steps = append(steps, st)
		}
		if st, ok := auditStep(s, pr); ok {
			steps = append(steps, st)
		}
		if st, ok := planReviewStep(s, issues, pr); ok {
			steps = append(steps, st)
		}
	}
	steps = append(steps, mergedSteps(s)...)
	steps = append(steps, replacedSteps(s)...)
	ends := map[int]bool{} // items a housekeeping card finishes
	for _, st := range steps {
		if st.Kind.Group() == Housekeeping {
			ends[st.Item.Number] = true
		}
	}
	steps = append(steps, readySteps(s, ends)...)
	for i := range steps {
		finish(&steps[i])
	}
	sort.SliceStable(steps, func(i, j int) bool {
		a, b := steps[i], steps[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Kind != b.Kind {
			return a.Kind.rank() < b.Kind.rank()
		}
		return a.Item.Number < b.Item.Number
	})
	return steps
}

func decisionStep(s Snapshot, is Issue) Step {
	st := Step{Kind: KindDecision, Item: Item{Number: is.Number, Title: is.Title}, TextHash: waiver.TextHash(is.Title.Raw(), is.Body.Raw())}
	d, err := ParseDecision(is.Body.Raw())
	if err != nil {
		st.Problem = fmt.Sprintf("Decision #%d cannot be accepted here: %v. Open it and fix its body.", is.Number, strings.TrimPrefix(err.Error(), ErrNotDecision.Error()+": "))
		st.Choices = []Choice{{Key: "1", Label: "open it on GitHub", Recommended: true, Writes: []Write{{Kind: WriteOpen, Number: is.Number}}}}
		st.Counsel = untrusted.Text(st.Problem)
		return st
	}
	st.Door = d.Door
	waives, problem := floorWaiver(is, d)
	if problem != "" {
		st.Problem = fmt.Sprintf("Decision #%d cannot be accepted here: %s. Open it and fix its body.", is.Number, problem)
		st.Choices = []Choice{{Key: "1", Label: "open it on GitHub", Recommended: true, Writes: []Write{{Kind: WriteOpen, Number: is.Number}}}}
		st.Counsel = untrusted.Text(st.Problem)
		return st
	}
	// A floor waiver's acceptance carries the hash of the text the person
	// accepts: ship and the gate take the waiver only while the Decision
	// still hashes to it (waiver.Judge).
	accepted := ""
	if waives != nil {
		accepted = "\n" + waiver.TextLine(waiver.TextHash(is.Title.Raw(), is.Body.Raw()))
	}
	for _, o := range d.Options {
		c := Choice{
			Key:         strconv.Itoa(o.Number),
			Label:       fmt.Sprintf("accept option %d: %s", o.Number, o.Title),
			labelRaw:    fmt.Sprintf("accept option %d: %s", o.Number, o.Title.Raw()),
			Recommended: o.Recommended,
			OneWay:      d.Door == DoorOneWay,
			Writes: append(append([]Write{
				{Kind: WriteComment, Number: is.Number, Body: fmt.Sprintf("Accepted option %d (%s) by @%s", o.Number, o.Title, s.Viewer) + accepted}},
				StatusWrites(is.Number, is.Labels, LabelAccepted)...),
				Write{Kind: WriteClose, Number: is.Number, Reason: "completed"}),
		}
		if waives != nil && o.Number == waiver.WaiveOption {
			// The record lands first: a run stopped after it leaves the
			// Decision open, and the same pick finishes it; ship takes the
			// record only once the Decision is accepted.
			c.Writes = append([]Write{{Kind: WriteLedgerWaiver, Number: is.Number, Login: s.Viewer,
				Path: waiver.Path(waives.PR, waives.Head, waives.Floor), CommitID: waives.Head, Waiver: *waives}}, c.Writes...)
			// Last, once the Decision is accepted: the gate's run on that
			// head failed on the floor before the waiver stood, and its
			// status stays red until it runs again and reads it.
			c.Writes = append(c.Writes, Write{Kind: WriteGateRerun, Number: waives.PR, CommitID: waives.Head})
		}
		if o.Recommended && is.HasLabel(LabelProvisional) {
			// A provisional Decision (V8) was acted on before a person
			// decided it: its recommendation is to ratify what was done.
			c.Label = "ratify: " + c.Label
			c.labelRaw = "ratify: " + c.labelRaw
		}
		st.Choices = append(st.Choices, c)
	}
	st.Counsel = decisionCounsel(s.IssueComments[is.Number], d)
	halfDone(s, is, &st)
	return st
}

// halfDone marks a Decision an earlier run left half done: the person's
// "Accepted option N" comment is on it, but it is still open (the run was
// stopped, or a write failed, after the comment). Whatever happened to that
// run, GitHub says so: the card recommends finishing that option (each
// write is checked before it is made, so the comment is not posted twice)
// and refuses the others, which would accept a second option beside it.
func halfDone(s Snapshot, is Issue, st *Step) {
	n, hash := 0, ""
	for _, c := range s.IssueComments[is.Number] {
		if !identity.SameLogin(c.Author.Login, s.Viewer) {
			continue
		}
		if a, ok := Acceptance(c.Body.Raw()); ok && identity.SameLogin(a.Login, s.Viewer) {
			n, hash = a.Option, a.TextHash
		}
	}
	if n == 0 {
		return
	}
	key := strconv.Itoa(n)
	found := false
	for _, c := range st.Choices {
		found = found || c.Key == key
	}
	if !found {
		return
	}
	missing := "labelled " + LabelAccepted + " and closed"
	if is.HasLabel(LabelAccepted) {
		missing = "closed"
	}
	st.HalfDone = fmt.Sprintf("Half done: option %d was accepted in a comment by @%s, but #%d is not yet %s.", n, s.Viewer, is.Number, missing)
	if hash != "" && hash != waiver.TextHash(is.Title.Raw(), is.Body.Raw()) {
		// The comment names the text it accepted; finishing posts the
		// acceptance of the text as it reads now, so the person reads it.
		st.HalfDone += fmt.Sprintf(" Its title or body was edited after that comment: finishing accepts #%d as it reads now, so read it first.", is.Number)
	}
	for i := range st.Choices {
		c := &st.Choices[i]
		c.Recommended = c.Key == key
		if c.Key != key {
			c.Disabled = fmt.Sprintf("option %d was already accepted in a comment on #%d; finish that, or delete the comment on GitHub to choose again", n, is.Number)
		}
	}
}

// floorWaiver is what a floor-waiver Decision waives (nil for any other
// Decision), or why its body cannot be accepted: it names no pull request,
// head or floor, or its waiving option is not a one-way door.
func floorWaiver(is Issue, d Decision) (*waiver.Request, string) {
	if !is.HasLabel(waiver.Label) {
		return nil, ""
	}
	q, err := waiver.Parse(is.Body.Raw())
	switch {
	case err != nil:
		return nil, err.Error()
	case d.Door != DoorOneWay:
		return nil, "a floor waiver is a one-way door, and its Door line says " + string(d.Door)
	}
	return &q, ""
}

// AcceptedOption reads a comment accepting a Decision's option, as
// decisionStep writes it: the option and the login it names.
func AcceptedOption(body string) (option int, login string, ok bool) {
	a, ok := Acceptance(body)
	return a.Option, a.Login, ok
}

// Accepted is a comment accepting a Decision's option, read: the option,
// the login it names, and for a floor waiver the hash of the Decision's
// text it accepted (waiver.TextLine; "" when it carries none).
type Accepted struct {
	Option   int
	Login    string
	TextHash string
}

// Acceptance reads a comment accepting a Decision's option, as
// decisionStep writes it: its first line, and a floor waiver's second
// line naming the text's hash; ok is false for any other comment.
func Acceptance(body string) (Accepted, bool) {
	m := acceptedComment().FindStringSubmatch(strings.TrimSpace(body))
	if m == nil {
		return Accepted{}, false
	}
	n, _ := strconv.Atoi(m[1])
	return Accepted{Option: n, Login: m[2], TextHash: m[3]}, true
}

// acceptedComment is the comment accepting a Decision's option, as
// decisionStep writes it: the option's number and who accepted it, and
// for a floor waiver a second line, waiver.TextLine, the accepted text's
// hash. Nothing else may follow.
var acceptedComment = lazyre.New(`^Accepted option ([1-9]) \(.*\) by @([A-Za-z0-9-]+(?:\[bot\])?)(?:\r?\nAccepted text: sha256:([0-9a-f]{64}))?$`)

// openPRStep gives an open pull request's step, at most one: ready to ship
// wins over needs review, which wins over review stopped, so one pull
// request is never two cards.
func openPRStep(s Snapshot, issues map[int]Issue, pr PullRequest) (Step, bool) {
	st, ok := openPRStepUnflagged(s, issues, pr)
	if ok {
		flagFailingChecks(&st, s.PRFacts[pr.Number].Failing)
	}
	return st, ok
}

func openPRStepUnflagged(s Snapshot, issues map[int]Issue, pr PullRequest) (Step, bool) {
	if !pr.Open() {
		return Step{}, false
	}
	s = s.forBase(pr.BaseRef.Raw()) // ship judges it by its base's policy too
	if st, ok := bypassStopped(s, issues, pr); ok {
		return st, true
	}
	facts := s.PRFacts[pr.Number]
	item := Item{Number: pr.Number, Title: pr.Title, IsPR: true}
	open := Write{Kind: WriteOpen, Number: pr.Number}
	ship := Write{Kind: WriteOpenShip, Number: pr.Number, Solo: s.SoloMode}
	// In solo mode the only pass is the person's bypass, so the choice says
	// so in its own words: picking it is asking for the bypass.
	shipIt, shipGates := "ship it", "ship it, with every gate of ship"
	if s.SoloMode {
		shipIt = "ship it by your Solo-mode bypass (no review happened; ship lists its writes and asks first)"
		shipGates = "ship it by your Solo-mode bypass, with every gate of ship"
	}
	if story, ok := linkedOpen(issues, pr, LabelStory); ok && !pr.Draft && facts.MergeGate == "success" {
		if c, found := ReadyToShipComment(facts.Comments, pr.HeadSHA, s.BotLogins); found {
			return Step{Kind: KindReadyToShip, Item: item, Head: pr.HeadSHA,
				Links:   []Link{{Number: story.Number, Title: story.Title, Role: "links Story"}},
				Counsel: readyCounsel(pr, story, c, s.SoloMode),
				Choices: []Choice{
					{Key: "1", Label: shipIt, Recommended: true, Writes: []Write{ship}},
					{Key: "2", Label: "open it and review it", Writes: []Write{open}},
				}}, true
		}
	}
	inspect, ok := inspectOf(facts)
	if !ok {
		return Step{}, false
	}
	desc := strings.ToLower(strings.TrimSpace(inspect.Description.Raw()))
	switch {
	case AtHumanRung(facts) && !humanReviewed(s, facts, pr.Number, pr.HeadSHA):
		approve := Choice{Key: "2", Label: "approve its head", NeedsNote: "One line on what you checked:",
			Writes: []Write{
				{Kind: WriteReview, Number: pr.Number, CommitID: pr.HeadSHA, Login: s.Viewer},
				{Kind: WriteLedgerPut, Number: pr.Number, Path: fmt.Sprintf("reviews/%d/%s.json", pr.Number, pr.HeadSHA), Login: s.Viewer, CommitID: pr.HeadSHA},
			}}
		switch {
		case s.Approver == "":
			approve.Disabled = "only the [autonomy] approver may approve a head here, and none is set"
		case !identity.SameLogin(s.Approver, s.Viewer):
			approve.Disabled = fmt.Sprintf("only the [autonomy] approver, @%s, may approve a head here", strings.TrimPrefix(s.Approver, "@"))
		case identity.SameLogin(pr.Author.Login, s.Viewer) && s.SoloMode:
			// In solo mode agents write with the person's token, so GitHub
			// names the person as author and refuses their review. The review
			// record of exactly this head on the ledger, and the reply the gate
			// reads, move inspect past its human rung; they are not a human
			// pass: the author never counts, so ship needs the bypass.
			approve.Label = "approve its head (recorded on the ledger for inspect; you are its author, so ship still needs your Solo-mode bypass)"
			approve.Writes = []Write{
				approve.Writes[1],
				{Kind: WriteComment, Number: pr.Number, Body: HumanReviewReply(pr.Number, pr.HeadSHA, s.Viewer)},
			}
		case identity.SameLogin(pr.Author.Login, s.Viewer):
			approve.Disabled = "you opened this pull request, and GitHub refuses an author's own approval"
		}
		return Step{Kind: KindNeedsReview, Item: item, Head: pr.HeadSHA,
			Counsel: reviewCounsel(pr, inspect, facts),
			Choices: []Choice{{Key: "1", Label: "open it and review it", Recommended: true, Writes: []Write{open}}, approve}}, true
	case inspect.State == "failure" && (strings.HasPrefix(desc, "stopped") || strings.HasPrefix(desc, "review stopped")):
		// SPEC §11's "review stopped:", as the merge gate's inspect posts it.
		return Step{Kind: KindReviewStopped, Item: item, Head: pr.HeadSHA,
			Counsel: stoppedCounsel(pr, inspect),
			Choices: []Choice{
				{Key: "1", Label: "open it and review it", Recommended: true, Writes: []Write{open}},
				{Key: "2", Label: shipGates, Writes: []Write{ship}},
			}}, true
	}
	return Step{}, false
}

// AtHumanRung says inspect waits on the head at its human rung: the one
// state in which the card offers "approve its head", so the only one in
// which the reader needs the head's review record on the ledger.
func AtHumanRung(facts PRFacts) bool {
	inspect, ok := inspectOf(facts)
	return ok && inspect.State == "pending" &&
		strings.HasPrefix(strings.ToLower(strings.TrimSpace(inspect.Description.Raw())), "human rung")
}

var headWord = lazyre.New(`\b[0-9a-fA-F]{40}\b`)

// ReadyToShipComment finds the newest comment that starts with "Ready to
// ship", names head's full SHA as a word, and is by a person (not a bot)
// with write or admin access — what aayu ship posts when it stops only for
// the human pass.
func ReadyToShipComment(comments []identity.Comment, head string, botLogins []string) (identity.Comment, bool) {
	var found identity.Comment
	ok := false
	if head == "" {
		return found, false
	}
	for _, c := range comments {
		if identity.IsBot(c.Author, botLogins) || c.Author.Access() < identity.AccessWrite {
			continue
		}
		if !strings.HasPrefix(strings.TrimLeft(c.Body.Raw(), " \t\r\n"), "Ready to ship") {
			continue
		}
		named := false
		for _, w := range headWord().FindAllString(c.Body.Raw(), -1) {
			named = named || strings.EqualFold(w, head)
		}
		if named && (!ok || c.CreatedAt.After(found.CreatedAt) || (c.CreatedAt.Equal(found.CreatedAt) && c.ID > found.ID)) {
			found, ok = c, true
		}
	}
	return found, ok
}

// inspectOf is inspect's judgement on the head as ship takes it: the
// aayudha/inspect status the merge gate's own run posted (FromGate, decided
// by checks.InspectFromGate). One any other account posted is ignored: it
// neither makes a card nor says what a card says.
func inspectOf(facts PRFacts) (Status, bool) {
	for _, st := range facts.Statuses {
		if st.Context.Raw() == InspectContext && st.FromGate {
			return st, true
		}
	}
	return Status{}, false
}

// linkedOpen returns the first open issue with label that pr links.
func linkedOpen(issues map[int]Issue, pr PullRequest, label string) (Issue, bool) {
	for _, n := range LinkedIssues(pr.HeadRef.Raw(), pr.Body.Raw()) {
		if is, ok := issues[n]; ok && is.Open() && is.HasLabel(label) {
			return is, true
		}
	}
	return Issue{}, false
}

func issueIndex(s Snapshot) map[int]Issue {
	m := make(map[int]Issue, len(s.Issues))
	for _, is := range s.Issues {
		m[is.Number] = is
	}
	return m
}

// HumanReviewPrefix starts the reply the merge gate's inspect reads as a
// person's review of a head at the human rung.
const HumanReviewPrefix = "Human review:"

// HumanReviewReply is that reply for a review recorded on the ledger: it
// names the full head, so it is bound to one commit, and the record's path.
func HumanReviewReply(pr int, head, login string) string {
	return fmt.Sprintf("%s @%s approved head %s through aayu inbox. GitHub refuses an author's own review, and in solo mode agents write as @%s, so the review is recorded on the ledger at reviews/%d/%s.json.\n\n<!-- aayu:human-review head=%s -->",
		HumanReviewPrefix, strings.TrimPrefix(login, "@"), head, strings.TrimPrefix(login, "@"), pr, head, head)
}

// humanReviewed says the approver already approved exactly this head, as
// "approve its head" writes it, whole, so the step no longer waits for them
// and is not offered again in a later session: their Human review: reply
// names it (solo mode: the record, then the reply), or their latest
// decisive review on GitHub approves it and the ledger's review record of
// it (reviews/PR/HEAD.json) names them. Either half alone keeps the card,
// so the next Enter finishes what landed in part. None of this is a pass
// here: ship judges its own.
func humanReviewed(s Snapshot, facts PRFacts, pr int, head string) bool {
	if s.Approver == "" || head == "" {
		return false
	}
	approver := strings.TrimPrefix(s.Approver, "@")
	rv, reviewed := pass.LatestDecisive(facts.Reviews)[strings.ToLower(approver)]
	reviewed = reviewed && strings.EqualFold(rv.State, pass.StateApproved) && strings.EqualFold(rv.CommitID, head) && !identity.IsBot(rv.Author, s.BotLogins)
	rec, recorded := s.ReviewRecords[pr]
	recorded = recorded && strings.EqualFold(rec.Head, head) && identity.SameLogin(rec.Login, approver)
	if reviewed && recorded {
		return true
	}
	for _, c := range facts.Comments {
		if identity.IsBot(c.Author, s.BotLogins) || !identity.SameLogin(c.Author.Login, strings.TrimPrefix(s.Approver, "@")) {
			continue
		}
		if !strings.HasPrefix(strings.TrimLeft(c.Body.Raw(), " \t\r\n"), HumanReviewPrefix) {
			continue
		}
		for _, w := range headWord().FindAllString(c.Body.Raw(), -1) {
			if strings.EqualFold(w, head) {
				return true
			}
		}
	}
	return false
}

// AcceptedIn reads a Decision's comment accepting one of its options
// ("Accepted option N (TITLE) by @LOGIN"): the option and the login; ok is
// false for any other comment.
func AcceptedIn(body string) (option int, by string, ok bool) {
	return AcceptedOption(body)
}
