package inboxread_test

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/inboxread"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/model/inbox"
)

// mergeCards are the merge housekeeping cards Derive finds: kind, item
// and the merged pull requests each names.
func mergeCards(snap inbox.Snapshot) []string {
	var out []string
	for _, st := range inbox.Derive(snap) {
		if st.Kind == inbox.KindMergedWithoutShip || st.Kind == inbox.KindBugFixMerged {
			out = append(out, fmt.Sprintf("%s %v", st.ID(), st.Links))
		}
	}
	return out
}

// TestReadMergesFindsTheInboxsMergeCardsWithoutActionsOrGraphQL: on the
// demo, Derive over ReadMerges finds exactly the Story merged without ship
// and the Bug whose fix merged that Derive over a full Read finds, and
// ReadMerges asks neither the Actions API nor GraphQL, which the loops'
// App token (contents, issues and pull requests) may not read.
func TestReadMergesFindsTheInboxsMergeCardsWithoutActionsOrGraphQL(t *testing.T) {
	t.Parallel()
	f := start(t, sandbox.Options{ShareSeed: true}, "founder")
	want := mergeCards(read(t, f.reader))
	if len(want) != 2 || !strings.HasPrefix(want[0], id(inbox.KindMergedWithoutShip, sandbox.DemoStoryMergedNoShip)) ||
		!strings.HasPrefix(want[1], id(inbox.KindBugFixMerged, sandbox.DemoBug)) {
		t.Fatalf("the demo's full read finds %v", want)
	}
	w := &wire{next: http.DefaultTransport}
	r := inboxread.New(clientFor(t, f.base, "agent-bot", w), owner, repo, inboxread.Options{Viewer: "agent-bot[bot]"})
	snap, err := r.ReadMerges(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if got := mergeCards(snap); !reflect.DeepEqual(got, want) {
		t.Errorf("ReadMerges finds %v; Read finds %v", got, want)
	}
	_, _, paths := w.take()
	for _, p := range paths {
		if strings.Contains(p, "/actions/") || strings.Contains(p, "/graphql") || strings.HasSuffix(p, " /user") {
			t.Errorf("ReadMerges asked %s", p)
		}
	}
}
