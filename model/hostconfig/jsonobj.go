package hostconfig

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
)

// object is a JSON object that keeps its keys in the order the file has
// them and every value it does not change byte for byte (a value aayu
// never reads is never re-encoded), so merging aayu's entries into a
// person's settings keeps everything else they wrote.
type object struct{ members []member }

type member struct {
	key string
	val json.RawMessage
}

// parseObject reads b as one JSON object and nothing after it. A key given
// twice is refused: the hosts' parsers disagree on which one wins, and a
// guard must not depend on that.
func parseObject(b []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return nil, describeJSON(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("it is not a JSON object")
	}
	o := &object{}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, describeJSON(err)
		}
		key, _ := tok.(string) // inside an object the decoder yields only string keys
		if seen[key] {
			return nil, fmt.Errorf("the key %q appears twice", key)
		}
		seen[key] = true
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, describeJSON(err)
		}
		o.members = append(o.members, member{key, raw})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, describeJSON(err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errors.New("more text follows the JSON object")
	}
	return o, nil
}

// describeJSON says what the JSON reader stopped at, with the offset when
// it knows it.
func describeJSON(err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return fmt.Errorf("not valid JSON at byte %d (%v)", se.Offset, se)
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return errors.New("not valid JSON: it ends early")
	}
	return fmt.Errorf("not valid JSON (%v)", err)
}

func (o *object) get(key string) (json.RawMessage, bool) {
	for _, m := range o.members {
		if m.key == key {
			return m.val, true
		}
	}
	return nil, false
}

// set replaces key's value where it stands, or adds it at the end.
func (o *object) set(key string, val json.RawMessage) {
	for i, m := range o.members {
		if m.key == key {
			o.members[i].val = val
			return
		}
	}
	o.members = append(o.members, member{key, val})
}

// child is the object under key: a new empty one when key is absent, an
// error naming path when key holds something else.
func (o *object) child(key, path string) (*object, error) {
	raw, ok := o.get(key)
	if !ok {
		return &object{}, nil
	}
	c, err := parseObject(raw)
	if err != nil {
		return nil, fmt.Errorf("%s is not an object as the host documents it (%v)", path, err)
	}
	return c, nil
}

// array is the JSON array under key: nil when absent, an error naming
// path when key holds something else.
func (o *object) array(key, path string) ([]json.RawMessage, error) {
	raw, ok := o.get(key)
	if !ok {
		return nil, nil
	}
	var arr []json.RawMessage
	if err := json.Unmarshal(raw, &arr); err != nil {
		return nil, fmt.Errorf("%s is not an array as the host documents it", path)
	}
	return arr, nil
}

// compact is o as one line of JSON, its members in order.
func (o *object) compact() json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i, m := range o.members {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(encode(m.key))
		buf.WriteByte(':')
		buf.Write(m.val)
	}
	buf.WriteByte('}')
	return buf.Bytes()
}

// file is o as a settings file: indented by two spaces, as the hosts'
// own examples are, ending in a newline.
func (o *object) file() []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, o.compact(), "", "  "); err != nil {
		// Every member was read as valid JSON or encoded by encode.
		panic("hostconfig: indenting a valid object: " + err.Error())
	}
	out.WriteByte('\n')
	return out.Bytes()
}

// encode is v as JSON, with <, > and & left as they are (they are not
// HTML here, and a person's own keys should read as they wrote them).
func encode(v any) json.RawMessage {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic("hostconfig: encoding " + fmt.Sprintf("%T", v) + ": " + err.Error())
	}
	return bytes.TrimRight(buf.Bytes(), "\n")
}

// rawArray is arr as one JSON array.
func rawArray(arr []json.RawMessage) json.RawMessage {
	var buf bytes.Buffer
	buf.WriteByte('[')
	for i, v := range arr {
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(v)
	}
	buf.WriteByte(']')
	return buf.Bytes()
}
