package report

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

// ProvenanceFile is the committed record, inside an experiment's report
// folder, of which code, data, seeds and machine produced its numbers, and
// of every job's metrics (see Provenance).
const ProvenanceFile = "provenance.json"

// Provenance is <results>/<paper>/<experiment>/provenance.json, written by
// Render from the run store's per-job provenance.json files (which live in
// the uncommitted runs/). It is committed with the section so that
// REPORT.md's header (Assemble) can state the code, date, Go version,
// machine and data checksums without the store, and so that
// report --verify can recompute a sample of the jobs and compare their
// metrics exactly.
type Provenance struct {
	Experiment        string `json:"experiment"`
	ExperimentVersion string `json:"experiment_version"`
	Quick             bool   `json:"quick"`
	RootSeed          uint64 `json:"root_seed"`
	// Code lists the distinct code versions that computed the jobs, with
	// how many jobs each computed.
	Code []CodeCount `json:"code"`
	// Machines lists the distinct Go versions and machines, likewise.
	Machines []MachineCount `json:"machines"`
	// Datasets is every data file the jobs read, sorted by name; a name
	// listed twice means jobs read different contents under it.
	Datasets []store.Checksum `json:"datasets"`
	// Start and End span the jobs' computation (RFC 3339, UTC).
	Start string `json:"start"`
	End   string `json:"end"`
	// WallSeconds is the sum of the jobs' wall times.
	WallSeconds float64 `json:"wall_seconds"`
	// CPUSeconds is the sum of the jobs' CPU times (store.Provenance
	// CPUSeconds); 0 when some job's was not measured.
	CPUSeconds float64         `json:"cpu_seconds,omitempty"`
	Jobs       []JobProvenance `json:"jobs,omitempty"`
}

// CodeCount is one code version and the number of jobs it computed.
type CodeCount struct {
	Revision string `json:"revision"`
	Dirty    bool   `json:"dirty"`
	Source   string `json:"source"`
	Jobs     int    `json:"jobs"`
}

// MachineCount is one Go version and machine and the number of jobs it
// computed.
type MachineCount struct {
	GoVersion   string `json:"go_version"`
	Platform    string `json:"platform"` // GOOS/GOARCH
	NumCPU      int    `json:"num_cpu"`
	GOMAXPROCS  int    `json:"gomaxprocs"`
	CPUModel    string `json:"cpu_model"`
	MemoryBytes uint64 `json:"memory_bytes,omitempty"`
	Jobs        int    `json:"jobs"`
}

// JobProvenance is one job: what identifies it, what computed it, and the
// numbers it stored.
type JobProvenance struct {
	Label string `json:"label"`
	// ConfigSHA256 is the SHA-256 of the job's canonical configuration
	// (store.Canonical of experiments.Job.Config): report --verify finds
	// the job again among today's expansion by it.
	ConfigSHA256 string  `json:"config_sha256"`
	Revision     string  `json:"revision"`
	Dirty        bool    `json:"dirty,omitempty"`
	Seed         uint64  `json:"seed"`
	Seconds      float64 `json:"seconds"`
	// CPUSeconds is the job's CPU time (store.Provenance.CPUSeconds; 0
	// when not measured).
	CPUSeconds float64 `json:"cpu_seconds,omitempty"`
	// Data names the files the job read (their digests are in
	// Provenance.Datasets).
	Data []string `json:"data,omitempty"`
	// Metrics maps each metric of metrics.csv to its value as stored
	// (store.FormatFloat: the shortest text that reads back to the same
	// float64), so that comparing the text compares the bits.
	Metrics map[string]string `json:"metrics"`
	// PerQuery maps each per-query metric to the first 16 hex digits of
	// the SHA-256 of its rows ("query,value\n" in stored order) in
	// per-query.csv: enough to detect a change, short enough for
	// experiments of hundreds of jobs.
	PerQuery map[string]string `json:"per_query_sha256,omitempty"`
}

