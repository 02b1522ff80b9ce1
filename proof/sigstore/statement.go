package sigstore

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
)

// Statement is an in-toto Statement's type, predicate type and subjects,
// read as leniently as sigstore-go's summary reads them.
type Statement struct {
	Type          string `json:"_type"`
	PredicateType string `json:"predicateType"`
	Subject       []struct {
		Name   string            `json:"name"`
		Digest map[string]string `json:"digest"`
	} `json:"subject"`
	// SamePredicate is whether the predicate is, token for token, the
	// document the caller said it expects (VerifyExpecting); Rest is then
	// the payload with the predicate's value written {}, for the caller's
	// own reads of the Statement at the size of what is left.
	SamePredicate bool   `json:"-"`
	Rest          []byte `json:"-"`
}

// Digests lists the digests the Statement's subjects give for algorithm
// alg ("sha256", "gitCommit").
func (st *Statement) Digests(alg string) []string {
	var out []string
	for _, s := range st.Subject {
		if d := s.Digest[alg]; d != "" {
			out = append(out, d)
		}
	}
	return out
}

// statementReads holds the payload to what sigstore-go reads of a
// Statement before it returns: an in-toto payload type and a JSON object
// whose type, predicate type and subjects have their JSON types.
//
// The predicate is most of the payload (a pack.json of 1,000 artifacts).
// When it is expected, a well-formed document the caller holds, and the
// payload's predicate is it token for token (sameJSON), the predicate is
// well-formed without a scan of its own, and what the summary reads is
// decoded from the rest alone: the same answer, since a Statement's
// summary has no field the predicate fills. Anything else, a refusal
// above all, is decoded whole, as sigstore-go does, for its words.
func statementReads(env *Envelope, expected []byte) (*Statement, error) {
	if env.PayloadType != InTotoPayloadType {
		return nil, fmt.Errorf("unsupported DSSE payload type: %s", env.PayloadType)
	}
	if expected != nil {
		if rest, _, ok := splitPredicate(env.Payload, expected); ok {
			var st Statement
			if json.Unmarshal(rest, &st) == nil {
				st.SamePredicate, st.Rest = true, rest
				return &st, nil
			}
		}
	}
	var st Statement
	if err := json.Unmarshal(env.Payload, &st); err != nil {
		return nil, fmt.Errorf("parsing in-toto statement: %w", err)
	}
	return &st, nil
}

// splitPredicate finds the value of the Statement's top-level "predicate"
// key in one pass: it returns the payload with that value replaced by {}
// (the rest, which the strict reads then cover at its own size) and the
// value's bytes. ok is false when the payload is not one JSON object or
// names predicate other than once, or, expected not nil, when the value is
// not expected token for token (sameJSON): it is then compared as it is
// found, not found first and compared after.
func splitPredicate(payload, expected []byte) (rest, pred []byte, ok bool) {
	// A byte scan, not a decoder: the predicate is most of the payload
	// (pack.json, 1,000 artifacts), and encoding/json read it three times
	// over (the token read, RawMessage's validity check and its copy). What
	// this scan does not check, the callers do: the predicate is held to
	// the expected document by sameJSON (tokens and the whitespace between
	// them), the rest by the decode of it (and the caller's strict reads).
	start, end, ok := memberSpan(payload, "predicate", expected)
	if !ok {
		return nil, nil, false
	}
	return slices.Concat(payload[:start], []byte("{}"), payload[end:]), payload[start:end], true
}

