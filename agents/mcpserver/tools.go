package mcpserver

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aayudha/aayu/model/untrusted"
)

// StoryInput names a Story by its issue number.
type StoryInput struct {
	Story int `json:"story" jsonschema:"the Story's issue number"`
}

// PRInput names a pull request by its number.
type PRInput struct {
	PR int `json:"pr" jsonschema:"the pull request's number"`
}

// LocalPackInput names a local pack folder and what it is verified
// against.
type LocalPackInput struct {
	Dir   string `json:"dir" jsonschema:"the pack folder (pack.json and artifacts/), a path in this clone"`
	Ready string `json:"ready" jsonschema:"the Ready snapshot file (specs/N/ready.md) it is verified against"`
	Head  string `json:"head" jsonschema:"the pull request head commit it must name, 40 hex characters"`
}

// NoInput is a tool that takes no arguments.
type NoInput struct{}

// readTool is a tool that runs one command line and answers with what it
// printed.
type readTool[In any] struct {
	name, title, description string
	// args is the command line for in, or an error in words naming what
	// is wrong with it (nothing is run then).
	args     func(in In) ([]string, error)
	readOnly bool
	// progress sends each printed line as an MCP progress notification.
	progress bool
}

// ToolNames are the tools the server offers, in the order tools/list gives
// them: none of them is a human-only step.
func ToolNames() []string {
	return []string{"inbox", "next", "story_pack", "local_pack", "gate_comment", "story_goal", "story_build", "verify", "proof_push"}
}

// ToolCommands are the aayu commands the tools run, by tool (the inbox's is
// inbox --json): each is read-only or the agent's own work.
func ToolCommands() map[string]string {
	return map[string]string{"inbox": "inbox", "next": "next", "story_pack": "pack", "local_pack": "pack",
		"gate_comment": "", "story_goal": "ready --dry-run", "story_build": "build", "verify": "verify", "proof_push": "proof push"}
}

func (s *server) addTools(srv *mcp.Server) {
	s.addInbox(srv)
	addRead(s, srv, readTool[NoInput]{name: "next", title: "The command to run now", readOnly: true,
		description: "aayu next: one line naming the command the person runs now (the inbox, with its count). Read-only.",
		args:        func(NoInput) ([]string, error) { return []string{"next"}, nil }})
	addRead(s, srv, readTool[StoryInput]{name: "story_pack", title: "A Story's best pack, verified", readOnly: true,
		description: "aayu pack STORY: the Story's best pack on the ledger (newest authoritative, else newest advisory), " +
			"verified against the ledger's Ready snapshot and the pull request's current head. Read-only.",
		args: func(in StoryInput) ([]string, error) { return storyArgs("pack", in.Story) }})
	addRead(s, srv, readTool[LocalPackInput]{name: "local_pack", title: "A local pack, verified", readOnly: true,
		description: "aayu pack DIR --ready FILE --head SHA: verify a local pack folder against a Ready snapshot and a head. Read-only.",
		args:        localPackArgs})
	addRead(s, srv, readTool[PRInput]{name: "gate_comment", title: "The merge gate's comment on a pull request", readOnly: true,
		description: "The merge gate's one comment on the pull request (each Ready criterion's verdict, every floor, the pack's hash), " +
			"as the gate's own account posted it; a comment by anyone else that carries the gate's marker never counts. Read-only.",
		args: func(in PRInput) ([]string, error) {
			if in.PR <= 0 {
				return nil, errors.New("pr must be a pull request's number (1 or more)")
			}
			return []string{GateCommentCommand, strconv.Itoa(in.PR)}, nil
		}})
	addRead(s, srv, readTool[StoryInput]{name: "story_goal", title: "A Story's Completion Goal and Ready snapshot", readOnly: true,
		description: "The Story's Completion Goal with its hash, and whether its Ready snapshot (specs/N/ready.md on the ledger) " +
			"has that hash: aayu ready STORY --dry-run, which writes nothing. Freezing the goal is the person's act (aayu ready).",
		args: func(in StoryInput) ([]string, error) {
			a, err := storyArgs("ready", in.Story)
			return append(a, "--dry-run"), err
		}})
	addRead(s, srv, readTool[StoryInput]{name: "story_build", title: "What to build for a Story, and the evidence map", readOnly: true,
		description: "aayu build STORY: the Story's criteria (from its Ready snapshot, else its Completion Goal) and the " +
			".aayudha/evidence/N.toml skeleton to commit, checked against the snapshot when this clone holds a map. Read-only.",
		args: func(in StoryInput) ([]string, error) { return storyArgs("build", in.Story) }})
	addRead(s, srv, readTool[StoryInput]{name: "verify", title: "Verify a Story in this clone", progress: true,
		description: "aayu verify STORY: run the floors on this clone and build the pack in .aayudha/proof/STORY/. " +
			"Each line it prints comes as a progress notification. The agent's own work: it writes only this clone's proof folder.",
		args: func(in StoryInput) ([]string, error) { return storyArgs("verify", in.Story) }})
	addRead(s, srv, readTool[StoryInput]{name: "proof_push", title: "Push the local pack as an advisory pack",
		description: "aayu proof push STORY: land the local pack on the ledger as an advisory pack (never authoritative; " +
			"the merge gate's pack is). The agent's own work, written as the bot where one is configured.",
		args: func(in StoryInput) ([]string, error) {
			a, err := storyArgs("push", in.Story)
			return append([]string{"proof"}, a...), err
		}})
}

