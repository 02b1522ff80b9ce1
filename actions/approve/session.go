package approve

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
)

// Several human-only steps an agent starts in one session go into one
// batch (issue 19): the session's open batch is not edited — an edited
// batch is refused, rightly — but superseded. The next step's batch holds
// the open batch's steps and its own, and the open batch is marked
// superseded on the ledger before the new comment is posted, so only the
// newest batch of a session can ever be applied, and the person approves
// once for all of them.

// SessionOf names an agent session on the ledger: a hash of the key the
// agent's host gives (AAYU_SESSION, or Amp's thread id), so the ledger
// never holds the key itself. "" for no key.
func SessionOf(key string) string {
	key = strings.TrimSpace(key)
	if key == "" {
		return ""
	}
	sum := sha256.Sum256([]byte("aayu agent session\x00" + key))
	return hex.EncodeToString(sum[:8])
}

// SessionPath is the ledger file that names a session's open batch.
func SessionPath(session string) string { return LedgerDir + "/sessions/" + session + ".json" }

// SupersededPath is where a batch is marked superseded by a later batch of
// its session.
func SupersededPath(hash string) string { return LedgerDir + "/" + hash + ".superseded.json" }

// SessionPointer is approvals/sessions/SESSION.json: the session's newest
// batch.
type SessionPointer struct {
	Session string `json:"session"`
	Batch   string `json:"batch"`
}

// Superseded is approvals/HASH.superseded.json: the batch's steps went
// into batch By, the one to approve.
type Superseded struct {
	Hash  string    `json:"hash"`
	By    string    `json:"by"`
	Issue int       `json:"issue"` // where By's comment is
	At    time.Time `json:"at"`
}

// OpenSessionBatch is the batch a new step of session joins: the newest
// batch of the session, when it is still open (neither applied, rejected
// nor superseded), hashes to its name, and waits for the same person, from
// the same poster, in the same repository. found is false otherwise.
func (l Ledger) OpenSessionBatch(ctx context.Context, session, repo, person, poster string) (Stored, bool, error) {
	if session == "" {
		return Stored{}, false, nil
	}
	var p SessionPointer
	found, err := l.readJSON(ctx, SessionPath(session), &p)
	if err != nil || !found || !ValidHash(p.Batch) {
		return Stored{}, false, err
	}
	st, err := Load(ctx, l, p.Batch)
	var refusal *Refusal
	var applied *AlreadyApplied
	switch {
	case errors.As(err, &refusal), errors.As(err, &applied):
		return Stored{}, false, nil
	case err != nil:
		return Stored{}, false, err
	}
	r := st.Record
	if r.Session != session || r.Repo != repo || !strings.EqualFold(r.For, person) || !strings.EqualFold(r.PostedBy, poster) {
		return Stored{}, false, nil
	}
	return st, true, nil
}

// Join is the record of a session's next batch: the open batch's steps,
// then rec's steps that are not among them already (the same command run
// again adds nothing), on the open batch's issue. added counts the new
// steps; with none, the open batch already holds everything. A step that
// acts on what the open batch already acts on otherwise (another option
// of the same Decision, ship with and without a bypass) is refused: one
// batch holds one step per Decision or pull request (Record.OneStepEach).
func Join(open, rec Record) (joined Record, added int, err error) {
	joined = rec
	joined.Issue = open.Issue
	joined.Items = append([]Item(nil), open.Items...)
	have := map[string]bool{}
	for _, it := range open.Items {
		have[it.Command] = true
	}
	for _, it := range rec.Items {
		if !have[it.Command] {
			joined.Items = append(joined.Items, it)
			have[it.Command] = true
			added++
		}
	}
	if r := joined.OneStepEach(); r != nil {
		r.Reason = fmt.Sprintf("Batch %s of this agent session already holds a step for it: %s", open.Hash(), r.Reason)
		return Record{}, 0, r
	}
	return joined, added, nil
}

