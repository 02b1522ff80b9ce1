package proof

import (
	"strings"
	"testing"
)

// TestCheckJSONRefusesARepeatedKeyAndTrailingData: the strict scan pack.json
// gets, for any document read from outside (the attestation's Statement).
func TestCheckJSONRefusesARepeatedKeyAndTrailingData(t *testing.T) {
	t.Parallel()
	if err := CheckJSON([]byte(`{"a":{"b":1},"c":[{"b":2,"d":3}]}`), "doc"); err != nil {
		t.Fatalf("a well-formed document is refused: %v", err)
	}
	for in, want := range map[string]string{
		`{"a":1,"a":2}`:       `repeats the key "a"`,
		`{"a":{"b":1,"b":1}}`: `repeats the key "b"`,
		`{"a":1} {}`:          "doc",
	} {
		if err := CheckJSON([]byte(in), "doc"); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: got %v, want a refusal saying %q", in, err, want)
		}
	}
}
