// Package plan is the screen of `aayu plan STORY [--solo-bypass]`: the
// Story's Plan section and the never layers it touches, then the person's
// yes to the writes listed (the comment on the Story, the plan review record
// on the ledger), in the full screen and its plain twin.
package plan
