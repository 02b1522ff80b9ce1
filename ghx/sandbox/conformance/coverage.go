package conformance

import (
	"bufio"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
)

// Coverage gathers, across every validator of one test binary, which
// operations the sandbox served, so that a suite which never tried one of
// the operations aayu relies on fails instead of passing quietly.
type Coverage struct {
	mu         sync.Mutex
	validators []*Validator
}

// NewCoverage starts an empty record.
func NewCoverage() *Coverage { return &Coverage{} }

// Add counts what v validates, now and later, towards the record.
func (c *Coverage) Add(v *Validator) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.validators = append(c.validators, v)
}

// Missing lists the operations of want that no added validator has seen,
// in the order of want.
func (c *Coverage) Missing(want []string) []string {
	c.mu.Lock()
	vs := append([]*Validator(nil), c.validators...)
	c.mu.Unlock()
	var out []string
	for _, id := range want {
		seen := false
		for _, v := range vs {
			if v.SeenOperation(id) {
				seen = true
				break
			}
		}
		if !seen {
			out = append(out, id)
		}
	}
	return out
}

// RequiredOperations reads testdata/openapi/operations.txt: the operations
// aayu uses, one operationId a line, # comments and blank lines ignored.
func RequiredOperations() ([]string, error) {
	dir, err := FindDir()
	if err != nil {
		return nil, err
	}
	f, err := os.Open(filepath.Join(dir, "operations.txt"))
	if err != nil {
		return nil, fmt.Errorf("reading the list of required operations: %w", err)
	}
	defer f.Close()
	var ids []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line != "" && !strings.HasPrefix(line, "#") {
			ids = append(ids, line)
		}
	}
	return ids, sc.Err()
}

// RunWithCoverage runs the tests (call it from TestMain and pass its
// result to os.Exit) and then, when the whole suite ran — no -run, -skip
// or -list narrowing it — fails if any operation in operations.txt was
// never served by a validated sandbox.
func RunWithCoverage(m *testing.M, c *Coverage) int {
	code := m.Run()
	if code != 0 || narrowed() {
		return code
	}
	want, err := RequiredOperations()
	if err != nil {
		fmt.Fprintf(os.Stderr, "conformance coverage: %v\n", err)
		return 1
	}
	if missing := c.Missing(want); len(missing) > 0 {
		sort.Strings(missing)
		fmt.Fprintf(os.Stderr, "FAIL: conformance coverage: these operations were never served to a test with the validator on:\n\t%s\n",
			strings.Join(missing, "\n\t"))
		return 1
	}
	return code
}

// narrowed reports a run that selected only some tests.
func narrowed() bool {
	for _, name := range []string{"test.run", "test.skip", "test.list"} {
		if f := flag.Lookup(name); f != nil && f.Value.String() != "" {
			return true
		}
	}
	return false
}
