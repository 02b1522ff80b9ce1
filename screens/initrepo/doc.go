// Package initrepo is the init screen: what `aayu init` read, what it will
// write, one confirmation (a huh Confirm; ask.go), then the set-up pull
// request and the variable.
// The same model draws the full screen and the plain twin.
package initrepo
