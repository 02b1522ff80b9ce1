// Package untrusted holds text that came from outside aayu (GitHub's
// titles, bodies, comments, status descriptions) and the one rule that makes
// such text safe on a terminal. Text renders only sanitised; its raw bytes
// are reachable only through Raw, for parsing, comparing and writing back.
// It is a leaf: the model and the terminal shell both use it, and it imports
// neither.
package untrusted