// GateCommentCommand is the hidden command line the gate_comment tool
// runs: the command layer answers it with the gate's comment on the PR
// (Deps.Run), as no user-facing command prints it.
const GateCommentCommand = "mcp-gate-comment"

// storyArgs is verb STORY, refusing a number that names no issue.
func storyArgs(verb string, story int) ([]string, error) {
	if story <= 0 {
		return nil, errors.New("story must be a Story's issue number (1 or more)")
	}
	return []string{verb, strconv.Itoa(story)}, nil
}

// localPackArgs is pack DIR --ready FILE --head SHA, refusing a value that
// could read as a flag (a leading "-") or a head that is not a commit.
func localPackArgs(in LocalPackInput) ([]string, error) {
	for name, v := range map[string]string{"dir": in.Dir, "ready": in.Ready} {
		if strings.TrimSpace(v) == "" || strings.HasPrefix(v, "-") || strings.ContainsAny(v, "\x00\n") {
			return nil, fmt.Errorf("%s must be a path (not empty, not starting with -)", name)
		}
	}
	if len(in.Head) != 40 || strings.Trim(strings.ToLower(in.Head), "0123456789abcdef") != "" {
		return nil, errors.New("head must be a commit: 40 hex characters")
	}
	return []string{"pack", in.Dir, "--ready", in.Ready, "--head", strings.ToLower(in.Head)}, nil
}

func addRead[In any](s *server, srv *mcp.Server, t readTool[In]) {
	tool := &mcp.Tool{Name: t.name, Title: t.title, Description: t.description,
		Annotations: &mcp.ToolAnnotations{Title: t.title, ReadOnlyHint: t.readOnly, IdempotentHint: t.readOnly, DestructiveHint: new(bool)}}
	mcp.AddTool(srv, tool, func(ctx context.Context, req *mcp.CallToolRequest, in In) (*mcp.CallToolResult, Answer, error) {
		args, err := t.args(in)
		if err != nil {
			return nil, Answer{}, fmt.Errorf("%s: %v; nothing was run", t.name, err)
		}
		var progress func(string)
		if token := req.Params.GetProgressToken(); t.progress && token != nil {
			n := 0
			progress = func(line string) {
				n++
				// Best effort: a client that stopped listening does not stop the work.
				_ = req.Session.NotifyProgress(ctx, &mcp.ProgressNotificationParams{
					ProgressToken: token, Progress: float64(n), Message: s.scrub(untrusted.Line(line))})
			}
		}
		res, a := answer(args, s.run(ctx, args, progress))
		return res, a, nil
	})
}
