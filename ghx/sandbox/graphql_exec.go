package sandbox

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"

	"github.com/vektah/gqlparser/v2/ast"
)

// gqlExec runs one validated query. It is a small executor, not a general
// one: it walks the query's own selection sets, so the answer has exactly
// the shape asked for, and resolves each field from the sandbox's state
// through resolve. A field the sandbox does not serve is answered null
// with an error naming it, never guessed.
type gqlExec struct {
	s      *Server
	schema *ast.Schema
	c      caller
	base   string
	vars   map[string]any
	cost   int
	errs   []map[string]any
	index  *gqlIndex
}

// typed is a value of an interface or union type, with its concrete type.
type typed struct {
	typ string
	v   any
}

func (e *gqlExec) fail(path []any, format string, args ...any) {
	e.errs = append(e.errs, map[string]any{"message": fmt.Sprintf(format, args...), "path": append([]any(nil), path...)})
}

// object answers set on v, a value of the object type typ.
func (e *gqlExec) object(typ string, v any, set ast.SelectionSet, path []any) map[string]any {
	out := map[string]any{}
	for _, f := range e.collect(typ, set) {
		key := f.Alias
		if key == "" {
			key = f.Name
		}
		here := append(path, key)
		if f.Name == "__typename" {
			out[key] = typ
			continue
		}
		val, err := e.resolve(typ, v, f, f.ArgumentMap(e.vars))
		if err != nil {
			e.fail(here, "%v", err)
			if t := errorType(err); t != "" {
				e.errs[len(e.errs)-1]["type"] = t
			}
			out[key] = nil
			continue
		}
		out[key] = e.complete(f.Definition.Type, val, f.SelectionSet, here)
	}
	return out
}

// collect flattens fragments that apply to typ into their fields.
func (e *gqlExec) collect(typ string, set ast.SelectionSet) []*ast.Field {
	var out []*ast.Field
	for _, sel := range set {
		switch sel := sel.(type) {
		case *ast.Field:
			out = append(out, sel)
		case *ast.InlineFragment:
			if e.applies(typ, sel.TypeCondition) {
				out = append(out, e.collect(typ, sel.SelectionSet)...)
			}
		case *ast.FragmentSpread:
			if sel.Definition != nil && e.applies(typ, sel.Definition.TypeCondition) {
				out = append(out, e.collect(typ, sel.Definition.SelectionSet)...)
			}
		}
	}
	return out
}

func (e *gqlExec) applies(typ, cond string) bool {
	if cond == "" || cond == typ {
		return true
	}
	for _, d := range e.schema.PossibleTypes[cond] {
		if d.Name == typ {
			return true
		}
	}
	return false
}

// complete shapes a resolved value by its schema type.
func (e *gqlExec) complete(t *ast.Type, val any, set ast.SelectionSet, path []any) any {
	if val == nil {
		return nil
	}
	if t.Elem != nil {
		list, _ := val.([]any)
		out := make([]any, len(list))
		for i, item := range list {
			out[i] = e.complete(t.Elem, item, set, append(path, i))
		}
		return out
	}
	def := e.schema.Types[t.NamedType]
	switch def.Kind {
	case ast.Scalar, ast.Enum:
		return val
	case ast.Object:
		return e.object(def.Name, val, set, path)
	}
	tv, ok := val.(typed)
	if !ok {
		e.fail(path, "the sandbox has no concrete type for a %s", def.Name)
		return nil
	}
	return e.object(tv.typ, tv.v, set, path)
}

// connection is one page of a list field: GitHub's cursor connections.
type connection struct {
	all         []any
	start, end  int
	hasPrevious bool
	hasNext     bool
}

// paginate applies first/last/after/before as GitHub does, with its
// limits: one of first or last, at most 100.
func paginate(all []any, args map[string]any, field string) (*connection, error) {
	first, hasFirst := intArg(args, "first")
	last, hasLast := intArg(args, "last")
	switch {
	case !hasFirst && !hasLast:
		return nil, githubf("You must provide a `first` or `last` value to properly paginate the `%s` connection.", field)
	case hasFirst && (first < 0 || first > 100):
		return nil, githubf("Requesting %d records on the `%s` connection exceeds the `first` limit of 100 records.", first, field)
	case hasLast && (last < 0 || last > 100):
		return nil, githubf("Requesting %d records on the `%s` connection exceeds the `last` limit of 100 records.", last, field)
	}
	start, end := 0, len(all)
	if after, ok := args["after"].(string); ok {
		if i, ok := decodeCursor(after); ok && i+1 > start {
			start = min(i+1, end)
		}
	}
	if before, ok := args["before"].(string); ok {
		if i, ok := decodeCursor(before); ok && i < end {
			end = max(i, start)
		}
	}
	c := &connection{all: all}
	if hasFirst && end-start > first {
		end = start + first
		c.hasNext = true
	}
	if hasLast && end-start > last {
		start = end - last
		c.hasPrevious = true
	}
	c.start, c.end = start, end
	c.hasNext = c.hasNext || end < len(all)
	c.hasPrevious = c.hasPrevious || start > 0
	return c, nil
}

// pageSize is a connection's first or last argument, for the cost.
func pageSize(args map[string]any) (int, bool) {
	if n, ok := intArg(args, "first"); ok {
		return n, true
	}
	return intArg(args, "last")
}

func intArg(args map[string]any, name string) (int, bool) {
	switch v := args[name].(type) {
	case int:
		return v, true
	case int64:
		return int(v), true
	case float64:
		return int(v), true
	}
	return 0, false
}

func encodeCursor(i int) string {
	return base64.StdEncoding.EncodeToString([]byte("cursor:v2:" + strconv.Itoa(i)))
}

func decodeCursor(c string) (int, bool) {
	b, err := base64.StdEncoding.DecodeString(c)
	if err != nil {
		return 0, false
	}
	n, err := strconv.Atoi(strings.TrimPrefix(string(b), "cursor:v2:"))
	return n, err == nil && n >= 0
}

// connectionField answers the fields every connection has.
func connectionField(c *connection, name string) (any, bool) {
	switch name {
	case "totalCount":
		return len(c.all), true
	case "nodes":
		return append([]any(nil), c.all[c.start:c.end]...), true
	case "edges":
		var out []any
		for i := c.start; i < c.end; i++ {
			out = append(out, edge{cursor: encodeCursor(i), node: c.all[i]})
		}
		return out, true
	case "pageInfo":
		return c, true
	}
	return nil, false
}

type edge struct {
	cursor string
	node   any
}

func pageInfoField(c *connection, name string) (any, bool) {
	switch name {
	case "hasNextPage":
		return c.hasNext, true
	case "hasPreviousPage":
		return c.hasPrevious, true
	case "startCursor":
		if c.start == c.end {
			return nil, true
		}
		return encodeCursor(c.start), true
	case "endCursor":
		if c.start == c.end {
			return nil, true
		}
		return encodeCursor(c.end - 1), true
	}
	return nil, false
}
