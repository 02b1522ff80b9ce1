package conformance

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Files under testdata/openapi that make up the description.
var descriptionFiles = []string{"api.github.com.subset.json", "extras.json"}

// Description is GitHub's OpenAPI description of the operations the
// sandbox serves, ready to validate responses against.
type Description struct {
	ops     []*operation
	defs    map[string]any // component schemas and response schemas, converted to 2020-12
	respRef map[string]any // components/responses

	mu        sync.Mutex
	compiled  map[string]*jsonschema.Schema
	compiler  *jsonschema.Compiler // holds defs at defsURL; see schemaFor
	resources int                  // response resources added to compiler

	// valid holds the bodies found to match their response schema, by
	// validKey: a body served again (the same read in another test of the
	// process) matches again, and validating it under -race was most of
	// what the validator cost.
	valid sync.Map
}

// validKey names a body checked against the schema compiled for schemaKey.
func validKey(schemaKey string, body []byte) [sha256.Size]byte {
	h := sha256.New()
	h.Write([]byte(schemaKey))
	h.Write([]byte{0})
	h.Write(body)
	var k [sha256.Size]byte
	h.Sum(k[:0])
	return k
}

// defsURL is the resource holding the component schemas.
const defsURL = "https://sandbox.invalid/defs.json"

// intoDefs points a converted response schema's refs to components
// ("#/$defs/X") at the components' resource.
func intoDefs(v any) any {
	switch x := v.(type) {
	case []any:
		for i, e := range x {
			x[i] = intoDefs(e)
		}
	case map[string]any:
		for k, e := range x {
			if r, ok := e.(string); ok && k == "$ref" && strings.HasPrefix(r, "#/$defs/") {
				x[k] = defsURL + r
				continue
			}
			x[k] = intoDefs(e)
		}
	}
	return v
}

type operation struct {
	ID         string
	Method     string
	Template   string
	segments   []string
	literals   int
	responses  map[string]any
	deprecated bool
}

// FindDir walks up from the working directory to the repository's
// testdata/openapi folder.
func FindDir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		p := filepath.Join(dir, "testdata", "openapi")
		if _, err := os.Stat(filepath.Join(p, descriptionFiles[0])); err == nil {
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("testdata/openapi was not found above the working directory")
		}
		dir = parent
	}
}

// Load reads the description files in dir and prepares the schemas.
func Load(dir string) (*Description, error) {
	d := &Description{defs: map[string]any{}, respRef: map[string]any{}, compiled: map[string]*jsonschema.Schema{}}
	for _, name := range descriptionFiles {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return nil, fmt.Errorf("reading the OpenAPI description: %w", err)
		}
		var doc map[string]any
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.UseNumber()
		if err := dec.Decode(&doc); err != nil {
			return nil, fmt.Errorf("parsing %s: %w", name, err)
		}
		comps, _ := doc["components"].(map[string]any)
		if s, ok := comps["schemas"].(map[string]any); ok {
			for k, v := range s {
				d.defs[k] = convert(v)
			}
		}
		if s, ok := comps["responses"].(map[string]any); ok {
			for k, v := range s {
				d.respRef[k] = v
			}
		}
		paths, _ := doc["paths"].(map[string]any)
		for tmpl, item := range paths {
			for method, o := range item.(map[string]any) {
				om, ok := o.(map[string]any)
				if !ok || method == "parameters" {
					continue
				}
				op := &operation{Method: strings.ToUpper(method), Template: tmpl, responses: map[string]any{}}
				op.ID, _ = om["operationId"].(string)
				op.deprecated, _ = om["deprecated"].(bool)
				// Octokit marks an alias kept for old clients in words only.
				if desc, _ := om["description"].(string); strings.HasPrefix(desc, "**Deprecated**") {
					op.deprecated = true
				}
				if rs, ok := om["responses"].(map[string]any); ok {
					op.responses = rs
				}
				op.segments = strings.Split(strings.Trim(tmpl, "/"), "/")
				for _, s := range op.segments {
					if !strings.Contains(s, "{") {
						op.literals++
					}
				}
				d.ops = append(d.ops, op)
			}
		}
	}
	sort.Slice(d.ops, func(i, j int) bool { return d.ops[i].ID < d.ops[j].ID })
	return d, nil
}

