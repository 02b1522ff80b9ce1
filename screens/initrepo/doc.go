// Package initrepo is the init screen: what `aayu init` read, what it will
// write, one confirmation, then the set-up pull request and the variable.
// The same model draws the full screen and the plain twin.
package initrepo
