package inbox

import (
	"fmt"
	"strings"

	"github.com/aayudha/aayu/model/checks"
	"github.com/aayudha/aayu/model/gitsha"
	"github.com/aayudha/aayu/model/untrusted"
)

// flagFailingChecks marks a pull request's card whose head has a failing
// check — another workflow's check run, say the project's own tests: the
// counsel names each and says ship's one rule in the seed's words
// (checks.Rule), and "ship it" stays visible but cannot be taken, since
// ship refuses a head with any check red. Opening it is recommended.
func flagFailingChecks(st *Step, failing []checks.Check) {
	if len(failing) == 0 {
		return
	}
	var names []string
	for _, c := range failing {
		names = append(names, c.Describe())
	}
	flag := fmt.Sprintf("A check failed on head %s: %s. Ship refuses it: %s.", gitsha.Short(st.Head), strings.Join(names, "; "), checks.Rule)
	st.Counsel = untrusted.Text(flag + " " + st.Counsel.Raw())
	for i := range st.Choices {
		c := &st.Choices[i]
		for _, w := range c.Writes {
			if w.Kind == WriteOpenShip {
				c.Disabled = "ship refuses it while a check is failing: " + strings.Join(names, "; ")
				c.Recommended = false
			}
		}
	}
	for i := range st.Choices {
		c := &st.Choices[i]
		if len(c.Writes) == 1 && c.Writes[0].Kind == WriteOpen {
			c.Recommended = true
			break
		}
	}
}
