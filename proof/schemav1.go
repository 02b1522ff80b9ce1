package proof

import (
	"encoding/json"
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// validatePackV1 checks pack.json against schema/pack.v1.json, the JSON
// Schema (draft 2020-12, formats asserted) every version-1 pack must meet,
// walking the document's bytes: no generic tree is built, and a pack that
// meets the schema costs no allocation per artifact beyond a number or a
// string with an escape. It returns every place the document breaks the
// schema, each "/JSON/pointer: what is wrong", in document order; none when
// it meets it. It accepts exactly what a JSON Schema validator of the
// embedded schema accepts: schemav1_test.go holds it to one
// (santhosh-tekuri/jsonschema, a test-only dependency) on the seeds, on
// every way of breaking each field the tests know, and under fuzzing.
//
// data must be well-formed JSON with no repeated key, as scanPackJSON
// leaves it; anything else is reported, never a panic.
func validatePackV1(data []byte) []string {
	w := &schemaWalk{data: data}
	i := w.ws(0)
	w.root(i)
	return w.errs
}

type schemaWalk struct {
	data []byte
	errs []string
	path []pathSeg // where the value being checked is
}

// pathSeg is one step of where the walk is: a member's key (decoded) or,
// when key is nil, an array index.
type pathSeg struct {
	key   []byte
	index int
}

// at is the JSON pointer of the value being checked, built only when
// something there is wrong.
func (w *schemaWalk) at() string {
	if len(w.path) == 0 {
		return "/"
	}
	var b strings.Builder
	for _, seg := range w.path {
		b.WriteByte('/')
		if seg.key != nil {
			b.Write(seg.key)
		} else {
			b.WriteString(strconv.Itoa(seg.index))
		}
	}
	return b.String()
}

func (w *schemaWalk) fail(format string, args ...any) {
	w.errs = append(w.errs, w.at()+": "+fmt.Sprintf(format, args...))
}

// ws skips white space from i.
func (w *schemaWalk) ws(i int) int {
	for i < len(w.data) {
		switch w.data[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// end is where the value starting at i ends (one past its last byte), or
// -1 when the bytes there are no value.
func (w *schemaWalk) end(i int) int {
	d := w.data
	if i >= len(d) {
		return -1
	}
	switch d[i] {
	case '"':
		for j := i + 1; j < len(d); j++ {
			switch d[j] {
			case '\\':
				j++
			case '"':
				return j + 1
			}
		}
		return -1
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				e := w.end(j)
				if e < 0 {
					return -1
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1
				}
			}
		}
		return -1
	default:
		j := i
		for j < len(d) && !endsLiteral(d[j]) {
			j++
		}
		if j == i {
			return -1
		}
		return j
	}
}

// jsonKind names the JSON type of the value starting at i, as a schema's
// "type" does.
func (w *schemaWalk) kind(i int) string {
	switch w.data[i] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	default:
		return "number"
	}
}

// members calls fn for each member of the object at i, with its decoded key
// and where its value starts and ends.
func (w *schemaWalk) members(i int, fn func(key []byte, vs, ve int)) bool {
	d := w.data
	i = w.ws(i + 1)
	if i < len(d) && d[i] == '}' {
		return true
	}
	for i < len(d) {
		ke := w.end(i)
		if d[i] != '"' || ke < 0 {
			break
		}
		key := d[i+1 : ke-1]
		i = w.ws(ke)
		if i >= len(d) || d[i] != ':' {
			break
		}
		vs := w.ws(i + 1)
		ve := w.end(vs)
		if ve < 0 {
			break
		}
		fn(key, vs, ve)
		i = w.ws(ve)
		if i < len(d) && d[i] == ',' {
			i = w.ws(i + 1)
			continue
		}
		if i < len(d) && d[i] == '}' {
			return true
		}
		break
	}
	w.fail("is not a well-formed JSON object")
	return false
}

// items calls fn for each item of the array at i.
func (w *schemaWalk) items(i int, fn func(n, vs, ve int)) bool {
	d := w.data
	i = w.ws(i + 1)
	if i < len(d) && d[i] == ']' {
		return true
	}
	for n := 0; i < len(d); n++ {
		ve := w.end(i)
		if ve < 0 {
			break
		}
		fn(n, i, ve)
		i = w.ws(ve)
		if i < len(d) && d[i] == ',' {
			i = w.ws(i + 1)
			continue
		}
		if i < len(d) && d[i] == ']' {
			return true
		}
		break
	}
	w.fail("is not a well-formed JSON array")
	return false
}

// text is the string value at [s, e) as a JSON decoder reads it: escapes
// undone, invalid UTF-8 replaced. A string of plain ASCII is its own bytes.
func (w *schemaWalk) text(s, e int) []byte {
	raw := w.data[s+1 : e-1]
	plain := true
	for _, c := range raw {
		if c == '\\' || c >= utf8.RuneSelf || c < 0x20 {
			plain = false
			break
		}
	}
	if plain {
		return raw
	}
	var str string
	if err := json.Unmarshal(w.data[s:e], &str); err != nil {
		return raw
	}
	return []byte(str)
}

// ---- the schema, keyword by keyword

func (w *schemaWalk) wantType(s int, want string) bool {
	got := w.kind(s)
	if got == want || want == "number" && got == "number" {
		return true
	}
	if want == "integer" && got == "number" {
		return true // integral or not: checked by integer
	}
	w.fail("is %s, not %s", article(got), article(want))
	return false
}

func article(kind string) string {
	switch kind {
	case "object", "array", "integer":
		return "an " + kind
	case "null":
		return "null"
	}
	return "a " + kind
}

// str checks a string: its length in characters and pattern (nil: none).
func (w *schemaWalk) str(s, e, minLen, maxLen int, pattern func([]byte) bool, patternText string) {
	if !w.wantType(s, "string") {
		return
	}
	t := w.text(s, e)
	n := utf8.RuneCount(t)
	if n < minLen {
		w.fail("is %d characters long; at least %d are needed", n, minLen)
	}
	if maxLen >= 0 && n > maxLen {
		w.fail("is %d characters long; at most %d are allowed", n, maxLen)
	}
	if pattern != nil && !pattern(t) {
		w.fail("%s does not match %s", strconv.Quote(clipText(string(t))), patternText)
	}
}

// enum checks the value is one of the strings allowed.
func (w *schemaWalk) enum(s, e int, allowed ...string) {
	if w.kind(s) == "string" {
		t := w.text(s, e)
		for _, a := range allowed {
			if string(t) == a {
				return
			}
		}
		w.fail("%s is not one of %s", strconv.Quote(clipText(string(t))), quoteAll(allowed))
		return
	}
	w.fail("is %s; it must be one of %s", article(w.kind(s)), quoteAll(allowed))
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}

var (
	ratZero     = new(big.Rat)
	ratOne      = big.NewRat(1, 1)
	ratMaxInt32 = big.NewRat(2147483647, 1)
	ratMaxID    = big.NewRat(100000, 1)
	ratMaxSafe  = new(big.Rat).SetInt64(9007199254740991)
)

// number reads the number at [s, e) exactly, as the schema compares it.
// A plain integer of up to 18 digits, nearly every number in a pack, is
// read without big arithmetic.
func (w *schemaWalk) number(s, e int) (small int64, isSmall bool, r *big.Rat) {
	raw := w.data[s:e]
	digits := raw
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) > 0 && len(digits) <= 18 {
		plain := true
		for _, c := range digits {
			if c < '0' || c > '9' {
				plain = false
				break
			}
		}
		if plain {
			n, err := strconv.ParseInt(string(raw), 10, 64)
			if err == nil {
				return n, true, nil
			}
		}
	}
	r, ok := new(big.Rat).SetString(string(raw))
	if !ok {
		return 0, false, nil
	}
	return 0, false, r
}

