package ship

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/model/pass"
	"github.com/aayudha/aayu/model/untrusted"
)

// mergeTrailers are what ship writes into its squash commit's message, so a
// later run can tell its own merge from anyone else's and finish the record.
type mergeTrailers struct {
	Head     string
	Story    int
	RunID    int64
	PackSHA  string
	PassKind string
	PassBy   string
	PassURL  string
}

const (
	// trailerRecord opens the block of trailers ship writes last in its
	// squash commit's message. Only that block is read back: the title and
	// the body above it are the pull request's words and prove nothing.
	trailerRecord = inbox.ShipTrailerRecord
	trailerShip   = inbox.ShipTrailerShip
	trailerPass   = inbox.ShipTrailerPass
)

func (t mergeTrailers) lines() string {
	p := fmt.Sprintf("%s %s @%s", trailerPass, recordWord(t.PassKind), recordWord(t.PassBy))
	if u := recordWord(t.PassURL); u != "" {
		p += " " + u
	}
	return fmt.Sprintf("%s\n%s head=%s story=%d run=%d pack=%s\n%s", trailerRecord, trailerShip, recordWord(t.Head), t.Story, t.RunID, recordWord(t.PackSHA), p)
}

// recordWord is a trailer value: one neutral line with no spaces, so a
// value can neither end its line nor pose as the next field.
func recordWord(s string) string {
	return strings.Join(strings.Fields(untrusted.RecordLine(s)), "")
}

// commitTitle is the squash commit's title: the pull request's title as
// one neutral line (untrusted.RecordLine) and its number. This is exactly
// what lands in the base branch's history, and what the confirmation shows
// when it differs from the title as GitHub has it.
func commitTitle(title string, pr int) string {
	return fmt.Sprintf("%s (#%d)", untrusted.RecordLine(title), pr)
}

// mergeMessage is the squash commit's body: the Story it refers to, who
// shipped it, and ship's trailer block last. Every field is aayu's own or
// a neutral single line, so nothing the pull request says reaches it.
func mergeMessage(story int, viewer string, t mergeTrailers) string {
	return fmt.Sprintf("Refs #%d\n\nShipped by @%s with aayu ship.\n\n%s", story, recordWord(viewer), t.lines())
}

var (
	hexSHA1   = lazyre.New(`^[0-9a-f]{40}$`)
	hexSHA256 = lazyre.New(`^[0-9a-f]{64}$`)
	loginWord = lazyre.New(`^[A-Za-z0-9](?:[A-Za-z0-9-]|\[bot\]$)*$`)
)

// parseTrailers reads ship's trailers from a squash commit's message. Only
// the message's last paragraph counts, and only when it is exactly the
// block ship writes: its opening line, then the Aayudha-Ship: and
// Aayudha-Pass: lines, each field well formed. Anything above it — the
// title, a pull request's commit messages GitHub put in the body of a merge
// made without ship — is never read, so a title or a commit message that
// carries trailer lines cannot make a merge read as ship's.
func parseTrailers(msg string) *mergeTrailers {
	lines := inbox.ShipTrailerLines(msg) // the block's shape, decided once
	if lines == nil {
		return nil
	}
	var t mergeTrailers
	seen := map[string]bool{}
	for _, f := range strings.Fields(strings.TrimPrefix(lines[1], trailerShip)) {
		k, v, ok := strings.Cut(f, "=")
		if !ok || seen[k] {
			return nil
		}
		seen[k] = true
		var err error
		switch k {
		case "head":
			t.Head = v
		case "story":
			t.Story, err = strconv.Atoi(v)
		case "run":
			t.RunID, err = strconv.ParseInt(v, 10, 64)
		case "pack":
			t.PackSHA = v
		default:
			return nil
		}
		if err != nil {
			return nil
		}
	}
	if !hexSHA1().MatchString(t.Head) || (t.PackSHA != "" && !hexSHA256().MatchString(t.PackSHA)) || t.Story < 0 || t.RunID < 0 {
		return nil
	}
	f := strings.Fields(strings.TrimPrefix(lines[2], trailerPass))
	if len(f) < 2 || len(f) > 3 || !knownPassKind(f[0]) || !strings.HasPrefix(f[1], "@") {
		return nil
	}
	t.PassKind, t.PassBy = f[0], strings.TrimPrefix(f[1], "@")
	if !loginWord().MatchString(t.PassBy) {
		return nil
	}
	if len(f) == 3 {
		t.PassURL = f[2]
	}
	return &t
}

func knownPassKind(k string) bool {
	switch k {
	case pass.KindReview, pass.KindSoloBypass, pass.KindAutonomous, pass.KindProof:
		return true
	}
	return false
}
