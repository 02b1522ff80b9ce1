package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"runtime/debug"
	"slices"
	"strings"

	"charm.land/fang/v2"
	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/aayudha/aayu/model/inbox"
)

// CLI is what Execute takes from the process, so tests can run it with
// their own streams.
type CLI struct {
	Stdout, Stderr io.Writer
	// ConfigPath is the user's config file, named in the help pages; ""
	// when neither XDG_CONFIG_HOME nor HOME is set.
	ConfigPath string
	// Version is what --version prints after "aayu version"; "" reads it
	// from the build (BuildVersion).
	Version string
}

// Execute reads the command line through aayu's command tree (cobra, with
// fang's styled help). When the line asks for a help page, the version, a
// completion script or the man page, Execute prints it and returns done
// with ExitOK; a mistake is printed as one line (UsageLine) and returns
// done with ExitUsage. Otherwise done is false and inv is the command to run.
// defs is the table of commands (CheckTable holds for it).
func Execute(ctx context.Context, args []string, defs []CommandDef, c CLI) (inv Invocation, code int, done bool) {
	p := &parser{defs: defs}
	root := p.root(c.ConfigPath)
	root.SetArgs(nonNil(args))
	// Help pages are laid out in columns padded with spaces; written to a
	// file or a pipe, every line would end in them. They are kept and
	// written once Execute is done, each line's trailing spaces dropped. A
	// completion script or request is written as it is.
	out := io.Writer(c.Stdout)
	var page *bytes.Buffer
	if !slices.ContainsFunc(args, func(a string) bool { return a == "completion" || strings.HasPrefix(a, "__complete") }) {
		page = &bytes.Buffer{}
		out = page
		defer func() { _, _ = io.WriteString(c.Stdout, trimLineEnds(page.String())) }()
	}
	root.SetOut(out)
	root.SetErr(c.Stderr)
	root.SetIn(strings.NewReader("")) // nothing here reads input; screens own standard input
	version := c.Version
	if version == "" {
		version = BuildVersion()
	}
	err := fang.Execute(ctx, root,
		fang.WithVersion(version),
		// fang's man command writes to os.Stdout, past the streams run()
		// was given; aayu's own (manCommand) writes to the command's.
		fang.WithoutManpage(),
		fang.WithErrorHandler(func(w io.Writer, _ fang.Styles, err error) {
			_, _ = fmt.Fprintln(w, UsageLine(asUsage(err)))
		}),
	)
	switch {
	case err != nil:
		// Every error before a screen runs is the command line's: the
		// parse, the arguments, or a help topic that does not exist.
		return Invocation{}, ExitUsage, true
	case !p.ran:
		return Invocation{}, ExitOK, true
	}
	return p.inv, ExitOK, false
}

// ParseArgs parses the arguments after the program name, printing
// nothing: Help is set when they ask for a help page. Global flags may come
// before or after the command name; a command's own flags may too, but
// must belong to that command. "--" ends the flags. Every mistake is a
// *UsageError whose message names the argument and what was expected.
// defs is the table of commands, as Execute's.
func ParseArgs(args []string, defs []CommandDef) (Invocation, error) {
	return (&parser{defs: defs}).parse(args)
}

// parse is ParseArgs on the parser's own table.
func (p *parser) parse(args []string) (Invocation, error) {
	root := p.root("")
	root.SetArgs(nonNil(args))
	root.SetOut(io.Discard)
	root.SetErr(io.Discard)
	root.SilenceErrors, root.SilenceUsage = true, true
	root.SetHelpFunc(func(*cobra.Command, []string) { p.help = true })
	err := root.Execute()
	if p.help {
		return Invocation{Help: true, Flags: map[string]string{}}, nil
	}
	if err != nil {
		return p.inv, asUsage(err)
	}
	return p.inv, nil
}

// nonNil keeps an empty command line empty: cobra reads os.Args for nil.
func nonNil(args []string) []string {
	if args == nil {
		return []string{}
	}
	return args
}

// parser builds the command tree for one command line and keeps what the
// command run left: the tree's RunE only records the Invocation, and main
// runs the screen after Execute returns.
type parser struct {
	defs []CommandDef // the table the tree is built from
	inv  Invocation
	ran  bool
	help bool
}

