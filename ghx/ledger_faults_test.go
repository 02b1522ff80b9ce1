package ghx_test

import (
	"context"
	"errors"
	"fmt"
	"os/exec"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
)

// TestCommitFilesLandsUnderHeavyFaults: seven rounds, each on a sandbox
// that answers 30% of requests with a 5xx and drops 10% mid-body. Every
// round's files land in exactly one commit, as the real git binary shows.
func TestCommitFilesLandsUnderHeavyFaults(t *testing.T) {
	t.Parallel()
	for round := 1; round <= 7; round++ {
		t.Run(fmt.Sprintf("round %d", round), func(t *testing.T) {
			env := startSandbox(t, envConfig{sandbox: sandbox.Options{StateDir: t.TempDir(),
				Faults: sandbox.FaultSpec{ServerError: 0.3, Drop: 0.1, Seed: uint64(round)}}})
			before := env.srv.BranchSHA("ledger")
			path := fmt.Sprintf("proof/3/round-%d/authoritative/ship.json", round)
			body := fmt.Sprintf(`{"pr":4,"round":%d}`+"\n", round)
			sha, err := ghx.CommitFiles(context.Background(), env.client, owner, repo, "ledger",
				map[string][]byte{path: []byte(body), fmt.Sprintf("proof/3/round-%d/authoritative/pack.json", round): []byte("{}\n")},
				"ledger: round", ghx.CommitOptions{})
			if err != nil {
				t.Fatalf("the record did not land: %v", err)
			}
			out, err := exec.Command("git", "--git-dir", env.srv.GitDir(), "show", "ledger:"+path).CombinedOutput()
			if err != nil || string(out) != body {
				t.Fatalf("git show %s: %v %q", path, err, out)
			}
			count, _ := exec.Command("git", "--git-dir", env.srv.GitDir(), "rev-list", "--count", before+".."+sha).CombinedOutput()
			if strings.TrimSpace(string(count)) != "1" {
				t.Errorf("the record took %s commits, want 1", strings.TrimSpace(string(count)))
			}
		})
	}
}

// TestCommitFilesStopsWhenTheRecordIsAlreadyThere: Unless sees, at the
// tip, that another run landed the same record; nothing is written twice.
func TestCommitFilesStopsWhenTheRecordIsAlreadyThere(t *testing.T) {
	t.Parallel()
	env := startSandbox(t, envConfig{sandbox: sandbox.Options{StateDir: t.TempDir()}})
	ctx := context.Background()
	files := map[string][]byte{"proof/3/x/authoritative/ship.json": []byte("{}\n")}
	unless := func(ctx context.Context, tip string) (bool, error) {
		_, err := ghx.ReadFile(ctx, env.client, owner, repo, tip, "proof/3/x/authoritative/ship.json")
		if ghx.IsNotFound(err) {
			return false, nil
		}
		return err == nil, err
	}
	first, err := ghx.CommitFiles(ctx, env.client, owner, repo, "ledger", files, "ledger: first", ghx.CommitOptions{Unless: unless})
	if err != nil {
		t.Fatal(err)
	}
	tip, err := ghx.CommitFiles(ctx, env.client, owner, repo, "ledger", files, "ledger: second", ghx.CommitOptions{Unless: unless})
	if !errors.Is(err, ghx.ErrAlreadyThere) || tip != first || env.srv.BranchSHA("ledger") != first {
		t.Fatalf("second landing: tip %s err %v; want ErrAlreadyThere at %s", tip, err, first)
	}
}
