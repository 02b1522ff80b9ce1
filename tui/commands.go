package tui

import "strings"

// The one table of aayu's commands and flags. The parser (cobra), the help
// pages, the man page, the shell completions and the usage errors are all
// built from it, so a new verb is one CommandDef here and one case in
// main.go's dispatch.

// CommandDef is one command: its name, its positional argument, its help
// and its own flags.
type CommandDef struct {
	// Name is the word typed after aayu, and Invocation.Command. Two words
	// ("proof push") make a subcommand: the first word is made a command
	// that only names its subcommands. The inbox is also the command run
	// when none is named.
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
}

// aliasOf is the table entry for name, another name for the command of:
// its argument and flags, and a line saying whose name it is.
func aliasOf(defs []CommandDef, name, of, arg string) CommandDef {
	for _, d := range defs {
		if d.Name != of {
			continue
		}
		if arg == "" {
			arg = d.Arg
		}
		example := "aayu " + name
		if arg != "" {
			example += " " + map[string]string{"STORY": "131", "PR": "148"}[arg]
		}
		return CommandDef{Name: name, Arg: arg, Group: d.Group, Flags: d.Flags, Of: of,
			Short:   "the same as aayu " + of + " (the seeds' name for it)",
			Long:    "Another name for aayu " + of + ", as aayudha's documents write it: " + d.Short + ".",
			Example: strings.TrimSpace(example)}
	}
	panic("tui: alias " + name + " of unknown command " + of)
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

// Commands lists every command in the order help shows them, the seeds'
// other names for some of them last.
func Commands() []CommandDef {
	defs := commands()
	return append(defs,
		aliasOf(defs, "proof verify", "pack", "STORY"),
		aliasOf(defs, "proof comment", "comment", ""),
		aliasOf(defs, "auth status", "auth", ""),
	)
}

func commands() []CommandDef {
	return []CommandDef{
		{
			Name:  "inbox",
			Group: "daily",
			Short: "every step waiting for you, one key each (the default command)",
			Long: "The inbox: every step waiting for a person, as cards, each acted on with one key.\n" +
				"--list prints the cards and writes nothing; it is allowed for agents. " +
				"--json FIELDS prints them as a JSON array of objects with those fields (implies --list); " +
				"--json with no fields names the fields.",
			Example: "aayu\n" +
				"aayu inbox --list\n" +
				"aayu inbox --json number,kind,title,recommendation\n" +
				"# the fields --json knows\n" +
				"aayu inbox --json",
			Flags: []FlagDef{
				{Name: "list", Usage: "print the cards and stop; read-only, allowed for agents"},
				{Name: "json", Value: "FIELDS", Usage: "print the cards as JSON with these comma-separated FIELDS (implies --list)"},
			},
		},
		{
			Name:    "login",
			Group:   "daily",
			Short:   "presence check by GitHub device flow",
			Long:    "The presence check: a device code you approve on GitHub from any device, proving a person is here.",
			Example: "aayu login\naayu login --sandbox",
		},
		{
			Name:  "pack",
			Group: "daily",
			Arg:   "STORY or DIR",
			Short: "best pack of a story on the ledger, or a local pack folder",
			Long: "The pack viewer: the best proof pack of a Story on the ledger (its newest authoritative pack, " +
				"else its newest advisory one), or a pack folder on disk, verified as ship verifies it.\n" +
				"A folder's checks that need outside facts take them from --ready and --head.",
			Example: "aayu pack 131\n" +
				"aayu pack ./aayudha-pack --ready ready.md --head 1a2b3c4d5e6f7a8b9c0d1e2f3a4b5c6d7e8f9a0b\n" +
				"# the pack as an in-toto Statement v1 (what the merge gate attests)\n" +
				"aayu pack ./aayudha-pack --statement",
			Flags: []FlagDef{
				{Name: "statement", Usage: "print a local pack folder's pack.json as an in-toto Statement v1 and exit"},
				{Name: "ready", Value: "FILE", Usage: "the Ready snapshot FILE to check a local pack folder against"},
				{Name: "head", Value: "SHA", Usage: "the pull request's current head SHA, for a local pack folder"},
			},
		},
		{
			Name:  "verify",
			Group: "daily",
			Arg:   "STORY",
			Short: "run the floors, build the pack in .aayudha/proof/STORY/",
			Long: "Run the Story's floors and tests and build its proof pack in .aayudha/proof/STORY/.\n" +
				"The merge gate splits this in two: --raw-out runs the tests and keeps the raw outputs, " +
				"--from-raw builds the pack from them, running none.",
			Example: "aayu verify 131\n" +
				"aayu verify 131 --ci --raw-out out/raw\n" +
				"# the gate's pack job, in a bare repository of the pull request's commits\n" +
				"aayu verify 131 --ci --from-raw out/raw --pack-out out/pack",
			Flags: []FlagDef{
				{Name: "raw-out", Value: "DIR", Usage: "the merge gate's tests job: run the tests, keep raw outputs in DIR"},
				{Name: "from-raw", Value: "DIR", Usage: "the gate's pack job: build the pack from DIR, running no test"},
				{Name: "pack-out", Value: "DIR", Usage: "write the pack in DIR, not .aayudha/proof/STORY/ (the gate's pack job)"},
			},
		},
		{
			Name:  "ready",
			Group: "daily",
			Arg:   "STORY",
			Short: "freeze the Story's Completion Goal as its Ready snapshot",
			Long: "Freeze the Story's Completion Goal as its Ready snapshot on the ledger, on your yes.\n" +
				"--again freezes it anew after the goal changed.",
			Example: "aayu ready 131\naayu ready 131 --again",
			Flags: []FlagDef{
				{Name: "again", Usage: "freeze it again: the Completion Goal changed"},
			},
		},
		{
			Name:  "plan",
			Group: "daily",
			Arg:   "STORY",
			Short: "the plan-time review a never-layer change needs",
			Long: "Show the Story's Plan and the never layers it (and its pull request) touches, and record your plan review " +
				"as a person who is not the builder: a Plan reviewed: comment on the Story and specs/STORY/plan-review.json on the ledger, on your yes.\n" +
				"In solo mode --solo-bypass records that no review happened instead (a Solo-mode bypass: comment and the record), " +
				"with every refusal ship's bypass has.\n" +
				"In a host agent's lane (a host's marker, no terminal) it posts a batch for the person instead: the review is their reply " +
				"Approve batch HASH, or aayu approve HASH at their own terminal, never a comment by the bot.",
			Example: "aayu plan 131\naayu plan 131 --solo-bypass\n# the plan, the layers and the writes; writes nothing\naayu plan 131 --dry-run",
			Flags: []FlagDef{
				{Name: "solo-bypass", Usage: "in solo mode, record a Solo-mode bypass instead of a review"},
			},
		},
		{
			Name:  "decide",
			Group: "daily",
			Arg:   "DECISION[,DECISION…]",
			Short: "accept Decision options, as the inbox does",
			Long: "Accept option K of Decision N (each N with its K, in order), with the inbox's own writes. " +
				"A pick that is not the recommendation, or any pick of a one-way door, asks first; --note is kept in the actions log.",
			Example: "aayu decide 7 --accept 2\naayu decide 7,9 --accept 2,1 --note \"after the call\"",
			Flags: []FlagDef{
				{Name: "accept", Value: "K[,L…]", Usage: "the option to accept for each Decision, in the same order"},
				{Name: "note", Value: "TEXT", Usage: "a note kept beside each acceptance in the actions log"},
			},
		},
		{
			Name:  "approve",
			Group: "daily",
			Arg:   "[BATCH]",
			Short: "apply a batch of human-only steps an agent started, once its person approves",
			Long: "Apply batch BATCH (the 12 hex digits in its comment) once the person it waits for approves a device code on any device; " +
				"it is applied once: a second approve says it already was. With --ci (aayudha-approve.yml only) it reads the reply that started the run " +
				"and applies nothing unless every check passes, answering a refusal on the thread.",
			Example: "aayu approve 3f9c0a1b2d4e\naayu approve --ci   # in aayudha-approve.yml",
		},
		{
			Name:    "next",
			Group:   "daily",
			Short:   "one line: the command to run now",
			Long:    "One line naming the command to run now: the inbox when steps wait, with their count. Read-only; any lane may run it.",
			Example: "aayu next",
		},
		{
			Name:  "proof push",
			Group: "daily",
			Arg:   "STORY",
			Short: "land the local pack as an advisory pack (never with --ci)",
			Long: "Land the local pack .aayudha/proof/STORY/ (as aayu verify STORY built it) on the ledger as an advisory pack, " +
				"proof/STORY/HEAD/advisory/, with its own pull request comment; it never counts for ship and never replaces the gate's pack.\n" +
				"--media copies the pack's media to the [proof] media bucket (s3://BUCKET/PREFIX) and names each object's key; " +
				"without a bucket media are refused. Refused with --ci.",
			Example: "aayu proof push 131\naayu proof push 131 --media",
			Flags: []FlagDef{
				{Name: "media", Usage: "copy the pack's media to the [proof] media bucket"},
			},
		},
		{
			Name:  "ship",
			Group: "daily",
			Arg:   "PR",
			Short: "the ship screen: read-only gates, presence, then your yes",
			Long: "The ship screen: every gate that only reads (the pull request, policy, the gate's pack, the human pass), " +
				"then the presence check, then one confirmation listing what will be written " +
				"(the squash merge, the ledger record, the Story's update), written only on your yes.\n" +
				"A Solo-mode bypass is taken only with --solo-bypass (or its worded choice on screen).\n" +
				"In a host agent's lane (a host's marker, no terminal) it posts a batch for the person instead, pinned to the head ship read; " +
				"its approval by device code stands in for the presence check, and every other gate is checked again on that head.",
			Example: "aayu ship 148\n" +
				"aayu ship 148 --solo-bypass\n" +
				"# plain lines, the yes read from standard input\n" +
				"aayu ship 148 --plain",
			Flags: []FlagDef{
				{Name: "solo-bypass", Usage: "ship by the Solo-mode bypass when no human pass qualifies"},
			},
		},
		{
			Name:    "comment",
			Group:   "ci",
			Arg:     "PR",
			Short:   "the merge gate's one comment on the pull request (CI)",
			Long:    "The merge gate's one comment on the pull request: each Ready criterion's verdict, every floor, the pack's hash. Run with --ci.",
			Example: "aayu comment 148 --ci --dir aayudha-pack",
			Flags: []FlagDef{
				{Name: "dir", Value: "DIR", Usage: "the pack folder DIR the gate built"},
			},
		},
		{
			Name:  "token seal",
			Group: "ci",
			Short: "the token broker's step: seal the bot App's token to the requester's key (CI)",
			Long: "The token broker's one aayu step (aayudha-token.yml): encrypts the installation token the run just minted, " +
				"with when GitHub says it expires, to the one-time age key of the aayu that dispatched the run. Run with --ci. " +
				"It seals nothing for a requester the default branch does not name ([approvals] approvers, [autonomy] approver) or a bot.",
			Example: "aayu token seal --ci --out \"$RUNNER_TEMP/aayudha-token/token.age\"",
			Flags: []FlagDef{
				{Name: "out", Value: "FILE", Usage: "where the sealed token is written"},
			},
		},
		{
			Name:    "protected",
			Group:   "ci",
			Arg:     "PR",
			Short:   "the protected-paths gate (CI)",
			Long:    "The protected-paths gate: each changed protected path needs its CODEOWNER's approval of the head. Run with --ci.",
			Example: "aayu protected 148 --ci",
		},
		{
			Name:  "init",
			Group: "setup",
			Short: "set up a repository, proposed as one pull request",
			Long: "Set up a repository: the merge gate, the protected-paths gate, config, LAYERS.md and CODEOWNERS, " +
				"proposed as one pull request, and the presence check's App (a GitHub App with no permissions) and its repository variable. " +
				"--gates or --identity does only that half.",
			Example: "aayu init\naayu init --yes\naayu init --identity --client-id Iv1.0123456789abcdef\naayu init --identity --bot-app",
			Flags: []FlagDef{
				{Name: "yes", Usage: "take every proposed default without asking"},
				{Name: "gates", Usage: "only the gates, config, LAYERS.md and CODEOWNERS"},
				{Name: "identity", Usage: "only the presence check's App and its repository variable; with a browser here, creates the App (no permissions) through GitHub's App-manifest flow"},
				{Name: "client-id", Value: "ID", Usage: "the presence App's client ID (Iv23…), for --identity, when you made the App by hand"},
				{Name: "bot-app", Usage: "with --identity: create the bot GitHub App through GitHub's App-manifest flow (needs a browser here)"},
			},
		},
		{
			Name:    "doctor",
			Group:   "setup",
			Short:   "check the set-up against GitHub, one next step per row",
			Example: "aayu doctor",
		},
		{
			Name:    "auth",
			Group:   "setup",
			Short:   "where each token comes from; never a token's value",
			Example: "aayu auth",
		},
		{
			Name:    "audit",
			Group:   "setup",
			Short:   "every Solo-mode bypass and human-fallback write, from the ledger",
			Long:    "Every Solo-mode bypass, human-fallback write and bypass recorded late, read from the ledger (read-only).",
			Example: "aayu audit",
		},
		{
			Name:  "sandbox",
			Group: "setup",
			Short: "only the sandbox GitHub, in the foreground",
			Long: "Serve only the sandbox GitHub, in the foreground, until Ctrl-C.\n" +
				"--reset seeds the demo again, throwing away every change, and exits.",
			Example: "aayu sandbox --addr 127.0.0.1:8765\n" +
				"aayu sandbox --faults 5xx=0.1,latency=300ms\n" +
				"aayu sandbox --reset --addr 127.0.0.1:8765",
			Flags: []FlagDef{
				{Name: "addr", Value: "HOST:PORT", Usage: "where to listen, as HOST:PORT"},
				{Name: "faults", Value: "SPEC", Usage: "inject faults by SPEC, e.g. 5xx=0.1,latency=300ms"},
				{Name: "scale", Value: "N", Usage: "seed N times the demo's items"},
				{Name: "reset", Usage: "seed the demo again, throwing away every change, and exit"},
			},
		},
	}
}
