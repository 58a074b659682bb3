package solver

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// clusters returns rows and links in clusters of random sizes (so islands
// both below and above the colouring threshold), with static and kinematic
// sides and one- and two-point links, in a shuffled order.
func clusters(seed uint64) *Solver {
	r := rand.New(rand.NewPCG(seed, 7))
	s := &Solver{}
	for len(s.Sims) < 400 {
		base, size := int32(len(s.Sims)), int32(1+r.IntN(60))
		for range size {
			kind := KindDynamic
			if r.IntN(10) == 0 {
				kind = KindKinematic
			}
			s.Sims = append(s.Sims, BodySim{X: components.NewTransform(r.Float64(), r.Float64(), 0), InvMass: 1, InvInertia: 1, Kind: kind})
			s.Bodies = append(s.Bodies, BodyState{DQ: components.Identity})
		}
		for range r.IntN(int(4 * size)) {
			a, b := base+r.Int32N(size), base+r.Int32N(size)
			l := Link{A: a, B: b, KindA: s.Sims[a].Kind, KindB: s.Sims[b].Kind, Points: uint8(1 + r.IntN(2))}
			if a == b || r.IntN(5) == 0 {
				l.B, l.KindB = -1, KindStatic
			}
			s.Links = append(s.Links, l)
		}
	}
	r.Shuffle(len(s.Links), func(i, j int) { s.Links[i], s.Links[j] = s.Links[j], s.Links[i] })
	return s
}

// TestColouringAlongsideIslands checks that colouring every link while the
// islands are found (BuildIslandsOn with two workers) orders and colours
// the links exactly as colouring the large islands' links afterwards.
// Its lists are long enough that collectOn splits most of them in two
// parts, so it also checks that the parts give the list of one; every other
// seed lists the links by half (halvesFirst), for the large islands solved
// in halves.
func TestColouringAlongsideIslands(t *testing.T) {
	defer func(saved int) { halvesMinLinks = saved }(halvesMinLinks)
	split, halved := 0, 0
	for seed := uint64(1); seed <= 30; seed++ {
		halvesMinLinks = 1 << 30
		if seed%2 == 0 {
			halvesMinLinks = 1
		}
		prm := DefaultParams()
		prm.LargeIslandContacts = 1 + int(seed%5)*10
		serial, par := clusters(seed), clusters(seed)
		st1 := serial.BuildIslands(&prm)
		// Force the overlap: the last step coloured every link.
		par.lastColored, par.lastLinks = 1, 1
		st2 := par.BuildIslandsOn(parallel{2}, &prm)
		if st1 != st2 {
			t.Fatalf("seed %d: stats %+v alone, %+v alongside", seed, st1, st2)
		}
		if st1.Colored == 0 || st1.Colored == len(serial.Links) {
			t.Fatalf("seed %d: want some links coloured and some not, got %d of %d", seed, st1.Colored, len(serial.Links))
		}
		g1, g2 := &serial.Coloring, &par.Coloring
		if len(g2.parts) > 1 {
			split++
		}
		if serial.halves.colors != par.halves.colors {
			t.Fatalf("seed %d: %d colours in halves alone, %d alongside", seed, serial.halves.colors, par.halves.colors)
		}
		if serial.halves.colors > 0 {
			halved++
		}
		for _, c := range []struct {
			name string
			a, b []int32
		}{
			{"Order", serial.Order, par.Order}, {"colorStart", serial.colorStart, par.colorStart},
			{"Start", g1.Start, g2.Start}, {"List", g1.List, g2.List},
			{"Overflow", g1.Overflow, g2.Overflow}, {"Kinematic", g1.Kinematic, g2.Kinematic},
		} {
			if !slices.Equal(c.a, c.b) {
				t.Fatalf("seed %d: %s differs:\n%v alone\n%v alongside", seed, c.name, c.a, c.b)
			}
		}
	}
	if split < 10 {
		t.Errorf("only %d of 30 lists collected in parts, want 10 or more", split)
	}
	if halved < 10 {
		t.Errorf("only %d of 30 lists laid out in halves, want 10 or more", halved)
	}
}