// Operations lists the operationIds the description knows.
func (d *Description) Operations() []string {
	var out []string
	for _, op := range d.ops {
		out = append(out, op.ID)
	}
	return out
}

// greedy names the parameters that may span several path segments.
var greedy = map[string]bool{"{path}": true, "{ref}": true, "{basehead}": true}

// match finds the operation for a method and escaped path, preferring the
// template with the most literal segments and skipping deprecated aliases.
func (d *Description) match(method, escapedPath string) *operation {
	segs := strings.Split(strings.Trim(escapedPath, "/"), "/")
	var best *operation
	for _, op := range d.ops {
		if op.Method != method || op.deprecated || !segmentsMatch(op.segments, segs) {
			continue
		}
		if best == nil || op.literals > best.literals {
			best = op
		}
	}
	return best
}

// aliases lists the deprecated operations that describe the same request
// as the one matched: GitHub serves them at the same URL, so serving the
// request exercises them too.
func (d *Description) aliases(method, escapedPath string) []*operation {
	segs := strings.Split(strings.Trim(escapedPath, "/"), "/")
	var out []*operation
	for _, op := range d.ops {
		if op.Method == method && op.deprecated && segmentsMatch(op.segments, segs) {
			out = append(out, op)
		}
	}
	return out
}

func segmentsMatch(tmpl, segs []string) bool {
	if len(segs) < len(tmpl) {
		return false
	}
	if len(segs) > len(tmpl) && !greedy[tmpl[len(tmpl)-1]] {
		return false
	}
	for i, t := range tmpl {
		switch {
		case strings.HasPrefix(t, "{") && strings.HasSuffix(t, "}") && strings.Count(t, "{") == 1:
			if segs[i] == "" {
				return false
			}
		case strings.Contains(t, "{"):
			if !strings.Contains(segs[i], "...") {
				return false
			}
		default:
			if t != segs[i] {
				return false
			}
		}
	}
	return true
}

// response resolves the described response for a status ("" when none).
func (d *Description) response(op *operation, status int) (map[string]any, bool) {
	r, ok := op.responses[fmt.Sprint(status)]
	if !ok {
		r, ok = op.responses["default"]
	}
	if !ok {
		return nil, false
	}
	m, _ := r.(map[string]any)
	if ref, isRef := m["$ref"].(string); isRef {
		m, _ = d.respRef[strings.TrimPrefix(ref, "#/components/responses/")].(map[string]any)
	}
	return m, m != nil
}

// schemaFor compiles (once) the JSON body schema of a response. One
// compiler holds the component schemas as one resource, compiled once
// each as responses first reach them; each response's schema is a resource
// of its own whose refs point into it (a compiler per response compiled
// the shared components again for every response: a fifth of a sandbox
// test's CPU).
func (d *Description) schemaFor(key string, raw any) (*jsonschema.Schema, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if s, ok := d.compiled[key]; ok {
		return s, nil
	}
	if d.compiler == nil {
		c := jsonschema.NewCompiler()
		c.DefaultDraft(jsonschema.Draft2020)
		if err := c.AddResource(defsURL, map[string]any{"$defs": d.defs}); err != nil {
			return nil, err
		}
		d.compiler = c
	}
	d.resources++ // a failed compile's resource stays in the compiler
	url := fmt.Sprintf("https://sandbox.invalid/%d.json", d.resources)
	if err := d.compiler.AddResource(url, intoDefs(convert(raw))); err != nil {
		return nil, err
	}
	s, err := d.compiler.Compile(url)
	if err != nil {
		return nil, err
	}
	d.compiled[key] = s
	return s, nil
}
