package packbuild

import (
	"context"
	"fmt"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
)

// The builder's own trailers on the head commit: Aayudha-Checkpoint says
// which checkpoint of its plan the commit is (seed 000's pack field
// checkpoint, "n/N from the Aayudha-Checkpoint trailer"), Aayudha-Model
// which model built it (the pack's model, "the builder model, when
// known"). Both are the agent's word, recorded, never certified.
const (
	CheckpointTrailer = "Aayudha-Checkpoint"
	ModelTrailer      = "Aayudha-Model"
)

// The forms the pack schema accepts (proof/schema/pack.v1.json: checkpoint
// ^[0-9]{1,4}/[0-9]{1,4}$, model at most 200 characters), the model kept
// to a model name's characters so no agent text reaches a reader.
var (
	checkpointShape = lazyre.New(`^[0-9]{1,4}/[0-9]{1,4}$`)
	modelShape      = lazyre.New(`^[A-Za-z0-9][A-Za-z0-9._:/@+-]{0,199}$`)
)

// builderTrailers reads the head commit's Aayudha-Checkpoint and
// Aayudha-Model trailers, git's own trailer parsing deciding what is a
// trailer; the last of each wins, and a value of the wrong form is left
// out ("" for either when absent).
func (r *runner) builderTrailers(ctx context.Context) (checkpoint, model string, err error) {
	read := func(key string) (string, error) {
		out, err := r.t.git(ctx, r.req.Dir, "log", "-1", "--format=%(trailers:key="+key+",valueonly,unfold)", r.head)
		if err != nil {
			return "", fmt.Errorf("reading the %s trailer of %s: %w", key, r.head, err)
		}
		lines := strings.Split(strings.TrimSpace(string(out)), "\n")
		return strings.TrimSpace(lines[len(lines)-1]), nil
	}
	if checkpoint, err = read(CheckpointTrailer); err != nil {
		return "", "", err
	}
	if model, err = read(ModelTrailer); err != nil {
		return "", "", err
	}
	if !checkpointShape().MatchString(checkpoint) {
		checkpoint = ""
	}
	if !modelShape().MatchString(model) {
		model = ""
	}
	return checkpoint, model, nil
}
