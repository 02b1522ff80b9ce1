package ship

import (
	"archive/zip"
	"bytes"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/actions"
	"github.com/aayudha/aayu/ghx"
	"github.com/aayudha/aayu/ghx/sandbox"
	"github.com/aayudha/aayu/proof"
)

// zipRewriter stands between ship and the artifact storage host and hands
// ship a run artifact of the test's making: the qualifying run's own zip,
// changed by edit. pack.json's hashes are recomputed for every file edit
// keeps, as whoever forged the artifact would.
type zipRewriter struct {
	base http.RoundTripper
	edit func(t *testing.T, p *proof.Pack, files map[string][]byte) (extra []byte)
	t    *testing.T
}

func (z zipRewriter) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := z.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "application/zip" {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	out := z.rewrite(body)
	resp.Body = io.NopCloser(bytes.NewReader(out))
	resp.ContentLength = int64(len(out))
	resp.Header.Set("Content-Length", strconv.Itoa(len(out)))
	return resp, nil
}

func (z zipRewriter) rewrite(body []byte) []byte {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		z.t.Fatal(err)
	}
	files := map[string][]byte{}
	var raw []byte
	for _, f := range zr.File {
		rc, _ := f.Open()
		b, _ := io.ReadAll(rc)
		rc.Close()
		if f.Name == "pack.json" {
			raw = b
		} else {
			files[strings.TrimPrefix(f.Name, "artifacts/")] = b
		}
	}
	p, err := proof.Decode(raw)
	if err != nil {
		z.t.Fatal(err)
	}
	bomb := z.edit(z.t, p, files)
	for i, a := range p.Artifacts {
		if b, ok := files[a.Path]; ok {
			p.Artifacts[i] = proof.ArtifactFromBytes(a.Path, a.Kind, b)
			p.Artifacts[i].Store = a.Store
		}
	}
	if raw, err = proof.Encode(p); err != nil {
		z.t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	w, _ := zw.Create("pack.json")
	_, _ = w.Write(raw)
	for name, b := range files {
		w, _ := zw.Create("artifacts/" + name)
		_, _ = w.Write(b)
	}
	if bomb != nil {
		// The header declares 3 GiB; the bytes are a few megabytes of
		// nothing. Only reading it in full would tell.
		w, err := zw.CreateRaw(&zip.FileHeader{Name: "artifacts/unlisted/bomb.bin", Method: zip.Deflate,
			UncompressedSize64: 3 << 30, CompressedSize64: uint64(len(bomb))})
		if err != nil {
			z.t.Fatal(err)
		}
		_, _ = w.Write(bomb)
	}
	if err := zw.Close(); err != nil {
		z.t.Fatal(err)
	}
	return buf.Bytes()
}

// rewritingConfig is founder shipping through a zipRewriter.
func (f *fixture) rewritingConfig(t *testing.T, edit func(t *testing.T, p *proof.Pack, files map[string][]byte) []byte) Config {
	c, err := ghx.NewClient(ghx.ClientOptions{
		APIURL: f.base + "/", Token: ghx.NewToken(sandbox.TokenPrefix+"founder", "test"),
		Retry: ghx.RetryPolicy{BaseDelay: time.Millisecond, MaxDelay: 5 * time.Millisecond},
		Base:  zipRewriter{base: http.DefaultTransport, edit: edit, t: t},
	})
	if err != nil {
		t.Fatal(err)
	}
	return Config{Client: c, Owner: owner, Repo: repo, Viewer: "founder", Log: actions.OpenLog(f.logDir, nil),
		WorkDir: t.TempDir(), Terminal: true, Env: envOf(nil)}
}

// evidencePaths are the api-trace artifacts of a pack.
func evidencePaths(p *proof.Pack) []string {
	var out []string
	for _, a := range p.Artifacts {
		if a.Kind == proof.KindAPITrace {
			out = append(out, a.Path)
		}
	}
	return out
}

