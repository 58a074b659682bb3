package systems

import (
	"context"
	"sync/atomic"
	"testing"
)

type countTask struct {
	hits []atomic.Int32
}

func (t *countTask) Run(lo, hi, w int) {
	for i := lo; i < hi; i++ {
		t.hits[i].Add(1)
	}
}

// TestPoolCoversEachItemOnce checks that For hands out every index exactly
// once for many job sizes and worker counts, including more workers than
// cores, and that a closed pool stops.
func TestPoolCoversEachItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		p := newPool(workers, context.Background())
		for _, n := range []int{0, 1, 7, 64, 65, 1000, 4097} {
			for _, grain := range []int{0, 1, 16, 64} {
				task := &countTask{hits: make([]atomic.Int32, n)}
				for rep := 0; rep < 3; rep++ {
					p.For(n, grain, task)
				}
				for i := range task.hits {
					if got := task.hits[i].Load(); got != 3 {
						t.Fatalf("workers=%d n=%d grain=%d: item %d ran %d times, want 3", workers, n, grain, i, got)
					}
				}
			}
		}
		p.close()
	}
}
