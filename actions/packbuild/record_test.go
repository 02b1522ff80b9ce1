package packbuild

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aayudha/aayu/proof"
)

// needFFmpeg skips a test that assembles recordings when ffmpeg is absent,
// and fails it in CI, where .ci/run installs Debian's ffmpeg.
func needFFmpeg(t *testing.T) string {
	t.Helper()
	if p := (Tools{}).ffmpegPath(); p != "" {
		return p
	}
	if os.Getenv("CI") == "true" {
		t.Fatal("ffmpeg is not installed, and in CI the web floor's recording tests must run (.ci/run installs Debian's ffmpeg)")
	}
	t.Skip("SKIPPED LOUDLY: ffmpeg is not installed, so no recording can be assembled here (apt-get install ffmpeg)")
	return ""
}

// TestWebFloorRecordsThePage: a criterion with recording = true gets
// recordings/1.webm beside screens/1.png: a recording artifact kept in the
// pack folder as store none, cited by the criterion, WebM that ffprobe
// reads as VP8 video the window's width of at least one frame; the floor passes and the pack
// verifies. A recording changed afterwards fails verification.
func TestWebFloorRecordsThePage(t *testing.T) {
	t.Parallel()
	needChromium(t)
	needFFmpeg(t)
	req := webRepo(t, goRunWeb, "screenshot = \"/summary\"\nelement = \"#deductible\"\nrecording = true\n")
	out, _ := run(t, req)
	c := webCheck(t, out)
	if c.Result != proof.ResultPass || !strings.Contains(c.Detail, "recording of ") {
		t.Fatalf("web check %+v, want a pass naming the recording", c)
	}
	if out.ExitCode != ExitOK {
		t.Fatalf("exit %d, want 0; problems %+v, failed floors %+v", out.ExitCode, out.Report.Problems, out.Report.FailedFloors)
	}
	var rec *proof.Artifact
	for i, a := range out.Pack.Artifacts {
		if a.Path == "recordings/1.webm" {
			rec = &out.Pack.Artifacts[i]
		}
	}
	if rec == nil || rec.Kind != proof.KindRecording || rec.Store != proof.StoreNone {
		t.Fatalf("recordings/1.webm artifact %+v, want kind recording, store none", rec)
	}
	if ev := out.Pack.Criteria[0].Evidence; len(ev) != 3 || ev[1] != "screens/1.png" || ev[2] != "recordings/1.webm" {
		t.Fatalf("criterion 1 cites %v, want its test events, screens/1.png and recordings/1.webm", ev)
	}
	file := filepath.Join(out.Dir, "artifacts", "recordings", "1.webm")
	b := readFile(t, file)
	if err := proof.CheckRecording(b); err != nil {
		t.Fatalf("the recording in the pack folder: %v", err)
	}
	if probe, err := exec.LookPath("ffprobe"); err == nil {
		got, err := exec.Command(probe, "-v", "error", "-count_frames", "-select_streams", "v:0",
			"-show_entries", "stream=codec_name,width,height,nb_read_frames", "-of", "csv=p=0", file).Output()
		if err != nil {
			t.Fatalf("ffprobe cannot read the recording: %v", err)
		}
		f := strings.Split(strings.TrimSpace(string(got)), ",")
		if len(f) != 4 || f[0] != "vp8" || f[1] != "1280" || f[2] == "0" || f[3] == "0" {
			t.Fatalf("ffprobe reads the recording as %q, want VP8 1280 pixels wide with frames", got)
		}
	}
	if err := proof.CheckMediaStore(out.Pack.Artifacts, ""); err != nil {
		t.Fatalf("the pack's media would be refused without a bucket: %v", err)
	}

	b[len(b)/2] ^= 0xff
	if err := os.WriteFile(file, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := proof.VerifyDir(context.Background(), out.Dir, proof.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Verified() || !strings.Contains(problems(rep), "recordings/1.webm") {
		t.Fatalf("a tampered recordings/1.webm verified; problems: %s", problems(rep))
	}
}

// TestWebFloorRecordingWithoutFFmpeg: with no ffmpeg the floor fails in
// words for the criterion that asks for a recording, and the criterion is
// not proven without it.
func TestWebFloorRecordingWithoutFFmpeg(t *testing.T) {
	t.Parallel()
	needChromium(t)
	req := webRepo(t, goRunWeb, "screenshot = \"/summary\"\nrecording = true\n")
	out, err := Run(context.Background(), Tools{FFmpeg: filepath.Join(t.TempDir(), "no-ffmpeg")}, req, nil)
	if err != nil {
		t.Fatal(err)
	}
	c := webCheck(t, out)
	if c.Result != proof.ResultFail || !strings.Contains(c.Detail, "ffmpeg is not installed here, so no recording of /summary could be made") {
		t.Fatalf("web check %+v, want a fail saying ffmpeg is missing", c)
	}
	if out.ExitCode == ExitOK || !strings.Contains(problems(out.Report), "Criterion 1 is not proven") {
		t.Fatalf("exit %d; the criterion without its recording should not be proven: %s", out.ExitCode, problems(out.Report))
	}
	for _, a := range out.Pack.Artifacts {
		if a.Kind == proof.KindRecording || a.Kind == proof.KindScreenshot {
			t.Fatalf("a criterion whose recording failed left the artifact %+v", a)
		}
	}
}

// TestWebFloorRecordingFromRawOutputs: in the merge gate's split the
// assembling job judges the tests job's recording again from its bytes: a
// recording there replaced by bytes that are not WebM fails the floor.
func TestWebFloorRecordingFromRawOutputs(t *testing.T) {
	t.Parallel()
	needChromium(t)
	needFFmpeg(t)
	req := webRepo(t, goRunWeb, "screenshot = \"/summary\"\nrecording = true\n")
	raw := filepath.Join(t.TempDir(), "raw")
	if err := RunRaw(context.Background(), Tools{}, RawRequest{Dir: req.Dir, Story: 1, BaseBranch: "dev", Out: raw}, nil); err != nil {
		t.Fatal(err)
	}
	req.FromRaw = raw
	req.PackOut = filepath.Join(t.TempDir(), "pack")
	out, _ := run(t, req)
	if c := webCheck(t, out); c.Result != proof.ResultPass || out.ExitCode != ExitOK {
		t.Fatalf("from raw outputs: web check %+v, exit %d, problems %s", c, out.ExitCode, problems(out.Report))
	}
	if err := os.WriteFile(filepath.Join(raw, "recordings", "1.webm"), []byte("\x89PNG\r\n\x1a\nnot a video"), 0o644); err != nil {
		t.Fatal(err)
	}
	req.PackOut = filepath.Join(t.TempDir(), "pack2")
	out, _ = run(t, req)
	if c := webCheck(t, out); c.Result != proof.ResultFail || !strings.Contains(c.Detail, "the recording of /summary cannot be used: the recording is not WebM") {
		t.Fatalf("a recording that is not WebM in the raw outputs: web check %+v, want a fail", c)
	}
}

// TestRecordingWithNoFrames: a screencast that sent nothing is a failure
// in words, never an empty recording.
func TestRecordingWithNoFrames(t *testing.T) {
	t.Parallel()
	why := record(context.Background(), "ffmpeg", webShot{ID: 1, Page: "/summary"}, nil, time.Now(), "", t.TempDir())
	if !strings.Contains(why, "the page /summary loaded, but chromium's screencast sent no frame to record") {
		t.Fatalf("no frames: %q", why)
	}
	if why := record(context.Background(), "ffmpeg", webShot{ID: 1, Page: "/summary"}, nil, time.Now(), "more than 600 frames", t.TempDir()); !strings.Contains(why, "was cut short: more than 600 frames") {
		t.Fatalf("over the cap: %q", why)
	}
}

// TestRecordingFFmpegFails: frames ffmpeg cannot decode fail in ffmpeg's
// own words, and an ffmpeg that writes an empty file is refused: the
// output must be WebM.
func TestRecordingFFmpegFails(t *testing.T) {
	t.Parallel()
	ffmpeg := needFFmpeg(t)
	out := t.TempDir()
	if err := os.MkdirAll(filepath.Join(out, "recordings"), 0o755); err != nil {
		t.Fatal(err)
	}
	shot := webShot{ID: 1, Page: "/summary"}
	junk := []frame{{jpeg: []byte("not a jpeg"), at: time.Now()}}
	if why := record(context.Background(), ffmpeg, shot, junk, time.Now(), "", out); !strings.Contains(why, "the recording of /summary could not be made: ffmpeg failed") {
		t.Fatalf("undecodable frames: %q", why)
	}
	// An ffmpeg that exits 0 having written an empty file.
	fake := filepath.Join(t.TempDir(), "ffmpeg")
	if err := os.WriteFile(fake, []byte("#!/bin/sh\n: > out.webm\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if why := record(context.Background(), fake, shot, junk, time.Now(), "", out); !strings.Contains(why, "the recording of /summary cannot be used: ffmpeg wrote the recording is empty (0 bytes)") {
		t.Fatalf("an empty output: %q", why)
	}
	if _, err := os.Stat(filepath.Join(out, "recordings", "1.webm")); err == nil {
		t.Fatal("a failed recording left recordings/1.webm")
	}
}
