package systems

import "syscall"

// osYield gives the CPU to any other runnable thread of the machine
// (sched_yield), so that a polling helper costs nothing when another
// process wants its core, and returns at once when none does.
func osYield() { syscall.Syscall(syscall.SYS_SCHED_YIELD, 0, 0, 0) }
