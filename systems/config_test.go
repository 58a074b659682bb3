package systems_test

import (
	"math"
	"strings"
	"testing"

	"github.com/tumble2d/tumble/systems"
)

// TestConfigValidate: New refuses each bad setting with an error naming it,
// and accepts the defaults and the documented edge values.
func TestConfigValidate(t *testing.T) {
	bad := []struct {
		field string
		mod   func(*systems.Config)
	}{
		{"Dt", func(c *systems.Config) { c.Dt = 0 }},
		{"Dt", func(c *systems.Config) { c.Dt = math.NaN() }},
		{"ContactHertz", func(c *systems.Config) { c.ContactHertz = -1 }},
		{"HeavyContactHertz", func(c *systems.Config) { c.HeavyContactHertz = 0 }},
		{"HeavyContactHertz", func(c *systems.Config) { c.HeavyContactHertz = math.Inf(1) }},
		{"HeavyMassRatio", func(c *systems.Config) { c.HeavyMassRatio = 0.5 }},
		{"HeavyMassRatio", func(c *systems.Config) { c.HeavyMassRatio = -2 }},
		{"HeavyMassRatio", func(c *systems.Config) { c.HeavyMassRatio = math.NaN() }},
		{"MaxPushOut", func(c *systems.Config) { c.MaxPushOut = 0 }},
		{"SleepThreshold", func(c *systems.Config) { c.SleepThreshold = -0.1 }},
		{"DeepOverlap", func(c *systems.Config) { c.DeepOverlap = -0.01 }},
		{"DeepOverlap", func(c *systems.Config) { c.DeepOverlap = math.Inf(1) }},
		{"Gravity", func(c *systems.Config) { c.Gravity.X = math.Inf(-1) }},
		{"SubSteps", func(c *systems.Config) { c.SubSteps = 0 }},
		{"Workers", func(c *systems.Config) { c.Workers = -1 }},
		{"LargeIslandContacts", func(c *systems.Config) { c.LargeIslandContacts = 0 }},
		{"HitSpeed", func(c *systems.Config) { c.HitSpeed = -1 }},
		{"HitSpeed", func(c *systems.Config) { c.HitSpeed = math.NaN() }},
	}
	for _, b := range bad {
		cfg := systems.DefaultConfig()
		b.mod(&cfg)
		if _, err := systems.New(cfg); err == nil || !strings.Contains(err.Error(), b.field) {
			t.Errorf("%s: New gave %v, want an error naming %s", b.field, err, b.field)
		}
	}
	good := []func(*systems.Config){
		nil,
		func(c *systems.Config) { c.HeavyMassRatio = 0 }, // off
		func(c *systems.Config) { c.HeavyMassRatio = 1 },
		func(c *systems.Config) { c.DeepOverlap = 0 }, // Box2D's push-out
		func(c *systems.Config) { c.ContactHertz, c.HeavyContactHertz = 30, 30 },
		func(c *systems.Config) { c.HitSpeed = 0 },
		func(c *systems.Config) { c.HitSpeed = math.Inf(1) }, // no hit events
	}
	for i, mod := range good {
		cfg := systems.DefaultConfig()
		if mod != nil {
			mod(&cfg)
		}
		if _, err := systems.New(cfg); err != nil {
			t.Errorf("good config %d: %v", i, err)
		}
	}
}