// num checks a number (integer: whole) within [lo, hi] (nil: unbounded).
func (w *schemaWalk) num(s, e int, integer bool, lo, hi *big.Rat) {
	want := "number"
	if integer {
		want = "integer"
	}
	if !w.wantType(s, want) {
		return
	}
	small, isSmall, r := w.number(s, e)
	if !isSmall && r == nil {
		w.fail("%s is not a number", strconv.Quote(clipText(string(w.data[s:e]))))
		return
	}
	if integer && !isSmall && !r.IsInt() {
		w.fail("%s is not a whole number", w.data[s:e])
	}
	cmp := func(b *big.Rat) int {
		if isSmall && b.IsInt() && b.Num().IsInt64() {
			bn := b.Num().Int64()
			switch {
			case small < bn:
				return -1
			case small > bn:
				return 1
			}
			return 0
		}
		x := r
		if isSmall {
			x = new(big.Rat).SetInt64(small)
		}
		return x.Cmp(b)
	}
	if lo != nil && cmp(lo) < 0 {
		w.fail("%s is less than %s", w.data[s:e], lo.RatString())
	}
	if hi != nil && cmp(hi) > 0 {
		w.fail("%s is more than %s", w.data[s:e], hi.RatString())
	}
}

// object checks an object: each member by fn (false: a property the
// schema does not allow), then the required ones. It returns which of
// them are present, bit k for required[k].
func (w *schemaWalk) object(s int, required []string, fn func(key []byte, vs, ve int) bool) (present uint32, ok bool) {
	if !w.wantType(s, "object") {
		return 0, false
	}
	var extra []string
	w.members(s, func(key []byte, vs, ve int) {
		if !plainKey(key) {
			key = []byte(decodeRawKey(key))
		}
		for k, r := range required {
			if string(key) == r {
				present |= 1 << k
				break
			}
		}
		w.path = append(w.path, pathSeg{key: key})
		known := fn(key, vs, ve)
		w.path = w.path[:len(w.path)-1]
		if !known {
			extra = append(extra, string(key))
		}
	})
	if len(extra) > 0 {
		w.fail("has %s, which schema version 1 does not allow", pluralWord(len(extra), "the property", "the properties")+" "+quoteAll(clipAll(extra)))
	}
	var missing []string
	for k, r := range required {
		if present&(1<<k) == 0 {
			missing = append(missing, r)
		}
	}
	if len(missing) > 0 {
		w.fail("is missing %s", pluralWord(len(missing), "the property", "the properties")+" "+quoteAll(missing))
	}
	return present, true
}

