package sandbox

import "errors"

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
