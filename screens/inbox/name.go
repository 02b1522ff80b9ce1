package inbox

// Name is the screen's name in the quit summary.
func (m *Model) Name() string { return "inbox" }
