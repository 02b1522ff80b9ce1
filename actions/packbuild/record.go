package packbuild

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/aayudha/aayu/proof"
)

// The web floor's recordings (seed 000: "Web floors add screenshots and
// recordings … recordings/N.webm"): for a criterion whose evidence map
// says recording = true, chromium's screencast (Page.startScreencast)
// sends a JPEG frame each time the page repaints, from the moment the page
// is opened until the element is found and the page captured; each frame
// is acknowledged so the next is sent, and Debian's ffmpeg, run as a
// program with a fixed argument list, assembles them into a VP8 WebM.

// Limits of one recording.
const (
	maxRecordingFrames     = 600     // a page loading for 30 s at 20 frames a second
	maxRecordingFrameBytes = 2 << 20 // one 1280×800 JPEG frame is well under
	maxRecordingAllFrames  = 64 << 20
	ffmpegTimeout          = 60 * time.Second
	recordingFPS           = 10
	maxFFmpegStderr        = 2 << 10
)

// ffmpegPath finds ffmpeg: Tools.FFmpeg, else "ffmpeg" on PATH; "" when
// there is none.
func (t Tools) ffmpegPath() string {
	p, err := exec.LookPath(orDefault(t.FFmpeg, "ffmpeg"))
	if err != nil {
		return ""
	}
	return p
}

// frame is one screencast frame and when it arrived.
type frame struct {
	jpeg []byte
	at   time.Time
}

// screencast collects a tab's screencast frames until stopped.
type screencast struct {
	mu     sync.Mutex
	frames []frame
	total  int
	over   string // why frames stopped being kept, when a cap was reached
	cancel context.CancelFunc
	done   chan struct{}
}

// startScreencast starts chromium's screencast of the tab of ctx (a
// chromedp context that has run) at the floor's window size, and collects
// its frames, acknowledging each, until stop.
func startScreencast(ctx context.Context) (*screencast, error) {
	cctx, cancel := context.WithCancel(ctx)
	sc := &screencast{cancel: cancel, done: make(chan struct{})}
	// Subscribed before the screencast starts, so no frame is lost.
	events := chromedp.Events(cctx, page.ScreencastFrame)
	go func() {
		defer close(sc.done)
		for ev, err := range events {
			if err != nil {
				return
			}
			sc.add(ev.Data)
			// Chromium sends the next frame only once this one is
			// acknowledged; this goroutine is not the one that reads the
			// browser's messages, so the call may wait for its reply.
			if _, err := chromedp.Run(cctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
				return cdp.Call(ctx, t, page.ScreencastFrameAck, page.ScreencastFrameAckParams{SessionID: ev.SessionID})
			}); err != nil {
				return
			}
		}
	}()
	quality := int64(80)
	if _, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, t, page.StartScreencast, page.StartScreencastParams{Format: page.StartScreencastFormatJpeg,
			Quality: &quality, MaxWidth: webViewportW, MaxHeight: webViewportH, EveryNthFrame: 1})
	}); err != nil {
		cancel()
		<-sc.done
		return nil, err
	}
	return sc, nil
}

// add keeps one frame, unless a cap is reached.
func (sc *screencast) add(jpeg []byte) {
	sc.mu.Lock()
	defer sc.mu.Unlock()
	switch {
	case sc.over != "":
	case len(jpeg) == 0:
	case len(jpeg) > maxRecordingFrameBytes:
		sc.over = fmt.Sprintf("a frame of %d bytes, more than the %d aayu keeps", len(jpeg), maxRecordingFrameBytes)
	case len(sc.frames) >= maxRecordingFrames:
		sc.over = fmt.Sprintf("more than %d frames", maxRecordingFrames)
	case sc.total+len(jpeg) > maxRecordingAllFrames:
		sc.over = fmt.Sprintf("frames adding up to more than %d bytes", maxRecordingAllFrames)
	default:
		sc.frames = append(sc.frames, frame{jpeg: jpeg, at: time.Now()})
		sc.total += len(jpeg)
	}
}

// stop ends the screencast and returns the frames it kept, when it
// stopped, and why it stopped keeping frames early ("" when it did not).
func (sc *screencast) stop(ctx context.Context) ([]frame, time.Time, string) {
	_, _ = chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, t, page.StopScreencast, cdp.Empty{})
	})
	end := time.Now()
	sc.cancel()
	<-sc.done
	sc.mu.Lock()
	defer sc.mu.Unlock()
	return sc.frames, end, sc.over
}

