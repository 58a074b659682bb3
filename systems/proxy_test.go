package systems

import (
	"testing"
	"unsafe"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
)

// TestBodyProxySize checks that a proxy is one cache line, so that one body
// lookup of the narrow phase touches one line.
func TestBodyProxySize(t *testing.T) {
	if s := unsafe.Sizeof(bodyProxy{}); s != 64 {
		t.Fatalf("unsafe.Sizeof(bodyProxy{}) = %d, want 64", s)
	}
}

// TestBodyProxyShape checks that a proxy gives the kernels back the shape it
// was made from, in the fields each kernel reads.
func TestBodyProxyShape(t *testing.T) {
	for _, s := range []components.Shape{
		components.Circle(0.3),
		components.Box(0.5, 0.25),
		{Kind: components.ShapeCircle, Radius: 0.1, Half: components.Vec2{X: 7, Y: 8}},
	} {
		x := appendProxy(nil, arche.Entity{}, &components.Transform{}, &s, 0, 0, false, 0)[0]
		got := x.shapeOf()
		if got.Kind != s.Kind {
			t.Errorf("%+v: kind %v, want %v", s, got.Kind, s.Kind)
		}
		if s.Kind == components.ShapeCircle && got.Radius != s.Radius {
			t.Errorf("%+v: radius %v, want %v", s, got.Radius, s.Radius)
		}
		if s.Kind == components.ShapeBox && got.Half != s.Half {
			t.Errorf("%+v: half %v, want %v", s, got.Half, s.Half)
		}
	}
}
