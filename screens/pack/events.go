package pack

import (
	"bytes"
	"encoding/json"
	"path"
	"strings"

	"github.com/aayudha/aayu/tui"
)

// testEvent is the part of a go test -json event the viewer shows.
type testEvent struct {
	Action  string
	Package string
	Test    string
	Output  string
}

// renderArtifact turns an artifact's bytes into lines for the viewer. A
// JSONL file of go test events reads as a list of what each test did;
// anything else is shown as sanitised text. Artifact bytes come from CI and
// are untrusted like any text from GitHub.
func renderArtifact(p string, data []byte) []string {
	if strings.HasSuffix(p, ".jsonl") {
		if lines, ok := renderTestEvents(data); ok {
			return lines
		}
	}
	text := strings.TrimRight(tui.Sanitize(string(data)), "\n")
	if text == "" {
		return []string{"(empty file)"}
	}
	return strings.Split(text, "\n")
}

// renderTestEvents renders go test -json events; ok is false when a line is
// not such an event, and the caller falls back to text.
func renderTestEvents(data []byte) (lines []string, ok bool) {
	for _, raw := range bytes.Split(bytes.TrimRight(data, "\n"), []byte("\n")) {
		var e testEvent
		if err := json.Unmarshal(raw, &e); err != nil || e.Action == "" {
			return nil, false
		}
		name := tui.SanitizeLine(e.Test)
		pkg := tui.SanitizeLine(path.Base(e.Package))
		switch e.Action {
		case "run":
			lines = append(lines, "run     "+pkg+" "+name)
		case "pass", "fail", "skip":
			word := map[string]string{"pass": "passed  ", "fail": "FAILED  ", "skip": "skipped "}[e.Action]
			if name == "" {
				name = "(package)"
			}
			lines = append(lines, word+pkg+" "+name)
		case "output":
			out := strings.TrimRight(tui.SanitizeLine(strings.TrimRight(e.Output, "\n")), " ")
			if strings.HasPrefix(strings.TrimSpace(out), "=== RUN") || strings.HasPrefix(strings.TrimSpace(out), "--- PASS") || out == "" {
				continue // the run and pass lines already say this
			}
			lines = append(lines, "        "+out)
		default:
			lines = append(lines, tui.SanitizeLine(e.Action)+" "+pkg+" "+name)
		}
	}
	return lines, true
}