func pluralWord(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func clipAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = clipText(s)
	}
	return out
}

// array checks an array of at most maxItems (-1: any) items, each by fn.
func (w *schemaWalk) array(s, maxItems int, fn func(vs, ve int)) {
	if !w.wantType(s, "array") {
		return
	}
	count := 0
	w.items(s, func(n, vs, ve int) {
		count++
		w.path = append(w.path, pathSeg{index: n})
		fn(vs, ve)
		w.path = w.path[:len(w.path)-1]
	})
	if maxItems >= 0 && count > maxItems {
		w.fail("has %d items; at most %d are allowed", count, maxItems)
	}
}

func (w *schemaWalk) root(s int) {
	if s >= len(w.data) {
		w.fail("is empty")
		return
	}
	w.object(s, []string{"schema_version", "repo", "story", "pr_head_sha", "seat", "host", "identity",
		"authority", "completion_goal_hash", "criteria", "artifacts", "checks", "cost", "links", "created_at"},
		func(key []byte, vs, ve int) bool {
			switch string(key) {
			case "schema_version":
				w.constOne(vs, ve)
			case "repo":
				w.str(vs, ve, 0, 200, isRepoName, "OWNER/NAME")
			case "story", "pr":
				w.num(vs, ve, true, ratOne, ratMaxInt32)
			case "pr_head_sha", "base_sha":
				w.str(vs, ve, 0, -1, isGitSHA, "a commit SHA (40 or 64 lowercase hex digits)")
			case "checkpoint":
				w.str(vs, ve, 0, -1, isCheckpoint, "N/M (1 to 4 digits each)")
			case "seat", "host", "model":
				w.str(vs, ve, 0, 200, nil, "")
			case "identity":
				w.enum(vs, ve, "bot", "human", "human-fallback", "ci")
			case "authority":
				w.authority(vs, ve)
			case "completion_goal_hash":
				w.str(vs, ve, 0, -1, isSHA256Bytes, "a SHA-256 (64 lowercase hex digits)")
			case "footprint":
				w.array(vs, 99, func(vs, ve int) {
					w.str(vs, ve, 0, -1, isFootprintLine, "L and two digits")
				})
			case "criteria":
				w.array(vs, -1, w.criterion)
			case "artifacts":
				w.array(vs, -1, w.artifact)
			case "checks":
				w.array(vs, -1, w.check)
			case "cost":
				w.cost(vs, ve)
			case "links":
				w.links(vs, ve)
			case "created_at":
				w.dateTime(vs, ve)
			case "warnings":
				w.array(vs, 100, w.warning)
			default:
				return false
			}
			return true
		})
}

