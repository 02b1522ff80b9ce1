// Package pass holds the rules of the human pass that ship needs before it
// merges (seed 001, "The human pass", "Protected paths and CODEOWNERS";
// SPEC §5): each reviewer's latest decisive review, which reviews count, the
// pass rule, never layers with their CODEOWNERS and plan review, merges on
// proof and on an autonomous footprint, the solo-mode bypass, the pull
// request's footprint from LAYERS.md, CODEOWNERS matching, the
// protected-paths gate, and which policy keys a higher configuration layer
// made looser than the base branch's.
//
// It is pure: callers read GitHub, the base branch's files and the
// configuration and hand the facts in; it does no I/O and never imports
// Bubble Tea, go-github or ghx. Every refusal is a sentence a person reads.
package pass
