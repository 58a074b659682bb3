//go:build amd64 && !purego

package cpu

import "testing"

// TestCPUIDVendor reads leaf 0: a highest leaf of at least 1 and a vendor
// string of twelve printable bytes (EBX, EDX, ECX), as every x86-64 CPU
// gives.
func TestCPUIDVendor(t *testing.T) {
	maxLeaf, b, c, d := CPUID(0, 0)
	if maxLeaf < 1 {
		t.Fatalf("highest CPUID leaf %d, want at least 1", maxLeaf)
	}
	var vendor []byte
	for _, r := range []uint32{b, d, c} {
		vendor = append(vendor, byte(r), byte(r>>8), byte(r>>16), byte(r>>24))
	}
	for _, ch := range vendor {
		if ch < 0x20 || ch > 0x7e {
			t.Fatalf("vendor %q is not printable", vendor)
		}
	}
	t.Logf("vendor %s, highest leaf %d", vendor, maxLeaf)
}