// TestShipRefusesGatePacksThatProveNothing: ship merges nothing when the
// gate's run artifact proves nothing — evidence kept only by hash, evidence
// whose events fail or lack the test the head's evidence map names, floors
// taken at their word, a zip of unlisted files — and says why in words.
func TestShipRefusesGatePacksThatProveNothing(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		edit  func(t *testing.T, p *proof.Pack, files map[string][]byte) []byte
		base  []string // a change to dev's .aayudha/config.toml, old then new
		exit  int
		words string
	}{
		{"every artifact store none", func(_ *testing.T, p *proof.Pack, files map[string][]byte) []byte {
			for i := range p.Artifacts {
				p.Artifacts[i].Store = proof.StoreNone
				delete(files, p.Artifacts[i].Path)
			}
			return nil
		}, nil, ExitRefused, "no evidence whose bytes were hashed here"},
		{"evidence in a bucket nobody configured", func(_ *testing.T, p *proof.Pack, files map[string][]byte) []byte {
			for i, a := range p.Artifacts {
				if a.Kind == proof.KindAPITrace {
					p.Artifacts[i].Store, p.Artifacts[i].Object = proof.StoreBucket, "x/"+a.Path
					delete(files, a.Path)
				}
			}
			return nil
		}, nil, ExitRefused, "media bucket that was not fetched"},
		{"evidence recording a fail for the mapped test", func(_ *testing.T, p *proof.Pack, files map[string][]byte) []byte {
			for _, e := range evidencePaths(p) {
				files[e] = bytes.ReplaceAll(files[e], []byte(`"Action":"pass"`), []byte(`"Action":"fail"`))
			}
			return nil
		}, nil, ExitRefused, "record a fail"},
		{"evidence of a test the map does not name", func(_ *testing.T, p *proof.Pack, files map[string][]byte) []byte {
			for _, e := range evidencePaths(p) {
				files[e] = []byte(`{"Action":"run","Package":"example.com/benefits/deductible","Test":"TestSomethingElse"}` + "\n" +
					`{"Action":"pass","Package":"example.com/benefits/deductible","Test":"TestSomethingElse"}` + "\n")
			}
			return nil
		}, nil, ExitRefused, "as the evidence map requires"},
		{"evidence cited twice", func(_ *testing.T, p *proof.Pack, _ map[string][]byte) []byte {
			p.Criteria[0].Evidence = append(p.Criteria[0].Evidence, p.Criteria[0].Evidence[0])
			return nil
		}, nil, ExitRefused, "more than once"},
		{"a zip bomb of unlisted files", func(*testing.T, *proof.Pack, map[string][]byte) []byte {
			return make([]byte, 3<<20)
		}, nil, ExitRefused, "pack.json does not list"},
		{"coverage claiming pass below its threshold", func(_ *testing.T, p *proof.Pack, _ map[string][]byte) []byte {
			for i, c := range p.Checks {
				if c.Floor == "coverage" {
					v := 10.0
					p.Checks[i].Value = &v
				}
			}
			return nil
		}, nil, ExitFloor, "10 does not meet the threshold 90"},
		{"coverage between the default and the base's threshold", func(_ *testing.T, p *proof.Pack, files map[string][]byte) []byte {
			// 13 of 14 lines (92.8 %) clears the built-in 90 but not the
			// base branch's 95, which is the one ship judges by.
			files[proof.CoverageReportPath] = []byte("api/api.go: 13 of 14 changed executable lines covered\n")
			for i, c := range p.Checks {
				if c.Floor == "coverage" {
					v := 92.8
					p.Checks[i].Value, p.Checks[i].Detail = &v, "13 of 14 changed executable lines covered (go coverprofile)"
				}
			}
			return nil
		}, []string{"coverage_threshold = 90", "coverage_threshold = 95"}, ExitFloor, "floor coverage: pass, 92.8 against the base branch's threshold of 95: recorded as pass although 92.8 does not meet the threshold 95"},
		{"every check skipped", func(_ *testing.T, p *proof.Pack, _ map[string][]byte) []byte {
			for i := range p.Checks {
				p.Checks[i].Result = proof.ResultSkipped
			}
			return nil
		}, nil, ExitFloor, "skipped"},
		{"a floor the base branch requires is missing", func(*testing.T, *proof.Pack, map[string][]byte) []byte { return nil },
			[]string{"coverage_threshold = 90", "coverage_threshold = 90\nrequired_floors = [\"tests\", \"coverage\", \"vet\", \"red-on-base\"]"},
			ExitFloor, "no red-on-base check"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			f := newBotFixture(t)
			if tc.base != nil {
				f.baseConfig(tc.base...)
			}
			f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
			res, _, err := f.ship(f.rewritingConfig(t, tc.edit), sandbox.DemoPRReady)
			if err != nil {
				t.Fatalf("ship failed: %v", err)
			}
			if res.Merged || res.Shipped || res.ExitCode != tc.exit {
				t.Fatalf("exit %d, merged %v; want exit %d and nothing merged (refusals %q)", res.ExitCode, res.Merged, tc.exit, res.Refusals)
			}
			said := strings.Join(res.Refusals, "\n")
			for _, p := range res.Passed {
				said += "\n" + p.Reason
			}
			if !strings.Contains(said, tc.words) {
				t.Fatalf("ship does not say %q:\n%s", tc.words, said)
			}
		})
	}
}

// TestShipGateSaysWhatWasHashed: the pack gate's line carries the number
// behind "verifies".
func TestShipGateSaysWhatWasHashed(t *testing.T) {
	t.Parallel()
	f := newBotFixture(t)
	f.review("founder", sandbox.DemoPRReady, "APPROVE", "")
	res, events, err := f.ship(f.config("founder"), sandbox.DemoPRReady)
	if err != nil || res.ExitCode != ExitShipped {
		t.Fatalf("ship: %v, exit %d, refusals %q", err, res.ExitCode, res.Refusals)
	}
	for _, e := range events {
		if e.Gate == GatePack && strings.Contains(e.Words, "the pack verifies") {
			if !strings.Contains(e.Words, "bytes hashed") || !strings.Contains(e.Words, "files") {
				t.Fatalf("pack gate line %q does not say how much was hashed", e.Words)
			}
			if res.Pack == nil || res.Pack.FilesHashed == 0 || res.Pack.BytesHashed == 0 {
				t.Fatalf("the report hashed nothing: %+v", res.Pack)
			}
			return
		}
	}
	t.Fatal("no pack gate line said the pack verifies")
}
