package hostconfig

import (
	"bytes"
	"fmt"

	"github.com/pelletier/go-toml/v2"
)

// codexMCPBlock is the table aayu appends to a project's
// .codex/config.toml: [mcp_servers.<name>] with command and args, as
// https://developers.openai.com/codex/mcp documents a stdio server.
const codexMCPBlock = "# aayudha's MCP server (aayu hooks install)\n[mcp_servers." + ServerName + "]\ncommand = \"aayu\"\nargs = [\"mcp\"]\n"

// codexMCPEdit registers the MCP server in .codex/config.toml. TOML is
// not re-encoded (that would drop the person's comments and layout): the
// table is appended at the end, and the result parsed again to be sure
// it says what aayu means and the file is still valid.
func codexMCPEdit() Edit {
	return Edit{Host: Codex, Part: MCPPart, Path: ".codex/config.toml", Doc: "https://developers.openai.com/codex/mcp",
		What: "[mcp_servers." + ServerName + "]: aayu mcp over stdio",
		apply: func(old []byte, exists bool) (Result, error) {
			state, err := codexServerState(old)
			if err != nil {
				return Result{}, err
			}
			switch state {
			case Present:
				return Result{State: Present}, nil
			case Differs:
				return Result{State: Differs, Note: "[mcp_servers." + ServerName + "] is there but does not start aayu's MCP server; aayu leaves it as you wrote it"}, nil
			}
			out := bytes.Clone(old)
			if len(out) > 0 {
				if out[len(out)-1] != '\n' {
					out = append(out, '\n')
				}
				out = append(out, '\n')
			}
			out = append(out, codexMCPBlock...)
			if again, err := codexServerState(out); err != nil || again != Present {
				return Result{}, fmt.Errorf("aayu cannot add [mcp_servers.%s] at its end without rewriting what is there (is mcp_servers written inline?)", ServerName)
			}
			return Result{State: Missing, Out: out}, nil
		}}
}

// codexServerState reads a config.toml and says whether mcp_servers.aayudha
// is there running aayu mcp (Present), is there otherwise (Differs), or
// is not (Missing).
func codexServerState(b []byte) (State, error) {
	var doc map[string]any
	if err := toml.Unmarshal(b, &doc); err != nil {
		return Missing, fmt.Errorf("not valid TOML (%v)", err)
	}
	raw, ok := doc["mcp_servers"]
	if !ok {
		return Missing, nil
	}
	servers, ok := raw.(map[string]any)
	if !ok {
		return Missing, fmt.Errorf("mcp_servers is not a table as Codex documents it")
	}
	raw, ok = servers[ServerName]
	if !ok {
		return Missing, nil
	}
	s, ok := raw.(map[string]any)
	if !ok {
		return Differs, nil
	}
	cmd, _ := s["command"].(string)
	var args []string
	if list, ok := s["args"].([]any); ok {
		for _, a := range list {
			str, _ := a.(string)
			args = append(args, str)
		}
	}
	if runsAayuMCP(cmd, args) {
		return Present, nil
	}
	return Differs, nil
}
