// Package hostshell decides whether a shell command line an agent is about
// to run would run one of aayu's human-only steps: the rule the hosts'
// pre-tool hooks apply (`aayu hook HOST`; seed 001 names it
// hosts.HumanOnlyCommand). It reads the line as a shell does, with a real
// shell parser (mvdan.cc/sh), so the step is found however the shell
// spells it: after `cd x &&`, `;`, `|`, `||`, `&` or a newline, inside
// `$( )` or backticks, behind `env A=1`, `sudo`, `command`, `exec`,
// `nohup`, `time`, `timeout`, `xargs`, `find -exec`, through `bash -c`,
// `sh -c`, `eval` or a here-document fed to a shell, as a path to the
// binary or `go run`, quoted or escaped. A line it cannot parse is
// blocked: the hook fails closed. It does no I/O.
//
// What the hook stops and what it cannot: it sees the words the agent
// typed, not files a script reads or the value of a variable; a command
// name it cannot see (`$X ship 4`) is blocked when the words after it name
// a human-only step, and an aayu command it cannot see (`aayu $VERB`) is
// blocked outright. The binary's own lane check stays the second layer.
package hostshell

import (
	"fmt"
	"path"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"
)

// Verdict is the decision on one command line.
type Verdict struct {
	// Block says the line must not run in an agent's shell.
	Block bool
	// Step names the human-only step found ("ship", "the full-screen
	// inbox"); "" when the line was blocked as unreadable.
	Step string
	// Person is the command the person runs at their own terminal, as
	// the agent wrote it without the path or runner it used ("aayu ship
	// 4"); "" when the line was unreadable.
	Person string
	// Why says in words why the line is blocked.
	Why string
	// Unreadable says the line could not be read as a shell reads it.
	Unreadable bool
}

// HumanOnlySteps are aayu's commands that are the person's act, whatever
// their arguments (the full-screen inbox is decided apart: `aayu` and
// `aayu inbox` without --list or --json). cli's table test keeps this list
// and the command table's humanOnly marks in step.
func HumanOnlySteps() []string {
	return []string{"ship", "plan", "decide", "ready", "approve", "release", "login", "init", "waive", "self-update"}
}

// FlagSteps are commands that are the person's act only with one flag:
// the flag's name without dashes.
func FlagSteps() map[string]string {
	return map[string]string{"inspect": "approve", "counsel": "post"}
}

// noDryRun are the human-only steps whose --dry-run still asks for the
// person: login's presence check is the person proving who they are.
var noDryRun = []string{"login"}

// ValueFlags are the flags of aayu (global or a command's) that take a
// value, without dashes, so the word after one is never read as the
// command. cli's table test keeps this list and the command table in step.
func ValueFlags() []string {
	return []string{
		"repo", "set", "api-url", "oauth-url", // global
		"json", "accept", "note", "dir", "ready", "head", "client-id",
		"addr", "faults", "scale", "out", "raw-out", "from-raw", "pack-out",
		"floor", "why", "text", "to", "tag", "host", "check",
	}
}

// maxDepth bounds how deep a command string inside a command string
// (`bash -c "eval '…'"`) is read; deeper is blocked, not guessed.
const maxDepth = 8

// dynamic stands for a part of a word the shell fills in when it runs
// ($VAR, $(cmd), a glob): what it will be is unknown here.
// It is itself a parameter expansion, so a command string holding it
// (`bash -c "aayu $VERB"`) is read again as unknown there too.
const dynamic = "${__aayu_dynamic}"

// HumanOnlyCommand decides line.
func HumanOnlyCommand(line string) Verdict {
	var s scanner
	s.source(line, 0)
	return s.v
}

type scanner struct{ v Verdict }

func (s *scanner) blocked() bool { return s.v.Block }

func (s *scanner) block(v Verdict) {
	if !s.v.Block {
		v.Block = true
		s.v = v
	}
}

func (s *scanner) unreadable(why string) {
	s.block(Verdict{Unreadable: true, Why: why})
}

// source reads one shell program (a command line, or a string a shell
// will run) and decides each command in it.
func (s *scanner) source(src string, depth int) {
	if depth > maxDepth {
		s.unreadable("the command nests shells inside shells too deeply to read")
		return
	}
	f, err := parse(src)
	if err != nil {
		s.unreadable(fmt.Sprintf("the shell command could not be read (%v)", err))
		return
	}
	syntax.Walk(f, func(n syntax.Node) bool {
		if s.blocked() {
			return false
		}
		switch n := n.(type) {
		case *syntax.Stmt:
			if call, ok := n.Cmd.(*syntax.CallExpr); ok {
				s.call(words(call.Args), n.Redirs, depth)
			}
		case *syntax.BinaryCmd:
			s.pipeIntoShell(n, depth)
		}
		return true
	})
}

