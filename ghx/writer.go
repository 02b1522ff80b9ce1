package ghx

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/google/go-github/v66/github"
)

// Writer is the login a client's writes go out as. A person's token and a
// machine user's read it from GET /user; an App's installation token
// cannot (GitHub answers 403 "Resource not accessible by integration": the
// token acts as the installation, not as a user), so its login is the
// App's bot, appLogin ("<slug>[bot]", from [identity] app_slug). With no
// appLogin known such a token is an error that says so.
func Writer(ctx context.Context, c *github.Client, appLogin string) (string, error) {
	u, resp, err := c.Users.Get(ctx, "")
	var er *github.ErrorResponse
	switch {
	case err != nil && resp != nil && resp.StatusCode == http.StatusForbidden && errors.As(err, &er):
		if appLogin != "" {
			return appLogin, nil
		}
		return "", errors.New("this token cannot read which account it is (an App's installation token?), and no [identity] app_slug names the App it writes as")
	case err != nil:
		return "", fmt.Errorf("reading which account this token is: %s", Describe(err))
	case u.GetLogin() == "":
		return "", errors.New("GitHub named no account for this token")
	}
	return u.GetLogin(), nil
}
