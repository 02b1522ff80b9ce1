// Package vulnlib is a made-up dependency with a known vulnerable symbol:
// the fixture vulnerability database (../vulndb) lists GO-2026-0001 in
// Parse, fixed in v1.0.1. The tests vendor it at v1.0.0.
package vulnlib

// Parse is the vulnerable symbol.
func Parse(s string) string { return s }

// Safe is not vulnerable.
func Safe() int { return 1 }