// parse reads src as bash, else as zsh (the default shell of a Mac, where
// an agent's commands often run).
func parse(src string) (*syntax.File, error) {
	f, err := syntax.NewParser(syntax.Variant(syntax.LangBash)).Parse(strings.NewReader(src), "")
	if err == nil {
		return f, nil
	}
	if fz, errz := syntax.NewParser(syntax.Variant(syntax.LangZsh)).Parse(strings.NewReader(src), ""); errz == nil {
		return fz, nil
	}
	return nil, err
}

// arg is one word of a command as the shell will pass it.
type arg struct {
	val    string // dynamic parts replaced by the dynamic marker
	static bool   // no part of it is filled in when it runs
}

func (a arg) is(s string) bool { return a.static && a.val == s }

func words(ws []*syntax.Word) []arg {
	out := make([]arg, 0, len(ws))
	for _, w := range ws {
		out = append(out, word(w))
	}
	return out
}

// word is w as the shell passes it: quotes removed, escapes applied.
func word(w *syntax.Word) arg {
	var b strings.Builder
	static := true
	for _, p := range w.Parts {
		switch p := p.(type) {
		case *syntax.Lit:
			v := unescape(p.Value, false)
			if expands(v) {
				// A glob or brace expansion becomes other words when it runs.
				static = false
				b.WriteString(dynamic)
				continue
			}
			b.WriteString(v)
		case *syntax.SglQuoted:
			if p.Dollar {
				// $'…' decodes escapes such as \x61: read as unknown.
				static = false
				b.WriteString(dynamic)
				continue
			}
			b.WriteString(p.Value)
		case *syntax.DblQuoted:
			for _, q := range p.Parts {
				if l, ok := q.(*syntax.Lit); ok {
					b.WriteString(unescape(l.Value, true))
					continue
				}
				static = false
				b.WriteString(dynamic)
			}
		default:
			static = false
			b.WriteString(dynamic)
		}
	}
	return arg{val: b.String(), static: static}
}

// expands says an unquoted literal becomes other words when it runs: a
// glob (`s*p`), or a brace expansion (`{ship,pack}`, `{1..3}`); `[`,
// `[[` and a lone `{}` (find's and xargs' placeholder) stay as they are.
func expands(v string) bool {
	if v == "[" || v == "[[" || v == "]" || v == "]]" {
		return false
	}
	if strings.ContainsAny(v, "*?[") {
		return true
	}
	open, end := strings.Index(v, "{"), strings.LastIndex(v, "}")
	return open >= 0 && end > open && (strings.Contains(v[open:end], ",") || strings.Contains(v[open:end], ".."))
}

// unescape applies a shell's backslashes: outside quotes a backslash keeps
// the next character as it is; inside double quotes only before $ ` " \
// and a newline. A backslash before a newline joins the lines.
func unescape(s string, quoted bool) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c != '\\' || i+1 == len(s) {
			b.WriteByte(c)
			continue
		}
		next := s[i+1]
		switch {
		case next == '\n':
			i++
		case !quoted || strings.IndexByte("$`\"\\", next) >= 0:
			b.WriteByte(next)
			i++
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}

// shells are the programs that run a command string given with -c.
var shells = []string{"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash"}

