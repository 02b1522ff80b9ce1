package ship

import (
	"fmt"
	"os"

	"github.com/aayudha/aayu/proof"
)

// unzipPack unpacks the aayudha-pack zip at zipPath into dir (which must not
// exist yet) with proof.ExtractPackZip under ship's caps — refusing unclean
// or escaping names, names twice or twice up to case, symlinks and other
// irregular files, sizes that lie, a file that inflates past the ratio cap,
// and any file pack.json does not list, all before writing — and then holds
// it to the pack layout: pack.json at the root and nothing beside it but
// artifacts/. A refused zip leaves no folder behind.
func unzipPack(zipPath, dir string, caps Caps) error {
	caps = caps.withDefaults()
	f, err := os.Open(zipPath)
	if err != nil {
		return fmt.Errorf("the zip cannot be read: %v", err)
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return fmt.Errorf("the zip cannot be read: %v", err)
	}
	if err := proof.ExtractPackZip(f, info.Size(), dir, proof.ZipCaps{Entries: caps.Entries, TotalBytes: caps.Uncompressed}); err != nil {
		return err
	}
	if err := checkPackLayout(dir); err != nil {
		_ = os.RemoveAll(dir)
		return err
	}
	return nil
}

// checkPackLayout refuses an unpacked zip that holds anything at its root
// but the file pack.json and the folder artifacts, or lacks pack.json.
func checkPackLayout(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("the unpacked zip cannot be read: %v", err)
	}
	hasPack := false
	for _, e := range entries {
		switch {
		case e.Name() == "pack.json" && e.Type().IsRegular():
			hasPack = true
		case e.Name() == "artifacts" && e.IsDir():
		default:
			return fmt.Errorf("entry %q lies outside pack.json and artifacts/", e.Name())
		}
	}
	if !hasPack {
		return fmt.Errorf("the zip has no pack.json at its root")
	}
	return nil
}
