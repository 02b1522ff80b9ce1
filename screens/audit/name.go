package audit

import (
	"fmt"
	"strings"
)

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

// Headline is the report's outcome for the quit summary, with its exit
// code as every other screen's block has it ("audit: 0 Solo-mode bypasses,
// … recorded late (exit 0)").
func (m *Model) Headline() string {
	for i := len(m.lines) - 1; i >= 0; i-- {
		if r, ok := strings.CutPrefix(m.lines[i], "result: "); ok {
			return fmt.Sprintf("%s (exit %d)", r, m.code)
		}
	}
	return fmt.Sprintf("closed before the audit was read (exit %d)", m.code)
}