// ConfigSHA256 is the hex SHA-256 of a job's canonical configuration.
func ConfigSHA256(j *experiments.Job) (string, error) {
	b, err := store.Canonical(j.Config())
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

// JobRecord is the JobProvenance of one job result, with its run
// provenance p (the store's per-job provenance.json).
func JobRecord(j *experiments.JobResult, p store.Provenance) (JobProvenance, error) {
	cfg, err := ConfigSHA256(j.Job)
	if err != nil {
		return JobProvenance{}, fmt.Errorf("%s: %w", j.Job.Label(), err)
	}
	jp := JobProvenance{
		Label: j.Job.Label(), ConfigSHA256: cfg,
		Revision: p.Code.Revision, Dirty: p.Code.Dirty,
		Seed: j.Job.Seed, Seconds: p.Seconds, CPUSeconds: p.CPUSeconds,
		PerQuery: PerQueryDigests(j.Run),
	}
	for _, d := range p.Datasets {
		jp.Data = append(jp.Data, d.Name)
	}
	jp.Metrics = map[string]string{}
	for _, m := range j.Run.Metrics {
		jp.Metrics[m.Name] = store.FormatFloat(m.Value)
	}
	return jp, nil
}

// PerQueryDigests maps each per-query metric of a run to the first 16 hex
// digits of the SHA-256 of its rows, "query,value\n" in stored order (nil
// when there are none).
func PerQueryDigests(r *experiments.StoredRun) map[string]string {
	if len(r.PerQuery) == 0 {
		return nil
	}
	var order []string
	text := map[string]*strings.Builder{}
	for _, q := range r.PerQuery {
		b, ok := text[q.Metric]
		if !ok {
			b = &strings.Builder{}
			text[q.Metric] = b
			order = append(order, q.Metric)
		}
		fmt.Fprintf(b, "%q,%s\n", q.Query, store.FormatFloat(q.Value))
	}
	out := map[string]string{}
	for _, m := range order {
		sum := sha256.Sum256([]byte(text[m].String()))
		out[m] = hex.EncodeToString(sum[:8])
	}
	return out
}

// BuildProvenance aggregates the run store's provenance of every job of
// res. A job whose store provenance cannot be read is an error naming it.
func BuildProvenance(res *experiments.Results) (*Provenance, error) {
	e := res.Experiment
	p := &Provenance{Experiment: e.ID, ExperimentVersion: e.Version, Quick: res.Quick}
	codeIdx := map[CodeCount]int{}
	machIdx := map[MachineCount]int{}
	data := map[store.Checksum]bool{}
	cpuMissing := false
	for i, j := range res.Jobs {
		sp, err := store.ReadProvenance(j.Dir)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", j.Job.Label(), err)
		}
		if i == 0 {
			p.RootSeed = j.Job.RootSeed
		}
		jp, err := JobRecord(j, sp)
		if err != nil {
			return nil, err
		}
		p.Jobs = append(p.Jobs, jp)
		p.WallSeconds += sp.Seconds
		p.CPUSeconds += sp.CPUSeconds
		if sp.CPUSeconds == 0 {
			cpuMissing = true
		}
		c := CodeCount{Revision: sp.Code.Revision, Dirty: sp.Code.Dirty, Source: sp.Code.Source}
		if k, ok := codeIdx[c]; ok {
			p.Code[k].Jobs++
		} else {
			codeIdx[c] = len(p.Code)
			c.Jobs = 1
			p.Code = append(p.Code, c)
		}
		m := MachineCount{GoVersion: sp.GoVersion, Platform: sp.GOOS + "/" + sp.GOARCH, NumCPU: sp.NumCPU, GOMAXPROCS: sp.GOMAXPROCS, CPUModel: sp.CPUModel, MemoryBytes: sp.MemoryBytes}
		if k, ok := machIdx[m]; ok {
			p.Machines[k].Jobs++
		} else {
			machIdx[m] = len(p.Machines)
			m.Jobs = 1
			p.Machines = append(p.Machines, m)
		}
		for _, d := range sp.Datasets {
			if !data[d] {
				data[d] = true
				p.Datasets = append(p.Datasets, d)
			}
		}
		if sp.Start != "" && (p.Start == "" || sp.Start < p.Start) {
			p.Start = sp.Start
		}
		if sp.End > p.End {
			p.End = sp.End
		}
	}
	if cpuMissing {
		p.CPUSeconds = 0 // a partial sum would understate the cost
	}
	slices.SortFunc(p.Datasets, func(a, b store.Checksum) int {
		return strings.Compare(a.Name+" "+a.SHA256, b.Name+" "+b.SHA256)
	})
	return p, nil
}

