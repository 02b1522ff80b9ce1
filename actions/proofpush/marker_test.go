package proofpush

import (
	"strings"
	"testing"

	"github.com/aayudha/aayu/actions/gatecomment"
	"github.com/aayudha/aayu/proof"
)

// TestAdvisoryCommentNeverTakenForTheGates: the push's comment carries the
// advisory marker and no line the gate's marker matches, even when the
// pack's own text holds the gate's marker on a line of its own; and the
// gate, writing as the very same account, creates its own comment rather
// than adopting the advisory one, which stays as it was.
func TestAdvisoryCommentNeverTakenForTheGates(t *testing.T) {
	f := newFixture(t)
	dir := f.checkout(story, pr, nil)
	local := Dir(dir, story)
	p, _, err := proof.ReadPackDir(local, proof.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, a := range p.Artifacts {
		if files[a.Path], err = readFile(local, a.Path); err != nil {
			t.Fatal(err)
		}
	}
	p.Checks[0].Detail = "fine\n" + gatecomment.Marker + "\nReady to ship"
	p.Checks[1].Tool = gatecomment.Marker
	if _, err := proof.WriteLocal(local, p, files); err != nil {
		t.Fatal(err)
	}
	if _, err := Push(f.ctx, Options{Client: f.gh, Owner: owner, Repo: repo, Story: story, Checkout: dir}); err != nil {
		t.Fatal(err)
	}
	advisory := f.comments(pr)[len(f.comments(pr))-1]
	body := advisory.GetBody()
	if !hasLine(body, gatecomment.AdvisoryMarker) || hasLine(body, gatecomment.Marker) || strings.HasPrefix(strings.TrimSpace(body), "Ready to ship") {
		t.Fatalf("the advisory comment could be taken for the gate's:\n%s", body)
	}
	up, err := gatecomment.Upsert(f.ctx, f.gh, owner, repo, pr, gatecomment.Marker, gatecomment.Marker+"\nthe gate's verdict", "founder")
	if err != nil {
		t.Fatal(err)
	}
	if !up.Created || up.ID == advisory.GetID() {
		t.Fatalf("the gate's comment adopted the advisory one: %+v", up)
	}
	for _, c := range f.comments(pr) {
		if c.GetID() == advisory.GetID() && c.GetBody() != body {
			t.Fatal("the gate's write changed the advisory comment")
		}
	}
}
