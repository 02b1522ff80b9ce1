package pass

import "github.com/aayudha/aayu/model/config"

// The lead's merged configuration is what ship reads policy from.
var _ Getter = (*config.Config)(nil)
