package cpu

// fallbackHostMemory (64 TiB) bounds an allocation when the host's memory
// is unknown; it stays below the largest slice Go can make.
const fallbackHostMemory = int64(1) << 46
