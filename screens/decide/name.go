package decide

import "strings"

// Name is the screen's name in the quit summary: the command as typed,
// which names every Decision and option ("decide 1,2 --accept 1,2").
func (m *Model) Name() string { return strings.TrimPrefix(m.deps.Command, "aayu ") }
