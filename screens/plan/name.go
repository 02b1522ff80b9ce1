package plan

import "fmt"

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return fmt.Sprintf("plan, Story #%d", m.deps.Story) }
