package conformance_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
)

// fullSpecEnv names GitHub's whole OpenAPI description
// (generated/api.github.com.json of the npm package @octokit/openapi at the
// version testdata/openapi/regenerate.sh pins). .ci/run fetches it into a
// cache folder and sets the variable; without it the tests that need it
// skip, so a developer's `go test` stays offline.
const fullSpecEnv = "AAYU_FULL_OPENAPI"

// fullSpec is GitHub's whole description, loaded and validated by
// kin-openapi: a validator written independently of this package's own
// (which compiles the subset with santhosh-tekuri/jsonschema), over every
// operation GitHub has rather than the subset aayu asked for.
type fullSpec struct {
	doc   *openapi3.T
	paths []specPath
}

type specPath struct {
	template string
	segs     []string
	item     *openapi3.PathItem
}

// loadFullSpec loads the description once per test binary: it is 13 MB
// and takes seconds to resolve.
var loadFullSpec = sync.OnceValues(func() (*fullSpec, error) {
	file := os.Getenv(fullSpecEnv)
	if file == "" {
		return nil, errNoFullSpec
	}
	loader := openapi3.NewLoader()
	loader.IsExternalRefsAllowed = false
	doc, err := loader.LoadFromFile(file)
	if err != nil {
		return nil, fmt.Errorf("loading GitHub's OpenAPI description %s: %w", file, err)
	}
	// GitHub's URLs are absolute (format uri); kin-openapi leaves uri
	// unchecked unless told, so say what a uri is for this document.
	doc.SetStringFormatValidator("uri", openapi3.NewCallbackValidator(func(s string) error {
		u, err := url.Parse(s)
		if err != nil || u.Scheme == "" {
			return fmt.Errorf("not an absolute URI: %q", s)
		}
		return nil
	}))
	fs := &fullSpec{doc: doc}
	for tpl, item := range doc.Paths.Map() {
		fs.paths = append(fs.paths, specPath{template: tpl, segs: strings.Split(strings.Trim(tpl, "/"), "/"), item: item})
	}
	sort.Slice(fs.paths, func(i, j int) bool { return fs.paths[i].template < fs.paths[j].template })
	return fs, nil
})

var errNoFullSpec = errors.New(fullSpecEnv + " is not set")

const noFullSpecHelp = fullSpecEnv + " is not set: point it at generated/api.github.com.json of npm's @octokit/openapi (.ci/run fetches it) to validate against GitHub's full description"

// strictEnv, set by .ci/run, turns the skips for a missing gh or a missing
// description into failures, so a CI run cannot pass without running them.
const strictEnv = "AAYU_CONFORMANCE_STRICT"

func skipOrFail(t *testing.T, why string) {
	t.Helper()
	if os.Getenv(strictEnv) != "" {
		t.Fatalf("%s (%s is set)", why, strictEnv)
	}
	t.Skip(why)
}

// needFullSpec loads the description or skips the test with what to do.
func needFullSpec(t *testing.T) *fullSpec {
	t.Helper()
	fs, err := loadFullSpec()
	if errors.Is(err, errNoFullSpec) {
		skipOrFail(t, noFullSpecHelp)
	}
	if err != nil {
		t.Fatal(err)
	}
	return fs
}

// route finds the operation for a request path the way GitHub's router
// does: literal segments must match, a {param} takes one segment or, for
// refs, paths, base...head and branches (git/ref/{ref}, contents/{path},
// compare/{basehead}, rules/branches/{branch}), several; the template with
// the most literal segments wins, then the one whose parameters took the
// fewest segments.
func (fs *fullSpec) route(method, escapedPath string) (*routers.Route, error) {
	segs := strings.Split(strings.Trim(escapedPath, "/"), "/")
	var best *specPath
	bestLit, bestExtra := -1, 0
	for i := range fs.paths {
		p := &fs.paths[i]
		if p.item.GetOperation(method) == nil {
			continue
		}
		lit, extra, ok := matchSegments(p.segs, segs)
		if !ok {
			continue
		}
		if lit > bestLit || (lit == bestLit && extra < bestExtra) {
			best, bestLit, bestExtra = p, lit, extra
		}
	}
	if best == nil {
		return nil, fmt.Errorf("GitHub's description has no operation for %s %s", method, escapedPath)
	}
	return &routers.Route{Spec: fs.doc, Path: best.template, PathItem: best.item, Method: method, Operation: best.item.GetOperation(method)}, nil
}

