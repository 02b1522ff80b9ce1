package auth

import "fmt"

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return "auth" }

// Epilogue leaves the report on the terminal once the full screen closes,
// as doctor does: where each token comes from is worth keeping in the
// scrollback, and a failure is never wordless.
func (m *Model) Epilogue() []string {
	if m.c.Plain || m.facts == nil {
		return nil
	}
	return m.lines[2:]
}

// Headline is the report's outcome for the quit summary.
func (m *Model) Headline() string {
	switch {
	case m.facts == nil:
		return fmt.Sprintf("closed before the tokens were read (exit %d)", m.code)
	case m.facts.Err != nil:
		return fmt.Sprintf("failed, as the report says (exit %d):", m.code)
	}
	return fmt.Sprintf("where each token comes from (exit %d):", m.code)
}
