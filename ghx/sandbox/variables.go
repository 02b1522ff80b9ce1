package sandbox

import (
	"net/http"
	"sort"
	"strings"
	"time"

	"github.com/aayudha/aayu/internal/lazyre"
)

// DeviceClientID is the presence App acme/benefits names in its
// repository variable AAYUDHA_DEVICE_CLIENT_ID, the way a set-up repository
// tells the presence check which App to ask: a GitHub App with no
// permissions (PresenceAppSlug), as aayu init --identity --presence-app
// makes one, so its tokens read /user and write nothing.
const DeviceClientID = "Iv23liSandboxPresence"

// DeviceClientVariable is the repository variable the presence check reads.
const DeviceClientVariable = "AAYUDHA_DEVICE_CLIENT_ID"

type variableRec struct {
	Name      string    `json:"name"`
	Value     string    `json:"value"`
	CreatedAt time.Time `json:"created_at"`
	UpdatedAt time.Time `json:"updated_at"`
}

func (s *Server) routeVariables(m *http.ServeMux) {
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/variables", s.listVariables)
	m.HandleFunc("POST /repos/{owner}/{repo}/actions/variables", s.createVariable)
	m.HandleFunc("GET /repos/{owner}/{repo}/actions/variables/{name}", s.getVariable)
	m.HandleFunc("PATCH /repos/{owner}/{repo}/actions/variables/{name}", s.updateVariable)
}

// GitHub stores variable names in upper case and refuses other characters.
var variableName = lazyre.New(`^[A-Z_][A-Z0-9_]*$`)

func (s *Server) variable(name string) *variableRec {
	for _, v := range s.st.Variables {
		if strings.EqualFold(v.Name, name) {
			return v
		}
	}
	return nil
}

func variableJSON(v *variableRec) map[string]any {
	return map[string]any{"name": v.Name, "value": v.Value, "created_at": ts(v.CreatedAt), "updated_at": ts(v.UpdatedAt)}
}

func (s *Server) listVariables(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	vs := append([]*variableRec(nil), s.st.Variables...)
	sort.Slice(vs, func(i, j int) bool { return vs[i].Name < vs[j].Name })
	out := []any{}
	for _, v := range vs {
		out = append(out, variableJSON(v))
	}
	writeJSON(w, http.StatusOK, map[string]any{"total_count": len(out), "variables": out})
}

func (s *Server) getVariable(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) {
		return
	}
	v := s.variable(r.PathValue("name"))
	if v == nil {
		writeErrorDoc(w, http.StatusNotFound, "Not Found", "https://docs.github.com/rest/actions/variables#get-a-repository-variable")
		return
	}
	writeJSON(w, http.StatusOK, variableJSON(v))
}

// Changing a variable is a repository setting: GitHub asks for admin.
func (s *Server) canSetVariables(w http.ResponseWriter, r *http.Request) bool {
	if callerOf(r).Permission != "admin" {
		writeError(w, http.StatusForbidden, "Resource not accessible by personal access token")
		return false
	}
	return true
}

func (s *Server) createVariable(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) || !s.canSetVariables(w, r) {
		return
	}
	var in struct{ Name, Value string }
	if !decodeBody(w, r, &in) {
		return
	}
	name := strings.ToUpper(in.Name)
	switch {
	case !variableName().MatchString(name) || strings.HasPrefix(name, "GITHUB_"):
		writeValidation(w, fieldError{Resource: "Variable", Field: "name", Code: "invalid"})
		return
	case s.variable(name) != nil:
		writeError(w, http.StatusConflict, "Already exists - Variable already exists")
		return
	}
	now := s.now()
	s.st.Variables = append(s.st.Variables, &variableRec{Name: name, Value: in.Value, CreatedAt: now, UpdatedAt: now})
	writeJSON(w, http.StatusCreated, map[string]any{})
}

func (s *Server) updateVariable(w http.ResponseWriter, r *http.Request) {
	if !repoOK(w, r) || !s.canSetVariables(w, r) {
		return
	}
	v := s.variable(r.PathValue("name"))
	if v == nil {
		notFound(w)
		return
	}
	var in struct {
		Name  *string
		Value *string
	}
	if !decodeBody(w, r, &in) {
		return
	}
	if in.Value != nil {
		v.Value = *in.Value
	}
	v.UpdatedAt = s.now()
	w.WriteHeader(http.StatusNoContent)
}

// DeviceClientIDsAsked lists, sorted, the client IDs device codes were
// asked for, so a test can tell which App the presence check named.
func (s *Server) DeviceClientIDsAsked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, d := range s.devices {
		out = append(out, d.ClientID)
	}
	sort.Strings(out)
	return out
}