// root builds the tree from the table and GlobalFlags. The root command is
// the table's default (aayu's inbox), so `aayu` and `aayu --list` run it; it also carries a hidden
// copy of every other command's flags, so cobra can find the command name
// after any of them (`aayu --ready FILE pack DIR`) and a flag given without
// its command is refused by name, not as unknown.
func (p *parser) root(configPath string) *cobra.Command {
	root := p.tree(configPath)
	p.addHiddenFlags(root)
	root.AddGroup(&cobra.Group{ID: "more", Title: "help and shell"})
	root.SetHelpCommand(p.helpCommand())
	root.SetHelpCommandGroupID("more")
	root.SetCompletionCommandGroupID("more")
	root.AddCommand(manCommand(p.defs), versionCommand())
	return root
}

// addHiddenFlags gives c and each command under it that has subcommands
// (the root, "proof") a hidden copy of every command flag: cobra finds the
// command name by skipping the flags before it, and can skip a flag's
// value only when it knows the flag takes one.
func (p *parser) addHiddenFlags(c *cobra.Command) {
	for _, d := range p.defs {
		for _, f := range d.Flags {
			if c.Flags().Lookup(f.Name) == nil {
				addFlag(c.Flags(), f)
				_ = c.Flags().MarkHidden(f.Name) // the name is the one just added
			}
		}
	}
	for _, sub := range c.Commands() {
		if sub.HasSubCommands() {
			p.addHiddenFlags(sub)
		}
	}
}

// tree is the command tree without the root's hidden flags: what the man
// page describes.
func (p *parser) tree(configPath string) *cobra.Command {
	defs := p.defs
	home := p.defaultDef()
	root := &cobra.Command{
		Use:                        "aayu",
		Short:                      "the person's side of aayudha: inbox, proof packs, ship",
		Long:                       rootLong(configPath),
		Example:                    "aayu\naayu ship 148\naayu help ship\naayu completion bash > /etc/bash_completion.d/aayu",
		Args:                       p.unknownCommand,
		RunE:                       func(c *cobra.Command, args []string) error { return p.capture(home, c, args) },
		SuggestionsMinimumDistance: 2,
		SilenceErrors:              true,
		SilenceUsage:               true,
	}
	root.SetFlagErrorFunc(p.flagError)
	for _, f := range GlobalFlags() {
		addFlag(root.PersistentFlags(), f)
	}
	for _, f := range home.Flags {
		addFlag(root.Flags(), f)
	}
	completeFlagValues(root)
	for _, g := range CommandGroups() {
		root.AddGroup(&cobra.Group{ID: g[0], Title: g[1]})
	}
	for _, d := range defs {
		p.parentOf(root, d).AddCommand(p.command(d))
	}
	return root
}

// defaultDef is the command run when none is named: the table's Default.
func (p *parser) defaultDef() CommandDef {
	i := slices.IndexFunc(p.defs, func(d CommandDef) bool { return d.Default })
	if i < 0 {
		panic("tui: the table of commands has no default (CheckTable)")
	}
	return p.defs[i]
}

// parentOf finds or makes the command a table entry with a name of more
// than one word ("proof push") is added under: "proof", a command that only
// names its subcommands.
func (p *parser) parentOf(root *cobra.Command, d CommandDef) *cobra.Command {
	words := strings.Fields(d.Name)
	parent := root
	for _, w := range words[:len(words)-1] {
		i := slices.IndexFunc(parent.Commands(), func(c *cobra.Command) bool { return c.Name() == w })
		if i >= 0 {
			parent = parent.Commands()[i]
			if d.Of == "" && !parent.Runnable() {
				parent.Short += "; " + d.Name + ": " + d.Short
			}
			continue
		}
		// The parent's line in the root's list names its subcommands in
		// full ("proof push: …"), so the verb a person types is on the page.
		group := &cobra.Command{
			Use:     w + " COMMAND",
			Short:   d.Name + ": " + d.Short,
			GroupID: d.Group,
			Args: func(c *cobra.Command, args []string) error {
				if len(args) == 0 {
					return usagef("aayu %s needs a command: %s", c.CommandPath()[len("aayu "):], subcommandNames(c))
				}
				if s := nearestOnly(args[0], c.SuggestionsFor(args[0])); len(s) > 0 {
					return usagef("unknown command %q: did you mean %s %s?", SanitizeLine(args[0]), c.CommandPath(), strings.Join(s, " or "))
				}
				return usagef("unknown command %q: the %s commands are %s", SanitizeLine(args[0]), c.CommandPath(), subcommandNames(c))
			},
			RunE:                       func(*cobra.Command, []string) error { return nil }, // Args refuses every line that reaches it
			SuggestionsMinimumDistance: 2,
		}
		parent.AddCommand(group)
		parent = group
	}
	return parent
}

