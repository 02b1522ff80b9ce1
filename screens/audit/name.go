package audit

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return "audit" }

// Epilogue leaves the report on the terminal once the full screen closes,
// as doctor does: the bypasses it lists are what the person came for.
func (m *Model) Epilogue() []string {
	if m.c.Plain || !m.read {
		return nil
	}
	return m.lines[1:]
}
