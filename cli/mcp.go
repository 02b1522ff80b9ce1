package cli

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/agents/mcpserver"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/model/identity"
	"github.com/aayudha/aayu/tui"
)

// mcpCommand is aayu mcp's table entry and run.
func mcpCommand() command {
	return command{
		def: tui.CommandDef{
			Name:  "mcp",
			Group: "daily",
			Short: "the MCP server over stdio: aayu's own unattended lane, for agent hosts",
			Long: "The Model Context Protocol server an agent host starts over stdio. It is aayu's own unattended lane " +
				"(AAYU_AGENT=1): its tools read (the inbox, next, a Story's pack, a local pack, the gate's comment, a Story's goal) " +
				"and do agent work (verify, proof push); none applies or starts a human-only step, and a call naming one is " +
				"refused with the command the person runs. Text from GitHub reaches the model inside an untrusted-text block. " +
				"Its prompt aayudha:inbox lists what waits for the person.",
			Example: "aayu mcp\n" +
				"# Claude Code\n" +
				"claude mcp add aayudha -- aayu mcp",
		},
		run: wiring.runMCP,
		// The server itself talks to no GitHub: each tool call runs its own
		// command line, which opens its own session in aayu's own lane.
		local: true,
	}
}

// runMCP serves MCP on standard input and output until the host closes
// them. Nothing but the protocol goes to standard output; a failure to
// serve is one line on standard error.
func (w wiring) runMCP() int {
	deps := mcpserver.Deps{
		Version: tui.BuildVersion(),
		Run:     w.mcpRun,
		Person:  mcpPerson,
		Batches: func(verb string) bool { c, ok := commandFor(verb); return ok && c.batch != nil },
		Secrets: mcpSecrets(w.e.getenv),
	}
	err := mcpserver.Serve(w.ctx, deps, io.NopCloser(w.e.stdin), nopWriteCloser{w.e.stdout})
	if err != nil {
		fmt.Fprintf(w.e.stderr, "aayu mcp: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	return tui.ExitOK
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }

// ownLaneEnv is getenv with AAYU_AGENT=1: every command a tool runs is in
// aayu's own unattended lane, whatever the host set (seed 001), so a
// human-only step is refused at once there too.
func ownLaneEnv(getenv func(string) string) func(string) string {
	return func(k string) string {
		if k == identity.AgentVariable {
			return "1"
		}
		return getenv(k)
	}
}

// mcpGlobalArgs are the global flags aayu mcp was started with, given to
// each command line a tool runs, so every call reads the same repository
// (--sandbox included: its state is kept between runs).
func mcpGlobalArgs(g tui.Global) []string {
	args := []string{"--plain"}
	if g.Repo != "" {
		args = append(args, "--repo", g.Repo)
	}
	if g.Sandbox {
		args = append(args, "--sandbox")
	}
	if g.APIURL != "" {
		args = append(args, "--api-url", g.APIURL)
	}
	if g.OAuthURL != "" {
		args = append(args, "--oauth-url", g.OAuthURL)
	}
	for _, s := range g.Set {
		args = append(args, "--set", s)
	}
	return args
}

// mcpRun runs one tool's command line in aayu's own lane, in this process,
// with no terminal and empty input, and returns what it printed; each line
// of its standard output goes to progress as it is written.
func (w wiring) mcpRun(ctx context.Context, args []string, progress func(string)) mcpserver.Ran {
	e := env{
		stdin: strings.NewReader(""), getenv: ownLaneEnv(w.e.getenv),
		environ: append(slices.Clone(w.e.environ), identity.AgentVariable+"=1"),
	}
	out := &lineWriter{progress: progress}
	var errb bytes.Buffer
	e.stdout, e.stderr = out, &errb
	var code int
	if len(args) > 0 && args[0] == mcpserver.GateCommentCommand {
		code = w.mcpGateComment(ctx, e, args[1:])
	} else {
		code = run(ctx, append(mcpGlobalArgs(w.inv.Global), args...), e)
	}
	out.flush()
	return mcpserver.Ran{Code: code, Stdout: out.buf.String(), Stderr: errb.String()}
}

// mcpGateComment prints the merge gate's one comment on the pull request:
// the newest comment by the workflow's account (github-actions[bot]) that
// carries the gate's marker line; a comment by anyone else that carries the
// marker never counts (gatecomment.Upsert's rule).
func (w wiring) mcpGateComment(ctx context.Context, e env, args []string) int {
	pr, err := strconv.Atoi(firstOf(args))
	if err != nil || pr <= 0 {
		fmt.Fprintln(e.stderr, "the gate's comment: give a pull request's number. Nothing was read.")
		return tui.ExitUsage
	}
	inv := w.inv
	inv.Args = args
	sess, err := openSession(ctx, inv, e, sessionOptions{})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: %v\nNothing was read.\n", err)
		return tui.ExitFailed
	}
	defer sess.close()
	if sess.owner == "" {
		fmt.Fprintln(e.stderr, "which repository? Start aayu mcp with --repo OWNER/NAME (or in a checkout). Nothing was read.")
		return tui.ExitUsage
	}
	tok, _, err := sess.resolve(ctx)
	if err != nil {
		fmt.Fprintf(e.stderr, "finding a token: %v\nNothing was read.\n", err)
		return tui.ExitFailed
	}
	gh, err := sess.client(tok)
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu: %v\n", err)
		return tui.ExitFailed
	}
	comments, err := ghx.ListAll(ctx, func(o *github.ListOptions) ([]*github.IssueComment, *github.Response, error) {
		return gh.Issues.ListComments(ctx, sess.owner, sess.repo, pr, &github.IssueListCommentsOptions{ListOptions: *o})
	})
	if err != nil {
		fmt.Fprintf(e.stderr, "reading the comments of #%d: %s\n", pr, ghx.Describe(err))
		return tui.ExitFailed
	}
	var gate *github.IssueComment
	for _, c := range comments {
		if strings.EqualFold(c.GetUser().GetLogin(), gatecomment.ActionsBot) && hasLine(c.GetBody(), gatecomment.Marker) {
			gate = c
		}
	}
	if gate == nil {
		fmt.Fprintf(e.stdout, "#%d has no merge gate comment: the gate's own account (%s) has posted none yet. "+
			"A comment by any other account that carries the gate's marker never counts.\n", pr, gatecomment.ActionsBot)
		return tui.ExitRefused
	}
	fmt.Fprintf(e.stdout, "The merge gate's comment on #%d, by %s, updated %s (%s):\n\n%s\n", pr, gatecomment.ActionsBot,
		gate.GetUpdatedAt().UTC().Format("2006-01-02 15:04 UTC"), gate.GetHTMLURL(), gate.GetBody())
	return tui.ExitOK
}

