package proof

// CheckJSON refuses in any JSON document read from outside what
// encoding/json would quietly accept, as pack.json's own decode does: a key
// repeated in one object (Go keeps the last; other readers may keep the
// first), data after the document, and nesting deeper than any pack needs.
// name names the document in the refusal. Well-formed JSON is walked over
// its bytes without a value or key allocated.
func CheckJSON(data []byte, name string) error {
	if derr := scanJSON(data, name, -1); derr != nil {
		return derr
	}
	return nil
}
