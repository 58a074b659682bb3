package components_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// box2dFilter is a filter in Box2D's own terms (b2Filter).
type box2dFilter struct {
	category, mask uint64
	group          int32
}

// box2dShouldCollide is Box2D v3's b2ShouldShapesCollide.
func box2dShouldCollide(a, b box2dFilter) bool {
	if a.group == b.group && a.group != 0 {
		return a.group > 0
	}
	return a.mask&b.category != 0 && a.category&b.mask != 0
}

// toBox2D maps a Filter to Box2D's terms as its documentation says.
func toBox2D(f components.Filter) box2dFilter {
	c := f.Category
	if c == 0 {
		c = 1
	}
	return box2dFilter{category: c, mask: ^f.Ignore, group: f.Group}
}

// randomFilter draws filters that often share categories and groups: a few
// low bits, groups in [-2, 2], and sometimes the zero value.
func randomFilter(r *rand.Rand) components.Filter {
	if r.IntN(5) == 0 {
		return components.Filter{}
	}
	bits := func() uint64 {
		switch r.IntN(4) {
		case 0:
			return 0
		case 1:
			return r.Uint64()
		default:
			return uint64(r.IntN(16))
		}
	}
	return components.Filter{Category: bits(), Ignore: bits(), Group: int32(r.IntN(5) - 2)}
}

// TestFilterCollidesIsBox2D: Collides agrees with Box2D's rule on the
// filter mapped as documented (a zero Category is category 1, the mask is
// the complement of Ignore), for 200 000 random pairs; it is symmetric; a
// plain filter on both sides always collides; and the zero filter
// collides with itself.
func TestFilterCollidesIsBox2D(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var yes, no int
	for i := 0; i < 200000; i++ {
		f, g := randomFilter(r), randomFilter(r)
		got, want := f.Collides(g), box2dShouldCollide(toBox2D(f), toBox2D(g))
		if got != want {
			t.Fatalf("%+v.Collides(%+v) = %v, Box2D says %v", f, g, got, want)
		}
		if g.Collides(f) != got {
			t.Fatalf("Collides is not symmetric for %+v and %+v", f, g)
		}
		if f.Plain() && g.Plain() && !got {
			t.Fatalf("plain filters %+v and %+v do not collide", f, g)
		}
		if got {
			yes++
		} else {
			no++
		}
	}
	if yes < 20000 || no < 20000 {
		t.Errorf("the draws are lopsided: %d collide, %d do not", yes, no)
	}
	if !(components.Filter{}).Collides(components.Filter{}) {
		t.Error("the zero filter does not collide with itself")
	}
}

// TestFilterCases pins the documented cases one by one.
func TestFilterCases(t *testing.T) {
	const player, enemy, bullet = 1 << 1, 1 << 2, 1 << 3
	for _, c := range []struct {
		name string
		f, g components.Filter
		want bool
	}{
		{"zero with zero", components.Filter{}, components.Filter{}, true},
		{"a category alone changes nothing", components.Filter{Category: enemy}, components.Filter{}, true},
		{"a bullet ignores the player", components.Filter{Category: bullet, Ignore: player}, components.Filter{Category: player}, false},
		{"the bullet hits an enemy", components.Filter{Category: bullet, Ignore: player}, components.Filter{Category: enemy}, true},
		{"ignoring the default category", components.Filter{Ignore: components.DefaultCategory}, components.Filter{}, false},
		{"ignoring everything", components.Filter{Ignore: ^uint64(0)}, components.Filter{Category: enemy}, false},
		{"a negative group alone", components.Filter{Group: -1}, components.Filter{Group: -1}, false},
		{"a negative group against others", components.Filter{Group: -1}, components.Filter{}, true},
		{"different negative groups", components.Filter{Group: -1}, components.Filter{Group: -2}, true},
		{"a positive group beats Ignore", components.Filter{Group: 3, Ignore: ^uint64(0)}, components.Filter{Group: 3, Ignore: ^uint64(0)}, true},
		{"a negative group beats the categories", components.Filter{Group: -3}, components.Filter{Group: -3, Category: enemy}, false},
	} {
		if got := c.f.Collides(c.g); got != c.want {
			t.Errorf("%s: %+v.Collides(%+v) = %v, want %v", c.name, c.f, c.g, got, c.want)
		}
	}
	if !(components.Filter{}).Accepts(components.DefaultCategory) || (components.Filter{Category: enemy}).Accepts(player) {
		t.Error("Accepts does not test the body's categories against the query's")
	}
}

// ExampleFilter keeps a player's bullets off the player, and the parts of
// a ragdoll off each other, while both still hit everything else.
func ExampleFilter() {
	const player, bullet = 1 << 1, 1 << 2
	hero := components.Filter{Category: player}
	shot := components.Filter{Category: bullet, Ignore: player | bullet}
	wall := components.Filter{} // the default: collides with everything
	arm, leg := components.Filter{Group: -1}, components.Filter{Group: -1}
	fmt.Println(shot.Collides(hero), shot.Collides(wall), shot.Collides(shot))
	fmt.Println(arm.Collides(leg), arm.Collides(wall))
	// Output:
	// false true false
	// false true
}
