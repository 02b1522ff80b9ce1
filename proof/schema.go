package proof

import (
	"bytes"
	_ "embed"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

//go:embed schema/pack.v1.json
var packSchemaV1JSON []byte

// compiledPackSchemaV1 compiles the embedded schema once; the result never
// changes, so sharing it is safe.
var compiledPackSchemaV1 = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(packSchemaV1JSON))
	if err != nil {
		return nil, fmt.Errorf("reading the embedded pack schema: %w", err)
	}
	const url = "pack.v1.json"
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	// Draft 2020-12 makes format an annotation only; asserted, a created_at
	// of "yesterday\u001b[2J" is refused rather than carried to a screen.
	c.AssertFormat()
	if err := c.AddResource(url, doc); err != nil {
		return nil, fmt.Errorf("loading the embedded pack schema: %w", err)
	}
	s, err := c.Compile(url)
	if err != nil {
		return nil, fmt.Errorf("compiling the embedded pack schema: %w", err)
	}
	return s, nil
})

// schemaFor returns the compiled schema of one pack schema version.
func schemaFor(version int) (*jsonschema.Schema, error) {
	switch version {
	case 1:
		return compiledPackSchemaV1()
	default:
		return nil, fmt.Errorf("no schema for pack version %d", version)
	}
}
