package proof

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Caps on a screenshot the web floor or the verifier reads: a viewport
// capture is well under both.
const (
	MaxScreenshotBytes  = 32 << 20
	maxScreenshotPixels = 40 << 20
)

// CheckScreenshot says why b is not a capture that shows something, or
// nil: it must be a PNG that decodes, of a sane size, and not one flat
// colour (a page that drew nothing, or a capture of nothing, is refused:
// a floor never passes on an empty capture). It returns the width and
// height it decoded.
func CheckScreenshot(b []byte) (w, h int, err error) {
	if len(b) == 0 {
		return 0, 0, fmt.Errorf("the capture is empty (0 bytes)")
	}
	if len(b) > MaxScreenshotBytes {
		return 0, 0, fmt.Errorf("the capture is %d bytes, more than the %d aayu reads", len(b), MaxScreenshotBytes)
	}
	cfg, err := png.DecodeConfig(bytes.NewReader(b))
	if err != nil {
		return 0, 0, fmt.Errorf("the capture is not a PNG image: %v", err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 || cfg.Width*cfg.Height > maxScreenshotPixels {
		return 0, 0, fmt.Errorf("the capture is %d×%d pixels, not a screen's size", cfg.Width, cfg.Height)
	}
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		return 0, 0, fmt.Errorf("the capture is not a PNG image that decodes: %v", err)
	}
	if flat(img) {
		return cfg.Width, cfg.Height, fmt.Errorf("the capture is %d×%d pixels of one flat colour: the page drew nothing", cfg.Width, cfg.Height)
	}
	return cfg.Width, cfg.Height, nil
}

// flat reports whether every pixel of img is the colour of its first.
func flat(img image.Image) bool {
	r := img.Bounds()
	r0, g0, b0, a0 := img.At(r.Min.X, r.Min.Y).RGBA()
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			if r1, g1, b1, a1 := img.At(x, y).RGBA(); r1 != r0 || g1 != g0 || b1 != b0 || a1 != a0 {
				return false
			}
		}
	}
	return true
}

// MaxTranscriptBytes caps a screen-reader transcript; a page's is a few
// kilobytes.
const MaxTranscriptBytes = 1 << 20

// CheckTranscript says why b is not a screen-reader transcript that reads
// something, or nil: UTF-8 text of at most MaxTranscriptBytes, lines of
// "role: name" with no control character but the line ends, and at least
// one line (a page whose accessibility tree names nothing never passes).
// It returns the number of lines.
func CheckTranscript(b []byte) (int, error) {
	switch {
	case len(b) > MaxTranscriptBytes:
		return 0, fmt.Errorf("the transcript is %d bytes, more than the %d aayu reads", len(b), MaxTranscriptBytes)
	case !utf8.Valid(b):
		return 0, fmt.Errorf("the transcript is not UTF-8 text")
	}
	lines := 0
	for i, l := range strings.Split(strings.TrimSuffix(string(b), "\n"), "\n") {
		if l == "" {
			continue
		}
		role, name, ok := strings.Cut(l, ": ")
		if !ok || role == "" || name == "" || strings.IndexFunc(l, unicode.IsControl) >= 0 {
			return 0, fmt.Errorf("line %d of the transcript is not \"role: name\"", i+1)
		}
		lines++
	}
	if lines == 0 {
		return 0, fmt.Errorf("the transcript is empty: the page's accessibility tree names nothing a screen reader would read")
	}
	return lines, nil
}
