package tui

import (
	"image/color"
	"math"
	"testing"

	"charm.land/lipgloss/v2"
)

func TestStylesContrast(t *testing.T) {
	// Typical terminal backgrounds: text must stay readable on all of them.
	lightBackgrounds := []string{"#FFFFFF", "#FDF6E3", "#EEEEEE"}
	darkBackgrounds := []string{"#000000", "#1E1E1E", "#282C34", "#002B36"}
	for _, dark := range []bool{false, true} {
		st := NewStyles(dark)
		backgrounds := lightBackgrounds
		if dark {
			backgrounds = darkBackgrounds
		}
		styles := map[string]lipgloss.Style{
			"Title": st.Title, "Subtle": st.Subtle, "Text": st.Text, "OK": st.OK, "Failed": st.Failed,
			"Warning": st.Warning, "Key": st.Key, "KeyDesc": st.KeyDesc, "Link": st.Link,
		}
		for name, s := range styles {
			fg := s.GetForeground()
			if _, ok := fg.(lipgloss.NoColor); ok || fg == nil {
				t.Errorf("dark=%v: %s has no foreground colour", dark, name)
				continue
			}
			for _, bg := range backgrounds {
				if r := contrast(fg, lipgloss.Color(bg)); r < 4.5 {
					t.Errorf("dark=%v: %s on %s has contrast %.2f, want at least 4.5", dark, name, bg, r)
				}
			}
		}
	}
}

func TestStylesDifferForLightAndDark(t *testing.T) {
	light, dark := NewStyles(false), NewStyles(true)
	if sameColor(light.OK.GetForeground(), dark.OK.GetForeground()) {
		t.Error("OK has the same colour on light and dark backgrounds")
	}
	if !dark.Selected.GetReverse() {
		t.Error("Selected must use reverse video so it shows without colour")
	}
}

func sameColor(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	return ar == br && ag == bg && ab == bb
}

// contrast is the WCAG 2 contrast ratio of two colours.
func contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

func luminance(c color.Color) float64 {
	r, g, b, _ := c.RGBA()
	lin := func(v uint32) float64 {
		s := float64(v) / 0xffff
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}
