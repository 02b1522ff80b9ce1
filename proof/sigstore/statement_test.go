package sigstore

import "testing"

// sameJSON decides when the signed predicate is taken as the expected
// document (pack.json) without being scanned or decoded (statementReads,
// then proof/attest's statementIsPack), so each way two documents can
// differ must make it false, and only whitespace between tokens may differ.
func TestSameJSONIgnoresOnlyTheWhitespaceBetweenTokens(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		a, b string
		same bool
	}{
		{`{"a":1,"b":[true,null]}`, "{\n  \"a\": 1,\n  \"b\": [\r\n\ttrue, null ]\n}\n", true},
		{`{"a":"x y"}`, `{"a":"x y"}`, true},
		{`{"a":"x y"}`, `{"a":"xy"}`, false},      // a space inside a string is content
		{`{"a":"x y"}`, `{"a": "x  y"}`, false},   // so is a second one
		{`{"a":"\" b"}`, `{"a":"\"b"}`, false},    // after an escaped quote, still inside the string
		{`{"a":"\\"}`, `{"a": "\\" }`, true},      // an escaped backslash ends nothing
		{`{"a":"\u003c"}`, `{"a":"<"}`, false},    // another spelling is another token
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`, false}, // keys in another order
		{`{"a":1}`, `{"a":1,"b":2}`, false},       // one is a prefix of the other
		{`{"a":1,"b":2}`, `{"a":1}`, false},       // and the other way
		{`{"a":10}`, `{"a":1}`, false},            // a number's digits
		{`{"a":1.0}`, `{"a":1}`, false},           // the same number spelt otherwise
		{`{"a":[]}`, `{"a":null}`, false},         // an empty list is not null
		{`[1,2]`, `[12]`, false},                  // tokens do not run together
		{`[12]`, `[1 2]`, false},                  // nor come apart
		{`{"a":true}`, `{"a":tr ue}`, false},      // inside a literal, a space is not JSON
		{`{"a":"x","b":1}`, `{"a":"x" ,"b" : 1 }`, true},
		{"", "", true},
	} {
		if got := sameJSON([]byte(c.a), []byte(c.b)); got != c.same {
			t.Errorf("sameJSON(%s, %s) = %v, want %v", c.a, c.b, got, c.same)
		}
		if got := sameJSON([]byte(c.b), []byte(c.a)); got != c.same {
			t.Errorf("sameJSON(%s, %s) = %v, want %v", c.b, c.a, got, c.same)
		}
	}
}

func TestSplitPredicateCutsOutTheOneTopLevelPredicate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		payload, rest, pred string
		ok                  bool
	}{
		{`{"_type":"t","predicate":{"a":[1,2]},"predicateType":"p"}`, `{"_type":"t","predicate":{},"predicateType":"p"}`, `{"a":[1,2]}`, true},
		{"{\"predicate\" :\n {\"a\":1} }\n", "{\"predicate\" :\n {} }\n", `{"a":1}`, true},
		{`{"predicate":{"a":1},"predicate":{"a":1}}`, "", "", false},                                                             // named twice
		{`{"subject":[{"predicate":{"a":1}}]}`, "", "", false},                                                                   // only nested
		{`[{"predicate":{"a":1}}]`, "", "", false},                                                                               // not an object
		{`{"predicate":{"a":1}`, "", "", false},                                                                                  // cut short
		{`{"a":"\"predicate\"","predicate":[1,{"b":"]}\\"}]}`, `{"a":"\"predicate\"","predicate":{}}`, `[1,{"b":"]}\\"}]`, true}, // brackets and quotes inside strings
		{`{"predicate":"}{","x":1}`, `{"predicate":{},"x":1}`, `"}{"`, true},
		{`{"predicate":true}`, `{"predicate":{}}`, `true`, true},
		{`{"predicate":{"a":1}} x`, "", "", false}, // something after the object
		{`{"predicate" {"a":1}}`, "", "", false},   // no colon
		{`{}`, "", "", false},                      // no predicate
	} {
		rest, pred, ok := splitPredicate([]byte(c.payload), nil)
		if ok != c.ok || string(rest) != c.rest || string(pred) != c.pred {
			t.Errorf("splitPredicate(%s) = %s, %s, %v; want %s, %s, %v", c.payload, rest, pred, ok, c.rest, c.pred, c.ok)
		}
	}
}

// TestSplitPredicateWithAnExpectedPredicateTakesOnlyThatOne: the
// predicate is compared with the expected document as it is found, so a
// predicate that is not it, or is it with more after, is no split at all
// (statementReads then decodes the whole payload).
func TestSplitPredicateWithAnExpectedPredicateTakesOnlyThatOne(t *testing.T) {
	t.Parallel()
	want := []byte(`{"a":[1,"x y"]}`)
	for _, c := range []struct {
		payload, rest, pred string
		ok                  bool
	}{
		{`{"_type":"t","predicate":{"a":[1,"x y"]},"predicateType":"p"}`, `{"_type":"t","predicate":{},"predicateType":"p"}`, `{"a":[1,"x y"]}`, true},
		{"{\"predicate\" : { \"a\" : [ 1 , \"x y\" ] } }", `{"predicate" : {} }`, `{ "a" : [ 1 , "x y" ] }`, true},
		{`{"predicate":{"a":[1,"x  y"]}}`, "", "", false}, // another string
		{`{"predicate":{"a":[12,"x y"]}}`, "", "", false}, // another number
		{`{"predicate":{"a":[1,"x y"]}1}`, "", "", false}, // more after it
		{`{"predicate":{"a":[1,"x y"],"b":2}}`, "", "", false},
		{`{"predicate":{"a":[1,"x y"]},"predicate":{"a":[1,"x y"]}}`, "", "", false}, // named twice
	} {
		rest, pred, ok := splitPredicate([]byte(c.payload), want)
		if ok != c.ok || string(rest) != c.rest || string(pred) != c.pred {
			t.Errorf("splitPredicate(%s, %s) = %s, %s, %v; want %s, %s, %v", c.payload, want, rest, pred, ok, c.rest, c.pred, c.ok)
		}
	}
}
