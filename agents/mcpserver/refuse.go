package mcpserver

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/hostshell"
	"github.com/aayudha/aayu/model/untrusted"
)

// HumanOnly are the steps no tool applies or starts: the person's acts
// (seed 001). A call naming one is refused at once with the command the
// person runs.
// The one list is hostshell's, which the pre-tool hook blocks by.
func HumanOnly() []string { return hostshell.HumanOnlySteps() }

// placeholder is a human-only verb's command line when the call gave no
// argument aayu could use.
func placeholder(verb string) string {
	switch verb {
	case "decide":
		return "aayu decide N --accept K"
	case "ready", "plan":
		return "aayu " + verb + " STORY"
	case "ship":
		return "aayu ship PR"
	case "approve":
		return "aayu approve BATCH"
	case "waive":
		return "aayu waive PR --floor NAME --why TEXT"
	}
	return "aayu " + verb
}

// refuseHumanOnly answers a tools/call naming a human-only step (a tool
// the server does not offer whose name, or whose command-line argument,
// names one) at once with the refusal and the person's command, before
// anything is read or run. Any other unknown tool gets the SDK's own
// "unknown tool" error.
func (s *server) refuseHumanOnly(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		call, ok := req.(*mcp.CallToolRequest)
		if method != "tools/call" || !ok || call.Params == nil || slices.Contains(ToolNames(), call.Params.Name) {
			return next(ctx, method, req)
		}
		verb, words := humanOnlyCall(call.Params.Name, call.Params.Arguments)
		if verb == "" {
			return next(ctx, method, req)
		}
		return s.refusal(verb, words), nil
	}
}

// refusal is the answer to a call naming verb: the lane's refusal in words
// and the command the person runs, built from the call's arguments only
// as far as they are numbers, option keys or a batch's hash.
func (s *server) refusal(verb string, words []string) *mcp.CallToolResult {
	var args []string
	flags := map[string]string{}
	for i, w := range words {
		switch {
		case w == "--accept" && i+1 < len(words) && numbers().MatchString(words[i+1]):
			flags["accept"] = words[i+1]
		case w == "--solo-bypass" || w == "--again":
			flags[strings.TrimPrefix(w, "--")] = "true"
		case len(args) == 0 && (numbers().MatchString(w) || (verb == "approve" && batchHash().MatchString(w))) && (i == 0 || words[i-1] != "--accept"):
			args = append(args, w)
		}
	}
	person := ""
	if s.d.Person != nil && len(args) > 0 {
		person = s.d.Person(verb, args, flags)
	}
	if person == "" {
		person = placeholder(verb)
	}
	person = untrusted.Line(person)
	text := fmt.Sprintf("refused: aayu %s is a human-only step, and this is aayu's own unattended lane (AAYU_AGENT=1, the MCP server): "+
		"it never applies or starts a human-only step, posts no batch and asks for no device code. Nothing was done.\n"+
		"The person runs, at their own terminal: %s\n"+
		"A host agent's own shell (Claude Code, Codex, Cursor, Amp, Gemini CLI) may run that command to post it as a batch for the person to approve.",
		verb, person)
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: text}}}
}

var (
	numbers   = lazyre.New(`^[0-9]+(,[0-9]+)*$`)
	batchHash = lazyre.New(`^[0-9a-fA-F]{12}$`)
)

// humanOnlyCall says whether a call to an unknown tool names a human-only
// step: its name does ("ship", "aayu_ship", "approveBatch"), or, for a
// generic tool ("run", "exec", "aayu"), one of its text arguments is a
// command line that does ("aayu ship 4"). words are the call's arguments
// as command-line words (numbers and text, one level of arrays).
func humanOnlyCall(name string, raw json.RawMessage) (verb string, words []string) {
	words = argumentWords(raw)
	for _, w := range nameWords(name) {
		if slices.Contains(HumanOnly(), w) {
			return w, words
		}
	}
	for i, w := range words {
		lw := strings.ToLower(w)
		if slices.Contains(HumanOnly(), lw) && (i == 0 || strings.HasSuffix(strings.ToLower(words[i-1]), "aayu")) {
			return lw, words[i+1:]
		}
	}
	return "", nil
}

// nameWords splits a tool name into lower-case words at anything not a
// letter and at each lower-to-upper change ("aayu_shipPR" is aayu, ship,
// pr).
func nameWords(name string) []string {
	var words []string
	var cur []rune
	prevLower := false
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r)
	}
	flush()
	return words
}

// argumentWords are the call's argument values as command-line words: each
// string split on spaces, each number as written, one level of arrays;
// keys in a stable order so the first number is the same every time.
func argumentWords(raw json.RawMessage) []string {
	var args map[string]any
	if len(raw) == 0 || json.Unmarshal(raw, &args) != nil {
		return nil
	}
	keys := make([]string, 0, len(args))
	for k := range args {
		keys = append(keys, k)
	}
	// The usual names of a command's argument come first.
	rank := func(k string) int {
		if i := slices.Index([]string{"command", "cmd", "args", "argv", "story", "pr", "number", "n", "decision", "batch", "accept"}, strings.ToLower(k)); i >= 0 {
			return i
		}
		return 100
	}
	slices.SortFunc(keys, func(a, b string) int {
		if d := rank(a) - rank(b); d != 0 {
			return d
		}
		return strings.Compare(a, b)
	})
	var words []string
	add := func(k string, v any) {
		switch v := v.(type) {
		case string:
			words = append(words, strings.Fields(v)...)
		case float64:
			if strings.EqualFold(k, "accept") {
				words = append(words, "--accept")
			}
			words = append(words, fmt.Sprint(int64(v)))
		}
	}
	for _, k := range keys {
		if list, ok := args[k].([]any); ok {
			for _, v := range list {
				add("", v)
			}
			continue
		}
		if s, ok := args[k].(string); ok && strings.EqualFold(k, "accept") {
			words = append(words, "--accept", s)
			continue
		}
		add(k, args[k])
	}
	return words
}
