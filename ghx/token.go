package ghx

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"strconv"
)

// Token is a GitHub token together with where it came from. Every way of
// printing it — fmt verbs, JSON, text, slog — shows only its source, so a
// token that ends up in a log line, an error or a test failure gives nothing
// away.
//
// The value sits behind a pointer on purpose: when a Token is an unexported
// field of some other struct, fmt cannot call its methods and prints the
// field's raw contents, and a pointer at that depth prints as an address.
type Token struct {
	secret *tokenSecret
}

type tokenSecret struct {
	value  string
	source string
}

// NewToken wraps a token value read from source (for example
// "AAYU_GITHUB_TOKEN" or "gh auth token"). An empty value gives the zero
// Token.
func NewToken(value, source string) Token {
	if value == "" {
		return Token{}
	}
	return Token{secret: &tokenSecret{value: value, source: source}}
}

// Reveal returns the token's value. Only the transport that sets the
// Authorization header calls it; nothing else in aayu needs the value.
func (t Token) Reveal() string {
	if t.secret == nil {
		return ""
	}
	return t.secret.value
}

// Source says where the token came from, never what it is.
func (t Token) Source() string {
	if t.secret == nil {
		return ""
	}
	return t.secret.source
}

// IsZero reports whether there is no token.
func (t Token) IsZero() bool { return t.secret == nil || t.secret.value == "" }

// String shows the token's source in place of its value.
func (t Token) String() string {
	if t.IsZero() {
		return "[no token]"
	}
	return "[token from " + t.secret.source + "]"
}

// GoString keeps %#v from printing the value.
func (t Token) GoString() string { return "ghx.Token(" + strconv.Quote(t.String()) + ")" }

// Format makes every fmt verb (%v, %+v, %#v, %s, %q, %x, %d …) print the
// source description and never the value.
func (t Token) Format(f fmt.State, verb rune) {
	switch verb {
	case 'q':
		fmt.Fprint(f, strconv.Quote(t.String()))
	case 'v':
		if f.Flag('#') {
			fmt.Fprint(f, t.GoString())
			return
		}
		fmt.Fprint(f, t.String())
	default:
		fmt.Fprint(f, t.String())
	}
}

// MarshalJSON writes the source description as a JSON string.
func (t Token) MarshalJSON() ([]byte, error) { return json.Marshal(t.String()) }

// MarshalText writes the source description.
func (t Token) MarshalText() ([]byte, error) { return []byte(t.String()), nil }

// LogValue keeps slog from reaching the value through reflection.
func (t Token) LogValue() slog.Value { return slog.StringValue(t.String()) }

// cacheNamespace derives a per-token namespace for the HTTP cache when the
// caller gives none: a short prefix of a domain-separated SHA-256, which
// names the user's cache without holding or revealing the token.
func (t Token) cacheNamespace() string {
	if t.IsZero() {
		return "anonymous"
	}
	sum := sha256.Sum256([]byte("aayu http cache namespace\x00" + t.secret.value))
	return "token-sha256:" + hex.EncodeToString(sum[:8])
}

// Fingerprint names the token for one purpose (a cache file per user) with
// a short prefix of a domain-separated SHA-256: stable for the same token
// and purpose, never the value, and different between purposes so two
// fingerprints cannot be matched up.
func (t Token) Fingerprint(purpose string) string {
	if t.IsZero() {
		return "anonymous"
	}
	sum := sha256.Sum256([]byte("aayu " + purpose + "\x00" + t.secret.value))
	return hex.EncodeToString(sum[:8])
}
