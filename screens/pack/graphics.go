package pack

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
)

// graphics is how this terminal can draw an image, as it answered the
// query: never guessed from TERM, so a terminal behind tmux or an SSH
// client that passes nothing through shows no image.
type graphics int

const (
	gfxNone  graphics = iota // no answer, a wrong one, or not asked
	gfxKitty                 // the kitty graphics protocol answered OK
	gfxSixel                 // the primary device attributes list 4, sixel
)

func (g graphics) String() string {
	switch g {
	case gfxKitty:
		return "the kitty graphics protocol"
	case gfxSixel:
		return "sixel"
	}
	return "none"
}

// kittyQueryID is the image id of the query: its answer names it, so an
// answer to anything else is never taken for one.
const kittyQueryID = 31

// graphicsQuery asks the terminal whether it speaks the kitty graphics
// protocol (a=q: query only, one 1×1 RGB pixel, nothing stored or drawn),
// then for the size of a cell in pixels (XTWINOPS 16, so an image fits its
// rows; a terminal that does not know it says nothing), then for its
// primary device attributes. Every terminal answers the last one, so its
// answer ends the check: a kitty answer arrives before it or not at all
// (the protocol's documented way to detect support,
// https://sw.kovidgoyal.net/kitty/graphics-protocol/#querying-support-and-available-transmission-mediums).
const graphicsQuery = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\" + "\x1b[16t" + "\x1b[c"

// graphicsTimeout is how long the check waits for the device attributes;
// no answer by then is no.
const graphicsTimeout = 200 * time.Millisecond

// graphicsProbe reads the terminal's answers to graphicsQuery as Bubble
// Tea delivers them (the ultraviolet decoder's events) and decides.
type graphicsProbe struct {
	kittyOK bool // an OK for kittyQueryID arrived
	done    bool
	result  graphics
	cellW   int // a cell's size in pixels, when the terminal said it
	cellH   int
}

// cell is the size in pixels an image is fitted to per cell: the
// terminal's own when it said it; else small enough that a sixel image
// stays inside its rows on any usual font (it only looks smaller on a
// larger one), and the usual 1:2 shape for kitty, which scales to cells.
func (p *graphicsProbe) cell() (int, int) {
	switch {
	case p.cellW > 0:
		return p.cellW, p.cellH
	case p.result == gfxSixel:
		return 6, 12
	}
	return 8, 16
}

// observe takes one message; it reports whether the check is over. Any
// message that is not one of the two answers is ignored, so stray input
// or garbage never decides anything.
func (p *graphicsProbe) observe(msg any) bool {
	if p.done {
		return true
	}
	switch msg := msg.(type) {
	case uv.KittyGraphicsEvent:
		if msg.Options.ID == kittyQueryID {
			p.kittyOK = string(msg.Payload) == "OK"
		}
	case uv.CellSizeEvent:
		if msg.Width >= 4 && msg.Width <= 128 && msg.Height >= 8 && msg.Height <= 256 {
			p.cellW, p.cellH = msg.Width, msg.Height
		}
	case uv.PrimaryDeviceAttributesEvent:
		p.done = true
		switch {
		case p.kittyOK:
			p.result = gfxKitty
		case slices.Contains([]int(msg), 4):
			p.result = gfxSixel
		}
	case probeTimeoutMsg:
		// A kitty OK with no device attributes after it is not the
		// documented answer: no.
		p.done, p.result = true, gfxNone
	}
	return p.done
}

// probeTimeoutMsg ends a check that got no device attributes in time.
type probeTimeoutMsg struct{}

// kittyImage is the sequence that transmits a PNG by the kitty graphics
// protocol (f=100: PNG, t=d: the bytes inline, base64 in chunks of at
// most 4096 bytes, m=1 on all but the last) and shows it at the cursor
// scaled to cols×rows cells. q=2 keeps the terminal from answering, so no
// reply reaches the screen's input, and C=1 leaves the cursor where it
// was.
func kittyImage(png []byte, id, cols, rows int) string {
	enc := base64.StdEncoding.EncodeToString(png)
	var b strings.Builder
	for first := true; first || enc != ""; first = false {
		chunk := enc[:min(4096, len(enc))]
		enc = enc[len(chunk):]
		more := 0
		if enc != "" {
			more = 1
		}
		b.WriteString("\x1b_G")
		if first {
			fmt.Fprintf(&b, "a=T,f=100,t=d,i=%d,c=%d,r=%d,C=1,", id, cols, rows)
		}
		// Every chunk says q=2: later chunks may carry only m and q.
		fmt.Fprintf(&b, "q=2,m=%d;%s\x1b\\", more, chunk)
	}
	return b.String()
}

// kittyDelete removes the image id from the screen and the terminal's
// memory.
func kittyDelete(id int) string { return fmt.Sprintf("\x1b_Ga=d,d=I,i=%d,q=2\x1b\\", id) }

// placed draws seq with its top-left corner at row, col (1-based), then
// puts the cursor back where the renderer left it: the renderer keeps
// track of the cursor, and an image must not move it.
func placed(seq string, row, col int) string {
	var b bytes.Buffer
	fmt.Fprintf(&b, "\x1b7\x1b[%d;%dH%s\x1b8", row, col, seq)
	return b.String()
}
