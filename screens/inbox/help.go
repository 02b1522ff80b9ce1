package inbox

import "charm.land/bubbles/v2/key"

// Typing reports whether the note line has the keyboard, so the shell
// leaves "?" to the note instead of opening the full help.
func (m *Model) Typing() bool { return m.list.filtering || (m.pend != nil && m.pend.note) }

// FullKeys is every key the inbox answers to now, for the full help (?):
// the help line's keys and those it has no room for.
func (m *Model) FullKeys() []key.Binding {
	ks := m.Keys()
	if m.pend != nil || m.quit.quitAsk || m.list.filtering {
		return ks
	}
	k := m.keys
	out := make([]key.Binding, 0, len(ks)+7)
	for _, b := range ks {
		out = append(out, b)
		switch b.Help().Key {
		case k.Down.Help().Key:
			out = append(out, k.First, k.Last, k.PageUp, k.PageDown)
		case k.Select.Help().Key:
			out = append(out, k.SelectAll, k.ClearHouse)
		case k.Details.Help().Key:
			out = append(out, k.Pack, k.Verify)
		case k.Refresh.Help().Key:
			out = append(out, k.Filter)
		}
	}
	return out
}
