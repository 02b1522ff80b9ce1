// Package ship is the ship screen: every gate of actions/ship as a line that
// fills in (waiting, running, passed, refused with its reason in words), the
// runs passed over, then the merge and the record; the verified pack is one
// key away. The run happens in actions/ship as a tea.Cmd; this package only
// draws what it reports. The plain twin prints each gate's line as it ends.
package ship
