package ship

import "strings"

// Epilogue is what stays on the person's terminal once the full screen
// closes: every gate that refused or failed, with its details, then the
// outcome. "result: exit 4" alone would leave a refusal without its reason,
// and on a short terminal the reason may never have been on screen.
func (m *Model) Epilogue() []string {
	var out []string
	outcome := len(m.lines)
	for i := len(m.lines) - 1; i >= 0; i-- {
		if isOutcome(m.lines[i]) {
			outcome = i
			break
		}
	}
	keep := false
	for _, l := range m.lines[:outcome] {
		if !strings.HasPrefix(l, "  ") {
			keep = strings.Contains(l, ": refused") || strings.Contains(l, ": failed")
		}
		if keep {
			out = append(out, l)
		}
	}
	return append(out, m.lines[outcome:]...)
}

func isOutcome(l string) bool {
	for _, p := range []string{"failed: ", "shipped: ", "merged as ", "refused: nothing was merged"} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}
