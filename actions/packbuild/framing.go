package packbuild

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/scanner"
	"go/token"
	"maps"
	"path"
	"slices"
	"strings"

	"github.com/aayudha/aayu/proof"
)

// Code that runs around a test rather than in it — TestMain, an init
// function, a package-level variable a test file sets by calling something —
// can print "--- PASS" for a test whose body failed, or decide what the test
// sees, and go test -json reports what it prints. No floor can tell. So when
// the pull request adds or changes such code in a package whose tests the
// evidence map names, the pack carries a named warning
// (proof.WarningTestFraming) that the gate's comment and ship's confirmation
// show, and a person reads that code before trusting the evidence.

// maxFramingNotes caps the places one warning lists.
const maxFramingNotes = 10

// framingWarning compares the framing code of every mapped test's package
// on the base and the head. Nil when nothing was added or changed.
func (r *runner) framingWarning(ctx context.Context) (*proof.Warning, error) {
	show := func(rev, file string) []byte {
		b, err := r.t.git(ctx, r.req.Dir, "show", rev+":"+file)
		if err != nil {
			return nil // absent on that side: added or deleted
		}
		return b
	}
	var notes []string
	for _, pkg := range mappedPackages(r.evidenceMap) {
		spec := ":(glob)" + path.Join(pkg, "*.go")
		if pkg == "." {
			spec = ":(glob)*.go"
		}
		out, err := r.t.git(ctx, r.req.Dir, "diff", "--name-only", "-z", "--no-renames", r.base, r.head, "--", spec)
		if err != nil {
			return nil, err
		}
		for _, file := range strings.Split(strings.TrimSuffix(string(out), "\x00"), "\x00") {
			if file == "" {
				continue
			}
			notes = append(notes, framingChanges(file, show(r.base, file), show(r.head, file))...)
		}
	}
	if len(notes) == 0 {
		return nil, nil
	}
	more := ""
	if len(notes) > maxFramingNotes {
		more = fmt.Sprintf(" and %d more", len(notes)-maxFramingNotes)
		notes = notes[:maxFramingNotes]
	}
	return &proof.Warning{Name: proof.WarningTestFraming, Detail: fmt.Sprintf(
		"The pull request adds or changes code that runs around the mapped tests: %s%s. Such code can make go test report a pass the test did not earn; read it before trusting the evidence.",
		strings.Join(notes, "; "), more)}, nil
}

// mappedPackages lists, sorted and once each, the packages of the evidence
// map's tests.
func mappedPackages(m proof.EvidenceMap) []string {
	var out []string
	for _, c := range m {
		for _, ref := range c.Tests {
			out = append(out, ref.Package)
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// framingChanges names each piece of framing code the head adds or changes
// in one file, as "TestMain in answer/main_test.go (added)". A head that
// does not parse names nothing: its package does not build, and the tests
// floor says so.
func framingChanges(file string, base, head []byte) []string {
	if head == nil {
		return nil
	}
	after, ok := framingDecls(file, head)
	if !ok {
		return nil
	}
	before, _ := framingDecls(file, base)
	var notes []string
	for _, name := range slices.Sorted(maps.Keys(after)) {
		was, existed := before[name]
		switch {
		case !existed:
			notes = append(notes, fmt.Sprintf("%s in %s (added)", name, file))
		case was != after[name]:
			notes = append(notes, fmt.Sprintf("%s in %s (changed)", name, file))
		}
	}
	return notes
}

// framingDecls finds a file's framing code, by name, each as its tokens
// without comments (so a reformatted or recommented TestMain is not a
// change): TestMain and package-level variables set by a call or a
// function literal in a test file, init functions in any file. ok is false
// when src is not Go.
func framingDecls(file string, src []byte) (map[string]string, bool) {
	out := map[string]string{}
	if src == nil {
		return out, true
	}
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, false
	}
	isTest := strings.HasSuffix(file, "_test.go")
	text := func(n ast.Node) string {
		var b bytes.Buffer
		if err := printer.Fprint(&b, fset, n); err != nil {
			return "unprintable"
		}
		return tokensOf(b.Bytes())
	}
	inits := 0
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			if d.Recv != nil {
				continue
			}
			switch {
			case d.Name.Name == "init":
				// A file may hold several; they are told apart by order.
				inits++
				name := "init"
				if inits > 1 {
					name = fmt.Sprintf("init (the %s in the file)", ordinal(inits))
				}
				out[name] = text(d)
			case isTest && d.Name.Name == "TestMain":
				out["TestMain"] = text(d)
			}
		case *ast.GenDecl:
			if !isTest || d.Tok != token.VAR {
				continue
			}
			for _, s := range d.Specs {
				vs, ok := s.(*ast.ValueSpec)
				if !ok || !callsSomething(vs.Values) {
					continue
				}
				names := make([]string, len(vs.Names))
				for i, n := range vs.Names {
					names[i] = n.Name
				}
				out["var "+strings.Join(names, ", ")] = text(vs)
			}
		}
	}
	return out, true
}

// tokensOf is src as its Go tokens, comments and layout dropped, so two
// spellings of the same code compare equal.
func tokensOf(src []byte) string {
	var sc scanner.Scanner
	fset := token.NewFileSet()
	sc.Init(fset.AddFile("", fset.Base(), len(src)), src, nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := sc.Scan()
		if tok == token.EOF {
			return b.String()
		}
		if tok == token.SEMICOLON && lit == "\n" {
			continue // an inserted semicolon only marks a line break
		}
		b.WriteString(tok.String())
		b.WriteByte(0)
		b.WriteString(lit)
		b.WriteByte(0)
	}
}

// callsSomething reports whether any of the expressions calls a function or
// holds a function literal: code that runs when the test binary starts.
func callsSomething(values []ast.Expr) bool {
	found := false
	for _, v := range values {
		ast.Inspect(v, func(n ast.Node) bool {
			switch n.(type) {
			case *ast.CallExpr, *ast.FuncLit:
				found = true
			}
			return !found
		})
	}
	return found
}

func ordinal(n int) string {
	switch n {
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return fmt.Sprintf("%dth", n)
}
