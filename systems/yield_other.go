//go:build !linux

package systems

import "runtime"

// osYield gives the processor to other goroutines; outside Linux there is
// no portable way to offer the CPU to other processes.
func osYield() { runtime.Gosched() }
