package doctor

import (
	"fmt"
	"strings"
)

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return "doctor" }

// Headline is the verdict for the quit summary ("doctor: set up; 2
// warnings (exit 0)", "doctor: 2 of 9 rows are not set up and 1 warn
// (exit 4)"), not a bare exit code: the verdict line before "result: ",
// up to its advice.
func (m *Model) Headline() string {
	for i := len(m.lines) - 1; i > 0; i-- {
		if strings.HasPrefix(m.lines[i], "result: ") {
			v, _, _ := strings.Cut(m.lines[i-1], "; do each")
			v, _, _ = strings.Cut(v, ". Next:")
			v = strings.TrimSuffix(strings.TrimSuffix(v, "."), " above")
			return fmt.Sprintf("%s (exit %d)", strings.ToLower(v[:1])+v[1:], m.code)
		}
	}
	return fmt.Sprintf("closed before the set-up was read (exit %d)", m.code)
}
