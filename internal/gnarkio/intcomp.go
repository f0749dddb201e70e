package gnarkio

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/ronanh/intcomp"
)

// intcomp's block formats, as github.com/ronanh/intcomp v1.1.1 writes them
// (gnark's ioutils stores each compressed array as a little-endian uint64
// word count followed by the words). A compressed array is a run of blocks
// and a final word (the last block's length). Each block is one of:
//
//	32-bit, var-byte:  [n < 128, len, data...]             len words in all
//	32-bit, bit-packed: [n = 128·g, len, first, g groups]   a group: one word
//	                   of four 7-bit widths w1..w4 (≤ 32), then w1+w2+w3+w4 words
//	64-bit, var-byte:  [n | len<<32, data...]              n < 256
//	64-bit, bit-packed: [n | len<<32, first, g groups]      n = 256·g, widths ≤ 64
//
// UncompressUint32/64 first walk the blocks by their len fields to size
// the output, then decode them one by one, each decoder consuming what its
// header says; a len of 0 makes the first walk loop for ever, and an n
// that disagrees with the data sends the decoders past their input.

const (
	packBlock32 = intcomp.BitPackingBlockSize32 // 128
	packBlock64 = intcomp.BitPackingBlockSize64 // 256
)

// checkBlocks32 checks that in, a compressed array of uint32s, is a run of
// well-formed blocks, and returns how many values it decodes to.
func checkBlocks32(in []uint32) (int, error) {
	if len(in) == 0 {
		return 0, nil
	}
	in = in[:len(in)-1]
	total := 0
	for p := 0; p < len(in); {
		if len(in)-p < 2 {
			return 0, fmt.Errorf("compressed block at word %d: truncated header", p)
		}
		n, length := int(in[p]), int(in[p+1])
		if length < 2 || length > len(in)-p {
			return 0, fmt.Errorf("compressed block at word %d: length %d outside [2, %d]", p, length, len(in)-p)
		}
		if n >= packBlock32 {
			if n%packBlock32 != 0 {
				return 0, fmt.Errorf("compressed block at word %d: %d values is not a multiple of %d", p, n, packBlock32)
			}
			used, err := packedLen(in[p:p+length], 3, n/packBlock32, 32, func(w uint32) [4]int {
				return [4]int{int(w>>24) & 0x7f, int(w>>16) & 0x7f, int(w>>8) & 0x7f, int(w) & 0x7f}
			})
			if err != nil {
				return 0, fmt.Errorf("compressed block at word %d: %w", p, err)
			}
			if used != length {
				return 0, fmt.Errorf("compressed block at word %d: header says %d words, the data %d", p, length, used)
			}
		}
		total += n
		p += length
	}
	return total, nil
}

// checkBlocks64 is checkBlocks32 for arrays of uint64s.
func checkBlocks64(in []uint64) (int, error) {
	if len(in) == 0 {
		return 0, nil
	}
	in = in[:len(in)-1]
	total := 0
	for p := 0; p < len(in); {
		n, length := int(int32(in[p])), int(in[p]>>32)
		if n < 0 {
			return 0, fmt.Errorf("compressed block at word %d: negative count %d", p, n)
		}
		if length < 1 || length > len(in)-p {
			return 0, fmt.Errorf("compressed block at word %d: length %d outside [1, %d]", p, length, len(in)-p)
		}
		if n >= packBlock64 {
			if n%packBlock64 != 0 {
				return 0, fmt.Errorf("compressed block at word %d: %d values is not a multiple of %d", p, n, packBlock64)
			}
			used, err := packedLen(in[p:p+length], 2, n/packBlock64, 64, func(w uint64) [4]int {
				return [4]int{int(w>>24) & 0x7f, int(w>>16) & 0x7f, int(w>>8) & 0x7f, int(w) & 0x7f}
			})
			if err != nil {
				return 0, fmt.Errorf("compressed block at word %d: %w", p, err)
			}
			if used != length {
				return 0, fmt.Errorf("compressed block at word %d: header says %d words, the data %d", p, length, used)
			}
		}
		total += n
		p += length
	}
	return total, nil
}

// packedLen returns the words a bit-packed block of groups groups uses:
// head header words, then per group one word of four widths (each at most
// maxWidth) and the words they say.
func packedLen[W uint32 | uint64](block []W, head, groups, maxWidth int, widths func(W) [4]int) (int, error) {
	p := head
	for g := 0; g < groups; g++ {
		if p >= len(block) {
			return 0, fmt.Errorf("group %d of %d: past the block's %d words", g, groups, len(block))
		}
		ws := widths(block[p])
		p++
		for _, w := range ws {
			if w > maxWidth {
				return 0, fmt.Errorf("group %d: bit width %d above %d", g, w, maxWidth)
			}
			p += w
		}
		if p > len(block) {
			return 0, fmt.Errorf("group %d of %d: past the block's %d words", g, groups, len(block))
		}
	}
	return p, nil
}

// ErrCorrupt is matched (errors.Is) by every error of a check that found
// the data corrupt, truncated, or not what it claims to be.
var ErrCorrupt = errors.New("corrupt data")

// decompress32 decodes one compressed array as gnark's
// ioutils.ReadAndDecompressUints32 does, after checking it: in starts with
// the uint64 word count. It returns the values and the bytes used.
func decompress32(in []byte) ([]uint32, int, error) {
	return decompress(in, 4, func(b []byte) uint32 { return binary.LittleEndian.Uint32(b) },
		checkBlocks32, func(w []uint32) []uint32 { return intcomp.UncompressUint32(w, nil) })
}

// decompress64 is decompress32 for gnark's ReadAndDecompressUints64.
func decompress64(in []byte) ([]uint64, int, error) {
	return decompress(in, 8, binary.LittleEndian.Uint64,
		checkBlocks64, func(w []uint64) []uint64 { return intcomp.UncompressUint64(w, nil) })
}

// decompress reads the word count and size-byte words of one compressed
// array, checks the blocks, and decodes them with uncompress.
func decompress[W uint32 | uint64](in []byte, size int, word func([]byte) W,
	check func([]W) (int, error), uncompress func([]W) []W) ([]W, int, error) {
	if len(in) < 8 {
		return nil, 0, fmt.Errorf("compressed array: %d bytes, no length: %w", len(in), ErrCorrupt)
	}
	words := binary.LittleEndian.Uint64(in[:8])
	if words > uint64(len(in)-8)/uint64(size) {
		return nil, 0, fmt.Errorf("compressed array: %d words in %d bytes: %w", words, len(in)-8, ErrCorrupt)
	}
	buf := make([]W, words)
	for i := range buf {
		buf[i] = word(in[8+size*i:])
	}
	n, err := check(buf)
	if err != nil {
		return nil, 0, fmt.Errorf("compressed array: %w: %w", err, ErrCorrupt)
	}
	out, err := guarded(func() []W { return uncompress(buf) })
	if err != nil {
		return nil, 0, fmt.Errorf("compressed array: %w: %w", err, ErrCorrupt)
	}
	if len(out) != n {
		return nil, 0, fmt.Errorf("compressed array: %d values decoded, the headers say %d: %w", len(out), n, ErrCorrupt)
	}
	return out, 8 + size*int(words), nil
}

// guarded runs f on this goroutine and turns a panic into an error.
func guarded[T any](f func() T) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("decoder failed: %v", r)
		}
	}()
	return f(), nil
}
