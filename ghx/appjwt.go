package ghx

import (
	"time"

	"github.com/aayudha/aayu/ghx/appjwt"
)

// SignAppJWT signs the JWT an App authenticates with (appjwt.Sign). aayu
// init --identity uses it once, to read the new App's webhook
// configuration with its own key.
func SignAppJWT(keyPEM, clientID string, now time.Time) (string, error) {
	return appjwt.Sign(keyPEM, clientID, now)
}
