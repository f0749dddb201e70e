package hostmem

import (
	"bufio"
	"bytes"
	"os"
	"strconv"
)

// Available is the memory the host can give the process now, in bytes:
// MemAvailable from /proc/meminfo; 0 when it cannot be read.
func Available() int64 {
	raw, err := os.ReadFile("/proc/meminfo")
	if err != nil {
		return 0
	}
	sc := bufio.NewScanner(bytes.NewReader(raw))
	for sc.Scan() {
		f := bytes.Fields(sc.Bytes())
		if len(f) >= 2 && string(f[0]) == "MemAvailable:" {
			kib, err := strconv.ParseInt(string(f[1]), 10, 64)
			if err != nil || kib < 0 || kib > 1<<53 {
				return 0
			}
			return kib << 10
		}
	}
	return 0
}
