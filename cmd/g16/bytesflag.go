package main

import (
	"fmt"
	"strconv"
	"strings"
)

// bytesFlag is a byte count given as "17179869184", "16GiB", "512MiB" or
// "2^34"; 0 means unset.
type bytesFlag int64

func (b *bytesFlag) String() string {
	if *b == 0 {
		return "0"
	}
	return gib(int64(*b))
}

func (b *bytesFlag) Set(v string) error {
	units := []struct {
		suffix string
		shift  uint
	}{{"GiB", 30}, {"MiB", 20}, {"KiB", 10}}
	for _, u := range units {
		if num, ok := strings.CutSuffix(v, u.suffix); ok {
			n, err := strconv.ParseInt(num, 10, 64)
			if err != nil || n <= 0 || n > 1<<(62-u.shift) {
				return fmt.Errorf("%q: want a positive whole number of %s", v, u.suffix)
			}
			*b = bytesFlag(n << u.shift)
			return nil
		}
	}
	if base, exp, ok := strings.Cut(v, "^"); ok {
		e, err := strconv.Atoi(exp)
		if base != "2" || err != nil || e < 0 || e > 62 {
			return fmt.Errorf("%q: want 2^k with k ≤ 62", v)
		}
		*b = bytesFlag(int64(1) << e)
		return nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return fmt.Errorf("%q: want a positive byte count (or 16GiB, 2^34)", v)
	}
	*b = bytesFlag(n)
	return nil
}
