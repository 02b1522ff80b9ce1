package untrusted

import "strings"

// Login, Label, Ref and Context are the short names GitHub hands aayu —
// an account's login, a label, a branch name, a commit status's context.
// GitHub limits few of them (a branch or a status context may hold any
// text its writer chose, escape sequences included), so they are typed
// where ghx decodes them: each renders only through the one rule (String,
// which fmt's %s, %v and %q call, gives Line's safe line), and compares by
// its raw value, so a name that differs only in a control character is
// another name, as GitHub has it. No screen keeps a clean() of its own for
// them (issue #21).

// Login is an account's login as GitHub gave it.
type Login string

// String is the login as one safe line.
func (l Login) String() string { return Line(string(l)) }

// Raw is the login exactly as it came: for comparing, a URL path or an API
// call, never a terminal.
func (l Login) Raw() string { return string(l) }

// Is compares two logins as GitHub does, ignoring case.
func (l Login) Is(other string) bool { return strings.EqualFold(string(l), other) }

// Label is a label's name as GitHub gave it.
type Label string

// String is the label as one safe line.
func (l Label) String() string { return Line(string(l)) }

// Raw is the label exactly as it came, for comparing and writing back.
func (l Label) Raw() string { return string(l) }

// Ref is a branch name as GitHub gave it (a pull request's head or base).
type Ref string

// String is the branch name as one safe line.
func (r Ref) String() string { return Line(string(r)) }

// Raw is the branch name exactly as it came, for comparing, git and the API.
func (r Ref) Raw() string { return string(r) }

// Context is a commit status's context as its writer set it, e.g.
// "aayudha/inspect"; anyone who can write a status can name one.
type Context string

// String is the context as one safe line.
func (c Context) String() string { return Line(string(c)) }

// Raw is the context exactly as it came, for comparing.
func (c Context) Raw() string { return string(c) }