func subcommandNames(c *cobra.Command) string {
	var names []string
	for _, sub := range c.Commands() {
		if sub.IsAvailableCommand() {
			names = append(names, sub.Name())
		}
	}
	return strings.Join(names, ", ")
}

func rootLong(configPath string) string {
	where := configPath
	if where == "" {
		where = "$XDG_CONFIG_HOME/aayu/config.toml, else ~/.config/aayu/config.toml"
	}
	return "aayu is the person's side of aayudha: the inbox of every step waiting for a person, " +
		"proof packs, and ship, where only a person gives the pass that lets a change ship.\n\n" +
		"Configuration: the repository's .aayudha/config.toml, then " + where + " (your file), " +
		"AAYU_* variables and --set key=value, later ones winning; policy always comes from the base branch.\n\n" +
		"Exit codes: 0 done, 1 failed, 2 usage, 3 a floor does not hold, " +
		"4 the pack does not verify, nothing qualifies, or a refusal."
}

func (p *parser) command(d CommandDef) *cobra.Command {
	words := strings.Fields(d.Name)
	use := words[len(words)-1]
	if d.Arg != "" {
		use += " " + strings.ReplaceAll(d.Arg, " or ", "|")
	}
	c := &cobra.Command{
		Use:     use,
		Short:   d.Short,
		Long:    d.Long,
		Example: d.Example,
		Args: func(c *cobra.Command, args []string) error {
			return forCommand(c, argCountError(d, args))
		},
		RunE: func(c *cobra.Command, args []string) error { return forCommand(c, p.capture(d, c, args)) },
	}
	if len(words) == 1 {
		c.GroupID = d.Group // a group is the root's; "proof push" is listed under proof
	}
	if d.Arg == "" || !strings.Contains(d.Arg, "DIR") {
		// A Story or pull request number is no file name.
		c.ValidArgsFunction = cobra.NoFileCompletions
	}
	for _, f := range d.Flags {
		addFlag(c.Flags(), f)
	}
	completeFlagValues(c)
	return c
}

// completeFlagValues gives the flags whose values are words, not files,
// their completions: --json completes the inbox's field names (after the
// commas already typed); a number or a SHA completes nothing.
func completeFlagValues(c *cobra.Command) {
	for name, values := range map[string]func(typed string) []string{
		"json": func(typed string) []string {
			done := typed[:strings.LastIndex(typed, ",")+1]
			var out []string
			for _, f := range inbox.JSONFields() {
				if !slices.Contains(strings.Split(done, ","), f) {
					out = append(out, done+f)
				}
			}
			return out
		},
		"accept": nil, "head": nil, "client-id": nil, "note": nil, "scale": nil, "addr": nil, "faults": nil,
	} {
		if c.Flags().Lookup(name) == nil {
			continue
		}
		_ = c.RegisterFlagCompletionFunc(name, func(_ *cobra.Command, _ []string, typed string) ([]string, cobra.ShellCompDirective) {
			if values == nil {
				return nil, cobra.ShellCompDirectiveNoFileComp
			}
			return values(typed), cobra.ShellCompDirectiveNoFileComp | cobra.ShellCompDirectiveNoSpace
		})
	}
}

// helpCommand is `aayu help [COMMAND]`: cobra's own says "Unknown help
// topic" and exits 0; this one refuses a name that is no command, as a
// usage error with a suggestion.
func (p *parser) helpCommand() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command]",
		Short: "the help page of any command",
		Example: "aayu help ship\n" +
			"aayu ship --help",
		ValidArgsFunction: func(c *cobra.Command, _ []string, _ string) ([]string, cobra.ShellCompDirective) {
			var names []string
			for _, sub := range c.Root().Commands() {
				if sub.IsAvailableCommand() {
					names = append(names, sub.Name())
				}
			}
			return names, cobra.ShellCompDirectiveNoFileComp
		},
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || len(rest) > 0 {
				name := strings.Join(args, " ")
				return usagef("no help for %q: %s", SanitizeLine(name), didYouMean(c.Root(), firstOf(rest, name)))
			}
			target.InitDefaultHelpFlag()
			return target.Help()
		},
	}
}

