//go:build ignore

// gen_media writes testdata/media: the demo pack with media beside its
// data artifacts, as the merge gate's run artifact holds them (a
// screenshot, a recording and a screen-reader transcript with their bytes,
// store none) and one screenshot kept in the media bucket and not fetched.
// Run from screens/pack: go run testdata/gen_media.go
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"log"
	"os"
	"path/filepath"
)

func main() {
	from := filepath.Join("..", "..", "testdata", "demo", "pack")
	to := filepath.Join("testdata", "media")
	must(os.RemoveAll(to))
	must(filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(to, rel), b, 0o644)
	}))
	raw, err := os.ReadFile(filepath.Join(to, "pack.json"))
	must(err)
	var p map[string]any
	must(json.Unmarshal(raw, &p))
	// The demo's screenshot without bytes goes: this pack's has them.
	var arts []any
	for _, a := range p["artifacts"].([]any) {
		if a.(map[string]any)["path"] != "screens/1.png" {
			arts = append(arts, a)
		}
	}
	add := func(kind, path, store, object string, data []byte) {
		sum := sha256.Sum256(data)
		a := map[string]any{"kind": kind, "path": path, "sha256": hex.EncodeToString(sum[:]), "size": len(data), "store": store}
		if object != "" {
			a["object"] = object
		} else {
			must(os.MkdirAll(filepath.Join(to, "artifacts", filepath.Dir(path)), 0o755))
			must(os.WriteFile(filepath.Join(to, "artifacts", path), data, 0o644))
		}
		arts = append(arts, a)
	}
	add("screenshot", "screens/1.png", "none", "", picture(48, 24))
	add("recording", "recordings/1.webm", "none", "", []byte("\x1aE\xdf\xa3 a webm recording's first bytes\n"))
	add("sr-transcript", "sr/1.txt", "none", "", []byte("heading level 1: Summary\nDental deductible: 50 dollars\n"))
	add("screenshot", "screens/2.png", "bucket", "aayudha/131/screens/2.png", picture(16, 16))
	p["artifacts"] = arts
	out, err := json.MarshalIndent(p, "", "  ")
	must(err)
	must(os.WriteFile(filepath.Join(to, "pack.json"), append(out, '\n'), 0o644))
}

// picture is a w×h PNG: a blue-to-green gradient with a red bar, so an
// image drawn wrong is seen.
func picture(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			c := color.RGBA{0, uint8(255 * x / w), uint8(255 - 255*x/w), 255}
			if y >= h/3 && y < h/2 {
				c = color.RGBA{220, 30, 30, 255}
			}
			img.Set(x, y, c)
		}
	}
	var b bytes.Buffer
	must(png.Encode(&b, img))
	return b.Bytes()
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}
