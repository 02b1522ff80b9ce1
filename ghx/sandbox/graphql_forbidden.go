package sandbox

import (
	"errors"
	"strings"
)

// gqlForbidden is a field the caller may not read. GitHub answers such a
// query with data — the field null — and an error of type FORBIDDEN whose
// path names the field, e.g. Repository.collaborators for an account
// without push access: "Must have push access to view repository
// collaborators." A client must take the rest of the data and trust
// nothing about the null field.
type gqlForbidden struct{ message string }

func (e gqlForbidden) Error() string { return e.message }

// errorType is the "type" GitHub gives a GraphQL error, "" for none.
func errorType(err error) string {
	var f gqlForbidden
	if errors.As(err, &f) {
		return "FORBIDDEN"
	}
	return ""
}

// forbiddenRepositoryField refuses the Repository fields the caller's
// access does not reach, as GitHub does.
func (e *gqlExec) forbiddenRepositoryField(name string) error {
	if name == "collaborators" && !e.c.canPush() {
		return gqlForbidden{"Must have push access to view repository collaborators."}
	}
	return nil
}

// jobForbidden holds a workflow token to its job in GraphQL as refuseJob
// does in REST: its own repository only, and each field only with the
// permission REST asks for the same data (scope, or alt), read; else
// GitHub's FORBIDDEN "Resource not accessible by integration".
func (e *gqlExec) jobForbidden(scope, alt string) error {
	jt := e.c.job
	if jt == nil {
		return nil
	}
	if !strings.EqualFold(jt.repo, RepoName) || !jt.grants(scope, alt, false) {
		return gqlForbidden{notAccessible}
	}
	return nil
}

// itemScope is the permission an issue (issues) or a pull request
// (pull-requests, or issues as REST also takes) needs.
func itemScope(is *issueRec) (scope, alt string) {
	if is.PR != nil {
		return "pull-requests", "issues"
	}
	return "issues", ""
}
