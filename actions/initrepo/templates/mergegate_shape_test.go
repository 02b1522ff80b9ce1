package templates

import (
	"fmt"
	"strings"
	"testing"

	"go.yaml.in/yaml/v3"
)

// TestMergeGateShape: the tests job checks out the head and runs aayu
// verify --raw-out with no token, uploading aayudha-raw; the pack job
// downloads it and runs aayu verify --ci --from-raw, uploading
// aayudha-pack; the comment job never checks out, downloads the pack,
// runs aayu comment --ci even when the jobs before it failed, with
// pull-requests: write and statuses: write.
func TestMergeGateShape(t *testing.T) {
	type step struct {
		ID   string            `yaml:"id"`
		Uses string            `yaml:"uses"`
		Run  string            `yaml:"run"`
		With map[string]any    `yaml:"with"`
		Env  map[string]string `yaml:"env"`
		Dir  string            `yaml:"working-directory"`
	}
	var wf struct {
		Jobs map[string]struct {
			Name        string            `yaml:"name"`
			Needs       any               `yaml:"needs"`
			If          string            `yaml:"if"`
			Permissions map[string]string `yaml:"permissions"`
			Outputs     map[string]string `yaml:"outputs"`
			Steps       []step            `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal([]byte(MergeGate), &wf); err != nil {
		t.Fatal(err)
	}
	joined := func(steps []step) string {
		var b strings.Builder
		for _, s := range steps {
			fmt.Fprintf(&b, "%s|%s|%v|%v\n", s.Uses, s.Run, s.With, s.Env)
		}
		return b.String()
	}
	tj, pj, cj := wf.Jobs["tests"], wf.Jobs["pack"], wf.Jobs["comment"]
	ts, ps, cs := joined(tj.Steps), joined(pj.Steps), joined(cj.Steps)
	for _, want := range []string{"actions/checkout@", "github.event.pull_request.head.sha", `aayu verify "$AAYU_STORY" --raw-out "$RUNNER_TEMP/aayudha-raw"`,
		"actions/upload-artifact@", "name:aayudha-raw", "fix/*", "aayu/revert-*",
		// The web floor's recordings need ffmpeg, installed in the job that runs the floor.
		`".aayudha/evidence/$AAYU_STORY.toml"`, "apt-get install -y -qq ffmpeg"} {
		if !strings.Contains(ts, want) {
			t.Errorf("tests job lacks %q:\n%s", want, ts)
		}
	}
	for _, bad := range []string{"github.token", "GITHUB_TOKEN", "aayudha-pack", "--ci"} {
		if strings.Contains(ts, bad) {
			t.Errorf("tests job, which runs the pull request's code, holds %q:\n%s", bad, ts)
		}
	}
	for _, want := range []string{"actions/download-artifact@", "name:aayudha-raw", `--from-raw "$RUNNER_TEMP/aayudha-raw"`, `aayu verify "$AAYU_STORY" --ci`,
		"actions/upload-artifact@", "name:aayudha-pack", "path:${{ runner.temp }}/aayudha-pack/", `--pack-out "$RUNNER_TEMP/aayudha-pack"`,
		"git init --bare", `fetch --no-tags`,
		"retention-days:${{ steps.pack.outputs.retention_days }}"} {
		if !strings.Contains(ps, want) {
			t.Errorf("pack job lacks %q:\n%s", want, ps)
		}
	}
	for _, want := range []string{"actions/download-artifact@", "name:aayudha-pack", "path:.aayudha/proof/${{ env.AAYU_STORY }}/", `aayu comment "$PR_NUMBER" --ci`} {
		if !strings.Contains(cs, want) {
			t.Errorf("comment job lacks %q:\n%s", want, cs)
		}
	}
	// The pack is kept for [proof] retention_days: the days come from the
	// step that built it, which reads the base branch's policy.
	for _, s := range pj.Steps {
		if strings.Contains(s.Run, "aayu verify") && s.ID != "pack" {
			t.Errorf("the pack job's verify step has id %q; the upload's retention-days reads steps.pack.outputs", s.ID)
		}
		// The signing job has no working tree of the pull request: verify
		// reads the commits in the bare repository the fetch made.
		if strings.Contains(s.Run, "aayu verify") && s.Dir != "${{ runner.temp }}/aayudha-commits.git" {
			t.Errorf("the pack job's verify step runs in %q, not the bare repository under runner.temp", s.Dir)
		}
	}
	if strings.Contains(ps, "actions/checkout") {
		t.Errorf("the pack job, which signs, checks out a working tree:\n%s", ps)
	}
	// aayu comment refuses --dir outside --dry-run: the run's own pack,
	// downloaded where aayu reads a story's pack, is the only one it judges.
	if strings.Contains(cs, "--dir") {
		t.Errorf("the comment job passes --dir, which aayu comment --ci refuses:\n%s", cs)
	}
	if strings.Contains(cs, "actions/checkout") {
		t.Error("the comment job checks out code; it must read only the pack artifact")
	}
	// inspect reads the pack artifact and the pull request's files through
	// the API only, may only read, and hands its judgement to comment.
	ij := wf.Jobs["inspect"]
	is := joined(ij.Steps)
	for _, want := range []string{"actions/download-artifact@", "name:aayudha-pack", `aayu inspect "$PR_NUMBER" --ci`, "AAYUDHA_REVIEWER_KEY:${{ secrets.AAYUDHA_REVIEWER_KEY }}",
		"actions/upload-artifact@", "name:aayudha-inspect"} {
		if !strings.Contains(is, want) {
			t.Errorf("inspect job lacks %q:\n%s", want, is)
		}
	}
	if strings.Contains(is, "actions/checkout") || strings.Contains(is, "git ") {
		t.Errorf("the inspect job has the pull request's files on disk:\n%s", is)
	}
	for k, v := range ij.Permissions {
		if v != "read" {
			t.Errorf("inspect job can %s %s; it may only read", v, k)
		}
	}
	if fmt.Sprint(ij.Needs) != "[tests pack]" || !strings.Contains(cs, "name:aayudha-inspect") {
		t.Errorf("inspect needs %v; the comment job reads aayudha-inspect: %v", ij.Needs, strings.Contains(cs, "name:aayudha-inspect"))
	}
	if pj.Needs != "tests" || fmt.Sprint(cj.Needs) != "[tests pack inspect]" || !strings.Contains(cj.If, "!cancelled()") {
		t.Errorf("needs: pack %v, comment %v if %q", pj.Needs, cj.Needs, cj.If)
	}
	if len(tj.Permissions) != 1 || tj.Permissions["contents"] != "read" {
		t.Errorf("tests job permissions %v, want contents: read only", tj.Permissions)
	}
	// The pack job signs: exactly id-token and attestations are written,
	// everything else only read; no other job holds either.
	for k, v := range pj.Permissions {
		signing := (k == "id-token" || k == "attestations") && v == "write"
		if v != "read" && !signing {
			t.Errorf("pack job can %s %s", v, k)
		}
	}
	if pj.Permissions["id-token"] != "write" || pj.Permissions["attestations"] != "write" {
		t.Errorf("pack job permissions %v: it cannot attest the pack", pj.Permissions)
	}
	for id, j := range wf.Jobs {
		if _, ok := j.Permissions["id-token"]; ok && id != "pack" {
			t.Errorf("job %s holds id-token; only the pack job signs", id)
		}
		// The comment job reads the pack's attestations to check them
		// before it names who signed; no other job holds attestations.
		if v, ok := j.Permissions["attestations"]; ok && id != "pack" && (id != "comment" || v != "read") {
			t.Errorf("job %s holds attestations: %s; only the pack job signs and only the comment job reads", id, v)
		}
	}
	if cj.Permissions["attestations"] != "read" {
		t.Errorf("comment job permissions %v: it cannot read the pack's attestations to check them", cj.Permissions)
	}
	// The attestation's id and URL pass from the attest step to the pack
	// job's outputs, and into the comment step through env, never through
	// an expression inside its script.
	for name, want := range map[string]string{"attestation-id": "${{ steps.attest.outputs.attestation-id }}",
		"attestation-url": "${{ steps.attest.outputs.attestation-url }}"} {
		if pj.Outputs[name] != want {
			t.Errorf("pack job output %s = %q, want %q", name, pj.Outputs[name], want)
		}
	}
	attestID := ""
	for _, s := range pj.Steps {
		if strings.HasPrefix(s.Uses, "actions/attest@") {
			attestID = s.ID
		}
	}
	if attestID != "attest" {
		t.Errorf("the attest step has id %q; the pack job's outputs read steps.attest.outputs", attestID)
	}
	var commentEnv map[string]string
	for _, s := range cj.Steps {
		if strings.Contains(s.Run, "aayu comment") {
			commentEnv = s.Env
		}
	}
	if commentEnv["AAYU_ATTESTATION_ID"] != "${{ needs.pack.outputs.attestation-id }}" ||
		commentEnv["AAYU_ATTESTATION_URL"] != "${{ needs.pack.outputs.attestation-url }}" {
		t.Errorf("the comment step's env %v does not carry the pack job's attestation id and URL", commentEnv)
	}
	for _, want := range []string{"actions/attest@1e69f48acb82d1966a394da916b4c1698aa569d6",
		"subject-path:${{ runner.temp }}/aayudha-pack/pack.json", "predicate-type:https://aayudha.dev/proof-pack/v1",
		"predicate-path:${{ runner.temp }}/aayudha-pack/pack.json"} {
		if !strings.Contains(ps, want) {
			t.Errorf("pack job lacks %q:\n%s", want, ps)
		}
	}
	if strings.Index(ps, "actions/attest@") < strings.Index(ps, "--from-raw") || strings.Index(ps, "actions/attest@") > strings.Index(ps, "name:aayudha-pack") {
		t.Errorf("the attest step must sign the pack the job just built, before it is uploaded:\n%s", ps)
	}
	if cj.Permissions["pull-requests"] != "write" || cj.Permissions["statuses"] != "write" {
		t.Errorf("comment job permissions %v", cj.Permissions)
	}
	// The check runs the jobs create are not the status a ruleset requires.
	for id, j := range wf.Jobs {
		if j.Name == "aayudha/merge-gate" {
			t.Errorf("job %s is named aayudha/merge-gate, the commit status the comment job sets; a check run of that name sits on the base's tip", id)
		}
	}
}
