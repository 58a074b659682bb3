package systems_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsLevelRestart: a game restarts a level with arche's World.Reset,
// which removes every entity and resource. Update then stops with a panic
// that says to call Initialize again (not a nil interface conversion deep
// in the step); after Initialize, the rebuilt level must step exactly as the
// same level in a new world, with nothing left of the old level's sleeping
// islands or cached contacts.
func TestPhysicsLevelRestart(t *testing.T) {
	level := func(s *sim) []arche.Entity {
		s.add(ground())
		return boxStack(s, 0, 3)
	}
	fresh := newSim(t, nil)
	want := level(fresh)
	fresh.run(90)

	s := newSim(t, nil)
	runUntilAsleep(t, s, level(s), 180)
	s.w.Reset()
	func() {
		defer func() {
			r := recover()
			if msg, _ := r.(string); !strings.Contains(msg, "call Physics.Initialize again") {
				t.Errorf("Update after World.Reset: panic %v, want one that says to call Initialize again", r)
			}
		}()
		s.p.Update(s.w)
	}()
	s.p.Initialize(s.w)
	got := level(s)
	s.run(90)
	for i := range got {
		if a, b := s.transform(got[i]), fresh.transform(want[i]); a != b {
			t.Fatalf("box %d after the restart: %+v, in a new world %+v", i, a, b)
		}
	}
}

// TestPhysicsInitializeTwice: Initialize called again without Finalize must
// stop the first call's workers: ten calls with 4 workers had left 27
// goroutines running.
func TestPhysicsInitializeTwice(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := systems.DefaultConfig()
	cfg.Workers = 4
	p, err := systems.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := arche.NewWorld()
	for range 10 {
		p.Initialize(&w)
	}
	if _, err := ecs.NewBody(&w, dynBox(0, 1, 0.5, 0.5)); err != nil {
		t.Fatal(err)
	}
	p.Update(&w)
	p.Finalize(&w)
	after := runtime.NumGoroutine()
	for i := 0; i < 100 && after > before; i++ {
		time.Sleep(10 * time.Millisecond)
		after = runtime.NumGoroutine()
	}
	if after > before {
		t.Errorf("%d goroutines before, %d after ten Initialize calls and one Finalize", before, after)
	}
}

// TestPhysicsLifecycleOutOfOrder: Workers before Initialize, Finalize before
// Initialize and Finalize twice must not panic (a review found nil
// dereferences in all three, and arche's "can't unregister a filter that is
// not cached" in the last), and a Physics finalised twice must start again
// with Initialize. Workers tells the resolved count before Initialize and
// the pool's after it, capped at 255.
func TestPhysicsLifecycleOutOfOrder(t *testing.T) {
	cfg := systems.DefaultConfig()
	cfg.Workers = 3
	p, err := systems.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if n := p.Workers(); n != 3 {
		t.Errorf("Workers before Initialize: %d, want 3", n)
	}
	w := arche.NewWorld()
	p.Finalize(&w)
	p.Initialize(&w)
	if n := p.Workers(); n != 3 {
		t.Errorf("Workers after Initialize: %d, want 3", n)
	}
	box, err := ecs.NewBody(&w, dynBox(0, 1, 0.5, 0.5))
	if err != nil {
		t.Fatal(err)
	}
	p.Update(&w)
	p.Finalize(&w)
	p.Finalize(&w)
	p.Initialize(&w)
	p.Update(&w)
	transforms := generic.NewMap[components.Transform](&w)
	if y := transforms.Get(box).P.Y; !(y < 1) {
		t.Errorf("box at y = %v after two ticks, want it falling below 1", y)
	}
	p.Finalize(&w)

	cfg.Workers = 1 << 20
	if p, err = systems.New(cfg); err != nil {
		t.Fatal(err)
	}
	if n := p.Workers(); n != 255 {
		t.Errorf("Workers for a setting of 2^20: %d, want 255", n)
	}

	if m := ecs.MissingBodyComponent(&w, box); m != "" {
		t.Errorf("MissingBodyComponent of a live body: %q", m)
	}
	w.RemoveEntity(box)
	if m := ecs.MissingBodyComponent(&w, box); m != "Transform" {
		t.Errorf("MissingBodyComponent of a removed entity: %q, want Transform", m)
	}
	if m := ecs.MissingBodyComponent(&w, arche.Entity{}); m != "Transform" {
		t.Errorf("MissingBodyComponent of the zero entity: %q, want Transform", m)
	}
}

