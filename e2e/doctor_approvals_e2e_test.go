package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDoctorApprovalsRowNeverPrintsATokensValue: aayu doctor on the
// sandbox, in a session that reaches the founder's token (aayu's own), the
// writer's in GH_TOKEN, a token-shaped variable GitHub refuses and one
// named WTW_* that aayu never reads. The approvals row lists each by source
// and account, in the full screen's epilogue and in plain mode, and no
// token's value appears anywhere in the output.
func TestDoctorApprovalsRowNeverPrintsATokensValue(t *testing.T) {
	t.Parallel()
	_, url := startSandboxServer(t)
	home := t.TempDir()
	gitcfg := filepath.Join(t.TempDir(), "gitconfig")
	if err := os.WriteFile(gitcfg, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	const pat, wtw = "ghp_PlantedPlantedPlantedPlanted0001", "ghp_WtwWtwWtwWtwWtwWtwWtwWtwWtw0002"
	vars := map[string]string{"HOME": home, "AAYU_GITHUB_TOKEN": "sandbox-founder"}
	environ := []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "GIT_CONFIG_GLOBAL=" + gitcfg, "GIT_CONFIG_NOSYSTEM=1",
		"AAYU_GITHUB_TOKEN=sandbox-founder", "GH_TOKEN=sandbox-writer", "MY_PAT=" + pat, "WTW_GITHUB_TOKEN=" + wtw}
	for _, mode := range []string{"--plain", "--ci"} {
		code, out, errOut := runAayuEnviron(t, vars, environ, "--api-url", url+"/", "--oauth-url", url, "--repo", "acme/benefits", mode, "doctor")
		all := out + errOut
		for _, want := range []string{"approvals", "environment variable GH_TOKEN: @writer", "environment variable MY_PAT: GitHub refuses it",
			"the token aayu uses (AAYU_GITHUB_TOKEN): @founder"} {
			if !strings.Contains(strings.Join(strings.Fields(all), " "), want) {
				t.Errorf("%s: doctor (exit %d) does not say %q:\n%s", mode, code, want, all)
			}
		}
		for _, secret := range []string{"sandbox-founder", "sandbox-writer", pat, wtw, "WTW_GITHUB_TOKEN"} {
			if strings.Contains(all, secret) {
				t.Errorf("%s: doctor's output holds %q:\n%s", mode, secret, all)
			}
		}
	}
}
