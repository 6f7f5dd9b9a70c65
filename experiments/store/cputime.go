package store

import "sync"

// cpuMeter attributes the process's CPU time (user + system, all threads)
// to the runs being computed. Between two consecutive events (a run
// starting or ending) the CPU time the process used is split equally
// among the runs computing then. The runs' shares therefore add up to the
// process's CPU time while at least one run was computing, and a run
// computed alone gets exactly the process's CPU time during it; runs
// computed side by side (an experiment's jobs on several workers) share
// each interval evenly whichever of them did the work, so a single job's
// figure is then an estimate while their sum stays exact.
type cpuMeter struct {
	read   func() float64 // the process's CPU seconds so far
	mu     sync.Mutex
	last   float64
	active map[*cpuShare]struct{}
}

// cpuShare is one run's share of the process's CPU time.
type cpuShare struct{ seconds float64 }

// processCPU meters the runs of this process.
var processCPU = &cpuMeter{read: processCPUSeconds}

// advance hands the CPU time used since the last event to the active runs.
func (m *cpuMeter) advance() {
	now := m.read()
	if n := len(m.active); n > 0 && now > m.last {
		d := (now - m.last) / float64(n)
		for s := range m.active {
			s.seconds += d
		}
	}
	m.last = now
}

// start begins metering a run.
func (m *cpuMeter) start() *cpuShare {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.advance()
	if m.active == nil {
		m.active = map[*cpuShare]struct{}{}
	}
	s := &cpuShare{}
	m.active[s] = struct{}{}
	return s
}

// stop ends metering s and returns its CPU seconds.
func (m *cpuMeter) stop(s *cpuShare) float64 {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.advance()
	delete(m.active, s)
	return s.seconds
}
