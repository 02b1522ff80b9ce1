package proof

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// webmHeader is the EBML header ffmpeg writes for WebM, then the start of
// a Segment: enough bytes to look like a recording.
var webmHeader = []byte("\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\xf2\x81\x04\x42\xf3\x81\x08\x42\x82\x84webm\x42\x87\x81\x02\x42\x85\x81\x02\x18\x53\x80\x67")

// TestLoadEvidenceMapRecordingKey: recording = true asks the web floor
// for recordings/N.webm of the criterion's screenshot page; each bad value
// is refused in words, by name.
func TestLoadEvidenceMapRecordingKey(t *testing.T) {
	t.Parallel()
	const head = "[[criterion]]\nid = 1\ntests = [\"web:TestSummary\"]\n"
	m, err := LoadEvidenceMap([]byte(head + "screenshot = \"/summary\"\nrecording = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if !m[0].Recording || len(m.Screenshots()) != 1 || RecordingPath(1) != "recordings/1.webm" {
		t.Fatalf("map %+v", m)
	}
	if m, err := LoadEvidenceMap([]byte(head + "screenshot = \"/summary\"\nrecording = false\n")); err != nil || m[0].Recording {
		t.Fatalf("recording = false: %+v, %v", m, err)
	}
	for _, tc := range []struct{ name, extra, want string }{
		{"TestRecordingThatIsNotABool", "screenshot = \"/\"\nrecording = \"/summary\"\n", "criterion 1: recording must be true or false"},
		{"TestRecordingWithNoPage", "recording = true\n", "criterion 1 asks for a recording but names no screenshot page to record"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := LoadEvidenceMap([]byte(head + tc.extra)); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %q", err, tc.want)
			}
		})
	}
}

// TestCheckRecording: the web floor keeps a recording only when it is WebM:
// the EBML magic and DocType "webm"; empty, other bytes, another Matroska
// DocType and a header that runs past the file are refused in words.
func TestCheckRecording(t *testing.T) {
	t.Parallel()
	if err := CheckRecording(webmHeader); err != nil {
		t.Fatalf("a WebM header: %v", err)
	}
	mkv := []byte(strings.Replace(string(webmHeader), "\x84webm", "\x88matroska", 1))
	mkv[4] += 4
	for _, tc := range []struct {
		name string
		b    []byte
		want string
	}{
		{"empty", nil, "the recording is empty (0 bytes)"},
		{"a PNG", []byte("\x89PNG\r\n\x1a\n...."), "is not WebM: it does not open with the EBML magic 1A45DFA3 (it opens with 89 50 4E 47)"},
		{"Matroska, not WebM", mkv, `names no DocType "webm"`},
		{"a header past the end", webmHeader[:12], `names no DocType "webm"`},
		{"too large", make([]byte, MaxRecordingBytes+1), "more than the"},
	} {
		if err := CheckRecording(tc.b); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: got %v, want an error saying %q", tc.name, err, tc.want)
		}
	}
}

// recordingPack is the fixture pack with criterion 1 citing a recording
// whose bytes are rec, kept beside the pack as the run artifact keeps it.
func recordingPack(t *testing.T, rec []byte) (string, *Pack) {
	t.Helper()
	files := fixtureFiles()
	files["recordings/1.webm"] = rec
	p := fixturePack(files)
	p.Artifacts = append(p.Artifacts, fixtureArtifact("recordings/1.webm", KindRecording, StoreNone, rec))
	p.Criteria[0].Evidence = append(p.Criteria[0].Evidence, "recordings/1.webm")
	return writeFixtureDir(t, p, files), p
}