// memberSpan finds, in one pass over doc's bytes, where the value of
// doc's member key starts and ends; ok is false when doc is not one JSON
// object (spaces around it aside) or names key other than once, by the
// same bytes (an escape is another spelling), or, want not nil, when that
// value is not want token for token. It finds where values end; it does
// not check that they are well-formed, which is its callers' to do.
func memberSpan(doc []byte, key string, want []byte) (start, end int, ok bool) {
	i := skipJSONSpace(doc, 0)
	if i >= len(doc) || doc[i] != '{' {
		return 0, 0, false
	}
	start, end = -1, -1
	for i = skipJSONSpace(doc, i+1); ; i = skipJSONSpace(doc, i+1) {
		kEnd := skipJSONValue(doc, i)
		if kEnd < 0 || doc[i] != '"' {
			return 0, 0, false
		}
		k := doc[i+1 : kEnd-1]
		i = skipJSONSpace(doc, kEnd)
		if i >= len(doc) || doc[i] != ':' {
			return 0, 0, false
		}
		i = skipJSONSpace(doc, i+1)
		var vEnd int
		if want != nil && string(k) == key {
			vEnd = sameJSONPrefix(doc, i, want)
		} else {
			vEnd = skipJSONValue(doc, i)
		}
		if vEnd < 0 {
			return 0, 0, false
		}
		if string(k) == key {
			if start >= 0 {
				return 0, 0, false
			}
			start, end = i, vEnd
		}
		i = skipJSONSpace(doc, vEnd)
		if i >= len(doc) || (doc[i] != ',' && doc[i] != '}') {
			return 0, 0, false
		}
		if doc[i] == '}' {
			break
		}
	}
	if start < 0 || skipJSONSpace(doc, i+1) != len(doc) {
		return 0, 0, false
	}
	return start, end, true
}

func skipJSONSpace(b []byte, i int) int {
	for i < len(b) && isJSONSpace(b[i]) {
		i++
	}
	return i
}

// skipJSONValue returns the index just past the value that starts at i
// (a string, an object or array with its brackets balanced, or a literal
// up to the next structural byte or space), or -1 if there is none. It
// finds where a value ends; it does not check the value is well-formed.
func skipJSONValue(b []byte, i int) int {
	if i >= len(b) {
		return -1
	}
	switch b[i] {
	case '"':
		// Most strings (a bundle's base64 above all) have no escape: the
		// closing quote is then the first, found a word at a time.
		if k := bytes.IndexByte(b[i+1:], '"'); k >= 0 && bytes.IndexByte(b[i+1:i+1+k], '\\') < 0 {
			return i + 1 + k + 1
		}
		for j := i + 1; j < len(b); j++ {
			switch b[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(b); j++ {
			switch b[j] {
			case '"':
				e := skipJSONValue(b, j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	}
	j := i
	for j < len(b) && !isJSONSpace(b[j]) && !isJSONStructural(b[j]) {
		j++
	}
	if j == i {
		return -1
	}
	return j
}

func isJSONStructural(c byte) bool {
	return c == '{' || c == '}' || c == '[' || c == ']' || c == ',' || c == ':'
}

// sameJSON reports whether a and b, both well-formed JSON, are the same
// tokens in the same order: equal byte for byte once the whitespace between
// tokens is left out (a string's own bytes, escapes included, must match).
func sameJSON(a, b []byte) bool {
	e := sameJSONPrefix(a, 0, b)
	return e >= 0 && skipJSONSpace(a, e) == len(a)
}

// sameJSONPrefix is where, in a, the tokens from a[i] on that are b's
// tokens (sameJSON) end: the index just past the last, or -1 when a from i
// does not begin with b's tokens.
func sameJSONPrefix(a []byte, i int, b []byte) int {
	j := 0
	var prev byte // the last byte compared outside a string's inside; 0 at the start
	for {
		end := i
		i0, j0 := i, j
		i, j = skipJSONSpace(a, i), skipJSONSpace(b, j)
		// Whitespace is only allowed beside a structural byte (or at
		// either end): between two bytes of one literal, or two
		// literals, it would make a document that is not JSON look
		// like one that is (splitPredicate does not check this).
		if (i > i0 || j > j0) && prev != 0 && !isJSONStructural(prev) &&
			i < len(a) && j < len(b) && !isJSONStructural(a[i]) {
			return -1
		}
		switch {
		case j == len(b):
			return end
		case i == len(a):
			return -1
		}
		c := a[i]
		if c != b[j] {
			return -1
		}
		prev = c
		i++
		j++
		if c == '"' {
			// A string, through its closing quote, is compared as one run
			// of bytes (most of a pack.json is strings: paths, digests).
			e := skipJSONValue(a, i-1)
			if e < 0 { // no closing quote
				if bytes.Equal(a[i:], b[j:]) {
					return len(a)
				}
				return -1
			}
			n := e - i
			if len(b)-j < n || !bytes.Equal(a[i:e], b[j:j+n]) {
				return -1
			}
			i, j = e, j+n
		}
	}
}

func isJSONSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }
