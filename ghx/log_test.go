package ghx

import (
	"strings"
	"testing"
)

func TestMaskURL(t *testing.T) {
	t.Parallel()
	cases := []struct{ in, want string }{
		{"https://api.github.com/repos/acme/benefits/issues?state=all&per_page=100",
			"https://api.github.com/repos/acme/benefits/issues?state=all&per_page=100"},
		{"https://api.github.com/user?access_token=ghp_abc", "https://api.github.com/user?access_token=***"},
		{"https://github.com/login/oauth/access_token?client_id=Iv1&client_secret=s3cr3t&code=abc&device_code=dc",
			"https://github.com/login/oauth/access_token?client_id=Iv1&client_secret=***&code=***&device_code=***"},
		{"https://blob.core.windows.net/c/a.zip?sv=2021-08-06&se=2026-10-12T09%3A53%3A00Z&sr=b&sp=r&sig=AbC%2Bdef%3D",
			"https://blob.core.windows.net/c/a.zip?sv=2021-08-06&se=***&sr=b&sp=r&sig=***"},
		{"https://s3.amazonaws.com/b/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=AKIA%2F2026&X-Amz-Signature=deadbeef&X-Amz-Security-Token=tok",
			"https://s3.amazonaws.com/b/k?X-Amz-Algorithm=AWS4&X-Amz-Credential=***&X-Amz-Signature=***&X-Amz-Security-Token=***"},
		{"https://x.example/p?token=a&TOKEN=b&my_api_token=c&page=2", "https://x.example/p?token=***&TOKEN=***&my_api_token=***&page=2"},
		{"https://user:hunter2@ghes.example.com/api/v3/", "https://ghes.example.com/api/v3/"},
		{"https://x.example/p#access_token=abc", "https://x.example/p"},
		{"/repos/acme/benefits?sig=zz", "/repos/acme/benefits?sig=***"},
		{"http://[bad url?token=abc", "http://[bad url?***"},
	}
	for _, c := range cases {
		if got := MaskURL(c.in); got != c.want {
			t.Errorf("MaskURL(%q)\n got %q\nwant %q", c.in, got, c.want)
		}
	}
}

func TestMaskErrorText(t *testing.T) {
	t.Parallel()
	in := `Get "https://blob.example/a.zip?sig=SECRETSIG&se=1": dial tcp: connection refused`
	got := maskErrorText(in)
	if strings.Contains(got, "SECRETSIG") || !strings.Contains(got, "connection refused") || !strings.Contains(got, "sig=***") {
		t.Errorf("maskErrorText = %q", got)
	}
}
