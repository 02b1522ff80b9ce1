package untrusted

// Text is text as GitHub (or another outside writer) gave it: an issue's or
// pull request's title or body, a comment, a status description. It is
// converted where it enters aayu, and renders only sanitised: String (which
// fmt's %s, %v and %q call) gives one safe line and Block safe lines, so
// composing it into aayu's own words with fmt cannot carry an escape
// sequence along. Passing it where a string is wanted does not compile;
// the choice between String, Block and Raw is made at each use, in sight.
type Text string

// String is the text as one safe line (Line): control sequences, C1
// controls, bidi overrides and zero-width characters shown, never obeyed,
// and a line break shown as "⏎".
func (t Text) String() string { return Line(string(t)) }

// Block is the text as safe lines (Sanitize), keeping its line breaks: for
// a body or a comment shown as a paragraph.
func (t Text) Block() string { return Sanitize(string(t)) }

// Raw is the text exactly as it came, control bytes and all. It is for
// parsing (a Decision's options, "Fixes #N"), comparing two reads, and
// writing back to GitHub through actions.Neutralize; never for a terminal.
func (t Text) Raw() string { return string(t) }

// Empty says whether there is no text at all.
func (t Text) Empty() bool { return t == "" }
