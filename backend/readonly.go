package backend

// ReadOnlyUploader is implemented by backends that can take a span of
// immutable host memory, such as a proving key's bases, without copying
// it: the CPU backend, whose device memory is host memory, reads the bytes
// in place, and so does not hold the key twice.
type ReadOnlyUploader interface {
	// UploadReadOnly is Upload of src into dst at byte offset off, where
	// the caller promises that src stays unchanged and reachable for as
	// long as dst lives, and that nothing writes dst's span [off,
	// off+len(src)) until dst is freed: device work only reads it. The
	// backend may then read src itself wherever it would read that span.
	// The span still counts in the device's memory accounting, as dst
	// does.
	UploadReadOnly(q Queue, dst Buffer, off int64, src []byte) error
}

// UploadReadOnly uploads src into dst at off on b: through
// ReadOnlyUploader when b implements it (under the promise that interface
// describes), else with a plain Upload.
func UploadReadOnly(b Backend, q Queue, dst Buffer, off int64, src []byte) error {
	if r, ok := b.(ReadOnlyUploader); ok {
		return r.UploadReadOnly(q, dst, off, src)
	}
	return b.Upload(q, dst, off, src)
}