// manCommand prints aayu's man page (roff) to the command's own output.
func manCommand(defs []CommandDef) *cobra.Command {
	return &cobra.Command{
		Use:     "man",
		Short:   "print the man page (roff): aayu man > aayu.1",
		GroupID: "more",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			// The man page is the same for everyone: it names the config
			// file's place by its rule, not this user's path.
			page, err := mcobra.NewManPage(1, (&parser{defs: defs}).tree(""))
			if err != nil {
				return fmt.Errorf("building the man page: %w", err)
			}
			for _, sec := range manSections() {
				page = page.WithSection(sec[0], sec[1])
			}
			_, err = fmt.Fprint(c.OutOrStdout(), page.Build(roff.NewDocument()))
			return err
		},
	}
}

// versionCommand is `aayu version`, which gh's users type: the line
// --version prints.
func versionCommand() *cobra.Command {
	return &cobra.Command{
		Use:     "version",
		Short:   "print aayu's version (the same as --version)",
		GroupID: "more",
		Args:    cobra.NoArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			_, err := fmt.Fprintln(c.OutOrStdout(), "aayu version "+c.Root().Version)
			return err
		},
	}
}

// manSections are the man page's sections beyond the commands: what the
// environment changes, the files aayu reads and writes, and the exit
// status, as a man page reader looks for them.
func manSections() [][2]string {
	return [][2]string{
		{"Environment", "AAYU_GITHUB_TOKEN: the person's GitHub token (first in the token order).\n" +
			"GITHUB_TOKEN: the token, only with --ci.\n" +
			"AAYU_GITHUB_API_URL, AAYU_GITHUB_OAUTH_URL: the REST base and the device-flow host (as --api-url and --oauth-url).\n" +
			"AAYU_AGENT=1: aayu's own unattended lane (the MCP server, the loops): every human-only step is refused at once.\n" +
			"AMP_THREAD_ID, CLAUDECODE, CURSOR_AGENT, CODEX_SANDBOX: a host agent's lane: a human-only step posts a batch for the person.\n" +
			"AAYU_BOT_TOKEN: the bot identity's token for an agent lane.\n" +
			"AAYU_*: any configuration key, as AAYU_PROOF_RETENTION_DAYS for proof.retention_days.\n" +
			"NO_COLOR: drop colour, keep the full screen. TERM=dumb: plain lines.\n" +
			"XDG_CONFIG_HOME, XDG_CACHE_HOME, XDG_STATE_HOME: where the files below live."},
		{"Files", "$XDG_CONFIG_HOME/aayu/config.toml: your configuration (~/.config/aayu/config.toml).\n" +
			".aayudha/config.toml, LAYERS.md, CODEOWNERS: the repository's policy, read from the base branch for every decision.\n" +
			".aayudha/evidence/STORY.toml: the evidence map, each criterion's tests.\n" +
			".aayudha/proof/STORY/: the local pack aayu verify builds (git-ignored).\n" +
			"$XDG_CACHE_HOME/aayu/: the inbox's last read, the HTTP cache and the sandbox's state; never acted on.\n" +
			"$XDG_STATE_HOME/aayu/actions/: the actions log, one file a day, every write aayu made."},
		{"Exit Status", "0 done; 1 failed (network, git, a bug); 2 usage; 3 a floor does not hold; " +
			"4 the pack does not verify, nothing qualifies, or a refusal."},
	}
}

// trimLineEnds drops the spaces and tabs at the end of every line of s.
func trimLineEnds(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " \t")
	}
	return strings.Join(lines, "\n")
}

func firstOf(s []string, def string) string {
	if len(s) > 0 {
		return s[0]
	}
	return def
}

// addFlag defines f on set: a string flag when it takes a value (--set is
// an array, repeatable), else a bool. Each usage names the value in
// capitals (FILE, SHA) in its words: fang's help shows no value name.
func addFlag(set *pflag.FlagSet, f FlagDef) {
	switch {
	case f.Name == "set":
		set.StringArray(f.Name, nil, f.Usage)
	case f.Value != "":
		set.String(f.Name, "", f.Usage)
	default:
		set.Bool(f.Name, false, f.Usage)
	}
}

