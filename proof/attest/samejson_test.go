package attest

import "testing"

func TestTopLevelStringReadsTheKeyOfTheOuterObjectOnly(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		doc, want string
		ok        bool
	}{
		{`{"repo":"a/b","pr_head_sha":"abc"}`, "abc", true},
		{`{"authority":{"pr_head_sha":"inner"},"pr_head_sha":"outer"}`, "outer", true},
		{`{"authority":{"pr_head_sha":"inner"}}`, "", false},
		{`{"pr_head_sha":7}`, "", false},
		{`["pr_head_sha","abc"]`, "", false},
	} {
		got, ok := topLevelString([]byte(c.doc), "pr_head_sha")
		if got != c.want || ok != c.ok {
			t.Errorf("topLevelString(%s) = %q, %v, want %q, %v", c.doc, got, ok, c.want, c.ok)
		}
	}
}
