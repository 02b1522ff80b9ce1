package verify

import "fmt"

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return fmt.Sprintf("verify, Story #%d", m.deps.Story) }

// OnlyShows: verify builds a local pack that counts for nothing on GitHub;
// opened from the inbox, a floor that fails there is what the person
// looked at, not what they did (tui.Shower).
func (m *Model) OnlyShows() bool { return true }
