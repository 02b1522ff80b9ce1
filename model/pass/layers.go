package pass

import (
	"fmt"
	"sort"
	"strings"

	"github.com/aayudha/aayu/internal/lazyre"
)

// Layer is one row of LAYERS.md: `| L04 | policy | glob, glob |`.
type Layer struct {
	ID    string // "L04"
	Name  string // "policy"
	Globs []string
	globs []glob
}

var layerID = lazyre.New(`^L[0-9]+$`)

// ParseLayers reads the layer table of LAYERS.md. Rows whose first cell is
// not a layer id (the header, the separator, other tables) are skipped; a
// layer row without globs, a bad glob, a repeated id, or no layer at all is
// an error, so a footprint is never computed from a table half read.
func ParseLayers(md string) ([]Layer, error) {
	var out []Layer
	seen := map[string]int{}
	for i, line := range strings.Split(strings.ReplaceAll(md, "\r\n", "\n"), "\n") {
		line = strings.TrimSpace(line)
		if !strings.HasPrefix(line, "|") {
			continue
		}
		cells := strings.Split(strings.Trim(line, "|"), "|")
		if len(cells) < 3 {
			continue
		}
		id := strings.Trim(strings.TrimSpace(cells[0]), "`")
		if !layerID().MatchString(id) {
			continue
		}
		if prev, dup := seen[id]; dup {
			return nil, fmt.Errorf("LAYERS.md line %d: layer %s is listed again (first on line %d)", i+1, id, prev)
		}
		seen[id] = i + 1
		l := Layer{ID: id, Name: strings.TrimSpace(cells[1])}
		for _, g := range strings.Split(cells[2], ",") {
			g = strings.Trim(strings.TrimSpace(g), "`")
			if g == "" {
				continue
			}
			cg, err := compileGlob(g)
			if err != nil {
				return nil, fmt.Errorf("LAYERS.md line %d, layer %s: %w", i+1, id, err)
			}
			l.Globs = append(l.Globs, g)
			l.globs = append(l.globs, cg)
		}
		if len(l.Globs) == 0 {
			return nil, fmt.Errorf("LAYERS.md line %d: layer %s has no globs", i+1, id)
		}
		out = append(out, l)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("LAYERS.md has no layer rows like | L04 | policy | internal/policy/** |")
	}
	return out, nil
}

// Matches says whether a path lies in the layer.
func (l Layer) Matches(p string) bool {
	gs := l.globs
	if gs == nil { // a Layer built by hand rather than parsed
		for _, g := range l.Globs {
			if cg, err := compileGlob(g); err == nil {
				gs = append(gs, cg)
			}
		}
	}
	for _, g := range gs {
		if g.match(p) {
			return true
		}
	}
	return false
}

// ChangedFile is one file a pull request changes; PreviousPath is set for a
// rename, whose old path counts too.
type ChangedFile struct {
	Path         string
	PreviousPath string
}

// paths lists every path a change touches: each file and each rename's old
// path.
func paths(changed []ChangedFile) []string {
	var out []string
	for _, c := range changed {
		out = append(out, c.Path)
		if c.PreviousPath != "" && c.PreviousPath != c.Path {
			out = append(out, c.PreviousPath)
		}
	}
	return out
}

// Footprint is the sorted set of layer ids whose globs match a changed path
// or a rename's old path.
func Footprint(changed []ChangedFile, layers []Layer) []string {
	set := map[string]bool{}
	for _, p := range paths(changed) {
		for _, l := range layers {
			if l.Matches(p) {
				set[l.ID] = true
			}
		}
	}
	out := make([]string, 0, len(set))
	for id := range set {
		out = append(out, id)
	}
	sort.Strings(out)
	return out
}
