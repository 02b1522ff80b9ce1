// Package model holds aayu's domain types and pure rules: inbox steps, the
// human pass, the pass rule, policy and identity decisions. It must not do
// I/O or import Bubble Tea; callers hand it facts and act on its answers.
package model