// record writes the frames a screencast kept of page as out/recordings/ID.webm
// through ffmpeg; it returns why not, in words, or "". No frame, or
// output that is empty or not WebM, is a failure: a floor never passes on
// an empty capture.
func record(ctx context.Context, ffmpeg string, s webShot, frames []frame, end time.Time, over, out string) string {
	switch {
	case over != "":
		return fmt.Sprintf("the recording of %s was cut short: %s", s.Page, over)
	case len(frames) == 0:
		return fmt.Sprintf("the page %s loaded, but chromium's screencast sent no frame to record", s.Page)
	}
	webm, why := assembleWebM(ctx, ffmpeg, frames, end)
	if why != "" {
		return fmt.Sprintf("the recording of %s could not be made: %s", s.Page, why)
	}
	if err := proof.CheckRecording(webm); err != nil {
		return fmt.Sprintf("the recording of %s cannot be used: ffmpeg wrote %v", s.Page, err)
	}
	if err := os.WriteFile(filepath.Join(out, filepath.FromSlash(proof.RecordingPath(s.ID))), webm, 0o644); err != nil {
		return fmt.Sprintf("the recording of %s could not be written: %v", s.Page, err)
	}
	return ""
}

// assembleWebM writes the frames to a temporary folder with an ffconcat
// list giving each frame the time until the next (the last until end) and
// runs ffmpeg on it: no shell, a fixed argument list naming only files
// aayu made, at most ffmpegTimeout, its output capped by -fs and read
// back capped. It returns the WebM's bytes or why there are none.
func assembleWebM(ctx context.Context, ffmpeg string, frames []frame, end time.Time) ([]byte, string) {
	dir, err := os.MkdirTemp("", "aayu-recording-*")
	if err != nil {
		return nil, "no folder for its frames: " + err.Error()
	}
	defer os.RemoveAll(dir)
	var list strings.Builder
	list.WriteString("ffconcat version 1.0\n")
	for i, f := range frames {
		name := fmt.Sprintf("f%05d.jpg", i)
		if err := os.WriteFile(filepath.Join(dir, name), f.jpeg, 0o600); err != nil {
			return nil, "its frames could not be written: " + err.Error()
		}
		next := end
		if i+1 < len(frames) {
			next = frames[i+1].at
		}
		// Each frame shows at least one frame of the output's rate, so
		// the last one (the page as captured) is always in the video.
		d := max(next.Sub(f.at), time.Second/recordingFPS)
		fmt.Fprintf(&list, "file %s\nduration %.3f\n", name, d.Seconds())
	}
	// The concat demuxer reads the last entry's duration only when a file
	// follows it.
	fmt.Fprintf(&list, "file f%05d.jpg\n", len(frames)-1)
	if err := os.WriteFile(filepath.Join(dir, "frames.ffconcat"), []byte(list.String()), 0o600); err != nil {
		return nil, "its frame list could not be written: " + err.Error()
	}
	tctx, cancel := context.WithTimeout(ctx, ffmpegTimeout)
	defer cancel()
	cmd := exec.CommandContext(tctx, ffmpeg, "-nostdin", "-hide_banner", "-loglevel", "error",
		"-f", "concat", "-i", "frames.ffconcat",
		"-an", "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2,format=yuv420p", "-r", strconv.Itoa(recordingFPS),
		"-c:v", "libvpx", "-deadline", "realtime", "-cpu-used", "8", "-b:v", "1M",
		"-fs", strconv.Itoa(proof.MaxRecordingBytes), "-f", "webm", "-y", "out.webm")
	cmd.Dir = dir
	var errBuf bytes.Buffer
	cmd.Stderr = &limitedBuffer{buf: &errBuf, max: maxFFmpegStderr}
	err = cmd.Run()
	switch {
	case errors.Is(tctx.Err(), context.DeadlineExceeded):
		return nil, fmt.Sprintf("ffmpeg did not finish within %s", ffmpegTimeout)
	case err != nil:
		return nil, fmt.Sprintf("ffmpeg failed (%v)%s", err, quoteStderr(errBuf.Bytes()))
	}
	b, err := proof.ReadFileCapped(filepath.Join(dir, "out.webm"), proof.MaxRecordingBytes)
	if err != nil {
		return nil, "ffmpeg's output cannot be read: " + err.Error()
	}
	return b, ""
}

// readRecording reads and judges one criterion's recording from dir: it
// must be there and be WebM, whatever the run said.
func readRecording(mc proof.MappedCriterion, dir string) (webArtifact, string) {
	rec := proof.RecordingPath(mc.ID)
	b, err := proof.ReadFileCapped(filepath.Join(dir, filepath.FromSlash(rec)), proof.MaxRecordingBytes)
	if err == nil {
		err = proof.CheckRecording(b)
	}
	if err != nil {
		return webArtifact{}, fmt.Sprintf("the recording of %s cannot be used: %v", mc.Screenshot, err)
	}
	return webArtifact{ID: mc.ID, Path: rec, Kind: proof.KindRecording, Bytes: b}, ""
}