// unknownCommand is the root's argument check: the root is the inbox and
// takes no argument, so a word there is a command aayu does not know.
func (p *parser) unknownCommand(c *cobra.Command, args []string) error {
	if len(args) == 0 {
		return nil
	}
	return usagef("unknown command %q: %s", SanitizeLine(args[0]), didYouMean(c, args[0]))
}

// didYouMean names the nearest commands, or lists them all.
func didYouMean(root *cobra.Command, typed string) string {
	if s := nearestOnly(typed, root.SuggestionsFor(typed)); len(s) > 0 {
		return "did you mean aayu " + strings.Join(s, " or aayu ") + "?"
	}
	return "the commands are " + subcommandNames(root)
}

// nearestOnly keeps the suggestions nearest to typed: "shp" is one edit
// from ship and two from mcp, so it names ship alone.
func nearestOnly(typed string, suggestions []string) []string {
	best := -1
	var out []string
	for _, s := range suggestions {
		switch d := editDistance(typed, s); {
		case best < 0 || d < best:
			best, out = d, []string{s}
		case d == best:
			out = append(out, s)
		}
	}
	return out
}

// owners names the commands that own a flag; none for a global flag or a
// flag aayu does not know.
func (p *parser) owners(name string) []string {
	var out []string
	for _, d := range p.defs {
		if d.Of == "" && slices.ContainsFunc(d.Flags, func(f FlagDef) bool { return f.Name == name }) {
			out = append(out, d.Name)
		}
	}
	return out
}

func isGlobal(name string) bool {
	return slices.ContainsFunc(GlobalFlags(), func(f FlagDef) bool { return f.Name == name })
}

func (p *parser) belongsError(flag, command string) error {
	return usagef("--%s belongs to aayu %s, not aayu %s", flag, strings.Join(p.owners(flag), " and aayu "), command)
}

// flagError turns pflag's errors into aayu's one-line usage errors, with
// outside text shown as caret notation.
func (p *parser) flagError(c *cobra.Command, err error) error {
	return forCommand(c, p.flagUsage(c, err))
}

// forCommand points a usage error's hint at c's own help page.
func forCommand(c *cobra.Command, err error) error {
	var ue *UsageError
	if errors.As(err, &ue) && c.HasParent() {
		ue.Command = strings.TrimPrefix(c.CommandPath(), c.Root().Name()+" ")
	}
	return err
}

func (p *parser) flagUsage(c *cobra.Command, err error) error {
	cmd := strings.TrimPrefix(c.CommandPath(), "aayu ")
	if !c.HasParent() {
		cmd = p.defaultDef().Name
	}
	var (
		notExist *pflag.NotExistError
		required *pflag.ValueRequiredError
		invalid  *pflag.InvalidValueError
		syntax   *pflag.InvalidSyntaxError
	)
	switch {
	case errors.As(err, &notExist) && notExist.GetSpecifiedShortnames() != "":
		return usagef("unknown flag -%s: aayu's flags start with two dashes", SanitizeLine(notExist.GetSpecifiedShortnames()))
	case errors.As(err, &notExist):
		name := notExist.GetSpecifiedName()
		if len(p.owners(name)) > 0 {
			return p.belongsError(name, cmd)
		}
		if near := nearestFlag(c, name); near != "" {
			return usagef("unknown flag --%s: did you mean --%s?", SanitizeLine(name), near)
		}
		return usagef("unknown flag --%s", SanitizeLine(name))
	case errors.As(err, &required):
		return missingValue(required.GetSpecifiedName())
	case errors.As(err, &invalid) && invalid.GetFlag().Value.Type() == "bool":
		return usagef("flag --%s takes no value (or true/false), got %q", invalid.GetFlag().Name, SanitizeLine(invalid.GetValue()))
	case errors.As(err, &syntax):
		return usagef("bad flag %q", SanitizeLine(syntax.GetSpecifiedFlag()))
	}
	return &UsageError{Msg: SanitizeLine(err.Error())}
}

// missingValue is the error for a value flag given none. --json names its
// fields then, as gh does.
func missingValue(name string) error {
	if name == "json" {
		return usagef("--json wants comma-separated fields, from: %s", strings.Join(inbox.JSONFields(), ", "))
	}
	return usagef("flag --%s needs a value", SanitizeLine(name))
}

