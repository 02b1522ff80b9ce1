package pack

import "fmt"

// Name is the screen's name in the quit summary.
func (m *Model) Name() string {
	if m.story != nil {
		return fmt.Sprintf("pack, Story #%d", m.story.opts.Story)
	}
	return "pack " + m.opts.Dir
}
