package sandbox

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-git/go-git/v5/plumbing"
)

// A push is checked against the rulesets before git sees it, as GitHub's
// pre-receive does: the request's commands (old new ref) are read from
// the pkt-lines that open git-receive-pack's body, and a push that would
// move a ruled branch to a commit without its required checks green gets
// git's own answer declining it — the rules as "remote:" lines on the
// side band, and "ng REF push declined due to repository rule violations"
// in the report. git then prints, as with github.com:
//
//	remote: error: GH013: Repository rule violations found for refs/heads/main.
//	 ! [remote rejected] main -> main (push declined due to repository rule violations)

// maxPushBody bounds the push the sandbox reads to check: a demo's pushes
// are small.
const maxPushBody = 256 << 20

type pushCommand struct{ Old, New, Ref string }

// readPushCommands parses the commands and capabilities at the start of a
// receive-pack request body, and returns the packfile that follows them.
func readPushCommands(body []byte, gzipped bool) ([]pushCommand, []string, []byte, error) {
	var rd io.Reader = bytes.NewReader(body)
	if gzipped {
		zr, err := gzip.NewReader(rd)
		if err != nil {
			return nil, nil, nil, err
		}
		rd = zr
	}
	br := bufio.NewReader(rd)
	var cmds []pushCommand
	var caps []string
	for {
		var hdr [4]byte
		if _, err := io.ReadFull(br, hdr[:]); err != nil {
			return nil, nil, nil, fmt.Errorf("reading a pkt-line: %w", err)
		}
		n, err := strconv.ParseUint(string(hdr[:]), 16, 16)
		if err != nil {
			return nil, nil, nil, fmt.Errorf("a pkt-line length %q: %w", hdr, err)
		}
		if n == 0 {
			pack, err := io.ReadAll(br) // flush: the pack follows
			return cmds, caps, pack, err
		}
		if n < 4 {
			return nil, nil, nil, fmt.Errorf("a pkt-line of length %d", n)
		}
		line := make([]byte, n-4)
		if _, err := io.ReadFull(br, line); err != nil {
			return nil, nil, nil, err
		}
		text := strings.TrimSuffix(string(line), "\n")
		if cmd, capList, ok := strings.Cut(text, "\x00"); ok {
			text, caps = cmd, strings.Fields(capList)
		}
		if strings.HasPrefix(text, "shallow ") || strings.HasPrefix(text, "push-cert") {
			continue
		}
		f := strings.Fields(text)
		if len(f) != 3 {
			return nil, nil, nil, fmt.Errorf("a push command %q", text)
		}
		cmds = append(cmds, pushCommand{Old: f[0], New: f[1], Ref: f[2]})
	}
}

func pktLine(s string) []byte { return []byte(fmt.Sprintf("%04x%s", len(s)+4, s)) }

// declinePush writes receive-pack's answer refusing every command (as a
// failed pre-receive does on GitHub), each with its reason (reasons[ref],
// else the first one given), and the message on side band 2 when the
// client asked for a side band.
func declinePush(w http.ResponseWriter, cmds []pushCommand, caps []string, message string, reasons map[string]string, first string) {
	var report bytes.Buffer
	report.Write(pktLine("unpack ok\n"))
	for _, c := range cmds {
		why := reasons[c.Ref]
		if why == "" {
			why = first
		}
		report.Write(pktLine("ng " + c.Ref + " " + why + "\n"))
	}
	report.WriteString("0000")
	var out bytes.Buffer
	sideband := false
	for _, c := range caps {
		sideband = sideband || c == "side-band-64k" || c == "side-band"
	}
	if sideband {
		for _, line := range strings.SplitAfter(message, "\n") {
			if line != "" {
				out.Write(pktLine("\x02" + line))
			}
		}
		for b := report.Bytes(); len(b) > 0; {
			n := min(len(b), 900)
			out.Write(pktLine("\x01" + string(b[:n])))
			b = b[n:]
		}
		out.WriteString("0000")
	} else {
		out = report
	}
	w.Header().Set("Content-Type", "application/x-git-receive-pack-result")
	w.Header().Set("Cache-Control", "no-cache, max-age=0, must-revalidate")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(out.Bytes())
}

// refusePushByRules reads a receive-pack POST, and either declines it
// (true: the answer is written) or hands back a request whose body can be
// read again. Call with s.mu held.
func (s *Server) refusePushByRules(w http.ResponseWriter, r *http.Request, c caller, repo string) (*http.Request, bool) {
	body, err := io.ReadAll(io.LimitReader(r.Body, maxPushBody+1))
	if err != nil || len(body) > maxPushBody {
		http.Error(w, "the push could not be read", http.StatusBadRequest)
		return r, true
	}
	r.Body = io.NopCloser(bytes.NewReader(body))
	r.ContentLength = int64(len(body))
	r.TransferEncoding = nil
	r.Header.Set("Content-Length", strconv.Itoa(len(body)))
	cmds, caps, pack, err := readPushCommands(body, r.Header.Get("Content-Encoding") == "gzip")
	if err != nil {
		return r, false // git itself answers a malformed request
	}
	var msg strings.Builder
	reasons := map[string]string{}
	first := ""
	s.inRepo(repo, func() {
		g := s.pushObjects(pack)
		for _, cmd := range cmds {
			why := ""
			if refusal := s.pushRefusal(c, repo, cmd, g); refusal != "" {
				msg.WriteString(refusal)
				why = "push declined due to repository rule violations"
			} else if wf := s.workflowPushRefusal(c, g, plumbing.NewHash(cmd.Old), plumbing.NewHash(cmd.New)); wf != "" {
				why = wf
			}
			if why != "" {
				reasons[cmd.Ref] = why
				if first == "" {
					first = why
				}
			}
		}
	})
	if first == "" {
		for _, cmd := range cmds {
			s.notePushIn(repo, cmd.Ref, c.Login)
		}
		return r, false
	}
	declinePush(w, cmds, caps, msg.String(), reasons, first)
	return r, true
}

// notePushIn records who moved a branch of the named repository.
func (s *Server) notePushIn(repo, ref, login string) {
	s.inRepo(repo, func() { s.notePush(ref, login) })
}

// inRepo runs fn with the named repository as the current one. Call with
// s.mu held.
func (s *Server) inRepo(name string, fn func()) {
	if name != FreshRepoName || s.fresh == nil {
		fn()
		return
	}
	demo := repoSlot{st: s.st, git: s.git}
	s.st, s.git, s.cur = s.fresh.st, s.fresh.git, FreshRepoName
	defer func() {
		s.fresh.st, s.fresh.git = s.st, s.git
		s.st, s.git, s.cur = demo.st, demo.git, ""
	}()
	fn()
}
