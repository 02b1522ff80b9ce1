package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/aayudha/aayu/model/identity"
	model "github.com/aayudha/aayu/model/inbox"
	"github.com/aayudha/aayu/tui"
)

// runInboxJSON is `aayu inbox --json FIELDS`: the cards of the same read
// --list makes (the inbox's Read, then model.Derive), printed as one JSON
// array of objects with the fields asked for, in gh's style. Read-only, like
// --list: no presence check, no cache written.
func (w wiring) runInboxJSON() int {
	e := w.e
	deps, err := w.inboxDeps(w.here("aayu inbox"), func() *identity.Session { return nil })
	if err != nil {
		return reportDeps(e, w.inv.Command, err)
	}
	snap, err := deps.Read(w.ctx, nil, time.Time{})
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inbox: the inbox could not be read from GitHub: %s\n", tui.SanitizeLine(err.Error()))
		return tui.ExitFailed
	}
	b, err := inboxJSON(model.Derive(snap), strings.Split(w.inv.Flags["json"], ","))
	if err != nil {
		fmt.Fprintf(e.stderr, "aayu inbox: %v\n", err)
		return tui.ExitFailed
	}
	if _, err := e.stdout.Write(b); err != nil {
		fmt.Fprintf(e.stderr, "aayu inbox: writing the JSON: %v\n", err)
		return tui.ExitFailed
	}
	return tui.ExitOK
}

// inboxJSON encodes the steps' fields as an indented JSON array, one
// object a step, ending in a newline. Text from GitHub is data here and
// keeps every character, but never reaches a terminal raw: every character
// outside printable ASCII is written as a \u escape.
func inboxJSON(steps []model.Step, fields []string) ([]byte, error) {
	items := make([]map[string]any, 0, len(steps))
	for _, st := range steps {
		obj, err := st.JSON(fields)
		if err != nil {
			return nil, err
		}
		items = append(items, obj)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(items); err != nil {
		return nil, fmt.Errorf("encoding the cards as JSON: %w", err)
	}
	return asciiJSON(buf.Bytes()), nil
}

// asciiJSON rewrites valid JSON so that it holds printable ASCII only: each
// rune at or above DEL becomes \uXXXX (a surrogate pair above U+FFFF).
// encoding/json already escapes the C0 controls; outside strings JSON is
// ASCII, so only string contents change, and they decode the same.
func asciiJSON(b []byte) []byte {
	var out bytes.Buffer
	out.Grow(len(b))
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		switch {
		case r < 0x7f:
			out.WriteByte(b[0])
		case r > 0xffff:
			hi, lo := utf16.EncodeRune(r)
			fmt.Fprintf(&out, `\u%04x\u%04x`, hi, lo)
		default:
			fmt.Fprintf(&out, `\u%04x`, r)
		}
		b = b[size:]
	}
	return out.Bytes()
}
