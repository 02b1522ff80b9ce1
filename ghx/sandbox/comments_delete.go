package sandbox

import (
	"net/http"
	"strings"
)

// deleteComment is GitHub's DELETE /repos/{owner}/{repo}/issues/comments/
// {comment_id}: the author, or anyone with push access, removes a comment
// (ship removes a duplicate Solo-mode bypass comment it posted).
func (s *Server) deleteComment(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	c := s.st.comment(r.PathValue("comment_id"))
	if c == nil {
		notFound(w)
		return
	}
	who := callerOf(r)
	if !who.canPush() && !strings.EqualFold(who.Login, c.User) {
		writeError(w, http.StatusForbidden, "Must have push access to delete this comment.")
		return
	}
	kept := s.st.Comments[:0]
	for _, x := range s.st.Comments {
		if x != c {
			kept = append(kept, x)
		}
	}
	s.st.Comments = kept
	if is := s.st.issue(c.Issue); is != nil {
		is.UpdatedAt = s.now()
	}
	w.WriteHeader(http.StatusNoContent)
}