// hasLine says one of body's lines, trimmed, is line.
func hasLine(body, line string) bool {
	for _, l := range strings.Split(body, "\n") {
		if strings.TrimSpace(l) == line {
			return true
		}
	}
	return false
}

func firstOf(args []string) string {
	if len(args) > 0 {
		return args[0]
	}
	return ""
}

// mcpPerson is the command line the person runs for a human-only verb, as
// that verb writes it (personCommand); "" for a verb that is not one of
// aayu's human-only commands.
func mcpPerson(verb string, args []string, flags map[string]string) string {
	c, ok := commandFor(verb)
	if !ok || !c.humanOnly {
		return ""
	}
	return personCommand(c, tui.Invocation{Command: verb, Args: args, Flags: flags})
}

// mcpSecrets are the token values this process's environment holds: no
// answer of the MCP server carries one.
func mcpSecrets(getenv func(string) string) []string {
	var out []string
	for _, k := range append(slices.Clone(tokenVariables), ghx.BotTokenVariable, "AAYUDHA_APP_TOKEN") {
		if v := strings.TrimSpace(getenv(k)); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// lineWriter keeps what a command prints and hands each whole line to
// progress as it is written.
type lineWriter struct {
	mu       sync.Mutex
	buf      bytes.Buffer
	pending  []byte
	progress func(string)
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.buf.Write(p)
	if l.progress == nil {
		return len(p), nil
	}
	l.pending = append(l.pending, p...)
	for {
		i := bytes.IndexByte(l.pending, '\n')
		if i < 0 {
			return len(p), nil
		}
		if line := strings.TrimSpace(string(l.pending[:i])); line != "" {
			l.progress(line)
		}
		l.pending = l.pending[i+1:]
	}
}

// flush hands a last line without its newline to progress.
func (l *lineWriter) flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	if line := strings.TrimSpace(string(l.pending)); line != "" && l.progress != nil {
		l.progress(line)
	}
	l.pending = nil
}
