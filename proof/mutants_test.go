package proof

import (
	"reflect"
	"testing"
)

// Tests here kill mutants of the evidence-event reader that gremlins could
// not run (case conditions, go-gremlins/gremlins#298) or that lived when
// applied by hand (README, "Mutation testing"; testdata/mutation.md).

// greenEvents is a passing go test -json stream for example.com/m/api's TestA,
// with the package-level events go test writes around it.
const greenEvents = `{"Action":"start","Package":"example.com/m/api"}
{"Action":"run","Package":"example.com/m/api","Test":"TestA"}
{"Action":"output","Package":"example.com/m/api","Test":"TestA","Output":"=== RUN   TestA\n"}
{"Action":"pass","Package":"example.com/m/api","Test":"TestA"}
{"Action":"output","Package":"example.com/m/api","Output":"PASS\n"}
{"Action":"pass","Package":"example.com/m/api"}
`

// TestEventsFailAPackageOnlyOnItsOwnFailEvent: a package's start, output
// and pass events are not failures; its fail event or a build failure is.
func TestEventsFailAPackageOnlyOnItsOwnFailEvent(t *testing.T) {
	for _, c := range []struct {
		name, events string
		want         []string
	}{
		{"green run", greenEvents, nil},
		{"package fail", greenEvents + `{"Action":"fail","Package":"example.com/m/api"}` + "\n", []string{"package example.com/m/api"}},
		{"build failure", `{"Action":"build-fail","Package":"example.com/m/api","ImportPath":"example.com/m/api"}` + "\n", []string{"package example.com/m/api"}},
	} {
		tl := newEventTally()
		if why := tl.read([]byte(c.events)); why != "" {
			t.Fatalf("%s: read refused the events: %s", c.name, why)
		}
		if got := tl.failures(); !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: failures = %q, want %q", c.name, got, c.want)
		}
	}
}

// TestEventsWithoutModulePathProveOnlyTheNamedTestInTheNamedPackage: with
// no module path, a mapped test is proven only by a pass of that test's own
// name, in a package whose import path is the mapped package or ends in
// "/" + it; "." names the test in any package.
func TestEventsWithoutModulePathProveOnlyTheNamedTestInTheNamedPackage(t *testing.T) {
	tl := newEventTally()
	if why := tl.read([]byte(greenEvents)); why != "" {
		t.Fatalf("read refused the events: %s", why)
	}
	for ref, want := range map[TestRef]bool{
		{Package: "api", Test: "TestA"}:               true,
		{Package: "example.com/m/api", Test: "TestA"}: true,
		{Package: ".", Test: "TestA"}:                 true,
		{Package: "api", Test: "TestB"}:               false,
		{Package: ".", Test: "TestB"}:                 false,
		{Package: "pi", Test: "TestA"}:                false,
		{Package: "other", Test: "TestA"}:             false,
	} {
		if got := tl.passes(ref, ""); got != want {
			t.Errorf("passes(%s) = %v, want %v", ref, got, want)
		}
	}
}