// constOne is "const": 1, which any number equal to one meets (1.0, 1e0).
func (w *schemaWalk) constOne(s, e int) {
	if w.kind(s) == "number" {
		small, isSmall, r := w.number(s, e)
		if isSmall && small == 1 || r != nil && r.Cmp(ratOne) == 0 {
			return
		}
	}
	w.fail("must be 1")
}

func (w *schemaWalk) dateTime(s, e int) {
	w.str(s, e, 0, 64, isDateTime, "an RFC 3339 date-time")
}

func (w *schemaWalk) relPath(s, e int) {
	w.str(s, e, 1, 1024, isRelPath, `a relative path (no leading "/", no backslash)`)
}

func (w *schemaWalk) warning(s, _ int) {
	w.object(s, []string{"name", "detail"}, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "name":
			w.str(vs, ve, 1, 100, nil, "")
		case "detail":
			w.str(vs, ve, 0, 20000, nil, "")
		default:
			return false
		}
		return true
	})
}

func (w *schemaWalk) authority(s, _ int) {
	w.object(s, []string{"kind"}, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "kind":
			w.enum(vs, ve, "advisory", "authoritative")
		case "workflow":
			w.str(vs, ve, 0, 500, nil, "")
		case "run_id":
			w.num(vs, ve, true, ratOne, nil)
		case "writer":
			w.str(vs, ve, 0, 200, nil, "")
		default:
			return false
		}
		return true
	})
}

func (w *schemaWalk) criterion(s, _ int) {
	w.object(s, []string{"id", "evidence"}, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "id":
			w.num(vs, ve, true, ratOne, ratMaxID)
		case "evidence":
			w.array(vs, -1, w.relPath)
		default:
			return false
		}
		return true
	})
}

func (w *schemaWalk) artifact(s, _ int) {
	var store []byte
	storeIsString, object := false, false
	present, ok := w.object(s, []string{"path", "kind", "sha256", "size", "store"}, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "path":
			w.relPath(vs, ve)
		case "kind":
			w.enum(vs, ve, "screenshot", "recording", "sr-transcript", "api-trace", "metric", "report")
		case "sha256":
			w.str(vs, ve, 0, -1, isSHA256Bytes, "a SHA-256 (64 lowercase hex digits)")
		case "size":
			w.num(vs, ve, true, ratZero, ratMaxSafe)
		case "store":
			w.enum(vs, ve, "git", "none", "bucket", "lfs")
			if w.kind(vs) == "string" {
				store, storeIsString = w.text(vs, ve), true
			}
		case "object":
			object = true
			w.str(vs, ve, 1, 1024, nil, "")
		case "tombstone":
			w.tombstone(vs, ve)
		default:
			return false
		}
		return true
	})
	// "if": {"properties": {"store": {"const": "bucket"}}}, "then":
	// {"required": ["object"]}: the if holds when store is absent too.
	const storeBit = 1 << 4
	if ok && (present&storeBit == 0 || storeIsString && string(store) == StoreBucket) && !object {
		w.fail(`is kept in the media bucket but names no "object"`)
	}
}

func (w *schemaWalk) tombstone(s, _ int) {
	w.object(s, []string{"purged_at", "reason"}, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "purged_at":
			w.dateTime(vs, ve)
		case "reason":
			w.str(vs, ve, 0, 1000, nil, "")
		default:
			return false
		}
		return true
	})
}

func (w *schemaWalk) check(s, _ int) {
	w.object(s, []string{"floor", "result"}, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "floor":
			w.str(vs, ve, 1, 100, nil, "")
		case "result":
			w.enum(vs, ve, "pass", "fail", "skipped", "waived", "blocked")
		case "value", "threshold":
			w.num(vs, ve, false, nil, nil)
		case "tool":
			w.str(vs, ve, 0, 500, nil, "")
		case "version":
			w.str(vs, ve, 0, 200, nil, "")
		case "detail":
			w.str(vs, ve, 0, 20000, nil, "")
		case "network":
			w.enum(vs, ve, "isolated", "not isolated")
		default:
			return false
		}
		return true
	})
}

func (w *schemaWalk) cost(s, _ int) {
	w.object(s, []string{"tokens_in", "tokens_out", "usd"}, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "tokens_in", "tokens_out":
			w.num(vs, ve, true, ratZero, nil)
		case "usd":
			w.num(vs, ve, false, ratZero, nil)
		default:
			return false
		}
		return true
	})
}

func (w *schemaWalk) links(s, _ int) {
	w.object(s, nil, func(key []byte, vs, ve int) bool {
		switch string(key) {
		case "issue", "pr", "ready_snapshot":
			w.str(vs, ve, 0, 500, nil, "")
		default:
			return false
		}
		return true
	})
}

