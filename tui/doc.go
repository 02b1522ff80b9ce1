// Package tui is aayu's program shell: it parses the command line, decides
// between the full-screen and the plain renderer, runs a Screen in either,
// and owns everything about the terminal that screens share — exit codes,
// styles with adaptive colours, key bindings and the help line, OSC 8 links,
// and sanitising untrusted text before it reaches the terminal or a model.
//
// The renderer decision is made once, in Run: a screen produces content and
// state (View for full screen, Transcript for plain lines) and never asks
// how it is drawn. Plain mode appends lines and never redraws, never colours.
//
// This package must not do I/O on behalf of screens, talk to GitHub, read
// configuration files or know anything about proof packs; it must not keep
// package-level mutable state. Core packages (proof, model, ghx, actions)
// never import it.
//
// The sub-package tuitest holds the checks screens' tests share (a view fits
// its terminal, plain output is plain, golden files); only tests import it.
package tui
