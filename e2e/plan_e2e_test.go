package e2e

const policyPlanBody = "## Completion Goal\n1. The dental cap holds\n\n## Plan\n- `policy/dental.go`: the cap\n"
