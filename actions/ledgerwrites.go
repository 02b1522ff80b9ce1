package actions

import (
	"github.com/google/go-github/v66/github"

	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/waiver"
)

// ReviewRecord is reviews/PR/HEAD.json on the ledger: a person's review of
// exactly one head, as `aayu inspect PR --approve` writes it.
type ReviewRecord struct {
	PR      int       `json:"pr"`
	Login   string    `json:"login"`
	Head    string    `json:"head"`
	Time    time.Time `json:"time"`
	Checked string    `json:"checked"` // the one line on what was checked
	Via     string    `json:"via"`
}

// Sample is one line of autonomy/samples.jsonl: an audited unreviewed
// merge, clean or a correction.
type Sample struct {
	PR          int       `json:"pr"`
	MergeCommit string    `json:"merge_commit"`
	At          time.Time `json:"at"`
	By          string    `json:"by"`
	Correction  bool      `json:"correction"`
	// Layers is the pull request's footprint (LAYERS.md on its base
	// branch): ship counts each layer's correction-free streak from them.
	Layers []string `json:"layers"`
	// Rung is inspect's rung ship merged the head on, as its audit entry
	// records it ("" when none is recorded), and Author the pull request's
	// author: the streak counts only an agent's pull request at rung A or
	// B (pass.SampleCounts).
	Rung   string `json:"rung"`
	Author string `json:"author"`
}

func (r *run) ledger(ctx context.Context, w inbox.Write) (bool, error) {
	if w.Kind == inbox.WriteLedgerAppend && r.req.Step.Head == "" {
		merge, err := r.mergeCommit(ctx, w.Number)
		if err != nil {
			return false, err
		}
		r.req.Step.Head = merge
	}
	if w.Kind == inbox.WriteLedgerAppend && r.layers == nil {
		layers, author, err := r.footprint(ctx, w.Number)
		if err != nil {
			return false, err
		}
		r.layers, r.author = layers, author
	}
	if w.Kind != inbox.WriteLedgerAppend {
		return r.ledgerFixed(ctx, w)
	}
	res, err := r.e.commitLedger(ctx, r.ledgerMessage(w), r.ledgerEdit(w))
	var ce *ghx.MoveError
	if errors.As(err, &ce) {
		r.commit = ce.Commit
	}
	if res.Commit != "" {
		r.commit = res.Commit
	}
	return res.Already, err
}

// ledgerFixed writes a file whose contents do not depend on what is there
// (a review record) or removes one, through ghx.CommitFiles.
func (r *run) ledgerFixed(ctx context.Context, w inbox.Write) (bool, error) {
	files, err := r.ledgerEdit(w)(r.e.ledgerReader(ctx, r.e.cfg.Ledger))
	if err != nil || len(files) == 0 {
		return err == nil, err
	}
	sha, err := ghx.CommitFiles(ctx, r.e.cfg.Client, r.e.cfg.Owner, r.e.cfg.Repo, r.e.cfg.Ledger, files, r.ledgerMessage(w), ghx.CommitOptions{})
	if sha != "" {
		r.commit = sha
	}
	return false, err
}

func (r *run) ledgerMessage(w inbox.Write) string { return Neutralize(r.ledgerWords(w)) }

func (r *run) ledgerWords(w inbox.Write) string {
	by := "@" + r.e.cfg.Viewer
	switch w.Kind {
	case inbox.WriteLedgerPut:
		return fmt.Sprintf("ledger: review of #%d at %s by %s (aayu inbox)", w.Number, w.CommitID, by)
	case inbox.WriteLedgerWaiver:
		return fmt.Sprintf("ledger: floor %s of #%d waived at %s by Decision #%d, accepted by @%s", w.Waiver.Floor, w.Waiver.PR, w.Waiver.Head, w.Number, w.Login)
	case inbox.WriteLedgerAppend:
		kind := "clean sample"
		if w.Correction {
			kind = "correction sample"
		}
		return fmt.Sprintf("ledger: %s for #%d by %s (aayu inbox)", kind, w.Number, by)
	}
	return fmt.Sprintf("ledger: remove %s, answered by %s (aayu inbox)", w.Path, by)
}

