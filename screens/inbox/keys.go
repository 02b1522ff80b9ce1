package inbox

import (
	"charm.land/bubbles/v2/key"

	"github.com/aayudha/aayu/tui"
)

type keyMap struct {
	tui.KeyMap
	listKeys    // the list's own (list.go)
	Act         key.Binding
	Pick        key.Binding
	Skip        key.Binding
	Select      key.Binding
	SelectAll   key.Binding
	ClearHouse  key.Binding
	Confirm     key.Binding
	Back        key.Binding
	Details     key.Binding
	Refresh     key.Binding
	Copy        key.Binding
	Pack        key.Binding
	Verify      key.Binding
	WaitAll     key.Binding
	WaitRunning key.Binding
}

func newKeys() keyMap {
	return keyMap{
		KeyMap:      tui.DefaultKeys(),
		listKeys:    newListKeys(),
		Act:         key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "recommended")),
		Pick:        key.NewBinding(key.WithKeys("1", "2", "3", "4", "5", "6", "7", "8", "9"), key.WithHelp("1-9", "choice")),
		Skip:        key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "skip")),
		Select:      key.NewBinding(key.WithKeys("x"), key.WithHelp("x/X/C", "select housekeeping")),
		SelectAll:   key.NewBinding(key.WithKeys("X"), key.WithHelp("X", "select all housekeeping")),
		ClearHouse:  key.NewBinding(key.WithKeys("C"), key.WithHelp("C", "clear all housekeeping")),
		Confirm:     key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "apply")),
		Back:        key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel")),
		Details:     key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "details")),
		Refresh:     key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "refresh")),
		Copy:        key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "copy link")),
		Pack:        key.NewBinding(key.WithKeys("p"), key.WithHelp("p", "its Story's pack")),
		Verify:      key.NewBinding(key.WithKeys("v"), key.WithHelp("v", "verify its Story")),
		WaitAll:     key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "wait for all writes")),
		WaitRunning: key.NewBinding(key.WithKeys("w"), key.WithHelp("w", "wait only for those under way")),
	}
}
