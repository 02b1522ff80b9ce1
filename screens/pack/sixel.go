package pack

import (
	"fmt"
	"image"
	"strings"
)

// sixelImage encodes img as one sixel sequence no larger than maxW×maxH
// pixels (scaled down, never up, nearest neighbour). The palette is a fixed
// 6×6×6 cube, so quantising is one division per channel and the same image
// always gives the same bytes; a pixel more than half transparent is left
// undrawn (P2=1). Only the standard library: the encoder's init costs
// nothing at start-up.
func sixelImage(img image.Image, maxW, maxH int) string {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	if w <= 0 || h <= 0 || maxW <= 0 || maxH <= 0 {
		return ""
	}
	dw, dh := fitInside(w, h, maxW, maxH)
	// The colour index of each pixel of the scaled image, -1 for none.
	idx := make([]int16, dw*dh)
	used := [216]bool{}
	for y := range dh {
		for x := range dw {
			r, g, bl, a := img.At(b.Min.X+x*w/dw, b.Min.Y+y*h/dh).RGBA()
			i := int16(-1)
			if a >= 0x8000 {
				i = int16(cube(r)*36 + cube(g)*6 + cube(bl))
				used[i] = true
			}
			idx[y*dw+x] = i
		}
	}
	var s strings.Builder
	fmt.Fprintf(&s, "\x1bP0;1;0q\"1;1;%d;%d", dw, dh)
	for i, u := range used {
		if u {
			// Sixel colours are percentages of each channel.
			fmt.Fprintf(&s, "#%d;2;%d;%d;%d", i, i/36*20, i/6%6*20, i%6*20)
		}
	}
	row := make([]byte, dw)
	for top := 0; top < dh; top += 6 {
		for c := range used {
			if !used[c] || !sixelBand(idx, dw, dh, top, int16(c), row) {
				continue
			}
			fmt.Fprintf(&s, "#%d", c)
			writeRuns(&s, row)
			s.WriteByte('$')
		}
		s.WriteByte('-')
	}
	s.WriteString("\x1b\\")
	return s.String()
}

// cube is a 16-bit channel's step on the palette's six levels.
func cube(v uint32) int { return int((v*5 + 0x7fff) / 0xffff) }

// sixelBand fills row with the sixel characters of colour c in the band of
// six pixel rows from top, and reports whether c appears in it.
func sixelBand(idx []int16, w, h, top int, c int16, row []byte) bool {
	seen := false
	for x := range w {
		bits := byte(0)
		for k := range 6 {
			if y := top + k; y < h && idx[y*w+x] == c {
				bits |= 1 << k
			}
		}
		seen = seen || bits != 0
		row[x] = 63 + bits
	}
	return seen
}

// writeRuns writes row with runs of four or more the same character as
// "!N" followed by the character, as sixel allows.
func writeRuns(s *strings.Builder, row []byte) {
	for i := 0; i < len(row); {
		j := i
		for j < len(row) && row[j] == row[i] {
			j++
		}
		if n := j - i; n >= 4 {
			fmt.Fprintf(s, "!%d%c", n, row[i])
		} else {
			s.Write(row[i:j])
		}
		i = j
	}
}

// fitInside is w×h scaled down, aspect kept, to fit maxW×maxH; never up.
func fitInside(w, h, maxW, maxH int) (int, int) {
	if w <= maxW && h <= maxH {
		return w, h
	}
	if w*maxH > h*maxW {
		return maxW, max(1, h*maxW/w)
	}
	return max(1, w*maxH/h), maxH
}