// TestPhysicsForeignEntities: an entity the world never had (one of another
// world, with an ID beyond this world's, as after a World.Reset) made
// arche's World.Alive index out of range inside every command (a review's
// find); it must be refused like a removed one, by the commands, the body
// queries and the joints, and Finalize on another world than Initialize's
// must say so rather than unregister that world's filters.
func TestPhysicsForeignEntities(t *testing.T) {
	s := newSim(t, nil)
	box := s.add(dynBox(0, 1, 0.5, 0.5))
	other := arche.NewWorld()
	var foreign arche.Entity
	for range 50 {
		foreign = other.NewEntity()
	}
	if ecs.IsBody(s.w, foreign) || ecs.IsSleeping(s.w, foreign) || ecs.Alive(s.w, foreign) {
		t.Error("an entity of another world counts as a live body")
	}
	if m := ecs.MissingBodyComponent(s.w, foreign); m != "Transform" {
		t.Errorf("MissingBodyComponent: %q, want Transform", m)
	}
	for name, err := range map[string]error{
		"ApplyForceToCenter": ecs.ApplyForceToCenter(s.w, foreign, components.V(1, 0)),
		"SetVelocity":        ecs.SetVelocity(s.w, foreign, components.V(1, 0), 0),
		"Wake":               ecs.Wake(s.w, foreign),
		"RemoveBody":         ecs.RemoveBody(s.w, foreign),
	} {
		if !errors.Is(err, ecs.ErrNotBody) {
			t.Errorf("%s: %v, want ErrNotBody", name, err)
		}
	}
	if _, err := ecs.JointOf(s.w, foreign); err == nil {
		t.Error("JointOf of a foreign entity gave no error")
	}
	if j, err := ecs.RevoluteJoint(s.w, box, foreign, components.V(0, 1)); err == nil {
		if _, err := ecs.NewJoint(s.w, j); err == nil {
			t.Error("NewJoint with a foreign body gave no error")
		}
	}
	// A joint made right, then pointed at the foreign entity by the game:
	// the tick reports it and leaves it out, then forgets it when removed.
	other2 := s.add(dynBox(2, 1, 0.5, 0.5))
	j, err := ecs.RevoluteJoint(s.w, box, other2, components.V(1, 1))
	if err != nil {
		t.Fatal(err)
	}
	je, err := ecs.NewJoint(s.w, j)
	if err != nil {
		t.Fatal(err)
	}
	s.run(1)
	jc, err := ecs.JointOf(s.w, je)
	if err != nil {
		t.Fatal(err)
	}
	jc.B = foreign
	s.run(1)
	report := generic.NewResource[ecs.Report](s.w)
	if r := report.Get(); len(r.Joints) != 1 || r.Joints[0].Entity != je {
		t.Errorf("report %+v, want the joint to the foreign entity", r.Joints)
	}
	s.w.RemoveEntity(je)
	s.run(10)
	if y := s.transform(box).P.Y; !(y < 1) {
		t.Errorf("box at y = %v, want it falling", y)
	}

	func() {
		defer func() {
			if msg, _ := recover().(string); !strings.Contains(msg, "not initialised with") {
				t.Errorf("Finalize on another world: panic %q, want one that names the world", msg)
			}
		}()
		s.p.Finalize(&other)
	}()
	s.run(1) // the filters are still registered
}

// TestPhysicsBodyMissingAComponent: a game removes one of the seven body
// components from a body itself. The body leaves the simulation, and must
// be named in ecs.Report with the missing component; the commands must
// return ErrNotBody rather than panic (ApplyForceToCenter dereferenced a
// nil Force), and ecs.RemoveBody must take away the rest.
func TestPhysicsBodyMissingAComponent(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	box := s.add(dynBox(0, 0.5, 0.5, 0.5))
	other := s.add(dynBox(3, 0.5, 0.5, 0.5))
	s.run(1)
	s.w.Remove(box, arche.ComponentID[components.Force](s.w))
	s.run(1)
	r := s.report()
	if len(r) != 1 || r[0].Entity != box || r[0].Field != "Force" {
		t.Fatalf("report %v, want the box's missing Force", r)
	}
	if ecs.IsBody(s.w, box) {
		t.Errorf("IsBody is true for a body without Force")
	}
	if err := ecs.ApplyForceToCenter(s.w, box, components.V(1, 0)); !errors.Is(err, ecs.ErrNotBody) {
		t.Errorf("ApplyForceToCenter on a body without Force: %v, want ErrNotBody", err)
	}
	if err := ecs.RemoveBody(s.w, box); err != nil {
		t.Fatalf("RemoveBody on a body without Force: %v", err)
	}
	s.run(1)
	if r := s.report(); len(r) != 0 || ecs.MissingBodyComponent(s.w, box) != "Transform" {
		t.Errorf("after RemoveBody: report %v, missing %q; want an empty report and no body components left", r, ecs.MissingBodyComponent(s.w, box))
	}
	if !ecs.IsBody(s.w, other) {
		t.Errorf("the other box is no longer a body")
	}
}

// TestPhysicsCommandsInsideAGameQuery: a game applies an impulse to each of
// its tagged bodies inside its own arche query loop, which locks the world.
// On a sleeping body the command used to remove the Sleeping tag there and
// panic ("attempt to modify a locked world"); now the body wakes at the
// start of the next Update, with the impulse applied. Creating or removing
// a body in the loop returns ErrWorldLocked instead of panicking.
func TestPhysicsCommandsInsideAGameQuery(t *testing.T) {
	type tagged struct{}
	s := newSim(t, nil)
	s.add(ground())
	box := s.add(dynBox(0, 0.5, 0.5, 0.5))
	tags := generic.NewMap1[tagged](s.w)
	tags.Add(box)
	runUntilAsleep(t, s, []arche.Entity{box}, 180)
	m := s.mass.Get(box).Mass
	f := generic.NewFilter1[tagged]()
	q := f.Query(s.w)
	for q.Next() {
		if err := ecs.ApplyLinearImpulse(s.w, q.Entity(), components.V(0, 5*m), s.pos(q.Entity())); err != nil {
			t.Errorf("ApplyLinearImpulse in a query: %v", err)
		}
		if _, err := ecs.NewBody(s.w, dynBox(3, 0.5, 0.5, 0.5)); !errors.Is(err, ecs.ErrWorldLocked) {
			t.Errorf("NewBody in a query: %v, want ErrWorldLocked", err)
		}
		if err := ecs.RemoveBody(s.w, q.Entity()); !errors.Is(err, ecs.ErrWorldLocked) {
			t.Errorf("RemoveBody in a query: %v, want ErrWorldLocked", err)
		}
	}
	s.run(1)
	if s.asleep(box) || !(s.v(box).Lin.Y > 4) {
		t.Errorf("after the next tick: asleep %v, velocity %v; want awake and rising at about 5 m/s", s.asleep(box), s.v(box).Lin)
	}
}
