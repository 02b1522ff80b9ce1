package inbox

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/untrusted"
)

// Door says whether a Decision can be undone later.
type Door string

const (
	DoorOneWay Door = "one-way"
	DoorTwoWay Door = "two-way"
)

// Option is one numbered option of a Decision; Number is the Decision's own.
type Option struct {
	Number      int
	Title       untrusted.Text // the item's text with "(recommended)" removed
	Recommended bool
}

// Decision is a Decision issue's body as the inbox reads it.
type Decision struct {
	Options     []Option // numbered 1..N in order, N at most 9
	Recommended int      // the recommended option's number
	Door        Door
}

// Option returns option n.
func (d Decision) Option(n int) (Option, bool) {
	if n < 1 || n > len(d.Options) {
		return Option{}, false
	}
	return d.Options[n-1], true
}

// MaxOptions is how many options the inbox can offer, one key each (1–9).
const MaxOptions = 9

// ErrNotDecision wraps every reason a body is not a Decision the inbox can
// accept; the card shows the message and offers only to open it.
var ErrNotDecision = errors.New("not a Decision the inbox can accept")

var (
	optionsHeading = lazyre.New(`(?i)^##[ \t]+options[ \t]*#*[ \t]*$`)
	anyHeading     = lazyre.New(`^#{1,6}([ \t]|$)`)
	numberedItem   = lazyre.New(`^ {0,3}([0-9]{1,3})[.)][ \t]+(.*)$`)
	recommended    = lazyre.New(`(?i)\(recommended\)`)
	doorLine       = lazyre.New(`(?i)^[ \t]*door:[ \t]*(\S*)`)
	fence          = lazyre.New("^ {0,3}(```|~~~)")
)

// ParseDecision reads a Decision body: the numbered list under "## Options"
// (numbers 1..N in order, at most 9, each with a title), exactly one option
// marked "(recommended)", and one "Door: one-way" or "Door: two-way" line.
// Lines inside fenced code blocks are not read. Anything else is an error
// that says what is missing, wrapping ErrNotDecision.
func ParseDecision(body string) (Decision, error) {
	var d Decision
	lines := strings.Split(strings.ReplaceAll(body, "\r\n", "\n"), "\n")
	inFence, inOptions, sawOptions := false, false, false
	var doors []string
	for _, line := range lines {
		if fence().MatchString(line) {
			inFence = !inFence
			continue
		}
		if inFence {
			continue
		}
		if m := doorLine().FindStringSubmatch(line); m != nil {
			doors = append(doors, strings.ToLower(strings.TrimRight(m[1], ".,;:")))
		}
		if anyHeading().MatchString(line) {
			inOptions = optionsHeading().MatchString(line)
			if inOptions {
				if sawOptions {
					return Decision{}, notDecision("it has more than one ## Options section")
				}
				sawOptions = true
			}
			continue
		}
		if !inOptions {
			continue
		}
		m := numberedItem().FindStringSubmatch(line)
		if m == nil {
			continue // an option's description or a blank line
		}
		n, _ := strconv.Atoi(m[1])
		if n != len(d.Options)+1 {
			return Decision{}, notDecision(fmt.Sprintf("its options must be numbered 1, 2, 3… in order, and option %d follows option %d", n, len(d.Options)))
		}
		if n > MaxOptions {
			return Decision{}, notDecision(fmt.Sprintf("it has more than %d options, one key each", MaxOptions))
		}
		o := Option{Number: n, Recommended: recommended().MatchString(m[2])}
		o.Title = untrusted.Text(strings.Join(strings.Fields(recommended().ReplaceAllString(m[2], " ")), " "))
		if o.Title == "" {
			return Decision{}, notDecision(fmt.Sprintf("option %d has no title", n))
		}
		if o.Recommended {
			if d.Recommended != 0 {
				return Decision{}, notDecision(fmt.Sprintf("options %d and %d are both marked (recommended)", d.Recommended, n))
			}
			d.Recommended = n
		}
		d.Options = append(d.Options, o)
	}
	switch {
	case !sawOptions:
		return Decision{}, notDecision("its body has no ## Options section")
	case len(d.Options) == 0:
		return Decision{}, notDecision("its ## Options section has no numbered options")
	case d.Recommended == 0:
		return Decision{}, notDecision("no option is marked (recommended)")
	}
	door, err := pickDoor(doors)
	if err != nil {
		return Decision{}, err
	}
	d.Door = door
	return d, nil
}

func pickDoor(doors []string) (Door, error) {
	if len(doors) == 0 {
		return "", notDecision("it has no line Door: one-way or Door: two-way")
	}
	first := doors[0]
	for _, d := range doors {
		if d != first {
			return "", notDecision(fmt.Sprintf("its Door lines disagree (%s and %s)", first, d))
		}
	}
	switch Door(first) {
	case DoorOneWay, DoorTwoWay:
		return Door(first), nil
	}
	return "", notDecision(fmt.Sprintf("its Door line says %q; it must be one-way or two-way", first))
}

func notDecision(why string) error {
	return fmt.Errorf("%w: %s", ErrNotDecision, why)
}
