package docs

import (
	"bufio"
	"github.com/aayudha/aayu/cli"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/aayudha/aayu/model/config"
	"github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// root is the repository's root, seen from this package's folder.
const root = ".."

// readmeMaxLines is the README's budget: it is for users, and the reference
// lives in docs/.
const readmeMaxLines = 500

// writtenElsewhere are pages linked from these docs that another branch
// writes. A link to one is allowed only while the page is missing; once it
// exists the test fails until its entry is removed here, so the list never
// outlives its reason and the page's links are checked like every other.
var writtenElsewhere = map[string]bool{}

// pages are the Markdown files whose links the test checks, relative to root.
func pages(t *testing.T) []string {
	t.Helper()
	files, err := filepath.Glob("*.md")
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"README.md"}
	for _, f := range files {
		out = append(out, "docs/"+f)
	}
	return out
}

func read(t *testing.T, rel string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestReadmeIsAtMost500Lines(t *testing.T) {
	n := strings.Count(read(t, "README.md"), "\n")
	if n > readmeMaxLines {
		t.Errorf("README.md has %d lines; at most %d (move reference text to docs/)", n, readmeMaxLines)
	}
}

var (
	linkRe     = regexp.MustCompile(`!?\[[^\]]*\]\(([^()\s]+)\)`)
	codeSpanRe = regexp.MustCompile("`[^`]*`")
	schemeRe   = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*:`)
)

// links returns the targets of a page's Markdown links and images, outside
// fenced code blocks and code spans (where brackets are text, not links).
func links(text string) []string {
	var out []string
	fenced := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		for _, m := range linkRe.FindAllStringSubmatch(codeSpanRe.ReplaceAllString(line, ""), -1) {
			out = append(out, m[1])
		}
	}
	return out
}

// anchors returns the #fragments GitHub gives a page's headings: lower case,
// punctuation dropped, spaces as hyphens, a repeated heading numbered -1, -2.
func anchors(text string) map[string]bool {
	out := map[string]bool{}
	fenced := false
	sc := bufio.NewScanner(strings.NewReader(text))
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(strings.TrimSpace(line), "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(line, "#") {
			continue
		}
		heading := strings.TrimSpace(strings.TrimLeft(line, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(heading) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		slug := b.String()
		for i := 1; out[slug]; i++ {
			if !out[b.String()+"-"+strconv.Itoa(i)] {
				slug = b.String() + "-" + strconv.Itoa(i)
				break
			}
		}
		out[slug] = true
	}
	return out
}

func TestEveryRelativeLinkResolves(t *testing.T) {
	for _, page := range pages(t) {
		text := read(t, page)
		for _, target := range links(text) {
			if schemeRe.MatchString(target) {
				continue // a URL: not this repository's to check
			}
			file, frag, _ := strings.Cut(target, "#")
			rel := page
			if file != "" {
				rel = filepath.ToSlash(filepath.Clean(filepath.Join(filepath.Dir(page), file)))
			}
			if strings.HasPrefix(rel, "../") || filepath.IsAbs(file) {
				t.Errorf("%s: link %q leaves the repository", page, target)
				continue
			}
			if writtenElsewhere[rel] {
				continue // TestWrittenElsewhereIsStillMissing keeps this honest
			}
			info, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel)))
			if err != nil {
				t.Errorf("%s: link %q: %s does not exist", page, target, rel)
				continue
			}
			if frag == "" {
				continue
			}
			if info.IsDir() || !strings.HasSuffix(rel, ".md") {
				t.Errorf("%s: link %q: a #fragment on %s, which is not a page", page, target, rel)
				continue
			}
			if !anchors(read(t, rel))[frag] {
				t.Errorf("%s: link %q: %s has no heading #%s", page, target, rel, frag)
			}
		}
	}
}

// TestWrittenElsewhereIsStillMissing: an entry of writtenElsewhere whose page
// now exists must go, so its links are checked.
func TestWrittenElsewhereIsStillMissing(t *testing.T) {
	for rel := range writtenElsewhere {
		if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(rel))); err == nil {
			t.Errorf("%s exists now: remove it from writtenElsewhere in docs/doc_test.go so its links are checked", rel)
		}
	}
}

func TestLinkCheckerSeesBrokenLinks(t *testing.T) {
	text := "# A page\n\n## The gate's `comment`\n\nSee [x](missing.md), ![p](../vhs/p.png#a), [y](#the-gates-comment).\n\n```\n[not](a-link.md)\n```\nand `[not](either.md)`.\n"
	got := links(text)
	want := []string{"missing.md", "../vhs/p.png#a", "#the-gates-comment"}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("links = %q, want %q", got, want)
	}
	if a := anchors(text + "\n## A page\n"); !a["the-gates-comment"] || !a["a-page"] || !a["a-page-1"] {
		t.Errorf("anchors = %v", a)
	}
}

func TestReadmeNamesEveryCommandAndFlag(t *testing.T) {
	readme := read(t, "README.md")
	for _, c := range cli.Commands() {
		if !strings.Contains(readme, "aayu "+c.Name) {
			t.Errorf("README.md never names the command aayu %s", c.Name)
		}
		for _, f := range c.Flags {
			if !strings.Contains(readme, "--"+f.Name) {
				t.Errorf("README.md never names aayu %s's flag --%s", c.Name, f.Name)
			}
		}
	}
	for _, f := range tui.GlobalFlags() {
		if !strings.Contains(readme, "--"+f.Name) {
			t.Errorf("README.md never names the global flag --%s", f.Name)
		}
	}
}

func TestReadmeDocumentsEveryJSONField(t *testing.T) {
	readme := read(t, "README.md")
	for _, f := range inbox.JSONFields() {
		if !strings.Contains(readme, "| `"+f+"` |") {
			t.Errorf("README.md's --json table has no row for the field %q", f)
		}
	}
}

func TestReadmeNamesEveryConfigKey(t *testing.T) {
	readme := read(t, "README.md")
	var keys []string
	for k := range config.Schema {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if !strings.Contains(readme, "`"+k+"`") {
			t.Errorf("README.md's configuration never names the key %s", k)
		}
	}
}

// TestArchitectureNamesEveryPackage: every folder with Go code is in
// architecture.md, named as `path` (the root as `main.go`).
func TestArchitectureNamesEveryPackage(t *testing.T) {
	arch := read(t, "docs/architecture.md")
	seen := map[string]bool{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() && p != root && (strings.HasPrefix(name, ".") || name == "testdata" || name == "docs") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			return nil
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		seen[filepath.ToSlash(rel)] = true
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(seen) < 10 {
		t.Fatalf("found only %d packages from %s: the walk is wrong", len(seen), root)
	}
	for pkg := range seen {
		want := "`" + pkg + "`"
		if pkg == "." {
			want = "`main.go`"
		}
		if !strings.Contains(arch, want) {
			t.Errorf("docs/architecture.md never names the package %s (as %s)", pkg, want)
		}
	}
}
