package pass

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aayudha/aayu/internal/lazyre"
)

// PlanReviewedPrefix starts the comment on a Story by which a person who is
// not its builder records the plan-time review a never layer needs.
const PlanReviewedPrefix = "Plan reviewed:"

// PlanKindReview is a plan record's kind for a person's review; a bypass is
// KindSoloBypass.
const PlanKindReview = "review"

// NoPlanReviewer is the reviewer a solo-mode plan bypass records: nobody.
const NoPlanReviewer = "none (solo mode)"

// PlanBypassNote is the note a plan bypass carries: no review happened.
const PlanBypassNote = "solo mode: no second person exists to review the plan; no review happened"

// PlanRecordPath is where `aayu plan` lands a Story's plan review on the
// ledger (SPEC §10).
func PlanRecordPath(story int) string { return fmt.Sprintf("specs/%d/plan-review.json", story) }

// PlanRecord is specs/N/plan-review.json (SPEC §10). A review names its
// reviewer (also approved_by); a bypass names NoPlanReviewer and leaves
// approved_by empty, as nobody approved the plan.
type PlanRecord struct {
	Story      int      `json:"story"`
	Layers     []string `json:"layers"`
	Kind       string   `json:"kind"`
	Reviewer   string   `json:"reviewer"`
	ApprovedBy string   `json:"approved_by"`
	RecordedBy string   `json:"recorded_by"`
	RecordedAt string   `json:"recorded_at"`
	CommentURL string   `json:"comment_url"`
	Note       string   `json:"note"`
}

// Encode is the record as it lands on the ledger: indented, one newline at
// the end.
func (r PlanRecord) Encode() []byte {
	b, _ := json.MarshalIndent(r, "", "  ") // a struct of strings and ints always encodes
	return append(b, '\n')
}

// ParsePlanRecord reads a plan record and checks it is whole: a record
// missing its kind, its reviewer, who recorded it, when, or its comment is
// never taken as a review.
func ParsePlanRecord(b []byte) (PlanRecord, error) {
	var r PlanRecord
	dec := json.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&r); err != nil {
		return r, fmt.Errorf("it is not a plan review record: %w", err)
	}
	var missing []string
	for _, f := range []struct{ name, v string }{{"reviewer", r.Reviewer}, {"recorded_by", r.RecordedBy}, {"recorded_at", r.RecordedAt}, {"comment_url", r.CommentURL}} {
		if strings.TrimSpace(f.v) == "" {
			missing = append(missing, f.name)
		}
	}
	if len(missing) > 0 {
		return r, fmt.Errorf("the plan review record has no %s", strings.Join(missing, ", "))
	}
	if _, err := time.Parse(time.RFC3339, r.RecordedAt); err != nil {
		return r, fmt.Errorf("the plan review record's recorded_at %q is not an RFC 3339 time", r.RecordedAt)
	}
	switch r.Kind {
	case PlanKindReview:
		if r.Reviewer == NoPlanReviewer {
			return r, fmt.Errorf("the plan review record is a review with no reviewer")
		}
	case KindSoloBypass:
		if r.Reviewer != NoPlanReviewer || r.ApprovedBy != "" {
			return r, fmt.Errorf("the plan review record is a solo-mode bypass that names an approver; a bypass has none")
		}
	default:
		return r, fmt.Errorf("the plan review record's kind %q is neither %q nor %q", r.Kind, PlanKindReview, KindSoloBypass)
	}
	return r, nil
}

var commentID = lazyre.New(`#issuecomment-([0-9]+)$`)

// CommentID is the ID of the comment the record stands on, read from its
// comment_url (0 when the URL names none). A comment is matched by its ID:
// its URL's host can differ between readers (a GitHub Enterprise alias, the
// sandbox's port), its ID never does.
func (r PlanRecord) CommentID() int64 {
	m := commentID().FindStringSubmatch(r.CommentURL)
	if m == nil {
		return 0
	}
	id, err := strconv.ParseInt(m[1], 10, 64)
	if err != nil {
		return 0
	}
	return id
}

// Covers says whether the record reviewed every one of layers.
func (r PlanRecord) Covers(layers []string) bool {
	for _, l := range layers {
		if !slices.Contains(r.Layers, l) {
			return false
		}
	}
	return true
}
