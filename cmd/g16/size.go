package main

import (
	"fmt"
	"strconv"
	"strings"
)

// sizeFlag is a count given as "65536" or "2^16".
type sizeFlag int

func (s *sizeFlag) String() string { return formatSize(int(*s)) }

func (s *sizeFlag) Set(v string) error {
	n, err := parseSize(v)
	if err != nil {
		return err
	}
	*s = sizeFlag(n)
	return nil
}

func parseSize(v string) (int, error) {
	if base, exp, ok := strings.Cut(v, "^"); ok {
		b, err1 := strconv.Atoi(base)
		e, err2 := strconv.Atoi(exp)
		if err1 != nil || err2 != nil || b != 2 || e < 0 || e > 30 {
			return 0, fmt.Errorf("size %q: want a number or 2^k with k ≤ 30", v)
		}
		return 1 << e, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n <= 0 || n > 1<<30 {
		return 0, fmt.Errorf("size %q: want a positive number or 2^k", v)
	}
	return n, nil
}

func formatSize(n int) string {
	if n > 0 && n&(n-1) == 0 {
		k := 0
		for 1<<k < n {
			k++
		}
		return fmt.Sprintf("2^%d", k)
	}
	return strconv.Itoa(n)
}
