package actions

import (
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/aayudha/aayu"

// TestActionsImportNoScreen: the actions layer writes to GitHub and the
// ledger and is driven by screens, never the other way round, so no
// package under actions/ — its code or its tests — reaches a screen
// package (tui, screens/…), not even through another of the module's
// packages. The sanitiser they share lives in model/untrusted.
func TestActionsImportNoScreen(t *testing.T) {
	t.Parallel()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	code, tests := moduleImports(t, root)
	forbidden := func(p string) bool {
		return p == module+"/tui" || strings.HasPrefix(p, module+"/tui/") ||
			p == module+"/screens" || strings.HasPrefix(p, module+"/screens/")
	}
	if len(code) < 10 || len(code[module+"/actions/ship"]) == 0 {
		t.Fatalf("the module's packages were not read from %s: %d found", root, len(code))
	}
	var bad []string
	for pkg := range code {
		if pkg != module+"/actions" && !strings.HasPrefix(pkg, module+"/actions/") {
			continue
		}
		// Each of the package's own imports and its tests' imports, then
		// everything those reach through the module.
		start := append(append([]string{}, code[pkg]...), tests[pkg]...)
		if via, hit := reaches(start, code, forbidden); hit != "" {
			bad = append(bad, pkg+" reaches "+hit+" (via "+strings.Join(via, " → ")+")")
		}
	}
	sort.Strings(bad)
	for _, b := range bad {
		t.Error(b)
	}
}

// reaches walks imports breadth first through the module's packages and
// returns the first forbidden one, with the path to it.
func reaches(start []string, code map[string][]string, forbidden func(string) bool) ([]string, string) {
	type step struct {
		pkg string
		via []string
	}
	seen := map[string]bool{}
	queue := make([]step, 0, len(start))
	for _, s := range start {
		queue = append(queue, step{s, []string{s}})
	}
	for len(queue) > 0 {
		s := queue[0]
		queue = queue[1:]
		if seen[s.pkg] {
			continue
		}
		seen[s.pkg] = true
		if forbidden(s.pkg) {
			return s.via, s.pkg
		}
		for _, next := range code[s.pkg] {
			queue = append(queue, step{next, append(append([]string{}, s.via...), next)})
		}
	}
	return nil, ""
}

// moduleImports reads the import lines of every Go file in the module:
// by package, the module packages its code imports, and those its tests
// import.
func moduleImports(t *testing.T, root string) (code, tests map[string][]string) {
	t.Helper()
	code, tests = map[string][]string{}, map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); p != root && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, ".go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, filepath.Dir(p))
		if err != nil {
			return err
		}
		pkg := path.Join(module, filepath.ToSlash(rel))
		into := code
		if strings.HasSuffix(p, "_test.go") {
			into = tests
		}
		for _, imp := range f.Imports {
			q, err := strconv.Unquote(imp.Path.Value)
			if err == nil && (q == module || strings.HasPrefix(q, module+"/")) {
				into[pkg] = append(into[pkg], q)
			}
		}
		if _, ok := into[pkg]; !ok {
			into[pkg] = nil
		}
		return nil
	})
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return code, tests
}
