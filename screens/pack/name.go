package pack

import (
	"fmt"
	"strings"
)

// Name is the screen's name in the quit summary.
func (m *Model) Name() string {
	if m.story != nil {
		return fmt.Sprintf("pack, Story #%d", m.story.opts.Story)
	}
	return "pack " + m.opts.Dir
}

// Epilogue is the pack's outcome ("result: …") and what was said after it:
// the answer on which run ship would take arrives once the verdict is
// shown, and belongs beside it in the quit summary, not in its place.
func (m *Model) Epilogue() []string {
	for i := len(m.lines) - 1; i >= 0; i-- {
		if strings.HasPrefix(m.lines[i], "result: ") {
			return m.lines[i:]
		}
	}
	if len(m.lines) == 0 {
		return nil
	}
	return m.lines[len(m.lines)-1:]
}

// OnlyShows: the pack viewer shows what a pack proves and writes nothing;
// opened from the inbox, a pack that does not verify is what the person
// looked at, not what they did (tui.Shower).
func (m *Model) OnlyShows() bool { return true }
