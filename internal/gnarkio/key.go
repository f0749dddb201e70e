package gnarkio

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"math/bits"
	"runtime"
	"sync"

	"github.com/consensys/gnark-crypto/ecc"
	gnarkgroth16 "github.com/consensys/gnark/backend/groth16"

	"github.com/g16prover/g16/curve"
)

// KeyOpener opens the key's bytes afresh: ReadProvingKey reads them twice,
// once to check them and once to decode them.
type KeyOpener func() (io.ReadCloser, error)

// ReadProvingKey checks, then decodes, a Groth16 proving key over any
// curve g16 proves on (read from the key's domain), as gnark's WriteTo
// (compressed points) or WriteRawTo (raw points) writes it; a key over
// another curve gives an error naming it that matches ErrUnsupported. With
// unsafe it decodes with gnark's UnsafeReadFrom, which skips the subgroup
// checks of raw points (the caller checks the points are on the curve,
// with CheckKeyPoints). The key is gnark's type for its curve.
func ReadProvingKey(open KeyOpener, unsafe bool) (gnarkgroth16.ProvingKey, error) {
	rc, err := open()
	if err != nil {
		return nil, fmt.Errorf("gnarkio: proving key: %w", err)
	}
	id, err := CheckProvingKey(bufio.NewReaderSize(rc, 1<<20))
	rc.Close()
	if err != nil {
		return nil, fmt.Errorf("gnarkio: %w", err)
	}
	if rc, err = open(); err != nil {
		return nil, fmt.Errorf("gnarkio: proving key: %w", err)
	}
	defer rc.Close()
	pk := gnarkgroth16.NewProvingKey(id)
	read := pk.ReadFrom
	if unsafe {
		read = pk.UnsafeReadFrom
	}
	readErr, err := guarded(func() error { _, err := read(bufio.NewReaderSize(rc, 1<<20)); return err })
	if err == nil {
		err = readErr
	}
	if err != nil {
		return nil, fmt.Errorf("gnarkio: %s proving key: %w", curve.Name(id), err)
	}
	return pk, nil
}

// CheckKeyPoints checks that every base of pk (read without checks, as
// ReadProvingKey with unsafe reads it) lies on its curve, on every core: a
// cheap test that catches corrupt raw key files (the full subgroup check
// costs far more). The error names the first point off the curve and
// matches ErrCorrupt.
func CheckKeyPoints(pk gnarkgroth16.ProvingKey) error {
	if pk == nil {
		return fmt.Errorf("gnarkio: nil proving key: %w", ErrCorrupt)
	}
	rd, err := readerOf(pk.CurveID())
	if err != nil {
		return fmt.Errorf("gnarkio: proving key: %w", err)
	}
	if err := rd.checkKeyPoints(pk, firstFailing); err != nil {
		return fmt.Errorf("gnarkio: %s proving key: %w: %w", curve.Name(pk.CurveID()), err, ErrCorrupt)
	}
	return nil
}

// CheckKeyPair returns nil when vk is pk's twin (the same setup's α, β
// and δ), and otherwise an error naming the curves or what differs.
func CheckKeyPair(pk gnarkgroth16.ProvingKey, vk gnarkgroth16.VerifyingKey) error {
	if pk == nil || vk == nil {
		return fmt.Errorf("gnarkio: a nil key")
	}
	if pk.CurveID() != vk.CurveID() {
		return fmt.Errorf("gnarkio: the proving key is over %s, the verifying key over %s", curve.Name(pk.CurveID()), curve.Name(vk.CurveID()))
	}
	rd, err := readerOf(pk.CurveID())
	if err != nil {
		return fmt.Errorf("gnarkio: proving key: %w", err)
	}
	if err := rd.sameSetup(pk, vk); err != nil {
		return fmt.Errorf("gnarkio: %s keys: %w", curve.Name(pk.CurveID()), err)
	}
	return nil
}

// firstFailing returns the lowest index in [0, n) whose check fails, or
// −1, checking on every core.
func firstFailing(n int, ok func(int) bool) int {
	tasks := max(1, runtime.NumCPU())
	step := (n + tasks - 1) / tasks
	bad := make([]int, tasks)
	var wg sync.WaitGroup
	for t := range tasks {
		bad[t] = -1
		lo, hi := t*step, min(n, (t+1)*step)
		if lo >= hi {
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				if !ok(i) {
					bad[t] = i
					return
				}
			}
		}()
	}
	wg.Wait()
	for _, b := range bad {
		if b >= 0 {
			return b
		}
	}
	return -1
}

// keyWalker reads a key's encoding without keeping it.
type keyWalker struct {
	r   *bufio.Reader
	off int64
	err error

	flagMask   byte          // a point's flag bits in its first byte
	compressed map[byte]bool // by flag: compressed (true) or raw (false)
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
	c, ok := k.compressed[b[0]&k.flagMask]
	switch {
	case !ok:
		k.failf("%s: invalid point encoding %#02x", what, b[0])
	case c:
		k.skip(compressed, what)
	default:
		k.skip(2*compressed, what)
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
// the file holds. It reads r to its end; trailing data is an error. It
// returns the key's curve, read from its domain; a curve g16 does not
// prove on is an error matching ErrUnsupported.
func CheckProvingKey(r io.Reader) (ecc.ID, error) {
	br, ok := r.(*bufio.Reader)
	if !ok {
		br = bufio.NewReaderSize(r, 1<<20)
	}
	// The curve, from the domain's n⁻¹: a key over another curve is named
	// as such rather than failing on its first point.
	head, _ := br.Peek(256)
	id, err := KeyCurve(head)
	if err != nil {
		return ecc.UNKNOWN, fmt.Errorf("proving key: %w", err)
	}
	rd, err := readerOf(id)
	if err != nil {
		return ecc.UNKNOWN, fmt.Errorf("a proving key over %s: %w", curve.Name(id), err)
	}
	if err := walkKey(br, rd, int64(curve.Must(id).FrBytes)); err != nil {
		return ecc.UNKNOWN, fmt.Errorf("%s proving key: %w", curve.Name(id), err)
	}
	return id, nil
}

// walkKey reads a key's encoding, its points of g1 and g2 compressed bytes
// (raw: twice as many) and its scalars of fr bytes, checking its counts.
func walkKey(br *bufio.Reader, rd curveReader, fr int64) error {
	g1Compressed, g2Compressed := rd.g1Compressed, rd.g2Compressed
	k := &keyWalker{r: br, flagMask: rd.flagMask, compressed: rd.compressed}
	// The domain: cardinality, five field elements, a precompute flag.
	card := k.uint(8, "domain cardinality")
	k.skip(5*fr, "domain")
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
