// Package proofpush is the screen of `aayu proof push STORY [--media]`: it
// lands the local pack as an advisory pack (actions/proofpush) and shows
// what landed, full screen or as plain lines. It asks nothing, since an
// advisory pack is a preview that never counts for ship, and a quit while
// the push runs lets it finish first.
package proofpush
