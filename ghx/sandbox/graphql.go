package sandbox

import (
	"bytes"
	"compress/gzip"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/vektah/gqlparser/v2/ast"
	"github.com/vektah/gqlparser/v2/gqlerror"
	"github.com/vektah/gqlparser/v2/parser"
	"github.com/vektah/gqlparser/v2/validator"
)

// GitHub's public GraphQL schema (@octokit/graphql-schema 15.26.1, MIT,
// graphqlschema/LICENSE.md), gzipped: every query the sandbox answers is
// validated against it first, as GitHub does.
//
//go:embed graphqlschema/github.graphql.gz
var schemaGz []byte

var (
	schemaOnce sync.Once
	schemaDoc  *ast.Schema
	schemaErr  error
)

// GraphQLSchema is GitHub's public GraphQL schema, parsed once.
func GraphQLSchema() (*ast.Schema, error) {
	schemaOnce.Do(func() { schemaDoc, schemaErr = loadSchema() })
	return schemaDoc, schemaErr
}

func loadSchema() (*ast.Schema, error) {
	zr, err := gzip.NewReader(bytes.NewReader(schemaGz))
	if err != nil {
		return nil, fmt.Errorf("reading GitHub's GraphQL schema: %w", err)
	}
	src, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("reading GitHub's GraphQL schema: %w", err)
	}
	doc, err := parser.ParseSchemas(validator.Prelude, &ast.Source{Name: "github.graphql", Input: string(src)})
	if err != nil {
		return nil, fmt.Errorf("parsing GitHub's GraphQL schema: %w", err)
	}
	// The published schema declares a few fields twice with the same type
	// (EnterpriseOwnerInfo.repositoryDeployKeySetting); GitHub serves one.
	for _, def := range doc.Definitions {
		seen := map[string]bool{}
		kept := def.Fields[:0]
		for _, f := range def.Fields {
			if !seen[f.Name] {
				seen[f.Name] = true
				kept = append(kept, f)
			}
		}
		def.Fields = kept
	}
	return validator.ValidateSchemaDocument(doc)
}

// ValidateGraphQL parses query and validates it against GitHub's schema:
// nil when GitHub would accept it.
func ValidateGraphQL(query string) error {
	_, err := parseQuery(query)
	return err
}

func parseQuery(query string) (*ast.QueryDocument, error) {
	schema, err := GraphQLSchema()
	if err != nil {
		return nil, err
	}
	doc, perr := parser.ParseQuery(&ast.Source{Name: "query", Input: query})
	if perr != nil {
		return nil, gqlerror.List{asGQLError(perr)}
	}
	if errs := githubLeniency(validator.ValidateWithRules(schema, doc, nil)); len(errs) > 0 {
		return nil, errs
	}
	return doc, nil
}

// githubLeniency drops the validation errors GitHub's server does not
// raise. The spec's overlapping-fields rule refuses one response key with
// two types even from fragments on different object types; GitHub answers
// such a query (gh issue view asks `...on Issue{state}` and `...on
// PullRequest{state}`: IssueState! and PullRequestState!), so the sandbox
// does too. The executor shapes each node by its own concrete type.
func githubLeniency(errs gqlerror.List) gqlerror.List {
	var out gqlerror.List
	for _, e := range errs {
		if strings.Contains(e.Message, "conflict because they return conflicting types") {
			continue
		}
		out = append(out, e)
	}
	return out
}

func asGQLError(err error) *gqlerror.Error {
	var e *gqlerror.Error
	if errors.As(err, &e) {
		return e
	}
	return gqlerror.Wrap(err)
}

type graphqlRequest struct {
	Query         string         `json:"query"`
	Variables     map[string]any `json:"variables"`
	OperationName string         `json:"operationName"`
}

