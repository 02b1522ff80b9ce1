package actions

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/inbox"
)

// phrase says one write in words a person reads: what it is (long on its
// own, short inside a list about one item) and what became of it. No
// phrase names a link, a commit or a request.
type phrase struct {
	long, short                    string
	done, notDone, maybe, wasThere string
}

func phraseOf(w inbox.Write) phrase {
	n := fmt.Sprintf("#%d", w.Number)
	switch w.Kind {
	case inbox.WriteComment:
		return phrase{"the comment on " + n, "the comment", "was posted", "was not posted", "may or may not have been posted", "was already there"}
	case inbox.WriteAddLabel:
		return phrase{"the label " + w.Label + " on " + n, "the label " + w.Label, "was added", "was not added", "may or may not have been added", "was already there"}
	case inbox.WriteRemoveLabel:
		return phrase{"the label " + w.Label + " on " + n, "the label " + w.Label, "was removed", "was not removed", "may or may not have been removed", "was already gone"}
	case inbox.WriteClose:
		how := strings.ReplaceAll(w.Reason, "_", " ")
		return phrase{n, n, "was closed as " + how, "was not closed", "may or may not have been closed", "was already closed"}
	case inbox.WriteReview:
		return phrase{"the approval of " + n, "the approval", "was posted", "was not posted", "may or may not have been posted", "was already there"}
	case inbox.WriteLedgerPut:
		return phrase{"the review record of " + n + " on the ledger", "the review record", "was written", "was not written", "may or may not have been written", "was already there"}
	case inbox.WriteLedgerAppend:
		kind := "sample"
		if w.Correction {
			kind = "correction sample"
		}
		return phrase{"the " + kind + " for " + n + " on the ledger", "the " + kind, "was recorded", "was not recorded", "may or may not have been recorded", "was already recorded"}
	case inbox.WriteLedgerWaiver:
		return phrase{"the waiver record of " + n + " on the ledger", "the waiver record", "was written", "was not written", "may or may not have been written", "was already there"}
	case inbox.WriteLedgerRemove:
		// A ledger path can hold a commit (proof/STORY/HEAD/…), so only
		// the audit entry is named.
		what := "a file of " + n
		if w.Path == inbox.AuditPath(w.Number) {
			what = "the audit entry of " + n
		}
		return phrase{what, what, "was removed from the ledger", "was not removed from the ledger", "may or may not have been removed from the ledger", "was already gone from the ledger"}
	case inbox.WriteGateRerun:
		return phrase{"the merge gate's re-run on " + n, "the gate's re-run", "was asked for", "was not asked for", "may or may not have been asked for", "was not needed"}
	case inbox.WriteRevertPR:
		what := "the pull request reverting " + n
		return phrase{what, what, "was opened into " + w.Base, "was not opened", "may or may not have been opened", "was already open"}
	}
	return phrase{string(w.Kind), string(w.Kind), "was done", "was not done", "may or may not have been done", "was already done"}
}

// words says what became of one write, in full.
func (r *run) words(w inbox.Write, l landing) string {
	if w.Kind == inbox.WriteGateRerun && r.rerunWords != "" {
		return r.rerunWords
	}
	if w.Kind == inbox.WriteRevertPR {
		if s := r.revertSaid(w, l); s != "" {
			return s
		}
	}
	p := phraseOf(w)
	return p.long + " " + p.verb(l)
}

// shortWords says it inside a list about the card's item.
func (r *run) shortWords(w inbox.Write, l landing) string {
	if w.Kind == inbox.WriteGateRerun && r.rerunWords != "" {
		return r.rerunWords
	}
	if w.Kind == inbox.WriteRevertPR {
		if s := r.revertSaid(w, l); s != "" {
			return s
		}
	}
	p := phraseOf(w)
	return p.short + " " + p.verb(l)
}

func (r *run) revertSaid(w inbox.Write, l landing) string {
	switch {
	case r.revertWords != "" && (l == landed || l == already):
		return r.revertWords
	case r.revertPR != 0 && l == landed:
		return fmt.Sprintf("the pull request #%d reverting #%d was opened into %s", r.revertPR, w.Number, w.Base)
	case r.revertPR != 0 && l == already:
		return fmt.Sprintf("the pull request #%d reverting #%d was already there", r.revertPR, w.Number)
	}
	return ""
}

func (p phrase) verb(l landing) string {
	switch l {
	case landed:
		return p.done
	case unknown:
		return p.maybe
	case already:
		return p.wasThere
	}
	return p.notDone
}
