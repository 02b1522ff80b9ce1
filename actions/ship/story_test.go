package ship

import (
	"reflect"
	"testing"

	"github.com/google/go-github/v66/github"
)

// TestStoryLabelsSetsMergedInOneWrite: the Story's labels once shipped,
// written in one request that replaces the set: every other status and
// the lease go, status:merged comes on, every other label stays; a Story
// that already reads so needs no write.
func TestStoryLabelsSetsMergedInOneWrite(t *testing.T) {
	t.Parallel()
	of := func(names ...string) []*github.Label {
		var out []*github.Label
		for _, n := range names {
			out = append(out, &github.Label{Name: github.String(n)})
		}
		return out
	}
	cases := []struct {
		now, labels, done []string
	}{
		{[]string{"type:story", "status:building", "aayu:lease", "area:pay"}, []string{"type:story", "area:pay", "status:merged"},
			[]string{"removed status:building", "removed aayu:lease", "labelled status:merged"}},
		{[]string{"Status:Review", "status:merged", "type:story"}, []string{"status:merged", "type:story"}, []string{"removed Status:Review"}},
		{[]string{"type:story", "status:merged"}, []string{"type:story", "status:merged"}, nil},
		{nil, []string{"status:merged"}, []string{"labelled status:merged"}},
		{[]string{"Status:Merged", "AAYU:Lease"}, []string{"Status:Merged"}, []string{"removed AAYU:Lease"}},
	}
	for _, c := range cases {
		labels, done := storyLabels(of(c.now...))
		if !reflect.DeepEqual(labels, c.labels) || !reflect.DeepEqual(done, c.done) {
			t.Errorf("storyLabels(%q) = %q, %q; want %q, %q", c.now, labels, done, c.labels, c.done)
		}
	}
}