// matchSegments matches a template's segments against a path's: it returns
// how many literal segments matched and how many path segments parameters
// took beyond one each. Only a ref, a file path, base...head or a branch
// may take several segments, and only when no other parameter follows it:
// GitHub lets slashes through unescaped there and nowhere else.
func matchSegments(tpl, segs []string) (literals, extra int, ok bool) {
	if len(tpl) == 0 {
		return 0, 0, len(segs) == 0
	}
	if len(segs) == 0 {
		return 0, 0, false
	}
	if !strings.HasPrefix(tpl[0], "{") {
		if tpl[0] != segs[0] {
			return 0, 0, false
		}
		l, e, ok := matchSegments(tpl[1:], segs[1:])
		return l + 1, e, ok
	}
	most := 1
	if greedyParams[tpl[0]] && !slices.ContainsFunc(tpl[1:], func(s string) bool { return strings.HasPrefix(s, "{") }) {
		most = len(segs) - (len(tpl) - 1)
	}
	bestLit, bestExtra, found := -1, 0, false
	for take := 1; take <= most; take++ {
		l, e, ok := matchSegments(tpl[1:], segs[take:])
		if !ok {
			continue
		}
		e += take - 1
		if l > bestLit || (l == bestLit && e < bestExtra) {
			bestLit, bestExtra, found = l, e, true
		}
	}
	return bestLit, bestExtra, found
}

var greedyParams = map[string]bool{"{ref}": true, "{path}": true, "{basehead}": true, "{branch}": true}

// genericStatuses are answers GitHub gives to any request whether or not
// the operation lists them (a bad token, a refusal, a rate limit, a
// conditional 304, a server error): GitHub's description leaves most of
// them out, so their bodies are checked against its basic-error schema.
var genericStatuses = map[int]bool{304: true, 400: true, 401: true, 403: true, 404: true, 429: true, 500: true, 502: true, 503: true}

// knownUndescribed are statuses GitHub sends that its description leaves
// out for an operation (github-api/REFERENCE.md marks them "+"); their
// bodies are basic-error.
var knownUndescribed = map[string]bool{
	"POST /repos/{owner}/{repo}/actions/variables 409": true,
	"POST /repos/{owner}/{repo}/actions/variables 422": true,
}

// exchange is one request and response as the sandbox served it.
type exchange struct {
	Method, Path, Query string // Path escaped, in github.com's layout
	op                  string // the operation the test's call says it is, if known
	Status              int
	Header              http.Header
	Body                []byte
}

func (x exchange) String() string { return fmt.Sprintf("%s %s %d", x.Method, x.Path, x.Status) }

// validate checks one exchange against GitHub's full description with
// kin-openapi's openapi3filter.ValidateResponse: the status must be one the
// operation describes (or a generic one, as basic-error), and the headers
// and body must match the response's schema. It returns the operation id.
func (fs *fullSpec) validate(x exchange) (string, error) {
	route, err := fs.route(x.Method, x.Path)
	if err != nil {
		return "", err
	}
	id := route.Operation.OperationID
	req, err := http.NewRequest(x.Method, "https://api.github.com"+x.Path+queryPart(x.Query), nil)
	if err != nil {
		return id, err
	}
	in := &openapi3filter.RequestValidationInput{Request: req, Route: route}
	opts := &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true, SchemaValidationOptions: fs.doc.GetSchemaValidationOptions()}
	described := route.Operation.Responses.Status(x.Status) != nil
	if !described && (genericStatuses[x.Status] || knownUndescribed[fmt.Sprintf("%s %s %d", x.Method, route.Path, x.Status)]) {
		// Validate the body as basic-error through a stand-in operation
		// whose only response is that status.
		resp := openapi3.NewResponse().WithDescription("generic")
		if x.Status != http.StatusNotModified {
			resp.WithJSONSchemaRef(fs.doc.Components.Schemas["basic-error"])
		}
		op := *route.Operation
		op.Responses = openapi3.NewResponses(openapi3.WithStatus(x.Status, &openapi3.ResponseRef{Value: resp}))
		r2 := *route
		r2.Operation = &op
		in.Route = &r2
	}
	if x.Status == http.StatusNotModified || x.Status == http.StatusNoContent || x.Status == http.StatusFound {
		// kin-openapi passes 304 over; GitHub sends none of these with a body.
		if len(x.Body) != 0 {
			return id, fmt.Errorf("%s: status %d with a %d-byte body", id, x.Status, len(x.Body))
		}
	}
	err = openapi3filter.ValidateResponse(context.Background(), &openapi3filter.ResponseValidationInput{
		RequestValidationInput: in,
		Status:                 x.Status,
		Header:                 x.Header,
		Body:                   io.NopCloser(bytes.NewReader(x.Body)),
		Options:                opts,
	})
	if err != nil {
		return id, fmt.Errorf("%s (%s %s): %w", id, x.Method, route.Path, err)
	}
	return id, nil
}

func queryPart(q string) string {
	if q == "" {
		return ""
	}
	return "?" + q
}
