package cpu

import (
	"strings"
	"testing"
)

// TestMSMTasks: an MSM alone gets every task; beside another, a G1 MSM
// gets half of them, or all with WithMSMTasksAll or G16_CPU_MSM_TASKS=all;
// a bad value of the variable fails New, naming it.
func TestMSMTasks(t *testing.T) {
	for _, c := range []struct {
		env      string
		opts     []Option
		besideG1 int
	}{
		{"", nil, 2},
		{"half", nil, 2},
		{"all", nil, 4},
		{"", []Option{WithMSMTasksAll(true)}, 4},
		{"all", []Option{WithMSMTasksAll(false)}, 2},
	} {
		t.Setenv(MSMTasksEnv, c.env)
		b := MustNew(append([]Option{WithTasks(4)}, c.opts...)...)
		alone, done := b.msmTasks(false)
		beside, done2 := b.msmTasks(false)
		done2()
		done()
		if alone != 4 || beside != c.besideG1 {
			t.Errorf("%s=%q, %d options: alone %d tasks, beside another %d; want 4 and %d", MSMTasksEnv, c.env, len(c.opts), alone, beside, c.besideG1)
		}
	}
	t.Setenv(MSMTasksEnv, "most")
	if _, err := New(); err == nil || !strings.Contains(err.Error(), MSMTasksEnv) {
		t.Errorf("%s=most: New returned %v, want an error naming the variable", MSMTasksEnv, err)
	}
}
