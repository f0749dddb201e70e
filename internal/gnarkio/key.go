package gnarkio

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math/bits"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"
	groth16bls "github.com/consensys/gnark/backend/groth16/bls12-381"
	"github.com/consensys/gnark/backend/witness"
)

// Sizes of BLS12-381 points in gnark-crypto's encodings.
const (
	g1Compressed = 48
	g2Compressed = 96
)

// KeyOpener opens the key's bytes afresh: ReadProvingKey reads them twice,
// once to check them and once to decode them.
type KeyOpener func() (io.ReadCloser, error)

// ReadProvingKey checks, then decodes, a BLS12-381 Groth16 proving key as
// gnark's WriteTo (compressed points) or WriteRawTo (raw points) writes
// it; a key over another curve gives an error naming it that matches
// ErrUnsupported. With unsafe it decodes with gnark's UnsafeReadFrom, which skips the
// subgroup checks of raw points (the caller checks the points are on the
// curve, as g16's prover does).
func ReadProvingKey(open KeyOpener, unsafe bool) (*groth16bls.ProvingKey, error) {
	rc, err := open()
	if err != nil {
		return nil, fmt.Errorf("gnarkio: proving key: %w", err)
	}
	err = CheckProvingKey(bufio.NewReaderSize(rc, 1<<20))
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("gnarkio: proving key: %w", err)
	}
	if rc, err = open(); err != nil {
		return nil, fmt.Errorf("gnarkio: proving key: %w", err)
	}
	defer rc.Close()
	pk := gnarkgroth16.NewProvingKey(ecc.BLS12_381).(*groth16bls.ProvingKey)
	read := pk.ReadFrom
	if unsafe {
		read = pk.UnsafeReadFrom
	}
	readErr, err := guarded(func() error { _, err := read(bufio.NewReaderSize(rc, 1<<20)); return err })
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, fmt.Errorf("gnarkio: proving key: %w", err)
	}
	return pk, nil
}

// keyWalker reads a key's encoding without keeping it.
type keyWalker struct {
	r   *bufio.Reader
	off int64
	err error
}

func (k *keyWalker) failf(format string, args ...any) {
	if k.err == nil {
		k.err = fmt.Errorf("at byte %d: "+format+": %w", append([]any{k.off}, append(args, ErrCorrupt)...)...)
	}
}

func (k *keyWalker) skip(n int64, what string) {
	if k.err != nil {
		return
	}
	m, err := k.r.Discard(int(n))
	k.off += int64(m)
	if err != nil {
		k.failf("%s: %d bytes missing", what, n-int64(m))
	}
}

func (k *keyWalker) uint(size int, what string) uint64 {
	if k.err != nil {
		return 0
	}
	var buf [8]byte
	n, err := io.ReadFull(k.r, buf[:size])
	k.off += int64(n)
	if err != nil {
		k.failf("%s: truncated", what)
		return 0
	}
	var v uint64
	for _, b := range buf[:size] {
		v = v<<8 | uint64(b)
	}
	return v
}

// point skips one point whose compressed size is compressed bytes: its
// first byte says whether it is compressed or raw (twice the size).
func (k *keyWalker) point(compressed int64, what string) {
	if k.err != nil {
		return
	}
	b, err := k.r.Peek(1)
	if err != nil {
		k.failf("%s: truncated", what)
		return
	}
	switch b[0] & 0xe0 {
	case 0x00, 0x40: // raw, raw infinity
		k.skip(2*compressed, what)
	case 0x80, 0xa0, 0xc0: // compressed: smallest y, largest y, infinity
		k.skip(compressed, what)
	default:
		k.failf("%s: invalid point encoding %#02x", what, b[0])
	}
}

// points skips a uint32 count and that many points. The count is checked
// against what is left only by reading: a count past the end fails at the
// end, after reading (not allocating) what is there.
func (k *keyWalker) points(compressed int64, what string) uint64 {
	n := k.uint(4, what+" count")
	for i := uint64(0); i < n && k.err == nil; i++ {
		k.point(compressed, what)
	}
	return n
}

