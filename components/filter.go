package components

// DefaultCategory is the category of a body whose [Filter] leaves Category
// zero: Box2D's default category bits.
const DefaultCategory uint64 = 1

// Filter decides which pairs of bodies collide, by Box2D's rules
// (b2Filter) with its zero value as Box2D's default filter: every body
// collides with every other.
//
// A body belongs to the categories whose bits are set in Category (zero
// stands for [DefaultCategory]) and ignores the categories whose bits are
// set in Ignore. Two bodies collide unless one ignores every category of
// the other (a body in two categories, one ignored, still collides). Group overrides that: two bodies of the same non-zero Group
// always collide if it is positive and never if it is negative (the parts
// of a ragdoll share a negative group). Box2D's maskBits are the bits
// Ignore leaves clear: a Box2D filter (category, mask, group) is
// Filter{Category: category, Ignore: ^mask, Group: group}. Ignore is kept
// in place of the mask so that the zero value collides with everything:
// a Filter that sets only Group, or only Category, changes nothing else.
//
// Filtered pairs get no contact, wake no sleeper and raise no contact event;
// the continuous collision of fast bodies passes through static bodies they
// do not collide with. Queries ([systems.Physics.CastRay] and OverlapAABB)
// report every body their accept function takes: filter there with
// [Filter.Accepts]. A joint's CollideConnected is decided apart from the
// filters: joined bodies collide only if it is set and their filters agree.
type Filter struct {
	Category uint64
	Ignore   uint64
	Group    int32
}

// Categories returns the categories the body belongs to: Category, or
// DefaultCategory if it is zero.
func (f Filter) Categories() uint64 {
	if f.Category == 0 {
		return DefaultCategory
	}
	return f.Category
}

// Plain reports whether f ignores no category and has no group: such a body
// collides with every body that does not ignore it, whatever its
// categories, which lets the narrow phase skip the test for pairs of plain
// bodies.
func (f Filter) Plain() bool { return f.Ignore == 0 && f.Group == 0 }

// Collides reports whether bodies with filters f and g collide (see
// [Filter]). It is symmetric.
func (f Filter) Collides(g Filter) bool {
	if f.Group != 0 && f.Group == g.Group {
		return f.Group > 0
	}
	return f.Categories()&^g.Ignore != 0 && g.Categories()&^f.Ignore != 0
}

// Accepts reports whether a body with filter f belongs to one of the
// categories in mask, for the accept functions of the queries: the half
// of Box2D's query filter that tests the body's categories against the
// query's mask. Box2D also passes over a body whose mask leaves out the
// query's own category; Accepts reports a body whatever it ignores.
func (f Filter) Accepts(mask uint64) bool { return f.Categories()&mask != 0 }