// call decides one simple command: the wrappers in front of it peeled
// off, then aayu itself, a runner of aayu, or a shell given a string. Its
// complexity is one case a program: each reads its own options, and a
// table of functions would only scatter the one list a reader checks.
func (s *scanner) call(args []arg, redirs []*syntax.Redirect, depth int) {
	for len(args) > 0 && !s.blocked() {
		name := args[0]
		base := path.Base(name.val)
		if !name.static {
			// A command whose name is filled in when it runs: blocked when
			// the words after it name a human-only step.
			s.aayu(args[1:], false)
			return
		}
		switch base {
		case "aayu", "aayu.exe":
			s.aayu(args[1:], true)
			return
		case "env":
			args = s.env(args[1:], depth)
		case "sudo", "doas":
			args = skipOptions(args[1:], "u", "g", "h", "p", "C", "D", "R", "T", "U", "r", "t", "-user", "-group", "-host", "-prompt", "-chdir")
		case "command":
			if slices.ContainsFunc(args[1:], func(a arg) bool { return a.is("-v") || a.is("-V") }) {
				return // a lookup: it runs nothing
			}
			args = skipOptions(args[1:])
		case "exec":
			args = skipOptions(args[1:], "a")
		case "nohup", "builtin", "setsid", "caffeinate", "chronic", "unbuffer", "noglob", "nocorrect", "stdbuf", "time", "nice", "ionice", "flock", "chrt", "taskset":
			args = skipOptions(args[1:], "n", "c", "f", "o", "p", "t", "w", "-adjustment", "-output", "-format", "-class", "-classdata")
			switch base {
			case "flock", "chrt", "taskset":
				args = dropOne(args) // the lock file, priority or CPU mask
			}
		case "timeout":
			args = dropOne(skipOptions(args[1:], "s", "k", "-signal", "-kill-after")) // the duration
		case "xargs":
			args = skipOptions(args[1:], "I", "n", "L", "P", "s", "d", "E", "a", "-max-args", "-max-lines", "-max-procs", "-max-chars", "-delimiter", "-eof", "-arg-file", "-replace")
		case "watch":
			s.source(joined(skipOptions(args[1:], "n", "d", "-interval", "-differences")), depth+1)
			return
		case "eval":
			s.source(joined(args[1:]), depth+1)
			return
		case "su", "script", "runuser":
			if cmd, ok := optionValue(args[1:], "c", "-command"); ok {
				s.source(cmd.val, depth+1)
			}
			return
		case "find":
			s.find(args[1:], depth)
			return
		case "busybox":
			args = args[1:] // busybox sh -c …: the applet is the command
		case "ssh":
			// The remote command runs as the words after the host, joined:
			// the far machine may be the person's own.
			if rest := dropOne(skipOptions(args[1:], "b", "c", "D", "E", "e", "F", "I", "i", "J", "L", "l", "m", "O", "o", "p", "Q", "R", "S", "W", "w", "B")); len(rest) > 0 {
				s.source(joined(rest), depth+1)
			}
			return
		case "go":
			s.goRun(args[1:])
			return
		case "alias":
			for _, a := range args[1:] {
				if _, v, ok := strings.Cut(a.val, "="); ok {
					s.source(v, depth+1)
				}
			}
			return
		default:
			if slices.Contains(shells, base) {
				s.shell(args[1:], redirs, depth)
			}
			return
		}
	}
}

// aayu decides aayu's arguments (after the binary's name). sure says the
// command is aayu; otherwise (a name filled in when it runs) only a
// human-only step named in plain words blocks.
func (s *scanner) aayu(args []arg, sure bool) {
	inv, dynamicVerb := readInvocation(args)
	if dynamicVerb {
		if sure {
			s.block(Verdict{Step: "an aayu command", Person: person(args),
				Why: "the aayu command is filled in only when the shell runs it, so the hook cannot see whether it is a human-only step"})
		}
		return
	}
	if step, why := inv.humanOnly(); step != "" {
		if !sure && !slices.Contains(HumanOnlySteps(), inv.verb) && inv.verb != "inbox" {
			return
		}
		if !sure && inv.verb == "" {
			return // a bare unknown command is not aayu's inbox
		}
		s.block(Verdict{Step: step, Person: person(args), Why: why})
	}
}

// invocation is what an aayu command line asks for.
type invocation struct {
	verb               string // "" for bare aayu (the inbox)
	help, dryRun, list bool
	flags              map[string]bool
}

// readInvocation reads aayu's arguments as its parser does: global and
// command flags anywhere, the flags that take a value skipping it, the
// first other word the command (with "proof" and "auth", "token" taking
// a second). dynamicVerb says the command's word is filled in at run time.
// It is one pass over the words, as aayu's parser makes it, so its cases
// stay side by side rather than split into helpers that share the index.
func readInvocation(args []arg) (inv invocation, dynamicVerb bool) {
	inv.flags = map[string]bool{}
	valueFlags := ValueFlags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.val == "--" {
			if inv.verb == "" && i+1 < len(args) {
				if !args[i+1].static {
					return inv, true
				}
				inv.verb = args[i+1].val
			}
			break
		}
		if strings.HasPrefix(a.val, "-") && len(a.val) > 1 {
			name, value, hasValue := strings.Cut(strings.TrimLeft(a.val, "-"), "=")
			on := !hasValue || isTrue(value)
			switch name {
			case "help", "h", "version", "v":
				inv.help = inv.help || on
			case "dry-run":
				inv.dryRun = on
			case "list":
				inv.list = on
			case "json":
				inv.list = true
			}
			inv.flags[name] = on
			if !hasValue && slices.Contains(valueFlags, name) {
				i++
			}
			continue
		}
		if inv.verb != "" {
			continue // an argument of the command
		}
		if !a.static {
			return inv, true
		}
		inv.verb = a.val
		if (a.val == "proof" || a.val == "auth" || a.val == "token") && i+1 < len(args) && !strings.HasPrefix(args[i+1].val, "-") {
			i++
			inv.verb += " " + args[i].val
		}
	}
	return inv, false
}

