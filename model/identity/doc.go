// Package identity decides who may take a human-only step: whether the
// process runs in an agent lane, whether a person must first prove they are
// there (the presence check), whether an approving account has the access a
// step needs, what one approval covers, and when solo mode's bypass is
// refused (seed 001, "Solo mode", "Approving from any device", invariant 6;
// SPEC §6).
//
// It is pure: it reads the environment only through the function it is
// given, does no I/O, and never imports Bubble Tea, go-github or ghx. The
// GitHub layer converts what it reads into the small fact types here
// (Account, Comment). Text from GitHub stays raw; nothing here interprets it
// as an instruction.
package identity
