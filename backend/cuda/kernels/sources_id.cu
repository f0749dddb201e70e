// The identity of the sources libg16cuda was built from, for the Go side
// to check against its own (kernels.ID): a library built from other
// sources than the Go code's would not match its interface. The installer
// (cmd/g16-cuda-install) defines G16_SOURCES_ID.
#ifndef G16_SOURCES_ID
#error "G16_SOURCES_ID is not defined: build libg16cuda with cmd/g16-cuda-install (make cuda in the repository)"
#endif

#define G16_STR2(x) #x
#define G16_STR(x) G16_STR2(x)

extern "C" const char *g16_sources_id(void) { return G16_STR(G16_SOURCES_ID); }
