package sandbox

import (
	"crypto/sha256"
	"encoding/hex"
)

// RunID returns the id of the demo's merge-gate run for a situation
// (RunQualifying, RunTampered, …), or 0 when there is none.
func (s *Server) RunID(situation string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range s.st.Runs {
		if r.Situation == situation {
			return r.ID
		}
	}
	return 0
}

// HeadSHA returns a pull request's current head commit, or "".
func (s *Server) HeadSHA(pr int) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	is := s.st.issue(pr)
	if is == nil || is.PR == nil {
		return ""
	}
	return s.headSHA(is).String()
}

// BranchSHA returns a branch's tip, or "" when it does not exist.
func (s *Server) BranchSHA(branch string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	h := s.git.branch(branch)
	if h.IsZero() {
		return ""
	}
	return h.String()
}

// GitDir is the bare repository holding the demo's objects, or "" for an
// in-memory server (`git --git-dir DIR show ledger:specs/3/ready.md`).
func (s *Server) GitDir() string {
	if s.opts.StateDir == "" {
		return ""
	}
	return s.opts.StateDir + "/" + gitDirName
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