func isTrue(v string) bool {
	switch v {
	case "false", "False", "FALSE", "f", "F", "0":
		return false
	}
	return true
}

// humanOnly names the human-only step inv runs and why, or "".
func (inv invocation) humanOnly() (step, why string) {
	if inv.help {
		return "", "" // a help page or the version runs nothing
	}
	switch {
	case inv.verb == "" || inv.verb == "inbox":
		if inv.list {
			return "", ""
		}
		return "the full-screen inbox", "the full-screen inbox is where the person accepts steps as themself; an agent reads the same cards with aayu inbox --list or --json"
	case slices.Contains(HumanOnlySteps(), inv.verb):
		if inv.dryRun && !slices.Contains(noDryRun, inv.verb) {
			return "", "" // --dry-run writes nothing and asks for no one
		}
		return inv.verb, fmt.Sprintf("aayu %s is a human-only step: the person runs it and approves it", inv.verb)
	}
	if flag, ok := FlagSteps()[inv.verb]; ok && inv.flags[flag] && !inv.dryRun {
		return inv.verb + " --" + flag, fmt.Sprintf("aayu %s --%s is the person's act", inv.verb, flag)
	}
	return "", ""
}

// person is the command line the person runs for args: aayu and the
// words the agent gave it, quoted as a shell needs.
func person(args []arg) string {
	parts := []string{"aayu"}
	for _, a := range args {
		v := strings.ReplaceAll(a.val, dynamic, "…")
		if q, err := syntax.Quote(v, syntax.LangBash); err == nil && q != v {
			v = q
		}
		parts = append(parts, v)
	}
	return strings.Join(parts, " ")
}

// env peels `env [-i] [-u NAME] [-C DIR] [NAME=VALUE…]` off a command;
// `env -S STRING` splits STRING as a command line.
func (s *scanner) env(args []arg, depth int) []arg {
	for len(args) > 0 {
		a := args[0]
		switch {
		case a.is("-S") || a.is("--split-string"):
			if len(args) > 1 {
				s.source(joined(args[1:]), depth+1)
			}
			return nil
		case strings.HasPrefix(a.val, "-S") && a.static:
			s.source(a.val[2:]+" "+joined(args[1:]), depth+1)
			return nil
		case a.is("-u") || a.is("-C") || a.is("--unset") || a.is("--chdir"):
			args = dropOne(args[1:])
		case a.is("--"):
			return args[1:]
		case strings.HasPrefix(a.val, "-"):
			args = args[1:]
		case strings.Contains(a.val, "=") && !strings.HasPrefix(a.val, "="):
			args = args[1:]
		default:
			return args
		}
	}
	return args
}

// skipOptions drops the options in front of a wrapped command; the named
// ones (without their first dash) take the next word as their value.
func skipOptions(args []arg, valued ...string) []arg {
	for len(args) > 0 {
		a := args[0]
		if a.is("--") {
			return args[1:]
		}
		if !strings.HasPrefix(a.val, "-") || a.val == "-" {
			return args
		}
		name := a.val[1:]
		args = args[1:]
		if !strings.Contains(name, "=") && slices.Contains(valued, name) {
			args = dropOne(args)
		}
	}
	return args
}

func dropOne(args []arg) []arg {
	if len(args) > 0 {
		return args[1:]
	}
	return args
}

// optionValue is the value of option -name in args (`-c CMD`, or a
// cluster ending in it such as `-lc CMD`).
func optionValue(args []arg, names ...string) (arg, bool) {
	for i, a := range args {
		if !strings.HasPrefix(a.val, "-") || i+1 == len(args) {
			continue
		}
		opt := a.val[1:]
		for _, n := range names {
			if opt == n || (len(n) == 1 && !strings.HasPrefix(opt, "-") && strings.HasSuffix(opt, n)) {
				return args[i+1], true
			}
		}
	}
	return arg{}, false
}

func joined(args []arg) string {
	vs := make([]string, 0, len(args))
	for _, a := range args {
		vs = append(vs, a.val)
	}
	return strings.Join(vs, " ")
}

