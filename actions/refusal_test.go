package actions_test

import (
	"errors"
	"testing"

	"github.com/aayudha/aayu/actions/decide"
	"github.com/aayudha/aayu/actions/plan"
	"github.com/aayudha/aayu/actions/ready"
	"github.com/aayudha/aayu/model/exitcode"
)

// TestEveryActionRefusesWithTheOneRefusalType: plan, ready and decide each
// declared a Refusal of their own (issue #21), so a caller that knew one did
// not recognise the others' refusals and could report a refusal (exit 4) as a
// failure (exit 1). Each action's refusal is now exitcode.Refusal.
func TestEveryActionRefusesWithTheOneRefusalType(t *testing.T) {
	t.Parallel()
	for name, err := range map[string]error{
		"plan":   &plan.Refusal{Reason: "r"},
		"ready":  &ready.Refusal{Reason: "r"},
		"decide": &decide.Refusal{Reason: "r"},
	} {
		var r *exitcode.Refusal
		if !errors.As(err, &r) || r.Reason != "r" {
			t.Errorf("%s's refusal is not an exitcode.Refusal", name)
		}
	}
}
