package systems

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
)

// internalWorld returns a new world with a Physics of cfg initialised on
// it, finalised when t ends.
func internalWorld(t *testing.T, cfg Config) (*Physics, *arche.World) {
	t.Helper()
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := arche.NewWorld()
	p.Initialize(&w)
	t.Cleanup(func() { p.Finalize(&w) })
	return p, &w
}