func verifyRecording(t *testing.T, dir string) *Report {
	t.Helper()
	r, err := VerifyDir(context.Background(), dir, fixtureOptions())
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestVerifyRecordingThatIsWebM: a recording that opens with the EBML
// magic and matches its hash verifies.
func TestVerifyRecordingThatIsWebM(t *testing.T) {
	t.Parallel()
	dir, _ := recordingPack(t, webmHeader)
	if r := verifyRecording(t, dir); !r.Verified() {
		t.Fatalf("a WebM recording was refused:%s", describeProblems(r))
	}
}

// TestVerifyRecordingThatIsNotWebM: bytes that match the pack's hash but
// are not WebM fail verification, saying so; the hash alone is not enough
// for a file of kind recording.
func TestVerifyRecordingThatIsNotWebM(t *testing.T) {
	t.Parallel()
	dir, _ := recordingPack(t, []byte("\x89PNG\r\n\x1a\na screenshot called a recording"))
	r := verifyRecording(t, dir)
	if r.Verified() || !sameCodes(problemCodes(r), []Code{CodeNotMediaKind}) ||
		!strings.Contains(describeProblems(r), `Artifact "recordings/1.webm" is not WebM: it does not open with the EBML magic 1A45DFA3`) {
		t.Fatalf("a recording that is not WebM: verified %v, problems%s", r.Verified(), describeProblems(r))
	}
}

// TestVerifyRecordingThatIsEmpty: an empty recording, its hash the empty
// file's, fails verification: a capture of nothing never passes.
func TestVerifyRecordingThatIsEmpty(t *testing.T) {
	t.Parallel()
	dir, _ := recordingPack(t, []byte{})
	r := verifyRecording(t, dir)
	if r.Verified() || !strings.Contains(describeProblems(r), `Artifact "recordings/1.webm" is empty (0 bytes)`) {
		t.Fatalf("an empty recording: verified %v, problems%s", r.Verified(), describeProblems(r))
	}
}

// TestVerifyRecordingThatWasTampered: a recording changed after the pack
// was written (still WebM) fails verification like any artifact.
func TestVerifyRecordingThatWasTampered(t *testing.T) {
	t.Parallel()
	dir, _ := recordingPack(t, webmHeader)
	flipFileByte(t, filepath.Join(dir, artifactsDir, "recordings", "1.webm"), len(webmHeader)-1)
	r := verifyRecording(t, dir)
	if r.Verified() || !sameCodes(problemCodes(r), []Code{CodeHashMismatch}) || !strings.Contains(describeProblems(r), "recordings/1.webm") {
		t.Fatalf("a tampered recording: verified %v, problems%s", r.Verified(), describeProblems(r))
	}
}

// TestVerifyCriterionWithoutItsRecording: when the evidence map asks for
// a recording of criterion 1's page, the criterion is proven only with
// recordings/1.webm among its evidence; without it the problem names the
// file the web floor did not record.
func TestVerifyCriterionWithoutItsRecording(t *testing.T) {
	t.Parallel()
	em, err := LoadEvidenceMap([]byte("[[criterion]]\nid = 1\ntests = [\"x:TestOne\"]\nscreenshot = \"/summary\"\nrecording = true\n" +
		"[[criterion]]\nid = 2\ntests = [\"x:TestTwo\"]\n"))
	if err != nil {
		t.Fatal(err)
	}
	opts := fixtureOptions()
	opts.EvidenceMap, opts.ModulePath = em, "example.com"

	with, _ := recordingPack(t, webmHeader)
	r, err := VerifyDir(context.Background(), with, opts)
	if err != nil {
		t.Fatal(err)
	}
	if !r.Verified() || !r.Criteria[0].Proven {
		t.Fatalf("criterion 1 with its recording: verified %v, %+v, problems%s", r.Verified(), r.Criteria[0], describeProblems(r))
	}

	without := writeFixtureDir(t, fixturePack(fixtureFiles()), fixtureFiles())
	r, err = VerifyDir(context.Background(), without, opts)
	if err != nil {
		t.Fatal(err)
	}
	want := "Criterion 1 is not proven: the evidence map asks for a recording of /summary, and its evidence has no recordings/1.webm (the web floor did not record it)."
	if r.Verified() || r.Criteria[0].Proven || !strings.Contains(describeProblems(r), want) {
		t.Fatalf("criterion 1 without its recording: verified %v, problems%s", r.Verified(), describeProblems(r))
	}
}
