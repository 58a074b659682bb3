package solver

import "math"

// Softness holds the coefficients of a soft constraint: a spring of natural
// frequency hertz and damping ratio zeta, integrated implicitly over a
// substep h. With omega = 2 pi hertz (Catto, "Soft Constraints", GDC 2011,
// and Box2D v3 b2MakeSoft):
//
//	biasRate     = omega / (2 zeta + h omega)
//	massScale    = h omega (2 zeta + h omega) / (1 + h omega (2 zeta + h omega))
//	impulseScale = 1 / (1 + h omega (2 zeta + h omega))
//
// The solved impulse is -m_eff * massScale * (v + biasRate * C) -
// impulseScale * accumulated, so a rigid constraint is the limit hertz -> inf
// (massScale -> 1, impulseScale -> 0).
type Softness struct {
	BiasRate, MassScale, ImpulseScale float64
}

// MakeSoft returns the softness of a spring of hertz and zeta over substep h.
// hertz == 0 gives a rigid constraint with no bias.
func MakeSoft(hertz, zeta, h float64) Softness {
	if hertz == 0 {
		return Softness{MassScale: 1}
	}
	omega := 2 * math.Pi * hertz
	a1 := 2*zeta + h*omega
	a2 := h * omega * a1
	a3 := 1 / (1 + a2)
	return Softness{BiasRate: omega / a1, MassScale: a2 * a3, ImpulseScale: a3}
}
