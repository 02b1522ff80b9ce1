package ship

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/ghx/sandbox/vsigstore"
	"github.com/aayudha/aayu/proof/sigstore"
)

// attested is the bot-identity demo with the founder's review as the pass,
// the base branch (dev) requiring an attestation when require is true, and
// the qualifying run's pack attested with the claims edit makes in place
// of the run's seeded attestation (sign false: none at all). ship trusts
// the sandbox's virtual Sigstore.
func attested(t *testing.T, require bool, edit func(*vsigstore.Claims), sign bool) (*fixture, Config) {
	t.Helper()
	f := newBotFixture(t)
	f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
	if require {
		f.baseConfig("[proof]\n", "[proof]\nrequire_attestation = true\n")
	}
	if sign {
		if err := f.srv.AttestRunPack(f.srv.RunID(sandbox.RunQualifying), edit); err != nil {
			t.Fatal(err)
		}
	} else if err := f.srv.UnattestRunPack(f.srv.RunID(sandbox.RunQualifying)); err != nil {
		t.Fatal(err)
	}
	cfg := f.config("founder")
	cfg.TrustedRoot = func() (*sigstore.TrustedRoot, error) { return f.srv.TrustedRoot(), nil }
	return f, cfg
}

// shipRefused ships the demo's ready pull request and wants a refusal
// whose words include want, with nothing merged.
func shipRefused(t *testing.T, f *fixture, cfg Config, want string) {
	t.Helper()
	res, events, err := f.ship(cfg, sandbox.DemoPRReady)
	if err != nil {
		t.Fatalf("ship failed instead of refusing: %v", err)
	}
	if res.ExitCode != ExitRefused || res.Merged {
		t.Fatalf("exit %d, merged %v, refusals %q; want exit 4 and nothing merged", res.ExitCode, res.Merged, res.Refusals)
	}
	if !mentions(res, events, want) {
		t.Errorf("no refusal says %q:\nrefusals %q\npassed over %v", want, res.Refusals, res.Passed)
	}
}

// TestShipRefusesTheGateOfAnotherBaseBranchT4 reproduces the seeds' T4: a
// pull request into another branch, carrying an edited copy of the gate,
// produces a successful pull_request_target run and an attestation for the
// same head. GitHub's run record cannot tell the two gates apart; the
// certificate can, and ship refuses because it names the other branch.
// Without the attestation check this ship merges (the pack, the run and
// the pass are all in order).
func TestShipRefusesTheGateOfAnotherBaseBranchT4(t *testing.T) {
	t.Parallel()
	f, cfg := attested(t, true, func(c *vsigstore.Claims) { c.Ref = "refs/heads/evil-base" }, true)
	shipRefused(t, f, cfg, "names the merge gate at refs/heads/evil-base, not at the pull request's base branch dev")
}

func TestShipRefusesAnUnattestedPackWhenTheBaseRequiresOne(t *testing.T) {
	t.Parallel()
	f, cfg := attested(t, true, nil, false)
	shipRefused(t, f, cfg, "no attestation signs its pack.json")
}

func TestShipRefusesWhenNoTrustedRootCanCheckTheAttestation(t *testing.T) {
	t.Parallel()
	f, cfg := attested(t, true, nil, true)
	cfg.TrustedRoot = nil
	res, _, err := f.ship(cfg, sandbox.DemoPRReady)
	if err == nil || !strings.Contains(err.Error(), "no Sigstore trusted root") || res.Merged {
		t.Fatalf("err %v, merged %v; want a failure naming the missing trusted root", err, res.Merged)
	}
}

func TestShipRefusesARequireAttestationTurnedOffBySet(t *testing.T) {
	t.Parallel()
	f, cfg := attested(t, true, nil, false)
	cfg.Local.Set = []string{"proof.require_attestation=false"}
	shipRefused(t, f, cfg, "sets proof.require_attestation")
}

// TestShipRefusesAnAttestationThatDoesNotNameTheGate: one ship per way an
// attestation can fail to be the base branch gate's, each named after its
// refusal.
func TestShipRefusesAnAttestationThatDoesNotNameTheGate(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		edit func(*vsigstore.Claims)
		want string
	}{
		{"made in another repository", func(c *vsigstore.Claims) { c.Repository = "mallory/benefits" }, "made in another repository"},
		{"signed by another workflow", func(c *vsigstore.Claims) { c.WorkflowPath = ".github/workflows/release.yml" }, "signed by another workflow (.github/workflows/release.yml)"},
		{"the gate at another ref", func(c *vsigstore.Claims) { c.Ref = "refs/heads/main" }, "names the merge gate at refs/heads/main"},
		{"made by a pull_request run", func(c *vsigstore.Claims) { c.Event = "pull_request" }, `made by a "pull_request" run, not pull_request_target`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f, cfg := attested(t, true, tc.edit, true)
			shipRefused(t, f, cfg, tc.want)
		})
	}
}

// TestShipRecordsWhoSignedThePack: with the gate's own attestation the
// ship merges, its pack gate names the signer, and ship.json carries the
// certificate's SAN and the log index.
func TestShipRecordsWhoSignedThePack(t *testing.T) {
	t.Parallel()
	f, cfg := attested(t, true, nil, true)
	res, events, err := f.ship(cfg, sandbox.DemoPRReady)
	if err != nil || res.ExitCode != ExitShipped || !res.Merged {
		t.Fatalf("exit %d, merged %v, err %v, refusals %q, passed %v", res.ExitCode, res.Merged, err, res.Refusals, res.Passed)
	}
	san := "https://github.com/acme/benefits/.github/workflows/aayudha-merge-gate.yml@refs/heads/dev"
	if !mentions(res, events, "attested, signed by "+san) {
		t.Errorf("the pack gate does not name the signer; last events %v", lastEvent(events))
	}
	var rec ShipRecord
	if err := json.Unmarshal(res.ShipRecord, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Attestation == nil || rec.Attestation.SAN != san || rec.Attestation.LogIndex == nil {
		t.Errorf("ship.json's attestation %+v", rec.Attestation)
	}
}

// TestShipSaysAPackIsUnattestedWhenNotRequired: off, an unattested pack
// still ships, and ship says so.
func TestShipSaysAPackIsUnattestedWhenNotRequired(t *testing.T) {
	t.Parallel()
	f, cfg := attested(t, false, nil, false)
	res, events, err := f.ship(cfg, sandbox.DemoPRReady)
	if err != nil || !res.Merged {
		t.Fatalf("exit %d, merged %v, err %v, refusals %q", res.ExitCode, res.Merged, err, res.Refusals)
	}
	if !mentions(res, events, "pack is unattested") {
		t.Errorf("ship did not say the pack is unattested")
	}
}