// ledgerEdit gives the files one ledger write changes, read afresh on each
// attempt; none when the write already happened.
func (r *run) ledgerEdit(w inbox.Write) ledgerEdit {
	return func(read readLedger) (map[string][]byte, error) {
		cur, found, err := read(w.Path)
		if err != nil {
			return nil, err
		}
		switch w.Kind {
		case inbox.WriteLedgerPut:
			if found {
				return nil, nil
			}
			rec := ReviewRecord{PR: w.Number, Login: w.Login, Head: w.CommitID, Time: r.e.cfg.Now().UTC(),
				Checked: oneLine(r.req.Note), Via: "aayu inbox"}
			b, err := json.MarshalIndent(rec, "", "  ")
			if err != nil {
				return nil, err
			}
			return map[string][]byte{w.Path: append(b, '\n')}, nil
		case inbox.WriteLedgerWaiver:
			if found {
				return nil, nil
			}
			q := w.Waiver
			rec := waiver.Record{Decision: w.Number, PR: q.PR, Story: q.Story, Head: q.Head, Floor: q.Floor, Why: waiver.OneLine(q.Why),
				AcceptedBy: w.Login, AcceptedAt: r.e.cfg.Now().UTC(), Via: "aayu " + strings.TrimPrefix(r.req.Command, "aayu ")}
			if r.req.Command == "" {
				rec.Via = "aayu inbox"
			}
			b, err := json.MarshalIndent(rec, "", "  ")
			if err != nil {
				return nil, err
			}
			return map[string][]byte{w.Path: append(b, '\n')}, nil
		case inbox.WriteLedgerRemove:
			if !found {
				return nil, nil
			}
			return map[string][]byte{w.Path: nil}, nil
		case inbox.WriteLedgerAppend:
			// The rung is the audit entry's, read at the same ledger commit
			// (the entry is removed only after the sample lands).
			entry, _, err := read(inbox.AuditPath(w.Number))
			if err != nil {
				return nil, err
			}
			next, changed, err := r.withSample(cur, w, auditRung(entry))
			if err != nil || !changed {
				return nil, err
			}
			return map[string][]byte{w.Path: next}, nil
		}
		return nil, fmt.Errorf("%s is not a ledger write", w.Kind)
	}
}

// withSample appends the pull request's sample to samples.jsonl, or reuses
// the one already there: a retried audit never records a second sample for
// one pull request. A sample recorded clean and now corrected is marked as
// a correction in place.
func (r *run) withSample(cur []byte, w inbox.Write, rung string) ([]byte, bool, error) {
	lines := bytes.Split(bytes.TrimRight(cur, "\n"), []byte("\n"))
	if len(cur) == 0 {
		lines = nil
	}
	for i, line := range lines {
		var s Sample
		if json.Unmarshal(line, &s) != nil || s.PR != w.Number {
			continue
		}
		if s.Correction == w.Correction {
			return nil, false, nil
		}
		s.Correction = w.Correction
		b, err := json.Marshal(s)
		if err != nil {
			return nil, false, err
		}
		lines[i] = b
		return append(bytes.Join(lines, []byte("\n")), '\n'), true, nil
	}
	s := Sample{PR: w.Number, MergeCommit: r.req.Step.Head, At: r.e.cfg.Now().UTC(), By: r.e.cfg.Viewer, Correction: w.Correction, Layers: r.layers,
		Rung: rung, Author: r.author}
	b, err := json.Marshal(s)
	if err != nil {
		return nil, false, err
	}
	return append(append(bytes.Join(lines, []byte("\n")), lineBreak(lines)...), append(b, '\n')...), true, nil
}

func lineBreak(lines [][]byte) []byte {
	if len(lines) == 0 {
		return nil
	}
	return []byte("\n")
}

// auditRung is the rung an audit entry (autonomy/audit/PR.json, written by
// ship) records; "" when there is no entry or it names none, which no
// streak counts.
func auditRung(entry []byte) string {
	var e struct {
		Rung string `json:"rung"`
	}
	if json.Unmarshal(entry, &e) != nil {
		return ""
	}
	return e.Rung
}

// footprint is the pull request's author and the layers its changed paths (the old
// path of a rename too) fall in, by LAYERS.md on its base branch. No
// LAYERS.md means no layers: the sample then counts for none.
func (r *run) footprint(ctx context.Context, pr int) ([]string, string, error) {
	c := r.e.cfg.Client
	p, _, err := c.PullRequests.Get(ctx, r.e.cfg.Owner, r.e.cfg.Repo, pr)
	if err != nil {
		return nil, "", err
	}
	author := p.GetUser().GetLogin()
	md, err := ghx.ReadFile(ctx, c, r.e.cfg.Owner, r.e.cfg.Repo, p.GetBase().GetRef(), "LAYERS.md")
	if ghx.IsNotFound(err) {
		return []string{}, author, nil
	}
	if err != nil {
		return nil, "", err
	}
	layers, err := pass.ParseLayers(string(md))
	if err != nil {
		return nil, "", err
	}
	files, err := ghx.ListAll(ctx, func(o *github.ListOptions) ([]*github.CommitFile, *github.Response, error) {
		return c.PullRequests.ListFiles(ctx, r.e.cfg.Owner, r.e.cfg.Repo, pr, o)
	})
	if err != nil {
		return nil, "", err
	}
	changed := make([]pass.ChangedFile, 0, len(files))
	for _, f := range files {
		changed = append(changed, pass.ChangedFile{Path: f.GetFilename(), PreviousPath: f.GetPreviousFilename()})
	}
	out := pass.Footprint(changed, layers)
	if out == nil {
		out = []string{}
	}
	return out, author, nil
}
