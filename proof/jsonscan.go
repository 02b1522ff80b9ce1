package proof

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// maxJSONDepth is far deeper than any pack (five levels) and far shallower
// than anything that could exhaust the stack.
const maxJSONDepth = 32

// jsonFrame is one open object or array while scanning.
type jsonFrame struct {
	object    bool
	keys      map[string]struct{}
	wantKey   bool
	lastKey   string // the key whose value comes next, in an object
	path      string // dotted key path, for messages
	countThis bool   // the top-level "artifacts" array
	items     int
}

// scanPackJSON walks pack.json token by token before anything is decoded
// into Go values. It refuses what encoding/json would quietly accept: a key
// repeated in one object (Go keeps the last), trailing data after the
// document, and nesting deeper than any pack. It also counts the artifacts
// so an oversized list is refused before it is allocated.
func scanPackJSON(data []byte, maxArtifacts int) *DecodeError {
	return scanJSON(data, "pack.json", maxArtifacts)
}

// scanJSON is scanPackJSON for any JSON document, named name in its
// messages (a go test -json event line is one). maxArtifacts < 0 counts
// nothing.
func scanJSON(data []byte, name string, maxArtifacts int) *DecodeError {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []*jsonFrame
	valueDone := func() *DecodeError {
		if len(stack) == 0 {
			return nil
		}
		top := stack[len(stack)-1]
		if top.object {
			top.wantKey = true
			return nil
		}
		if top.countThis && maxArtifacts >= 0 {
			top.items++
			if top.items > maxArtifacts {
				return &DecodeError{Code: CodeTooLarge, Msg: fmt.Sprintf(
					"%s lists more than %d artifacts, the most aayu reads.", name, maxArtifacts)}
			}
		}
		return nil
	}
	started := false
	for {
		tok, err := dec.Token()
		if errors.Is(err, io.EOF) {
			if !started {
				return &DecodeError{Code: CodeMalformed, Msg: name + " is empty."}
			}
			return nil
		}
		if err != nil {
			return &DecodeError{Code: CodeMalformed, Msg: name + " is not valid JSON: " + err.Error() + ".", Err: err}
		}
		if started && len(stack) == 0 {
			return &DecodeError{Code: CodeMalformed, Msg: name + " has data after its closing brace."}
		}
		started = true

		var top *jsonFrame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		if top != nil && top.object && top.wantKey {
			if d, ok := tok.(json.Delim); ok && d == '}' {
				stack = stack[:len(stack)-1]
				if derr := valueDone(); derr != nil {
					return derr
				}
				continue
			}
			key, _ := tok.(string)
			if _, seen := top.keys[key]; seen {
				return &DecodeError{Code: CodeDuplicateKey, Msg: fmt.Sprintf(
					"%s repeats the key %q in %s; a key may appear only once.", name, key, describeJSONPath(top.path))}
			}
			top.keys[key] = struct{}{}
			top.wantKey = false
			top.lastKey = key
			continue
		}

		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(stack) >= maxJSONDepth {
					return &DecodeError{Code: CodeMalformed, Msg: name + " nests deeper than any pack does."}
				}
				f := &jsonFrame{object: t == '{', wantKey: t == '{'}
				if f.object {
					f.keys = map[string]struct{}{}
				}
				if top != nil {
					f.path = top.childPath()
					f.countThis = !f.object && len(stack) == 1 && top.object && top.lastKey == "artifacts"
				}
				stack = append(stack, f)
			case '}', ']':
				stack = stack[:len(stack)-1]
				if derr := valueDone(); derr != nil {
					return derr
				}
			}
		default:
			if derr := valueDone(); derr != nil {
				return derr
			}
		}
	}
}

// childPath names a container opened inside f, for messages.
func (f *jsonFrame) childPath() string {
	if !f.object {
		return f.path + "[]"
	}
	if f.path == "" {
		return f.lastKey
	}
	return f.path + "." + f.lastKey
}

func describeJSONPath(p string) string {
	if p == "" {
		return "the top-level object"
	}
	return "the object at " + strings.TrimPrefix(p, ".")
}