// nearestFlag is the flag of c (its own or a global one) nearest to name,
// within one edit for a short name and two for a longer one, or "".
func nearestFlag(c *cobra.Command, name string) string {
	best, bestD := "", 2
	if len(name) >= 6 {
		bestD = 3
	}
	c.Flags().VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		if d := editDistance(name, f.Name); d < bestD {
			best, bestD = f.Name, d
		}
	})
	return best
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur := make([]int, len(b)+1)
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev = cur
	}
	return prev[len(b)]
}

// capture records the command line as the Invocation main runs, checking
// each flag's value by the same rules as before cobra (setFlag).
func (p *parser) capture(d CommandDef, c *cobra.Command, args []string) error {
	name := d.Name
	if d.Of != "" {
		name = d.Of // another name runs the command it names
	}
	inv := Invocation{Command: name, Flags: map[string]string{}}
	if len(args) > 0 {
		inv.Args = args
	}
	var err error
	c.Flags().Visit(func(f *pflag.Flag) {
		if err == nil && f.Name != "help" {
			err = p.captureFlag(&inv, d, c, f)
		}
	})
	if err == nil && inv.Global.Sandbox && (inv.Global.APIURL != "" || inv.Global.OAuthURL != "") {
		err = usagef("--sandbox runs aayu's own GitHub; leave out --api-url and --oauth-url, or drop --sandbox to use them")
	}
	p.inv, p.ran = inv, err == nil
	return err
}

// captureFlag records one flag given on the command line for d.
func (p *parser) captureFlag(inv *Invocation, d CommandDef, c *cobra.Command, f *pflag.Flag) error {
	switch {
	case f.Name == "set":
		values, _ := c.Flags().GetStringArray("set") // defined as an array in addFlag
		for _, v := range values {
			if err := setFlag(inv, "set", v); err != nil {
				return err
			}
		}
		return nil
	case !isGlobal(f.Name) && !slices.ContainsFunc(d.Flags, func(x FlagDef) bool { return x.Name == f.Name }):
		return p.belongsError(f.Name, d.Name)
	case f.Value.Type() == "bool":
		if f.Value.String() == "true" || isGlobal(f.Name) {
			return setFlag(inv, f.Name, f.Value.String())
		}
		return nil
	case f.Value.String() == "" || strings.HasPrefix(f.Value.String(), "--"):
		// pflag takes the next word as the value even when it is
		// another flag (--repo --plain); aayu never did.
		return missingValue(f.Name)
	}
	return setFlag(inv, f.Name, f.Value.String())
}

// argCountError checks the number of positional arguments d takes.
func argCountError(d CommandDef, got []string) error {
	switch {
	case d.Arg == "" && len(got) == 0, d.Arg != "" && len(got) == 1:
		return nil
	case strings.HasPrefix(d.Arg, "[") && len(got) == 0:
		return nil // an optional argument ("[BATCH]")
	case d.Arg == "":
		return usagef("aayu %s takes no arguments, got %q", d.Name, SanitizeLine(strings.Join(got, " ")))
	case len(got) == 0:
		return usagef("aayu %s needs one argument, %s", d.Name, d.Arg)
	}
	return usagef("aayu %s takes one argument, %s, got %d: %q", d.Name, d.Arg, len(got), SanitizeLine(strings.Join(got, " ")))
}

// asUsage makes any parse error a *UsageError, its text shown as outside
// text (cobra quotes what was typed).
func asUsage(err error) *UsageError {
	var ue *UsageError
	if errors.As(err, &ue) {
		return ue
	}
	return &UsageError{Msg: SanitizeLine(err.Error())}
}

// BuildVersion is what --version prints: the module version the binary was
// built at (a tag for `go install …@v0.3.0`, a pseudo-version or (devel)
// for a build from a checkout) and the commit it was built from, with
// "modified" when the checkout had uncommitted changes.
func BuildVersion() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown (built without module information)"
	}
	version := info.Main.Version
	if version == "" {
		version = "(devel)"
	}
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev == "" {
		return version
	}
	version += " (commit " + rev[:min(12, len(rev))]
	if modified == "true" {
		version += ", modified"
	}
	return version + ")"
}
