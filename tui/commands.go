package tui

import (
	"fmt"
	"slices"
	"strings"
)

// The shape of a table of commands and flags. The parser (cobra), the help
// pages, the man page, the shell completions and the usage errors are all
// built from the table the caller passes (Execute): aayu's own lives in
// package cli, one CommandDef in each command's file.

// CommandDef is one command: its name, its positional argument, its help
// and its own flags.
type CommandDef struct {
	// Name is the word typed after aayu, and Invocation.Command. Two words
	// ("proof push") make a subcommand: the first word is made a command
	// that only names its subcommands.
	Name string
	// Arg names the command's one positional argument ("PR", "STORY or
	// DIR"); "" for a command that takes none.
	Arg string
	// Group is the heading help lists the command under (CommandGroups).
	Group string
	// Short is the one line shown in the list of commands.
	Short string
	// Long is the help page's text; Short when empty.
	Long string
	// Example holds example command lines, one a line; "# " starts a comment.
	Example string
	// Flags are the command's own flags, in the order help shows them.
	Flags []FlagDef
	// Of names the command this one is another name for: the seeds write
	// `aayu proof verify STORY` and `aayu auth status`, which run what
	// `aayu pack STORY` and `aayu auth` run. Invocation.Command is Of.
	Of string
	// Default marks the command run when none is named (aayu's inbox):
	// the root carries its flags. A table has exactly one.
	Default bool
}

// Alias is the table entry for name, another name for the command d: its
// argument (arg, or d's when "") and flags, and a line saying whose name
// it is.
func Alias(d CommandDef, name, arg string) CommandDef {
	if arg == "" {
		arg = d.Arg
	}
	example := "aayu " + name
	if arg != "" {
		example += " " + map[string]string{"STORY": "131", "PR": "148"}[arg]
	}
	return CommandDef{Name: name, Arg: arg, Group: d.Group, Flags: d.Flags, Of: d.Name,
		Short:   "the same as aayu " + d.Name + " (the seeds' name for it)",
		Long:    "Another name for aayu " + d.Name + ", as aayudha's documents write it: " + d.Short + ".",
		Example: strings.TrimSpace(example)}
}

// FlagDef is one flag, named without dashes.
type FlagDef struct {
	Name string
	// Value names the flag's value in help ("DIR", "SHA"); "" for a flag
	// that takes no value (it may still be given as --flag=false).
	Value string
	// Usage says what the flag does, in one line.
	Usage string
}

// CommandGroups are the headings of help's command list, in order: ID and
// title.
func CommandGroups() [][2]string {
	return [][2]string{{"daily", "daily"}, {"setup", "set-up"}, {"ci", "merge gate (ci)"}}
}

// GlobalFlags are accepted by every command, before or after its name.
func GlobalFlags() []FlagDef {
	return []FlagDef{
		{Name: "repo", Value: "OWNER/NAME", Usage: "the repository, as OWNER/NAME (default: from the checkout's origin)"},
		{Name: "plain", Usage: "plain lines for screen readers and dumb terminals (also TERM=dumb, [ui] plain = true, or no terminal)"},
		{Name: "ci", Usage: "headless merge gate: no terminal, never waits for a person"},
		{Name: "sandbox", Usage: "run against the built-in sandbox GitHub"},
		{Name: "set", Value: "key=value", Usage: "override one configuration key for this run, as key=value (repeatable)"},
		{Name: "dry-run", Usage: "show what would be written, write nothing"},
		{Name: "api-url", Value: "URL", Usage: "the REST base URL, default " + DefaultAPIURL + " (also AAYU_GITHUB_API_URL)"},
		{Name: "oauth-url", Value: "URL", Usage: "the device-flow host URL, default " + DefaultOAuthURL + " (also AAYU_GITHUB_OAUTH_URL)"},
	}
}

// CheckTable lists what makes defs a table the parser cannot build, in
// words, or nothing. The root carries one hidden copy of each command flag
// so cobra can find the command after it, which works only if a flag name
// shared by two commands takes a value in both or in neither, and no
// command flag shadows a global one; each command is listed once, under a
// group help knows, with its one line and an example; exactly one is the
// default; another name names a command of the table.
func CheckTable(defs []CommandDef) []string {
	var out []string
	takesValue := map[string]bool{}
	names := map[string]bool{}
	defaults := 0
	for _, d := range defs {
		if names[d.Name] {
			out = append(out, fmt.Sprintf("command %s is listed twice", d.Name))
		}
		names[d.Name] = true
		if d.Default {
			defaults++
		}
		if d.Short == "" || d.Example == "" || !slices.ContainsFunc(CommandGroups(), func(g [2]string) bool { return g[0] == d.Group }) {
			out = append(out, fmt.Sprintf("aayu %s lacks its one line, an example or its group", d.Name))
		}
		out = append(out, checkFlags(d, takesValue)...)
	}
	for _, d := range defs {
		if d.Of != "" && !names[d.Of] {
			out = append(out, fmt.Sprintf("aayu %s is another name for %s, which is no command", d.Name, d.Of))
		}
	}
	if defaults != 1 {
		out = append(out, fmt.Sprintf("%d commands are the default; a table has exactly one", defaults))
	}
	return out
}

// checkFlags is CheckTable's rule for d's flags: none shadows a global
// one, and each takes a value for every command or for none (takesValue,
// the flags seen so far).
func checkFlags(d CommandDef, takesValue map[string]bool) []string {
	var out []string
	for _, f := range d.Flags {
		if isGlobal(f.Name) {
			out = append(out, fmt.Sprintf("aayu %s --%s shadows the global flag", d.Name, f.Name))
		}
		if v, ok := takesValue[f.Name]; ok && v != (f.Value != "") && d.Of == "" {
			out = append(out, fmt.Sprintf("--%s takes a value for one command and none for another", f.Name))
		}
		takesValue[f.Name] = f.Value != ""
	}
	return out
}
