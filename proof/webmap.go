package proof

import (
	"fmt"
	"strings"
	"unicode"
)

// CriterionKeys are the keys a [[criterion]] table of the evidence map may
// hold: its id, the tests whose passing run proves it, and for a web
// criterion the page the web floor captures, an element it must show, and
// whether to keep a screen-reader transcript and a recording of it.
var CriterionKeys = []string{"id", "tests", "screenshot", "element", "sr-transcript", "recording"}

// Caps on a web criterion's page and element, which the builder writes.
const (
	maxWebPath     = 512
	maxWebSelector = 256
)

// ScreenPath is the artifact path of criterion id's screenshot.
func ScreenPath(id int) string { return fmt.Sprintf("screens/%d.png", id) }

// TranscriptPath is the artifact path of criterion id's screen-reader
// transcript of its screenshot's page.
func TranscriptPath(id int) string { return fmt.Sprintf("transcripts/%d.txt", id) }

// RecordingPath is the artifact path of criterion id's recording of its
// screenshot's page loading (seed 000: "recordings/N.webm").
func RecordingPath(id int) string { return fmt.Sprintf("recordings/%d.webm", id) }

// webCriterion reads the screenshot and element keys of one [[criterion]]
// table. A screenshot is a path of the app ("/summary?plan=gold"), never a
// URL to somewhere else: the web floor opens it on the app verify started.
// An element without a screenshot names nothing to look on, so it is
// refused.
func webCriterion(c MappedCriterion, table map[string]any) (MappedCriterion, error) {
	str := func(key string) (string, bool, error) {
		v, present := table[key]
		if !present {
			return "", false, nil
		}
		s, ok := v.(string)
		if !ok {
			return "", true, fmt.Errorf("evidence map: criterion %d: %s must be a string", c.ID, key)
		}
		return s, true, nil
	}
	shot, hasShot, err := str("screenshot")
	if err != nil {
		return MappedCriterion{}, err
	}
	elem, hasElem, err := str("element")
	if err != nil {
		return MappedCriterion{}, err
	}
	if hasShot {
		if why := webPathFault(shot); why != "" {
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d: screenshot %q %s", c.ID, clipText(shot), why)
		}
		c.Screenshot = shot
	}
	if v, present := table["sr-transcript"]; present {
		b, ok := v.(bool)
		switch {
		case !ok:
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d: sr-transcript must be true or false", c.ID)
		case b && !hasShot:
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d asks for an sr-transcript but names no screenshot page to read", c.ID)
		}
		c.Transcript = b
	}
	if v, present := table["recording"]; present {
		b, ok := v.(bool)
		switch {
		case !ok:
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d: recording must be true or false", c.ID)
		case b && !hasShot:
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d asks for a recording but names no screenshot page to record", c.ID)
		}
		c.Recording = b
	}
	if hasElem {
		switch {
		case !hasShot:
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d names an element but no screenshot page to find it on", c.ID)
		case strings.TrimSpace(elem) == "":
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d: element is empty; name a CSS selector such as \"#deductible\" or leave it out", c.ID)
		case len(elem) > maxWebSelector || strings.IndexFunc(elem, unicode.IsControl) >= 0:
			return MappedCriterion{}, fmt.Errorf("evidence map: criterion %d: element is not a CSS selector of at most %d characters without control characters", c.ID, maxWebSelector)
		}
		c.Element = elem
	}
	return c, nil
}

// webPathFault says why s is not a path of the app, or "".
func webPathFault(s string) string {
	switch {
	case !strings.HasPrefix(s, "/") || strings.HasPrefix(s, "//"):
		return "is not a path of the app; write it from its first slash, such as \"/summary\""
	case len(s) > maxWebPath:
		return fmt.Sprintf("is longer than %d characters", maxWebPath)
	case strings.IndexFunc(s, func(r rune) bool { return unicode.IsControl(r) || unicode.IsSpace(r) || r == '\\' }) >= 0:
		return "holds a space, backslash or control character"
	}
	return ""
}

// Screenshots are the criteria of m the web floor captures, in map order.
func (m EvidenceMap) Screenshots() []MappedCriterion {
	var out []MappedCriterion
	for _, c := range m {
		if c.Screenshot != "" {
			out = append(out, c)
		}
	}
	return out
}
