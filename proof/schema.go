package proof

import (
	_ "embed"
	"fmt"
)

// packSchemaV1JSON is the pack schema, version 1: the contract every
// version-1 pack.json meets, published with aayu. validatePackV1 checks
// it by hand; schemav1_test.go holds the two to agreement.
//
//go:embed schema/pack.v1.json
var packSchemaV1JSON []byte

// schemaFor returns the check of one pack schema version: every place a
// document breaks it, none when it meets it.
func schemaFor(version int) (func([]byte) []string, error) {
	switch version {
	case 1:
		return validatePackV1, nil
	default:
		return nil, fmt.Errorf("no schema for pack version %d", version)
	}
}
