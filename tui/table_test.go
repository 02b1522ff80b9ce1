package tui

// testDefs is the parser's own test table: commands shaped like aayu's
// (a default with flags, one-word and two-word commands, arguments of each
// kind, flags that take values and flags that do not, other names), so the
// machinery is tested apart from the table package cli passes in.
func testDefs() []CommandDef {
	inbox := CommandDef{Name: "inbox", Group: "daily", Default: true, Short: "the steps waiting", Example: "aayu",
		Flags: []FlagDef{
			{Name: "list", Usage: "print the cards"},
			{Name: "json", Value: "FIELDS", Usage: "print the cards as JSON"},
		}}
	pack := CommandDef{Name: "pack", Group: "daily", Arg: "STORY or DIR", Short: "a pack", Example: "aayu pack 131",
		Flags: []FlagDef{
			{Name: "statement", Usage: "print the Statement"},
			{Name: "ready", Value: "FILE", Usage: "the Ready snapshot FILE"},
			{Name: "head", Value: "SHA", Usage: "the head SHA"},
		}}
	comment := CommandDef{Name: "comment", Group: "ci", Arg: "PR", Short: "the gate's comment", Example: "aayu comment 148 --ci",
		Flags: []FlagDef{{Name: "dir", Value: "DIR", Usage: "the pack folder DIR"}}}
	auth := CommandDef{Name: "auth", Group: "setup", Short: "where each token comes from", Example: "aayu auth"}
	defs := []CommandDef{
		inbox,
		{Name: "login", Group: "daily", Short: "presence check", Example: "aayu login"},
		pack,
		{Name: "verify", Group: "daily", Arg: "STORY", Short: "build the pack", Example: "aayu verify 131",
			Flags: []FlagDef{{Name: "raw-out", Value: "DIR", Usage: "keep raw outputs in DIR"}}},
		{Name: "ready", Group: "daily", Arg: "STORY", Short: "freeze the goal", Example: "aayu ready 131",
			Flags: []FlagDef{{Name: "again", Usage: "freeze it again"}}},
		{Name: "plan", Group: "daily", Arg: "STORY", Short: "the plan review", Example: "aayu plan 131",
			Flags: []FlagDef{{Name: "solo-bypass", Usage: "record a bypass"}}},
		{Name: "decide", Group: "daily", Arg: "DECISION[,DECISION…]", Short: "accept options", Example: "aayu decide 7 --accept 2",
			Flags: []FlagDef{
				{Name: "accept", Value: "K[,L…]", Usage: "the options"},
				{Name: "note", Value: "TEXT", Usage: "a note"},
			}},
		{Name: "approve", Group: "daily", Arg: "[BATCH]", Short: "apply a batch", Example: "aayu approve 3f9c0a1b2d4e"},
		{Name: "next", Group: "daily", Short: "the command to run now", Example: "aayu next"},
		{Name: "proof push", Group: "daily", Arg: "STORY", Short: "land the local pack", Example: "aayu proof push 131",
			Flags: []FlagDef{{Name: "media", Usage: "copy the media"}}},
		{Name: "ship", Group: "daily", Arg: "PR", Short: "the ship screen", Example: "aayu ship 148",
			Flags: []FlagDef{{Name: "solo-bypass", Usage: "ship by the bypass"}}},
		comment,
		{Name: "doctor", Group: "setup", Short: "check the set-up", Example: "aayu doctor"},
		auth,
		{Name: "sandbox", Group: "setup", Short: "the sandbox GitHub", Example: "aayu sandbox",
			Flags: []FlagDef{
				{Name: "addr", Value: "HOST:PORT", Usage: "where to listen"},
				{Name: "faults", Value: "SPEC", Usage: "inject faults"},
				{Name: "scale", Value: "N", Usage: "seed N times the items"},
				{Name: "reset", Usage: "seed again and exit"},
			}},
	}
	return append(defs, Alias(pack, "proof verify", "STORY"), Alias(comment, "proof comment", ""), Alias(auth, "auth status", ""))
}
