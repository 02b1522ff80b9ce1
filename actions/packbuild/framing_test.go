package packbuild

import (
	"slices"
	"testing"
)

// TestFramingWarnsOfTestMainInitAndSetupVars: what the pull request adds or
// changes around a test is named; reformatting or a new comment is not.
func TestFramingWarnsOfTestMainInitAndSetupVars(t *testing.T) {
	t.Parallel()
	const base = "package p\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) { m.Run() }\n\nfunc TestX(t *testing.T) {}\n"
	cases := []struct {
		name       string
		file       string
		base, head string
		want       []string
	}{
		{"TestMain added", "p/main_test.go", "", base, []string{"TestMain in p/main_test.go (added)"}},
		{"TestMain changed", "p/main_test.go", base, "package p\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) { println(\"--- PASS: TestX\"); m.Run() }\n\nfunc TestX(t *testing.T) {}\n",
			[]string{"TestMain in p/main_test.go (changed)"}},
		{"TestMain reformatted and commented", "p/main_test.go", base, "package p\n\nimport \"testing\"\n\n// TestMain runs the tests.\nfunc TestMain(m *testing.M) {\n\tm.Run()\n}\n\nfunc TestX(t *testing.T) {}\n", nil},
		{"only a test body changed", "p/main_test.go", base, "package p\n\nimport \"testing\"\n\nfunc TestMain(m *testing.M) { m.Run() }\n\nfunc TestX(t *testing.T) { t.Log(1) }\n", nil},
		{"init added in code", "p/p.go", "package p\n", "package p\n\nfunc init() { setup() }\n\nfunc setup() {}\n", []string{"init in p/p.go (added)"}},
		{"second init added", "p/p_test.go", "package p\n\nfunc init() {}\n", "package p\n\nfunc init() {}\n\nfunc init() { panic(1) }\n", []string{"init (the second in the file) in p/p_test.go (added)"}},
		{"setup variable in a test file", "p/p_test.go", "package p\n", "package p\n\nvar _ = func() int { return 1 }()\n", []string{"var _ in p/p_test.go (added)"}},
		{"plain variable in a test file", "p/p_test.go", "package p\n", "package p\n\nvar want = 3\n", nil},
		{"TestMain in non-test code is not framing", "p/p.go", "package p\n", "package p\n\nfunc TestMain() {}\n", nil},
		{"head does not parse", "p/p_test.go", "package p\n", "package p\nfunc (\n", nil},
		{"file deleted", "p/main_test.go", base, "", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b, h []byte
			if tc.base != "" {
				b = []byte(tc.base)
			}
			if tc.head != "" {
				h = []byte(tc.head)
			}
			if got := framingChanges(tc.file, b, h); !slices.Equal(got, tc.want) {
				t.Errorf("framingChanges = %q, want %q", got, tc.want)
			}
		})
	}
}