// WriteProvenance writes p as dir/provenance.json (atomically).
func WriteProvenance(dir string, p *Provenance) error {
	// One job a line keeps the file short and its diffs readable.
	head := *p
	head.Jobs = nil
	b, err := json.MarshalIndent(head, "", " ")
	if err != nil {
		return err
	}
	var out bytes.Buffer
	out.Write(bytes.TrimSuffix(b, []byte("\n}")))
	out.WriteString(",\n \"jobs\": [")
	for i, j := range p.Jobs {
		line, err := json.Marshal(j)
		if err != nil {
			return err
		}
		if i > 0 {
			out.WriteByte(',')
		}
		out.WriteString("\n  ")
		out.Write(line)
	}
	out.WriteString("\n ]\n}\n")
	return writeFile(filepath.Join(dir, ProvenanceFile), out.Bytes())
}

// ReadProvenance reads dir/provenance.json; errors name the file.
func ReadProvenance(dir string) (*Provenance, error) {
	path := filepath.Join(dir, ProvenanceFile)
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var p Provenance
	if err := json.Unmarshal(b, &p); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if p.Experiment == "" {
		return nil, fmt.Errorf("%s: no experiment id", path)
	}
	return &p, nil
}

// shortRev is the first 12 hex digits of a revision.
func shortRev(rev string) string {
	if len(rev) > 12 {
		return rev[:12]
	}
	return rev
}

// codeText describes the code versions of p's jobs in one phrase, e.g.
// "revision 0123456789ab" or "revision 0123456789ab (3 jobs), revision
// ba9876543210 with uncommitted changes (7 jobs)".
func codeText(codes []CodeCount) string {
	var parts []string
	for _, c := range codes {
		s := "revision " + shortRev(c.Revision)
		if c.Dirty {
			s += " with uncommitted changes"
		}
		if len(codes) > 1 {
			s += fmt.Sprintf(" (%d jobs)", c.Jobs)
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, ", ")
}

// machineText is "go1.26.8, linux/amd64, 2 CPUs (GOMAXPROCS 2), 7.8 GiB,
// <CPU model>".
func machineText(m MachineCount) string {
	s := fmt.Sprintf("%s, %s, %d CPUs (GOMAXPROCS %d)", m.GoVersion, m.Platform, m.NumCPU, m.GOMAXPROCS)
	if m.MemoryBytes > 0 {
		s += fmt.Sprintf(", %.1f GiB memory", float64(m.MemoryBytes)/(1<<30))
	}
	return s + ", " + m.CPUModel
}

// CheckCommittable refuses, in one line, to render a full-run report into
// reportRoot when reportRoot lies inside the module's work tree (results/,
// whose reports are committed) and the code that would compute it has
// uncommitted changes: a committed report must name a commit that
// reproduces it. Quick reports and reports rendered outside the work tree
// are not committed and are not checked.
func CheckCommittable(reportRoot string, code store.CodeVersion) error {
	if !code.Dirty {
		return nil
	}
	mod := store.ModuleRoot()
	if mod == "" {
		return nil
	}
	abs, err := filepath.Abs(reportRoot)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(mod, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return nil
	}
	return fmt.Errorf("refusing to render the committed full-run reports under %s from a work tree with uncommitted changes: commit first (or use --quick, or --results outside the repository)", reportRoot)
}
