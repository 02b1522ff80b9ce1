package auth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/google/go-github/v66/github"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/tui"
	"github.com/aayudha/aayu/tui/tuitest"
)

// hostileName is a GitHub display name carrying a clipboard write (OSC 52)
// and a screen clear: the auth screen shows it, so it must arrive defused.
const hostileName = "The Founder\x1b]52;c;aGk=\x07\x1b[2J"

// fakeUser is GitHub's /user answering the good token with login and name,
// and scopes in X-OAuth-Scopes ("-" sends no header, as for a fine-grained
// token); any other token gets GitHub's 401.
func fakeUser(t *testing.T, login, name, scopes string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("Authorization") != "Bearer "+secret && r.Header.Get("Authorization") != "token "+secret {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`))
			return
		}
		if scopes != "-" {
			w.Header().Set("X-OAuth-Scopes", scopes)
		}
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"login": login, "id": 1, "name": name})
	}))
	t.Cleanup(srv.Close)
	return srv
}

// goldenDeps are Deps whose GitHub is srv but which name the public API, so
// the goldens do not carry the test server's port; tok is the token the
// lookup finds, and resolveErr makes the lookup fail.
func goldenDeps(t *testing.T, srv *httptest.Server, tok string, resolveErr error) Deps {
	t.Helper()
	return Deps{
		APIURL: "https://api.github.com/",
		Bot:    ghx.Resolver{}.Choice(),
		Resolve: func(ctx context.Context) (ghx.Token, []ghx.SourceStatus, error) {
			if resolveErr != nil {
				return ghx.Token{}, []ghx.SourceStatus{
					{Source: ghx.SourceAayuEnv, State: ghx.StateNotSet},
					{Source: ghx.SourceGh, State: ghx.StateFailed, Detail: "gh is not installed"},
					{Source: ghx.SourceKeyring, State: ghx.StateNotSet},
				}, resolveErr
			}
			return ghx.NewToken(tok, ghx.SourceAayuEnv), []ghx.SourceStatus{
				{Source: ghx.SourceAayuEnv, State: ghx.StateUsed},
				{Source: ghx.SourceGitHubEnv, State: ghx.StateSkipped, Detail: "only with --ci"},
				{Source: ghx.SourceGh, State: ghx.StateNotChecked},
			}, nil
		},
		Client: func(tok ghx.Token) (*github.Client, error) {
			return ghx.NewClient(ghx.ClientOptions{APIURL: srv.URL + "/", Token: tok, CacheDir: t.TempDir()})
		},
	}
}

// authState is one thing the auth screen can have learnt.
type authState struct {
	name string
	deps func(t *testing.T) Deps
	code int
}

func authStates() []authState {
	return []authState{
		{"classic", func(t *testing.T) Deps {
			return goldenDeps(t, fakeUser(t, "founder", "The Founder", "repo, workflow, delete_repo, admin:org"), secret, nil)
		}, tui.ExitOK},
		{"finegrained", func(t *testing.T) Deps {
			return goldenDeps(t, fakeUser(t, "founder", "", "-"), secret, nil)
		}, tui.ExitOK},
		{"hostile", func(t *testing.T) Deps {
			return goldenDeps(t, fakeUser(t, "founder", hostileName, "repo"), secret, nil)
		}, tui.ExitOK},
		{"badtoken", func(t *testing.T) Deps {
			return goldenDeps(t, fakeUser(t, "founder", "The Founder", "repo"), "ghp_wrongWRONGwrong000000000000000000000", nil)
		}, tui.ExitFailed},
		{"notoken", func(t *testing.T) Deps {
			return goldenDeps(t, fakeUser(t, "founder", "", "repo"), "", errors.New("no GitHub token found"))
		}, tui.ExitFailed},
	}
}

// learnt is the full-screen auth screen at width×height after its lookup
// has run through its own command.
func learnt(t *testing.T, d Deps, width, height int) *Model {
	t.Helper()
	m := New(context.Background(), tuitest.Common(width, height), d)
	msg := m.Init()()
	if _, ok := msg.(factsMsg); !ok {
		t.Fatalf("Init sent %T, want the facts", msg)
	}
	m.Update(msg)
	return m
}

// TestAuthScreenGolden: each state at 40, 80 and 120 columns fits 24 lines,
// keeps the quit key in sight and never shows the token's value.
func TestAuthScreenGolden(t *testing.T) {
	for _, s := range authStates() {
		for _, w := range []int{40, 80, 120} {
			t.Run(fmt.Sprintf("%s/%d", s.name, w), func(t *testing.T) {
				m := learnt(t, s.deps(t), w, 24)
				view := m.View().Content
				plain := ansi.Strip(view)
				if strings.Contains(plain, "ghp_") {
					t.Fatal("the auth screen shows a token's value")
				}
				if !strings.Contains(plain, "q quit") {
					t.Errorf("the help line lost q quit:\n%s", plain)
				}
				// auth does one thing: it ends once the facts are in, and
				// leaves them on the normal screen.
				if done, _ := m.Done(); !done || len(m.Epilogue()) == 0 {
					t.Error("the full screen did not end with its report left behind")
				}
				tuitest.GoldenView(t, view, w, 24)
			})
		}
	}
}

// TestAuthScreenReadingGolden: before GitHub answers the screen says it is
// reading, at every width.
func TestAuthScreenReadingGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := New(context.Background(), tuitest.Common(w, 24), Deps{})
			view := m.View().Content
			if !strings.Contains(view, "reading…") {
				t.Errorf("no reading line:\n%s", view)
			}
			tuitest.GoldenView(t, view, w, 24)
		})
	}
}

// TestAuthScreenPlainGolden: the plain twin of each state, with its exit code.
func TestAuthScreenPlainGolden(t *testing.T) {
	for _, s := range authStates() {
		t.Run(s.name, func(t *testing.T) {
			code, out := runPlain(t, s.deps(t))
			if code != s.code {
				t.Errorf("exit %d, want %d", code, s.code)
			}
			if strings.Contains(out, "ghp_") {
				t.Fatal("plain auth printed a token's value")
			}
			tuitest.GoldenPlain(t, out, code)
		})
	}
}

// TestAuthFullHelpGolden: ? on the auth screen lists its scroll keys and
// quit at every width.
func TestAuthFullHelpGolden(t *testing.T) {
	for _, w := range []int{40, 80, 120} {
		t.Run(fmt.Sprint(w), func(t *testing.T) {
			m := learnt(t, authStates()[0].deps(t), w, 24)
			view := ansi.Strip(tui.FullHelpView(m, w, 24, tui.NewStyles(true)))
			if !strings.Contains(view, "scroll back and on") {
				t.Errorf("the full help at %d lacks the scroll keys:\n%s", w, view)
			}
			tuitest.GoldenFullHelp(t, m, w, 24)
		})
	}
}

// TestAuthPlainHelpGolden: the plain ? of the auth screen.
func TestAuthPlainHelpGolden(t *testing.T) {
	tuitest.GoldenPlainHelp(t, learnt(t, authStates()[0].deps(t), 80, 24))
}

// TestAuthScreenScrollsBackToTheSources: at 40×24 the scope warnings push
// the token sources off the top; ↑ brings them back and ↓ returns.
func TestAuthScreenScrollsBackToTheSources(t *testing.T) {
	d := authStates()[0].deps(t)
	m := learnt(t, d, 40, 24)
	top := "token source AAYU_GITHUB_TOKEN: used"
	if strings.Contains(m.View().Content, top) {
		t.Fatalf("the classic token's report fits 40×24, so this test proves nothing:\n%s", m.View().Content)
	}
	for range 30 {
		m.Update(tuitest.Key("up"))
	}
	view := m.View().Content
	if !strings.Contains(view, top) || !strings.Contains(view, "more below") {
		t.Errorf("↑ did not scroll back to the sources:\n%s", view)
	}
	tuitest.GoldenView(t, view, 40, 24)
	for range 30 {
		m.Update(tuitest.Key("down"))
	}
	if v := m.View().Content; !strings.Contains(v, "bot identity") {
		t.Errorf("↓ did not come back to the end:\n%s", v)
	}
}

// TestAuthLeavesItsReportBehindNotNothing: once the full screen closes, the
// report stays on the terminal (every state, token or not), as doctor's
// does, and never a token's value.
func TestAuthLeavesItsReportBehindNotNothing(t *testing.T) {
	for _, s := range authStates() {
		t.Run(s.name, func(t *testing.T) {
			m := learnt(t, s.deps(t), 80, 24)
			left := strings.Join(m.Epilogue(), "\n")
			if len(m.Epilogue()) < 2 || !strings.Contains(left, "token source") {
				t.Errorf("auth leaves too little behind:\n%s", left)
			}
			if strings.Contains(left, "ghp_") {
				t.Error("the epilogue shows a token's value")
			}
			if !strings.HasSuffix(m.Headline(), fmt.Sprintf("(exit %d):", s.code)) {
				t.Errorf("headline %q does not carry exit %d", m.Headline(), s.code)
			}
		})
	}
}
