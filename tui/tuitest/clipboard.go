package tuitest

import (
	"encoding/base64"
	"strings"

	tea "charm.land/bubbletea/v2"
)

// RunCmd runs cmd and every command of a batch it returns, and gives the
// messages they produced, in order. nil gives none.
func RunCmd(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, RunCmd(c)...)
		}
		return out
	}
	return []tea.Msg{msg}
}

// OSC52Writes returns the text of every OSC 52 clipboard write among msgs
// (tea.Raw sequences), decoded from base64; a sequence that is not well
// formed is returned as "!" + the sequence, so a test shows it.
func OSC52Writes(msgs []tea.Msg) []string {
	var out []string
	for _, msg := range msgs {
		raw, ok := msg.(tea.RawMsg)
		if !ok {
			continue
		}
		seq, ok := raw.Msg.(string)
		if !ok || !strings.HasPrefix(seq, "\x1b]52;") {
			continue
		}
		body, ok := strings.CutPrefix(seq, "\x1b]52;c;")
		body, term := strings.CutSuffix(body, "\a")
		text, err := base64.StdEncoding.DecodeString(body)
		if !ok || !term || err != nil {
			out = append(out, "!"+seq)
			continue
		}
		out = append(out, string(text))
	}
	return out
}