// OneStepEach refuses a record with two steps of one kind on one issue:
// two options of one Decision (the person would approve both, and the
// first applied wins), or two ship or ready steps of one pull request or
// Story. nil when every step has its own.
func (r Record) OneStepEach() *Refusal {
	seen := map[string]Item{}
	for _, it := range r.Items {
		key := fmt.Sprintf("%s#%d", it.Kind, it.Issue())
		if prev, dup := seen[key]; dup {
			if it.Kind == KindDecide {
				return &Refusal{CheckOneStepEach, fmt.Sprintf("one batch holds one option per Decision, and it would hold option %d and option %d of Decision #%d.", prev.Option, it.Option, it.Decision),
					fmt.Sprintf("Leave the batch as it is, or ask the person to reject it and run %s on its own.", it.Command)}
			}
			return &Refusal{CheckOneStepEach, fmt.Sprintf("one batch holds one step per issue, and it would hold %q and %q for #%d.", prev.Command, it.Command, it.Issue()),
				fmt.Sprintf("Leave the batch as it is, or ask the person to reject it and run %s on its own.", it.Command)}
		}
		seen[key] = it
	}
	return nil
}

// Supersede lands rec's record, then marks the open batch superseded by it
// and points the session at it, in one ledger commit, before rec's comment
// is posted: from then on approving the open batch applies nothing, and a
// stop between the two leaves the new record as the session's open batch,
// which the next step joins.
func Supersede(ctx context.Context, l Ledger, open string, rec Record, now time.Time) error {
	hash := rec.Hash()
	st := Stored{Hash: hash, Record: rec, Rendered: Render(rec)}
	if err := l.write(ctx, Path(hash), st, fmt.Sprintf("approvals: batch %s of %d human-only %s for @%s", hash, len(rec.Items), plural(len(rec.Items), "step", "steps"), rec.For)); err != nil {
		return err
	}
	sup, err := jsonFile(Superseded{Hash: open, By: hash, Issue: rec.Issue, At: now.UTC().Truncate(time.Second)})
	if err != nil {
		return err
	}
	ptr, err := jsonFile(SessionPointer{Session: rec.Session, Batch: hash})
	if err != nil {
		return err
	}
	_, err = ghx.CommitFiles(ctx, l.Client, l.Owner, l.Repo, l.branch(), map[string][]byte{SupersededPath(open): sup, SessionPath(rec.Session): ptr},
		actions.Neutralize(fmt.Sprintf("approvals: batch %s superseded by batch %s of the same agent session", open, hash)),
		ghx.CommitOptions{Trailers: l.Trailers, Unless: func(ctx context.Context, tip string) (bool, error) {
			_, err := ghx.ReadFile(ctx, l.Client, l.Owner, l.Repo, tip, SupersededPath(open))
			if ghx.IsNotFound(err) {
				return false, nil
			}
			return err == nil, err
		}})
	if err != nil && !errors.Is(err, ghx.ErrAlreadyThere) {
		return fmt.Errorf("marking batch %s superseded on the ledger: %w", open, err)
	}
	return nil
}

// PointSession records rec as its session's open batch, for the session's
// next step to join.
func PointSession(ctx context.Context, l Ledger, rec Record) error {
	if rec.Session == "" {
		return nil
	}
	return l.write(ctx, SessionPath(rec.Session), SessionPointer{Session: rec.Session, Batch: rec.Hash()},
		fmt.Sprintf("approvals: batch %s is its agent session's open batch", rec.Hash()))
}

// SupersededNote is the reply left on the superseded batch's thread, so
// the person reading it on their phone knows which batch to approve.
func SupersededNote(open string, rec Record, added int) string {
	return fmt.Sprintf("@%s batch %s is superseded by batch %s, which holds its steps and %d more from the same agent session (on #%d). Approve that one; approving this one now applies nothing.",
		inline(rec.For), open, rec.Hash(), added, rec.Issue)
}

// ReplySuperseded posts SupersededNote on the open batch's issue.
func ReplySuperseded(ctx context.Context, l Ledger, open Record, rec Record, added int) error {
	_, _, err := l.Client.Issues.CreateComment(ctx, l.Owner, l.Repo, open.Issue, &github.IssueComment{Body: github.String(SupersededNote(open.Hash(), rec, added))})
	if err != nil {
		return fmt.Errorf("saying on #%d that batch %s is superseded: %s", open.Issue, open.Hash(), ghx.Describe(err))
	}
	return nil
}

// jsonFile is v as the ledger's other approval files are written.
func jsonFile(v any) ([]byte, error) {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding %T: %w", v, err)
	}
	return append(b, '\n'), nil
}