// serveGraphQL is POST /graphql: faults, authentication, the GraphQL rate
// limit (its own resource, charged in points by the query's size), the
// schema's validation, then the query run over the sandbox's state.
func (s *Server) serveGraphQL(w http.ResponseWriter, r *http.Request) {
	if d := s.opts.Faults.Latency; d > 0 {
		time.Sleep(d)
	}
	fault, variant := s.faults.draw(r)
	c, authOK := s.authenticate(r)
	body, readErr := io.ReadAll(io.LimitReader(r.Body, 1<<20))

	s.mu.Lock()
	s.reloadIfReset()
	s.reqSeq++
	seq := s.reqSeq
	bw := newBufWriter()
	b := s.graphqlBucket(c)
	cost := 0
	switch {
	case r.Method != http.MethodPost:
		writeErrorDoc(bw, http.StatusNotFound, "Not Found", "https://docs.github.com/graphql")
	case !authOK || c.anonymous:
		writeErrorDoc(bw, http.StatusUnauthorized, "This endpoint requires you to be authenticated.", "https://docs.github.com/graphql/guides/forming-calls-with-graphql#authenticating-with-graphql")
	case fault == faultServerError:
		writeServerError(bw, variant)
	case fault == faultSecondary:
		writeSecondaryLimit(bw, variant)
	case b.remaining() == 0:
		writeRateLimited(bw, c)
	case readErr != nil:
		writeError(bw, http.StatusBadRequest, "Problems parsing JSON")
	default:
		cost = s.answerGraphQL(bw, r, c, body)
	}
	b.used += min(cost, b.remaining())
	b.setHeaders(bw.h)
	bw.h.Set("X-RateLimit-Resource", "graphql")
	s.mu.Unlock()

	for k, v := range bw.h {
		w.Header()[k] = v
	}
	w.Header().Set("X-GitHub-Request-Id", fmt.Sprintf("5A4D:GQL:%06X", seq))
	if fault == faultDrop {
		w.Header().Set(dropHeader, "1")
	}
	if bw.status == 0 {
		bw.status = http.StatusOK
	}
	s.logf("POST /graphql %d %s", bw.status, pointsWord(cost))
	w.WriteHeader(bw.status)
	_, _ = w.Write(bw.body.Bytes())
}

func pointsWord(cost int) string {
	if cost == 0 {
		return "not counted"
	}
	return "counted " + strconv.Itoa(cost) + " graphql points"
}

// graphqlBucket is the caller's GraphQL limit: 5,000 points an hour,
// apart from the REST limit, as on GitHub.
func (s *Server) graphqlBucket(c caller) *rateBucket {
	key := "graphql\x00" + c.Login
	now := s.now()
	b := s.rates[key]
	if b == nil || !now.Before(b.reset) {
		b = &rateBucket{limit: 5000, reset: now.Add(time.Hour).Truncate(time.Second)}
		s.rates[key] = b
	}
	return b
}

// answerGraphQL validates and runs one request; it returns the points the
// query cost (a query that does not validate costs nothing, as on GitHub).
func (s *Server) answerGraphQL(w http.ResponseWriter, r *http.Request, c caller, body []byte) int {
	var req graphqlRequest
	if err := json.Unmarshal(body, &req); err != nil || req.Query == "" {
		writeError(w, http.StatusBadRequest, "Problems parsing JSON")
		return 0
	}
	doc, err := parseQuery(req.Query)
	if err != nil {
		writeJSON(w, http.StatusOK, map[string]any{"errors": err})
		return 0
	}
	op := doc.Operations.ForName(req.OperationName)
	if op == nil {
		writeJSON(w, http.StatusOK, map[string]any{"errors": gqlerror.List{gqlerror.Errorf("No operation named %q", req.OperationName)}})
		return 0
	}
	if op.Operation != ast.Query {
		writeJSON(w, http.StatusOK, map[string]any{"errors": gqlerror.List{gqlerror.Errorf("the sandbox answers queries only, not %s", op.Operation)}})
		return 0
	}
	schema, _ := GraphQLSchema()
	vars, verr := validator.VariableValues(schema, op, req.Variables)
	if verr != nil {
		writeJSON(w, http.StatusOK, map[string]any{"errors": gqlerror.List{asGQLError(verr)}})
		return 0
	}
	e := &gqlExec{s: s, schema: schema, c: c, base: baseURL(r), vars: vars}
	cost := queryCost(op.SelectionSet, vars, 1)
	e.cost = max(1, cost/100)
	data := e.object("Query", nil, op.SelectionSet, nil)
	out := map[string]any{"data": data}
	if len(e.errs) > 0 {
		out["errors"] = e.errs
	}
	writeJSON(w, http.StatusOK, out)
	return e.cost
}

// queryCost counts the requests a query stands for as GitHub does: one per
// connection, times the nodes its parents may return; the points are that
// over 100, at least 1.
func queryCost(set ast.SelectionSet, vars map[string]any, parents int) int {
	total := 0
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			n := parents
			args := sel.ArgumentMap(vars)
			if size, ok := pageSize(args); ok {
				total += parents
				n = parents * size
			}
			total += queryCost(sel.SelectionSet, vars, n)
		case *ast.InlineFragment:
			total += queryCost(sel.SelectionSet, vars, parents)
		case *ast.FragmentSpread:
			total += queryCost(sel.Definition.SelectionSet, vars, parents)
		}
	}
	return total
}

// githubWords is an error in GitHub's own words, capitals and full stop
// included, as its GraphQL API answers them.
type githubWords string

func (w githubWords) Error() string { return string(w) }

func githubf(format string, args ...any) error { return githubWords(fmt.Sprintf(format, args...)) }
