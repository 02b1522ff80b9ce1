package vsigstore

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
)

// ActionsStatement is the in-toto Statement actions/attest makes from its
// inputs subject-path, predicate-type and predicate-path: one subject, the
// file's base name and sha256, and the predicate file parsed as JSON.
func ActionsStatement(subjectName string, subject []byte, predicateType string, predicate []byte) ([]byte, error) {
	if !json.Valid(predicate) {
		return nil, fmt.Errorf("the predicate is not JSON")
	}
	sum := sha256.Sum256(subject)
	st := struct {
		Type          string          `json:"_type"`
		Subject       []any           `json:"subject"`
		PredicateType string          `json:"predicateType"`
		Predicate     json.RawMessage `json:"predicate"`
	}{
		Type:          "https://in-toto.io/Statement/v1",
		Subject:       []any{map[string]any{"name": subjectName, "digest": map[string]string{"sha256": hex.EncodeToString(sum[:])}}},
		PredicateType: predicateType,
		Predicate:     predicate,
	}
	return json.Marshal(st)
}
