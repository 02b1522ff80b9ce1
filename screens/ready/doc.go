// Package ready is the screen of `aayu ready STORY [--again]`: the Story's
// Completion Goal with its hash, then the person's yes to the writes listed
// (the Ready snapshot on the ledger, the status label), in the full screen
// and its plain twin.
package ready
