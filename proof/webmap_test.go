package proof

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"strings"
	"testing"
)

// TestLoadEvidenceMapWebKeys: a criterion may name a screenshot (a path
// of the app) and an element on it; every malformed one is refused in
// words, before any page is opened.
func TestLoadEvidenceMapWebKeys(t *testing.T) {
	t.Parallel()
	const head = "[[criterion]]\nid = 1\ntests = [\"web:TestSummary\"]\n"
	m, err := LoadEvidenceMap([]byte(head + "screenshot = \"/summary?plan=gold\"\nelement = \"#deductible\"\nsr-transcript = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if m[0].Screenshot != "/summary?plan=gold" || m[0].Element != "#deductible" || !m[0].Transcript || len(m.Screenshots()) != 1 {
		t.Fatalf("map %+v", m)
	}
	if m, err := LoadEvidenceMap([]byte(head)); err != nil || len(m.Screenshots()) != 0 {
		t.Fatalf("a map without screenshots: %+v, %v", m, err)
	}
	for _, tc := range []struct{ name, extra, want string }{
		{"a URL elsewhere", "screenshot = \"https://example.com/\"\n", "is not a path of the app"},
		{"a scheme-relative URL", "screenshot = \"//example.com/\"\n", "is not a path of the app"},
		{"a relative path", "screenshot = \"summary\"\n", "is not a path of the app"},
		{"a space", "screenshot = \"/a b\"\n", "holds a space, backslash or control character"},
		{"a control character", "screenshot = \"/a\\u001b[31m\"\n", "holds a space, backslash or control character"},
		{"not a string", "screenshot = 3\n", "screenshot must be a string"},
		{"too long", "screenshot = \"/" + strings.Repeat("a", maxWebPath) + "\"\n", "is longer than"},
		{"an element with no page", "element = \"#x\"\n", "names an element but no screenshot page"},
		{"an empty element", "screenshot = \"/\"\nelement = \" \"\n", "element is empty"},
		{"an element with a control character", "screenshot = \"/\"\nelement = \"#a\\u0007\"\n", "element is not a CSS selector"},
		{"an unknown kind", "video = true\n", `unknown key "video" (only id, tests, screenshot, element, sr-transcript, recording)`},
		{"a transcript with no page", "sr-transcript = true\n", "asks for an sr-transcript but names no screenshot page"},
		{"a transcript that is not a bool", "screenshot = \"/\"\nsr-transcript = \"yes\"\n", "sr-transcript must be true or false"},
	} {
		if _, err := LoadEvidenceMap([]byte(head + tc.extra)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

func pngOf(t *testing.T, w, h int, paint func(*image.RGBA)) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for i := range img.Pix {
		img.Pix[i] = 0xff
	}
	if paint != nil {
		paint(img)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// TestCheckScreenshot: a capture counts only as a PNG that decodes and is
// not one flat colour; an empty, broken or blank one is refused in words.
func TestCheckScreenshot(t *testing.T) {
	t.Parallel()
	drawn := pngOf(t, 40, 30, func(img *image.RGBA) { img.Set(20, 10, color.Black) })
	if w, h, err := CheckScreenshot(drawn); err != nil || w != 40 || h != 30 {
		t.Fatalf("a drawn capture: %d×%d, %v", w, h, err)
	}
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "the capture is empty"},
		{"not a PNG", []byte("\x89PNG\r\n\x1a\nnot really an image"), "is not a PNG image"},
		{"cut short", drawn[:len(drawn)/2], "not a PNG image that decodes"},
		{"blank", pngOf(t, 40, 30, nil), "one flat colour: the page drew nothing"},
	} {
		if _, _, err := CheckScreenshot(tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestCriterionWithAMappedScreenshotMustCiteIt: when the evidence map
// names a screenshot for a criterion, the criterion is proven only if it
// cites screens/N.png; its test events alone are not enough.
func TestCriterionWithAMappedScreenshotMustCiteIt(t *testing.T) {
	t.Parallel()
	m, err := LoadEvidenceMap([]byte("[[criterion]]\nid = 1\ntests = [\"x:TestOne\"]\nscreenshot = \"/summary\"\n\n" +
		"[[criterion]]\nid = 2\ntests = [\"x:TestTwo\"]\nscreenshot = \"/claims\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := fixtureOptions()
	opts.EvidenceMap, opts.ModulePath = m, "example.com"
	r := verifyEdited(t, opts, func(*Pack, map[string][]byte) {})
	if r.Verified() {
		t.Fatal("a criterion without its mapped screenshot verified")
	}
	if !r.Criteria[0].Proven {
		t.Errorf("criterion 1 cites screens/1.png and should be proven: %s", r.Criteria[0].Reason)
	}
	if r.Criteria[1].Proven || !strings.Contains(r.Criteria[1].Reason, "names a screenshot of /claims, and its evidence has no screens/2.png") {
		t.Errorf("criterion 2: proven %v, reason %q", r.Criteria[1].Proven, r.Criteria[1].Reason)
	}
}

// TestCheckTranscript: a screen-reader transcript counts only as UTF-8
// lines of "role: name"; an empty one (a page that names nothing) or a
// malformed one is refused in words.
func TestCheckTranscript(t *testing.T) {
	t.Parallel()
	if n, err := CheckTranscript([]byte("RootWebArea: Gold\nheading: Gold plan\nStaticText: Deductible: $500\n")); err != nil || n != 3 {
		t.Fatalf("a transcript of 3 lines: %d, %v", n, err)
	}
	for _, tc := range []struct{ name, b, want string }{
		{"empty", "", "the transcript is empty"},
		{"only line ends", "\n\n", "the transcript is empty"},
		{"not role: name", "heading Gold plan\n", "line 1 of the transcript is not"},
		{"a control character", "heading: Gold\x1b[31m\n", "line 1 of the transcript is not"},
		{"not UTF-8", "heading: \xff\n", "not UTF-8"},
	} {
		if _, err := CheckTranscript([]byte(tc.b)); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want %q", tc.name, err, tc.want)
		}
	}
}

// TestCriterionWithAMappedTranscriptMustCiteIt: a criterion whose map asks
// for an sr-transcript is proven only if it cites transcripts/N.txt.
func TestCriterionWithAMappedTranscriptMustCiteIt(t *testing.T) {
	t.Parallel()
	m, err := LoadEvidenceMap([]byte("[[criterion]]\nid = 1\ntests = [\"x:TestOne\"]\nscreenshot = \"/summary\"\nsr-transcript = true\n\n" +
		"[[criterion]]\nid = 2\ntests = [\"x:TestTwo\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := fixtureOptions()
	opts.EvidenceMap, opts.ModulePath = m, "example.com"
	r := verifyEdited(t, opts, func(*Pack, map[string][]byte) {})
	if r.Verified() || r.Criteria[0].Proven || !strings.Contains(r.Criteria[0].Reason, "asks for a screen-reader transcript of /summary, and its evidence has no transcripts/1.txt") {
		t.Fatalf("criterion 1 without its transcript: verified %v, proven %v, reason %q", r.Verified(), r.Criteria[0].Proven, r.Criteria[0].Reason)
	}
	r = verifyEdited(t, opts, func(p *Pack, files map[string][]byte) {
		files["transcripts/1.txt"] = []byte("heading: Gold plan\n")
		p.Artifacts = append(p.Artifacts, Artifact{Path: "transcripts/1.txt", Kind: KindSRTranscript, Store: StoreNone})
		p.Criteria[0].Evidence = append(p.Criteria[0].Evidence, "transcripts/1.txt")
	})
	if !r.Criteria[0].Proven {
		t.Fatalf("criterion 1 citing its transcript: %s%s", r.Criteria[0].Reason, describeProblems(r))
	}
}