// ---- the schema's patterns and its one format, by hand

func isLowerHexBytes(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// isSHA256Bytes is ^[0-9a-f]{64}$.
func isSHA256Bytes(b []byte) bool { return len(b) == 64 && isLowerHexBytes(b) }

// isGitSHA is ^[0-9a-f]{40}([0-9a-f]{24})?$.
func isGitSHA(b []byte) bool { return (len(b) == 40 || len(b) == 64) && isLowerHexBytes(b) }

func isAlnum(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
}

// isRepoName is ^[A-Za-z0-9][A-Za-z0-9-]*/[A-Za-z0-9._-]+$.
func isRepoName(b []byte) bool {
	slash := -1
	for i, c := range b {
		if c == '/' {
			slash = i
			break
		}
	}
	if slash < 1 || slash == len(b)-1 || !isAlnum(b[0]) {
		return false
	}
	for _, c := range b[1:slash] {
		if !isAlnum(c) && c != '-' {
			return false
		}
	}
	for _, c := range b[slash+1:] {
		if !isAlnum(c) && c != '.' && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// isCheckpoint is ^[0-9]{1,4}/[0-9]{1,4}$.
func isCheckpoint(b []byte) bool {
	digits := func(d []byte) bool {
		if len(d) < 1 || len(d) > 4 {
			return false
		}
		for _, c := range d {
			if c < '0' || c > '9' {
				return false
			}
		}
		return true
	}
	for i, c := range b {
		if c == '/' {
			return digits(b[:i]) && digits(b[i+1:])
		}
	}
	return false
}

// isFootprintLine is ^L[0-9]{2}$.
func isFootprintLine(b []byte) bool {
	return len(b) == 3 && b[0] == 'L' && '0' <= b[1] && b[1] <= '9' && '0' <= b[2] && b[2] <= '9'
}

// isRelPath is ^[^/\\][^\\]*$ (the string is valid UTF-8, as decoded).
func isRelPath(b []byte) bool {
	if len(b) == 0 || b[0] == '/' || b[0] == '\\' {
		return false
	}
	for _, c := range b {
		if c == '\\' {
			return false
		}
	}
	return true
}

// isDateTime is the date-time format as asserted by the JSON Schema
// validator the schema is held to: RFC 3339, "T" or "t" between date and
// time, a leap second only at 23:59 UTC. It follows that validator's checks
// step by step (santhosh-tekuri/jsonschema v6 format.go, Apache-2.0), so
// the two agree on every string.
func isDateTime(b []byte) bool {
	s := string(b)
	if len(s) < 20 || s[10] != 't' && s[10] != 'T' {
		return false
	}
	if _, err := time.Parse("2006-01-02", s[:10]); err != nil {
		return false
	}
	return isRFC3339Time(s[11:])
}

func isRFC3339Time(str string) bool {
	if len(str) < 9 || str[2] != ':' || str[5] != ':' {
		return false
	}
	var hms [3]int
	for k, tok := range strings.SplitN(str[:8], ":", 3) {
		n, err := strconv.Atoi(tok)
		if err != nil || n < 0 {
			return false
		}
		hms[k] = n
	}
	h, m, sec := hms[0], hms[1], hms[2]
	if h > 23 || m > 59 || sec > 60 {
		return false
	}
	str = str[8:]
	if rem, ok := strings.CutPrefix(str, "."); ok {
		n := 0
		for n < len(rem) && '0' <= rem[n] && rem[n] <= '9' {
			n++
		}
		if n == 0 {
			return false
		}
		str = rem[n:]
	}
	if str != "z" && str != "Z" {
		if len(str) != 6 {
			return false
		}
		var sign int
		switch str[0] {
		case '+':
			sign = -1
		case '-':
			sign = +1
		default:
			return false
		}
		str = str[1:]
		if str[2] != ':' {
			return false
		}
		var zhm [2]int
		for k, tok := range strings.SplitN(str, ":", 2) {
			n, err := strconv.Atoi(tok)
			if err != nil || n < 0 {
				return false
			}
			zhm[k] = n
		}
		if zhm[0] > 23 || zhm[1] > 59 {
			return false
		}
		hm := (h*60 + m) + sign*(zhm[0]*60+zhm[1])
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	return sec < 60 || h == 23 && m == 59
}
