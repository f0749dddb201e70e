/* Fault injection into g16_open, for the tests of its failure path. */
#ifndef G16_OPEN_H
#define G16_OPEN_H

#ifdef __cplusplus
extern "C" {
#endif

/* The number of steps of g16_open. */
int g16_test_open_steps(void);

/* Makes every later g16_open fail at step step (0 .. g16_test_open_steps()−1) as if
 * its CUDA call had failed: no driver at step 0, an unknown device at step 1,
 * out of memory after; −1 turns the injection off. */
void g16_test_fail_open(int step);

/* What the last g16_open created and what its failure path freed (0 when
 * it opened the device), one bit per step that creates a handle. */
void g16_test_open_trace(unsigned* made, unsigned* freed);

#ifdef __cplusplus
}
#endif

#endif
