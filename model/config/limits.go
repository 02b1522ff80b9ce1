package config

import "fmt"

// MaxTOMLBytes and MaxDepth bound every TOML document aayu parses. They
// are checked on the raw bytes before any parser runs, because parsing and
// flattening deeply nested tables costs memory far beyond the file's size
// (32 KB of nested inline tables once took 938 MB). aayu's own settings
// are two levels deep and a few hundred bytes.
const (
	MaxTOMLBytes = 256 << 10
	MaxDepth     = 32
	// maxKeyParts bounds the dots in one dotted key (a.b.c…), nesting that
	// needs no bracket at all.
	maxKeyParts = MaxDepth
)

// CheckTOML refuses, in words, a TOML document too large or too deeply
// nested to parse safely. It is one linear pass over the bytes that tracks
// strings and comments, so brackets and dots inside them do not count.
func CheckTOML(b []byte) error {
	if len(b) > MaxTOMLBytes {
		return fmt.Errorf("it is %d bytes; aayu reads TOML files of at most %d KiB", len(b), MaxTOMLBytes>>10)
	}
	var open [MaxDepth + 1]byte // the innermost brackets, to tell a table's comma from a list's
	depth, dots := 0, 0
	valueSide := false // after '=' on this line (dots then are decimals or dates)
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch c {
		case '#':
			for i < len(b) && b[i] != '\n' {
				i++
			}
			i--
		case '\n':
			dots, valueSide = 0, depth > 0 && valueSide
		case '=':
			valueSide, dots = true, 0
		case ',':
			// Inside an inline table a comma starts the next key.
			if depth > 0 && open[depth] == '{' {
				valueSide, dots = false, 0
			}
		case '.':
			if !valueSide {
				if dots++; dots >= maxKeyParts {
					return fmt.Errorf("a key has more than %d dotted parts; aayu's settings are two levels deep", maxKeyParts)
				}
			}
		case '[', '{':
			if depth++; depth > MaxDepth {
				return fmt.Errorf("it nests tables or lists more than %d deep", MaxDepth)
			}
			open[depth] = c
			if c == '{' {
				valueSide, dots = false, 0
			}
		case ']', '}':
			if depth > 0 {
				depth--
			}
		case '"', '\'':
			end, ok := skipString(b, i)
			if !ok {
				return nil // the parser names the unterminated string
			}
			i = end
		}
	}
	return nil
}

// skipString returns the index of the last byte of the string that opens
// at b[i] (basic or literal, one line or multi-line).
func skipString(b []byte, i int) (int, bool) {
	q := b[i]
	multi := i+2 < len(b) && b[i+1] == q && b[i+2] == q
	j := i + 1
	if multi {
		j = i + 3
	}
	for j < len(b) {
		switch {
		case q == '"' && b[j] == '\\':
			j += 2
			continue
		case !multi && b[j] == '\n':
			return j - 1, true
		case b[j] == q && !multi:
			return j, true
		case b[j] == q && j+2 < len(b) && b[j+1] == q && b[j+2] == q:
			// A multi-line string may end with up to two more quotes.
			for j+3 < len(b) && b[j+3] == q {
				j++
			}
			return j + 2, true
		}
		j++
	}
	return len(b) - 1, false
}