// shell decides a shell's run: with -c (alone or in a cluster such as
// -lc or -ce) its first word that is not an option is the program; else
// the here-document or here-string it reads. A script file is not read.
// Its cases are the shells' own option grammar (clusters, -o NAME, long
// options with values), read in one pass.
func (s *scanner) shell(args []arg, redirs []*syntax.Redirect, depth int) {
	hasC := false
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a.is("--") || a.is("-") {
			args = args[i+1:]
			break
		}
		isOpt := strings.HasPrefix(a.val, "-") || strings.HasPrefix(a.val, "+")
		if !isOpt {
			args = args[i:]
			break
		}
		opt := a.val[1:]
		switch {
		case strings.HasPrefix(opt, "-"): // a long option
			if opt == "-rcfile" || opt == "-init-file" {
				i++
			}
		case opt == "o" || opt == "O":
			i++
		case strings.Contains(opt, "c"):
			hasC = true
		}
		if i >= len(args)-1 {
			args = nil
		}
	}
	if hasC {
		if len(args) > 0 {
			s.source(args[0].val, depth+1)
		}
		return
	}
	if len(args) > 0 {
		return // a script file: its lines are not on the command line
	}
	for _, r := range redirs {
		switch r.Op {
		case syntax.Hdoc, syntax.DashHdoc:
			if r.Hdoc != nil {
				s.source(word(r.Hdoc).val, depth+1)
			}
		case syntax.WordHdoc:
			if r.Word != nil {
				s.source(word(r.Word).val, depth+1)
			}
		}
	}
}

// pipeIntoShell decides `echo 'aayu ship 4' | sh`: the words a left side
// of echo or printf prints become the program of the shell on the right.
func (s *scanner) pipeIntoShell(b *syntax.BinaryCmd, depth int) {
	if b.Op != syntax.Pipe && b.Op != syntax.PipeAll {
		return
	}
	left, lok := b.X.Cmd.(*syntax.CallExpr)
	right, rok := b.Y.Cmd.(*syntax.CallExpr)
	if !lok || !rok || len(left.Args) == 0 || len(right.Args) == 0 {
		return
	}
	sh := word(right.Args[0])
	if !sh.static || !slices.Contains(shells, path.Base(sh.val)) {
		return
	}
	if _, ok := optionValue(words(right.Args[1:]), "c"); ok {
		return
	}
	l := words(left.Args)
	switch path.Base(l[0].val) {
	case "echo", "printf":
		s.source(strings.ReplaceAll(joined(skipOptions(l[1:])), `\n`, "\n"), depth+1)
	}
}

// find decides the commands of `find … -exec CMD … ;` (and -execdir,
// -ok, -okdir).
func (s *scanner) find(args []arg, depth int) {
	for i, a := range args {
		if !(a.is("-exec") || a.is("-execdir") || a.is("-ok") || a.is("-okdir")) {
			continue
		}
		end := i + 1
		for end < len(args) && !args[end].is(";") && !args[end].is("+") {
			end++
		}
		s.call(args[i+1:end], nil, depth)
	}
}

// goFlags are `go run`'s build flags that take a value.
var goFlags = []string{"C", "exec", "tags", "ldflags", "gcflags", "asmflags", "mod", "modfile", "overlay", "pkgdir", "p", "o", "toolexec", "pgo", "covermode", "coverpkg"}

// goRun decides `go run PKG ARGS…`: PKG is aayu when it is
// github.com/aayudha/aayu (at a version or not), and may be when it is a
// local package (".", "./…", a path), since from inside aayu's own
// checkout `go run .` is aayu.
func (s *scanner) goRun(args []arg) {
	if len(args) == 0 || !args[0].is("run") {
		return
	}
	rest := skipOptions(args[1:], goFlags...)
	if len(rest) == 0 {
		return
	}
	pkg := rest[0]
	rest = rest[1:]
	if strings.HasSuffix(pkg.val, ".go") {
		for len(rest) > 0 && strings.HasSuffix(rest[0].val, ".go") {
			rest = rest[1:]
		}
	}
	mod, _, _ := strings.Cut(pkg.val, "@")
	switch {
	case pkg.static && (mod == "github.com/aayudha/aayu" || strings.HasPrefix(mod, "github.com/aayudha/aayu/")):
		s.aayu(rest, true)
	case !pkg.static || strings.HasPrefix(pkg.val, ".") || strings.HasPrefix(pkg.val, "/") || strings.HasPrefix(pkg.val, "~") || strings.HasSuffix(pkg.val, ".go"):
		// A local package may be aayu's checkout or any other program:
		// blocked only when its words name a human-only step.
		s.aayu(rest, false)
	}
}
