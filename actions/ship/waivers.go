package ship

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/waiver"
	"github.com/aayudha/aayu/proof"
)

// WaiverRecord is one floor ship took as waived, in ship.json: the floor,
// the head, the accepted Decision and who accepted it.
type WaiverRecord struct {
	Floor      string `json:"floor"`
	Head       string `json:"head"`
	Decision   int    `json:"decision"`
	AcceptedBy string `json:"accepted_by"`
	Record     string `json:"record"` // the ledger path of the waiver's record
}

// maxWaiverRecord caps one waiver record read from the ledger.
const maxWaiverRecord = 64 << 10

// waivedFloors judges each floor that does not hold in the gate's pack by
// model/waiver's rule: every one must be waived by an accepted waiver
// Decision for exactly this pull request, head and floor, its record on
// the ledger. It returns the waivers when all are, else each floor's
// refusal in words.
func (r *run) waivedFloors(failed []proof.Check) ([]WaiverRecord, []string, error) {
	if len(failed) == 0 {
		return nil, []string{"the pack lists no checks, and no waiver stands in for none"}, nil
	}
	found, err := r.waiverCandidates()
	if err != nil {
		return nil, nil, err
	}
	var bots []string
	if r.evidence.base != nil {
		bots = r.evidence.base.identity.BotLogins
	}
	var out []WaiverRecord
	var refusals []string
	for _, c := range failed {
		want := waiver.Want{PR: r.pr, Head: r.target.head, Floor: c.Floor}
		v := waiver.Judge(want, found, bots)
		if !v.Waived {
			refusals = append(refusals, fmt.Sprintf("floor %s: %s", c.Floor, v.Why))
			continue
		}
		out = append(out, WaiverRecord{Floor: c.Floor, Head: r.target.head, Decision: v.Decision, AcceptedBy: v.AcceptedBy,
			Record: waiver.Path(r.pr, r.target.head, c.Floor)})
	}
	return out, refusals, nil
}

// waiverCandidates reads every waiver record of this pull request on the
// ledger, and the Decision each names, through ship's read-only round.
func (r *run) waiverCandidates() ([]waiver.Candidate, error) {
	return waiverReader{ctx: r.ctx, client: r.cfg.Client, owner: r.cfg.Owner, repo: r.cfg.Repo,
		readFile: r.readFile, readComments: r.readComments}.candidates(r.pr)
}

// FloorWaivers judges floors of pull request pr's pack at head by ship's
// own rule (model/waiver), reading the ledger and the Decisions as ship
// does: each floor's verdict, waived or why not. The pack viewer shows a
// failing floor as waived only where this says so.
func FloorWaivers(ctx context.Context, client *github.Client, owner, repo string, pr int, head string, floors, bots []string) (map[string]waiver.Verdict, error) {
	rd := waiverReader{ctx: ctx, client: client, owner: owner, repo: repo,
		readFile: func(ref, path string) ([]byte, error) { return ghx.ReadFile(ctx, client, owner, repo, ref, path) },
		readComments: func(n int) ([]*github.IssueComment, error) {
			return ghx.ListAll(ctx, func(lo *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
				return client.Issues.ListComments(ctx, owner, repo, n, &github.IssueListCommentsOptions{ListOptions: *lo})
			})
		}}
	found, err := rd.candidates(pr)
	if err != nil {
		return nil, err
	}
	out := map[string]waiver.Verdict{}
	for _, f := range floors {
		out[f] = waiver.Judge(waiver.Want{PR: pr, Head: head, Floor: f}, found, bots)
	}
	return out, nil
}

// waiverReader reads the waiver records of a pull request and their
// Decisions.
type waiverReader struct {
	ctx          context.Context
	client       *github.Client
	owner, repo  string
	readFile     func(ref, path string) ([]byte, error)
	readComments func(n int) ([]*github.IssueComment, error)
}

// candidates reads every waiver record of pull request pr on the ledger,
// and for each the Decision it names as GitHub has it now: its labels,
// state, title and body and the comments accepting an option, with when
// GitHub records each as posted and as last changed.
func (rd waiverReader) candidates(pr int) ([]waiver.Candidate, error) {
	entries, err := ghx.ListTree(rd.ctx, rd.client, rd.owner, rd.repo, LedgerBranch, waiver.Dir(pr))
	if ghx.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("listing %s on the ledger: %s", waiver.Dir(pr), ghx.Describe(err))
	}
	decisions := map[int]*waiver.Decision{}
	var out []waiver.Candidate
	for _, e := range entries {
		if e.Type != "file" || !strings.HasSuffix(e.Name, ".json") {
			continue
		}
		c := waiver.Candidate{Path: waiver.Dir(pr) + "/" + e.Name}
		raw, err := rd.readFile(LedgerBranch, c.Path)
		switch {
		case err != nil:
			return nil, fmt.Errorf("reading %s on the ledger: %s", c.Path, ghx.Describe(err))
		case len(raw) > maxWaiverRecord:
			c.Err = fmt.Sprintf("it is %d bytes, more than a waiver record holds", len(raw))
		default:
			dec := json.NewDecoder(bytes.NewReader(raw))
			dec.DisallowUnknownFields()
			if err := dec.Decode(&c.Record); err != nil {
				c.Err = "it is not a waiver record: " + err.Error()
			}
		}
		if c.Err == "" && c.Record.Decision > 0 {
			d, ok := decisions[c.Record.Decision]
			if !ok {
				if d, err = rd.decision(c.Record.Decision); err != nil {
					return nil, err
				}
				decisions[c.Record.Decision] = d
			}
			c.Decision = d
		}
		out = append(out, c)
	}
	return out, nil
}

// decision reads Decision n as the waiver rule judges it; nil when the
// repository has no such issue.
func (rd waiverReader) decision(n int) (*waiver.Decision, error) {
	is, _, err := rd.client.Issues.Get(rd.ctx, rd.owner, rd.repo, n)
	if ghx.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading Decision #%d, named by a waiver on the ledger: %s", n, ghx.Describe(err))
	}
	if is.IsPullRequest() {
		return nil, nil
	}
	d := &waiver.Decision{Number: n, State: is.GetState(), StateReason: is.GetStateReason(), Title: is.GetTitle(), Body: is.GetBody()}
	for _, l := range is.Labels {
		d.Labels = append(d.Labels, l.GetName())
	}
	comments, err := rd.readComments(n)
	if err != nil {
		return nil, fmt.Errorf("reading the comments on Decision #%d: %s", n, ghx.Describe(err))
	}
	for _, c := range comments {
		if a, ok := inbox.Acceptance(c.GetBody()); ok {
			d.Accepts = append(d.Accepts, waiver.Accept{Author: c.GetUser().GetLogin(), Option: a.Option, Named: a.Login,
				TextHash: a.TextHash, CreatedAt: c.GetCreatedAt().Time, UpdatedAt: c.GetUpdatedAt().Time})
		}
	}
	return d, nil
}

// waiverWords is gate 3's line for a pack whose failing floors are all
// waived.
func waiverWords(ws []WaiverRecord) string {
	parts := make([]string, len(ws))
	for i, w := range ws {
		parts[i] = fmt.Sprintf("floor %s waived for head %s by Decision #%d, accepted by @%s", w.Floor, gitsha.Short(w.Head), w.Decision, w.AcceptedBy)
	}
	return strings.Join(parts, "; ")
}