// CheckProvingKey reads a proving key's encoding from r and checks every
// count in it against the bytes that follow, so that gnark's decoder,
// which allocates what the counts say before reading, asks only for what
// the file holds. It reads r to its end; trailing data is an error.
func CheckProvingKey(r io.Reader) error {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<20)
	}
	// The curve, from the domain's n⁻¹: a key over another curve is named
	// as such rather than failing on its first point.
	head, _ := br.Peek(256)
	if err := checkKeyCurve(head); err != nil {
		return err
	}
	k := &keyWalker{r: br}
	// The domain: cardinality, five field elements, a precompute flag.
	card := k.uint(8, "domain cardinality")
	k.skip(5*32, "domain")
	precompute := k.uint(1, "domain precompute flag")
	if k.err == nil && (card == 0 || bits.OnesCount64(card) != 1 || card > 1<<32) {
		k.failf("domain cardinality %d is not a power of two up to 2^32", card)
	}
	for _, s := range []string{"G1 α", "G1 β", "G1 δ"} {
		k.point(g1Compressed, s)
	}
	nbA := k.points(g1Compressed, "G1 A")
	nbB := k.points(g1Compressed, "G1 B")
	nbZ := k.points(g1Compressed, "G1 Z")
	k.points(g1Compressed, "G1 K")
	k.point(g2Compressed, "G2 β")
	k.point(g2Compressed, "G2 δ")
	nbB2 := k.points(g2Compressed, "G2 B")
	nbWires := k.uint(8, "wire count")
	nbInfA := k.uint(8, "InfinityA count")
	nbInfB := k.uint(8, "InfinityB count")
	if k.err == nil {
		switch {
		case nbZ+1 > card || (precompute != 0 && card > 2*(nbZ+1)):
			// The domain's twiddles are computed at load time: bound them by Z.
			k.failf("domain of %d for %d Z points", card, nbZ)
		case nbA > nbWires || nbB > nbWires || nbB2 != nbB || nbInfA > nbWires || nbInfB > nbWires:
			k.failf("%d wires, %d A points, %d B points in G1 and %d in G2", nbWires, nbA, nbB, nbB2)
		}
	}
	// InfinityA and InfinityB: one byte a wire each, no count.
	for _, s := range []string{"InfinityA", "InfinityB"} {
		for left := nbWires; left > 0 && k.err == nil; {
			step := min(left, 1<<20)
			k.skip(int64(step), s)
			left -= step
		}
	}
	nbCommitments := k.uint(4, "commitment count")
	for i := uint64(0); i < nbCommitments && k.err == nil; i++ {
		basis := k.points(g1Compressed, fmt.Sprintf("commitment key %d basis", i))
		sigma := k.points(g1Compressed, fmt.Sprintf("commitment key %d basis·σ", i))
		if k.err == nil && basis != sigma {
			k.failf("commitment key %d: %d bases, %d bases·σ", i, basis, sigma)
		}
	}
	if k.err != nil {
		return k.err
	}
	if _, err := br.ReadByte(); !errors.Is(err, io.EOF) {
		return fmt.Errorf("at byte %d: trailing data after the key: %w", k.off, ErrCorrupt)
	}
	return nil
}

// ReadWitness decodes a full or public BLS12-381 witness as gnark's
// WriteTo writes it (public and secret counts, then a vector), after
// CheckWitness. It reads all of r.
func ReadWitness(r io.Reader) (witness.Witness, error) {
	return ReadWitnessOver(r, ecc.BLS12_381)
}

// ReadWitnessOver is ReadWitness for a witness over curve id's scalar
// field (a public witness to verify, on any curve gnark supports).
func ReadWitnessOver(r io.Reader, id ecc.ID) (witness.Witness, error) {
	data, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("gnarkio: witness: %w", err)
	}
	if err := CheckWitness(data); err != nil {
		return nil, fmt.Errorf("gnarkio: witness: %w", err)
	}
	w, err := witness.New(id.ScalarField())
	if err != nil {
		return nil, fmt.Errorf("gnarkio: witness: %w", err)
	}
	readErr, err := guarded(func() error { _, err := w.ReadFrom(bytes.NewReader(data)); return err })
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, fmt.Errorf("gnarkio: witness: %w", err)
	}
	return w, nil
}

// CheckWitness checks a witness's encoding: two big-endian uint32 counts,
// public and secret, a uint32 length equal to their sum, and that many
// 32-byte elements, nothing after them.
func CheckWitness(data []byte) error {
	if len(data) < 12 {
		return fmt.Errorf("%d bytes, shorter than the 12-byte header: %w", len(data), ErrCorrupt)
	}
	pub := uint64(binary.BigEndian.Uint32(data))
	sec := uint64(binary.BigEndian.Uint32(data[4:]))
	n := uint64(binary.BigEndian.Uint32(data[8:]))
	if pub+sec != n {
		return fmt.Errorf("header says %d public and %d secret values, the vector holds %d: %w", pub, sec, n, ErrCorrupt)
	}
	if want := 12 + 32*n; uint64(len(data)) != want {
		return fmt.Errorf("%d values need %d bytes, the data has %d: %w", n, want, len(data), ErrCorrupt)
	}
	return nil
}
