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
	if json.Valid(data) {
		// Well-formed JSON, the only kind a pack that verifies holds, is
		// walked over its bytes without a value or key allocated; only
		// malformed JSON goes through encoding/json's tokens, whose words
		// for the syntax error are the ones shown. Both walks refuse the
		// same things in the same order and words (jsonscan_test.go).
		return scanValidJSON(data, name, maxArtifacts)
	}
	return scanJSONTokens(data, name, maxArtifacts)
}

// scanJSONTokens is scanJSON through encoding/json's tokens.
func scanJSONTokens(data []byte, name string, maxArtifacts int) *DecodeError {
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

// rawFrame is one open object or array while scanning well-formed JSON.
type rawFrame struct {
	object    bool
	keysFrom  int                 // where this object's keys start in rawScan.keys
	keyMap    map[string]struct{} // this object's keys once it has many
	lastKey   []byte              // the raw key whose value comes next
	countThis bool
	items     int
}

// rawKeysLinear is how many keys of one object are compared one by one
// before they go into a map: packs' objects have a dozen at most, and a
// document of a hundred thousand keys in one object stays linear in time.
const rawKeysLinear = 16

// scanValidJSON is scanJSONTokens for data json.Valid accepts: the same
// checks over the bytes, keys compared as they stand in the document (as
// decoded only when one holds an escape or a non-ASCII byte).
func scanValidJSON(data []byte, name string, maxArtifacts int) *DecodeError {
	var (
		stack []rawFrame
		keys  [][]byte
	)
	valueDone := func() *DecodeError {
		if len(stack) == 0 {
			return nil
		}
		top := &stack[len(stack)-1]
		if top.countThis && maxArtifacts >= 0 {
			top.items++
			if top.items > maxArtifacts {
				return &DecodeError{Code: CodeTooLarge, Msg: fmt.Sprintf(
					"%s lists more than %d artifacts, the most aayu reads.", name, maxArtifacts)}
			}
		}
		return nil
	}
	i := 0
	for {
		for i < len(data) && (data[i] == ' ' || data[i] == '\t' || data[i] == '\n' || data[i] == '\r' || data[i] == ',' || data[i] == ':') {
			i++
		}
		if i >= len(data) {
			return nil
		}
		switch c := data[i]; c {
		case '{', '[':
			if len(stack) >= maxJSONDepth {
				return &DecodeError{Code: CodeMalformed, Msg: name + " nests deeper than any pack does."}
			}
			f := rawFrame{object: c == '{', keysFrom: len(keys)}
			if n := len(stack); n > 0 {
				top := &stack[n-1]
				f.countThis = !f.object && n == 1 && top.object && rawKeyIs(top.lastKey, "artifacts")
			}
			stack = append(stack, f)
			i++
		case '}', ']':
			top := &stack[len(stack)-1]
			if top.object {
				keys = keys[:top.keysFrom]
			}
			stack = stack[:len(stack)-1]
			i++
			if derr := rawValueDone(stack, valueDone); derr != nil {
				return derr
			}
		case '"':
			end := i + 1
			for data[end] != '"' {
				if data[end] == '\\' {
					end++
				}
				end++
			}
			str := data[i+1 : end]
			i = end + 1
			if n := len(stack); n > 0 && stack[n-1].object && stack[n-1].lastKey == nil {
				// A key: an object's entries alternate key, value, and
				// lastKey is cleared once the value is done.
				top := &stack[n-1]
				if rawKeySeen(top, keys[top.keysFrom:], str) {
					return &DecodeError{Code: CodeDuplicateKey, Msg: fmt.Sprintf(
						"%s repeats the key %q in %s; a key may appear only once.", name, decodeRawKey(str), describeJSONPath(rawPath(stack)))}
				}
				if top.keyMap != nil {
					top.keyMap[decodeRawKey(str)] = struct{}{}
				} else {
					keys = append(keys, str)
				}
				top.lastKey = str
				continue
			}
			if derr := rawValueDone(stack, valueDone); derr != nil {
				return derr
			}
		default: // a number, true, false or null
			for i < len(data) && !endsLiteral(data[i]) {
				i++
			}
			if derr := rawValueDone(stack, valueDone); derr != nil {
				return derr
			}
		}
	}
}

// rawValueDone ends a value: an object it was in wants its next key (a
// nil lastKey), an array counts it.
func rawValueDone(stack []rawFrame, valueDone func() *DecodeError) *DecodeError {
	if n := len(stack); n > 0 && stack[n-1].object {
		stack[n-1].lastKey = nil
	}
	return valueDone()
}

func endsLiteral(c byte) bool {
	switch c {
	case ',', ':', ']', '}', ' ', '\t', '\r', '\n':
		return true
	}
	return false
}

// rawKeySeen says key is already among this object's keys, moving them to
// a map once there are many.
func rawKeySeen(top *rawFrame, keys [][]byte, key []byte) bool {
	if top.keyMap != nil {
		_, ok := top.keyMap[decodeRawKey(key)]
		return ok
	}
	for _, k := range keys {
		if rawKeysEqual(k, key) {
			return true
		}
	}
	if len(keys) >= rawKeysLinear {
		top.keyMap = make(map[string]struct{}, 2*len(keys))
		for _, k := range keys {
			top.keyMap[decodeRawKey(k)] = struct{}{}
		}
	}
	return false
}

// plainKey is a key whose bytes are its text: no escape, nothing but ASCII.
func plainKey(b []byte) bool {
	for _, c := range b {
		if c == '\\' || c >= 0x80 {
			return false
		}
	}
	return true
}

func rawKeysEqual(a, b []byte) bool {
	if plainKey(a) && plainKey(b) {
		return bytes.Equal(a, b)
	}
	return decodeRawKey(a) == decodeRawKey(b)
}

func rawKeyIs(raw []byte, key string) bool {
	if plainKey(raw) {
		return string(raw) == key
	}
	return decodeRawKey(raw) == key
}

// decodeRawKey is a key's text as encoding/json reads it (escapes undone,
// invalid UTF-8 replaced), so keys compare as the token walk compares them.
func decodeRawKey(raw []byte) string {
	if plainKey(raw) {
		return string(raw)
	}
	quoted := make([]byte, 0, len(raw)+2)
	quoted = append(append(append(quoted, '"'), raw...), '"')
	var s string
	_ = json.Unmarshal(quoted, &s) // raw came from a document json.Valid accepted
	return s
}

// rawPath is the top frame's path as jsonFrame.childPath builds it.
func rawPath(stack []rawFrame) string {
	path := ""
	for _, f := range stack[:len(stack)-1] {
		switch {
		case !f.object:
			path += "[]"
		case path == "":
			path = decodeRawKey(f.lastKey)
		default:
			path += "." + decodeRawKey(f.lastKey)
		}
	}
	return path
}
