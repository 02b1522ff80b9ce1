//go:build !unix

package proof

// openNonBlocking is unneeded where FIFOs do not block an open.
const openNonBlocking = 0
