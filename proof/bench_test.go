package proof

import "testing"

func BenchmarkDecode(b *testing.B) {
	raw := mustReadTestdata(b, "packs/story131.json")
	for b.Loop() {
		if _, err := Decode(raw); err != nil {
			b.Fatal(err)
		}
	}
}
