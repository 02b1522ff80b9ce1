package pass

import (
	"reflect"
	"strings"
	"testing"
)

const codeowners = `# gates
*                      @founder
*.js                   @js-owner
/build/logs/           @logs
docs/*                 @docs
apps/                  @apps
/scripts/ @scripts # inline comment
.github/               @founder @acme/gatekeepers
**/policy/**           @policy
/vendor/nobody
`

func TestOwners(t *testing.T) {
	co, err := ParseCodeowners(codeowners)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		path string
		want []string
	}{
		{"main.go", []string{"@founder"}},
		{"web/app.js", []string{"@js-owner"}},
		{"build/logs/today.txt", []string{"@logs"}},
		{"x/build/logs/today.txt", []string{"@founder"}},
		{"docs/getting-started.md", []string{"@docs"}},
		{"docs/build-app/troubleshooting.md", []string{"@founder"}},
		{"apps/a/b.go", []string{"@apps"}},
		{"src/apps/b.go", []string{"@apps"}},
		{"scripts/run.sh", []string{"@scripts"}},
		{".github/workflows/gate.yml", []string{"@founder", "@acme/gatekeepers"}},
		{"internal/policy/rule.go", []string{"@policy"}},
		{"vendor/nobody/x.go", nil},
	}
	for _, c := range cases {
		if got := co.Owners(c.path); !reflect.DeepEqual(got, c.want) {
			t.Errorf("Owners(%q) = %v, want %v", c.path, got, c.want)
		}
	}
}

func TestParseCodeownersFailsClosed(t *testing.T) {
	cases := []struct{ name, text, words string }{
		{"negation", "!docs/ @a\n", "negates"},
		{"range", "docs/[ab].md @a\n", "not supported"},
		{"escape", "\\#file @a\n", "not supported"},
		{"bad owner", "docs/ founder\n", "not @user"},
		{"** inside element", "docs/a**.md @a\n", "whole element"},
		// A "/" pattern owns nothing; the refusal names the line a person
		// must fix (1-based, comments counted), not the one before it.
		{"a pattern naming no path", "/ @founder\n", "line 1:"},
		{"a pattern naming no path, after a comment", "# gates\n* @founder\n/ @founder\n", "line 3:"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := ParseCodeowners(c.text)
			if err == nil || !strings.Contains(err.Error(), c.words) {
				t.Fatalf("err = %v, want it to mention %q", err, c.words)
			}
		})
	}
}

func TestIsOwner(t *testing.T) {
	teams := map[string][]string{"@acme/gatekeepers": {"ana"}}
	owners := []string{"@Founder", "@acme/gatekeepers", "ops@acme.test"}
	for login, want := range map[string]bool{"founder": true, "ana": true, "bo": false, "ops": false} {
		if got := IsOwner(owners, login, teams); got != want {
			t.Errorf("IsOwner(%s) = %v, want %v", login, got, want)
		}
	}
	if IsOwner(owners, "ana", nil) {
		t.Error("a team whose members were not read grants nothing")
	}
}
