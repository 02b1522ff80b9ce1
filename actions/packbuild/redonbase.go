package packbuild

import (
	"archive/tar"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/proof"
)

// Red on base runs a Bug story's mapped tests on a copy of the base
// commit with the pull request's test files copied in. The copy is made
// with git archive into a temporary folder, so the person's checkout (its
// work tree, index and worktree list) is never touched, and removed after.

// exportTree writes commit's tree into dir (which must exist and be empty)
// through an os.Root, so no entry can land outside it.
func (t Tools) exportTree(ctx context.Context, repo, commit, dir string) error {
	archive, err := t.git(ctx, repo, "archive", "--format=tar", commit)
	if err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	tr := tar.NewReader(bytes.NewReader(archive))
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("reading git archive of %s: %w", gitsha.Short(commit), err)
		}
		name := strings.TrimSuffix(h.Name, "/")
		if name == "" || h.Typeflag == tar.TypeXGlobalHeader {
			continue
		}
		if err := proof.CheckPath(name); err != nil {
			return fmt.Errorf("git archive of %s holds an unsafe path: %w", gitsha.Short(commit), err)
		}
		switch h.Typeflag {
		case tar.TypeDir:
			err = root.MkdirAll(name, 0o755)
		case tar.TypeReg:
			err = writeInRoot(root, name, tr, h.FileInfo().Mode().Perm())
		case tar.TypeSymlink:
			err = root.Symlink(h.Linkname, name)
		}
		if err != nil {
			return fmt.Errorf("writing %s of the base commit: %w", name, err)
		}
	}
}

func writeInRoot(root *os.Root, name string, r io.Reader, perm os.FileMode) error {
	if dir := path.Dir(name); dir != "." {
		if err := root.MkdirAll(dir, 0o755); err != nil {
			return err
		}
	}
	f, err := root.OpenFile(name, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, perm|0o600)
	if err != nil {
		return err
	}
	if _, err := io.Copy(f, r); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// changedTestFiles lists the _test.go files the pull request adds or
// changes relative to base.
func (t Tools) changedTestFiles(ctx context.Context, repo, base, head string) ([]string, error) {
	out, err := t.git(ctx, repo, "diff", "--name-only", "--no-renames", "--diff-filter=AM", base, head, "--", "*_test.go")
	if err != nil {
		return nil, err
	}
	return strings.Fields(string(out)), nil
}

var testNameSafe = lazyre.New(`^[A-Za-z0-9_]+$`)

// redOnBase runs the mapped tests of each criterion on base with the pull
// request's test files, and classifies each criterion.
func (t Tools) redOnBase(ctx context.Context, repo, base, head, modulePath string, m proof.EvidenceMap, prefix []string, emit func(Event)) ([]proof.CriterionRedOnBase, error) {
	run, dir, err := t.redOnBaseRun(ctx, repo, base, head, m, prefix, emit)
	if err != nil {
		return nil, err
	}
	return classify(m, modulePath, run, dir), nil
}

// redOnBaseRun runs the mapped tests on the base commit with the pull
// request's test files and returns what go test said, and the temporary
// folder (removed) its output names paths in.
func (t Tools) redOnBaseRun(ctx context.Context, repo, base, head string, m proof.EvidenceMap, prefix []string, emit func(Event)) (*testRun, string, error) {
	dir, err := os.MkdirTemp("", "aayu-red-on-base-*")
	if err != nil {
		return nil, "", err
	}
	defer os.RemoveAll(dir)
	if err := t.exportTree(ctx, repo, base, dir); err != nil {
		return nil, "", err
	}
	tests, err := t.changedTestFiles(ctx, repo, base, head)
	if err != nil {
		return nil, "", err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, "", err
	}
	defer root.Close()
	for _, f := range tests {
		if err := proof.CheckPath(f); err != nil {
			return nil, "", fmt.Errorf("the pull request's test file %q: %w", f, err)
		}
		b, err := t.git(ctx, repo, "show", head+":"+f)
		if err != nil {
			return nil, "", err
		}
		if err := writeInRoot(root, f, bytes.NewReader(b), 0o644); err != nil {
			return nil, "", fmt.Errorf("copying %s onto the base commit: %w", f, err)
		}
	}

	pkgs, names := []string{}, []string{}
	for _, c := range m {
		for _, ref := range c.Tests {
			if !testNameSafe().MatchString(ref.Test) {
				return nil, "", fmt.Errorf("mapped test %q has a name go test -run cannot select exactly", ref.Test)
			}
			p := "./" + ref.Package
			if ref.Package == "." {
				p = "."
			}
			if !slices.Contains(pkgs, p) {
				pkgs = append(pkgs, p)
			}
			if !slices.Contains(names, ref.Test) {
				names = append(names, ref.Test)
			}
		}
	}
	slices.Sort(pkgs)
	slices.Sort(names)
	run := newTestRun()
	args := append([]string{"test", "-json", "-count=1", "-run", "^(" + strings.Join(names, "|") + ")$"}, pkgs...)
	if _, _, err := t.runGo(ctx, dir, prefix, args, func(l []byte) { run.read(l, emit, StepRedOnBase) }); err != nil {
		return nil, "", err
	}
	return run, dir, nil
}

// classify turns what the mapped tests did on base into a verdict per
// criterion: any mapped test whose package did not build or that did not
// run makes it inconclusive; otherwise any failing test makes it red on
// base (the test shows the fix); otherwise it is green on base.
func classify(m proof.EvidenceMap, modulePath string, run *testRun, tmp string) []proof.CriterionRedOnBase {
	var out []proof.CriterionRedOnBase
	for _, c := range m {
		r := proof.CriterionRedOnBase{ID: c.ID, Class: proof.GreenOnBase}
		var red, unclear []string
		for _, ref := range c.Tests {
			r.Tests = append(r.Tests, ref.Test)
			pkg := modulePath
			if ref.Package != "." {
				pkg = modulePath + "/" + ref.Package
			}
			k := testKey(pkg, ref.Test)
			switch {
			case run.badPkgs[pkg] != "":
				unclear = append(unclear, fmt.Sprintf("package %s %s on base", ref.Package, run.badPkgs[pkg]))
			case run.failed[k]:
				red = append(red, ref.Test)
			case run.passed[k]:
			default:
				unclear = append(unclear, ref.Test+" did not run on base")
			}
		}
		switch {
		case len(unclear) > 0:
			r.Class, r.Detail = proof.Inconclusive, strings.Join(unclear, ", ")
		case len(red) == len(c.Tests):
			r.Class, r.Detail = proof.RedOnBaseShowsFix, "fails on base"
		case len(red) > 0:
			r.Class, r.Detail = proof.RedOnBaseShowsFix, "only "+strings.Join(red, ", ")+" "+plural(len(red), "fails", "fail")+" on base"
		default:
			r.Detail = "passes on base"
		}
		r.Detail = strings.ReplaceAll(r.Detail, tmp+string(os.PathSeparator), "")
		out = append(out, r)
	}
	return out
}
