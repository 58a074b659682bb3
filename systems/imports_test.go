package systems_test

import (
	"os/exec"
	"strings"
	"testing"
)

// TestKernelsDoNotImportArche keeps broadphase, narrowphase and solver free
// of arche, so they stay testable and benchmarkable on plain slices (design:
// "Packages and who may import whom").
func TestKernelsDoNotImportArche(t *testing.T) {
	for _, pkg := range []string{"broadphase", "narrowphase", "solver", "components"} {
		out, err := exec.Command("go", "list", "-deps", "github.com/tumble2d/tumble/"+pkg).CombinedOutput()
		if err != nil {
			t.Fatalf("go list %s: %v\n%s", pkg, err, out)
		}
		for _, dep := range strings.Fields(string(out)) {
			if strings.Contains(dep, "mlange-42/arche") {
				t.Errorf("package %s imports %s; kernels must work on plain slices", pkg, dep)
			}
		}
	}
}
