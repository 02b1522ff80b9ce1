package verify

import "fmt"

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return fmt.Sprintf("verify, Story #%d", m.deps.Story) }
