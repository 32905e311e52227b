// Command tlog-check verifies what the Asset Registry log published with Go's reference
// implementation of the formats (golang.org/x/mod/sumdb/tlog and sumdb/note), not with our
// own code: the checkpoint signatures, the tiles (through tlog.TileHashReader, which checks
// every tile it reads against the signed tree hash), the inclusion and consistency proofs the
// API gave, and the tlog-proof files. It reads one JSON file (see ledger-interop.test.ts) and
// prints "ok" or exits 1 with the first disagreement.
package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"golang.org/x/mod/sumdb/note"
	"golang.org/x/mod/sumdb/tlog"
)

type inclusion struct {
	Index    int64    `json:"index"`
	TreeSize int64    `json:"treeSize"`
	LeafHash string   `json:"leafHash"`
	Proof    []string `json:"proof"`
}

type consistency struct {
	From  int64    `json:"from"`
	To    int64    `json:"to"`
	Proof []string `json:"proof"`
}

type input struct {
	VerifierKey string            `json:"verifierKey"`
	Checkpoints map[string]string `json:"checkpoints"`
	TileDir     string            `json:"tileDir"`
	Inclusions  []inclusion       `json:"inclusions"`
	Consistency []consistency     `json:"consistency"`
	TlogProofs  []string          `json:"tlogProofs"`
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, format+"\n", args...)
	os.Exit(1)
}

// openCheckpoint checks the note's signature with the trusted key and reads the tree head.
func openCheckpoint(verifiers note.Verifiers, text string) tlog.Tree {
	n, err := note.Open([]byte(text), verifiers)
	if err != nil {
		fail("note.Open: %v", err)
	}
	lines := strings.SplitN(n.Text, "\n", 4)
	if len(lines) < 4 {
		fail("checkpoint text too short: %q", n.Text)
	}
	size, err := strconv.ParseInt(lines[1], 10, 64)
	if err != nil {
		fail("checkpoint size: %v", err)
	}
	root, err := base64.StdEncoding.DecodeString(lines[2])
	if err != nil || len(root) != tlog.HashSize {
		fail("checkpoint root: %v", err)
	}
	var hash tlog.Hash
	copy(hash[:], root)
	return tlog.Tree{N: size, Hash: hash}
}

func hexHashes(values []string) []tlog.Hash {
	hashes := make([]tlog.Hash, len(values))
	for i, value := range values {
		raw, err := hex.DecodeString(value)
		if err != nil || len(raw) != tlog.HashSize {
			fail("bad hash %q", value)
		}
		copy(hashes[i][:], raw)
	}
	return hashes
}

// tileReader reads C2SP tiles from a folder: Go names a tile tile/<H>/<L>/<N>, C2SP tile/<L>/<N>.
type tileReader struct{ dir string }

func (r tileReader) Height() int { return 8 }

func (r tileReader) ReadTiles(tiles []tlog.Tile) ([][]byte, error) {
	data := make([][]byte, len(tiles))
	for i, tile := range tiles {
		path := "tile/" + strings.TrimPrefix(tile.Path(), "tile/8/")
		content, err := os.ReadFile(filepath.Join(r.dir, filepath.FromSlash(path)))
		if err != nil {
			return nil, err
		}
		data[i] = content
	}
	return data, nil
}

func (r tileReader) SaveTiles(tiles []tlog.Tile, data [][]byte) {}

func main() {
	raw, err := os.ReadFile(os.Args[1])
	if err != nil {
		fail("read input: %v", err)
	}
	var in input
	if err := json.Unmarshal(raw, &in); err != nil {
		fail("parse input: %v", err)
	}
	verifier, err := note.NewVerifier(in.VerifierKey)
	if err != nil {
		fail("note.NewVerifier: %v", err)
	}
	verifiers := note.VerifierList(verifier)
	trees := map[int64]tlog.Tree{}
	var latest tlog.Tree
	for _, text := range in.Checkpoints {
		tree := openCheckpoint(verifiers, text)
		trees[tree.N] = tree
		if tree.N > latest.N {
			latest = tree
		}
	}
	// The tiles: every hash Go reads through them is checked against the signed root.
	reader := tlog.TileHashReader(latest, tileReader{in.TileDir})
	if root, err := tlog.TreeHash(latest.N, reader); err != nil || root != latest.Hash {
		fail("tlog.TreeHash over the tiles: %v (%v, want %v)", err, root, latest.Hash)
	}
	for _, p := range in.Inclusions {
		tree, ok := trees[p.TreeSize]
		if !ok {
			fail("no checkpoint for tree size %d", p.TreeSize)
		}
		leaf := hexHashes([]string{p.LeafHash})[0]
		proof := tlog.RecordProof(hexHashes(p.Proof))
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, p.Index, leaf); err != nil {
			fail("tlog.CheckRecord index %d size %d: %v", p.Index, p.TreeSize, err)
		}
		if p.TreeSize == latest.N {
			goProof, err := tlog.ProveRecord(latest.N, p.Index, reader)
			if err != nil || len(goProof) != len(proof) {
				fail("tlog.ProveRecord index %d: %v", p.Index, err)
			}
			for i := range proof {
				if goProof[i] != proof[i] {
					fail("inclusion proof of %d differs from Go's at %d", p.Index, i)
				}
			}
		}
	}
	for _, c := range in.Consistency {
		older, newer := trees[c.From], trees[c.To]
		if err := tlog.CheckTree(tlog.TreeProof(hexHashes(c.Proof)), newer.N, newer.Hash, older.N, older.Hash); err != nil {
			fail("tlog.CheckTree %d -> %d: %v", c.From, c.To, err)
		}
	}
	for _, text := range in.TlogProofs {
		head, checkpoint, found := strings.Cut(text, "\n\n")
		if !found {
			fail("tlog-proof without checkpoint")
		}
		tree := openCheckpoint(verifiers, checkpoint)
		lines := strings.Split(head, "\n")
		if lines[0] != "c2sp.org/tlog-proof@v1" || !strings.HasPrefix(lines[1], "extra ") || !strings.HasPrefix(lines[2], "index ") {
			fail("tlog-proof header: %q", head)
		}
		extra, err := base64.StdEncoding.DecodeString(strings.TrimPrefix(lines[1], "extra "))
		if err != nil {
			fail("tlog-proof extra: %v", err)
		}
		index, _ := strconv.ParseInt(strings.TrimPrefix(lines[2], "index "), 10, 64)
		var proof tlog.RecordProof
		for _, line := range lines[3:] {
			hash, err := base64.StdEncoding.DecodeString(line)
			if err != nil || len(hash) != tlog.HashSize {
				fail("tlog-proof hash %q", line)
			}
			var h tlog.Hash
			copy(h[:], hash)
			proof = append(proof, h)
		}
		// The entry is the event hash: SHA-256 of the event's canonical bytes in `extra`.
		entry := sha256.Sum256(extra)
		if err := tlog.CheckRecord(proof, tree.N, tree.Hash, index, tlog.RecordHash(entry[:])); err != nil {
			fail("tlog-proof index %d: %v", index, err)
		}
		if !bytes.HasPrefix(extra, []byte("{")) {
			fail("tlog-proof extra is not the event's JSON")
		}
	}
	fmt.Println("ok")
}
