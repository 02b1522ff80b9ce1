package proof

import (
	"strings"
	"testing"
	"time"
)

// TestEvidenceMapRefusesDeepNestingBeforeParsing: an agent-written
// evidence map of nested inline tables is refused at once, in words.
func TestEvidenceMapRefusesDeepNestingBeforeParsing(t *testing.T) {
	n := 4000
	if MaxEvidenceMapBytes < 8*n {
		n = MaxEvidenceMapBytes/8 - 4
	}
	doc := "[[criterion]]\nid = 1\nx = " + strings.Repeat("{a=", n) + "1" + strings.Repeat("}", n) + "\n"
	start := time.Now()
	_, err := LoadEvidenceMap([]byte(doc))
	if err == nil || !strings.Contains(err.Error(), "nests tables or lists more than 32 deep") {
		t.Fatalf("want a refusal of the nesting, got %v", err)
	}
	if took := time.Since(start); took > 100*time.Millisecond {
		t.Errorf("refusing it took %v", took)
	}
}
