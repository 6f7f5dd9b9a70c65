package report

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/experiments"
	"github.com/topicmf/topicmf/experiments/store"
)

// TestRenderWritesProvenance: Render commits, beside the section, every
// job's configuration digest, seed, wall time, data and metrics exactly as
// stored, and Assemble states the code, date, machine and data checksums in
// REPORT.md's header from it alone.
func TestRenderWritesProvenance(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	paper := filepath.Join(t.TempDir(), "toy")
	if _, err := Render(res, paper); err != nil {
		t.Fatal(err)
	}
	p, err := ReadProvenance(filepath.Join(paper, "a"))
	if err != nil {
		t.Fatal(err)
	}
	if p.Experiment != "toy/a" || len(p.Jobs) != 8 || len(p.Code) != 1 || p.Code[0].Jobs != 8 || len(p.Machines) != 1 {
		t.Fatalf("provenance %+v", p)
	}
	if len(p.Datasets) != 1 || p.Datasets[0] != (store.Checksum{Name: "toy", SHA256: "00"}) {
		t.Fatalf("datasets %v", p.Datasets)
	}
	for i, j := range p.Jobs {
		jr := res.Jobs[i]
		cfg, _ := ConfigSHA256(jr.Job)
		if j.Label != jr.Job.Label() || j.ConfigSHA256 != cfg || j.Seed != jr.Job.Seed || j.Seconds <= 0 {
			t.Fatalf("job %d: %+v", i, j)
		}
		// score = k/10 + bonus + replicate/100, as stored (shortest text).
		if len(j.Metrics) != 1 || j.Metrics["score"] != store.FormatFloat(jr.Run.Metrics[0].Value) {
			t.Fatalf("job %d metrics %v", i, j.Metrics)
		}
	}
	if err := Assemble(paper, []*experiments.Experiment{res.Experiment}, false); err != nil {
		t.Fatal(err)
	}
	md, err := os.ReadFile(filepath.Join(paper, ReportFile))
	if err != nil {
		t.Fatal(err)
	}
	rev := shortRev(p.Code[0].Revision)
	for _, want := range []string{"**Provenance.** Computed by code revision " + rev, p.Machines[0].GoVersion, "CPUs (GOMAXPROCS", "Derived inputs (SHA-256 of their descriptions", "`toy` ×1."} {
		if !strings.Contains(string(md), want) {
			t.Errorf("REPORT.md lacks %q:\n%s", want, md)
		}
	}
}

// TestRunsLineListsEveryRevision: a section whose jobs were computed by
// several revisions names each with its job count (it used to print job
// 0's only).
func TestRunsLineListsEveryRevision(t *testing.T) {
	res := runToy(t, toyExperiment("toy/a"))
	for _, j := range res.Jobs[:3] {
		path := filepath.Join(j.Dir, "provenance.json")
		sp, err := store.ReadProvenance(j.Dir)
		if err != nil {
			t.Fatal(err)
		}
		sp.Code.Revision, sp.Code.Dirty = "feedfacefeedfacefeedface", false
		b, _ := json.Marshal(sp)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	md, err := Render(res, filepath.Join(t.TempDir(), "toy"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(md, "revision feedfacefeed (3 jobs)") || !strings.Contains(md, "(5 jobs)") {
		t.Fatalf("Runs line does not list both revisions:\n%s", md)
	}
}

// TestAssembleNamesSectionsWithoutProvenance: a committed section rendered
// before provenance.json existed is named in the header, and a report none
// of whose sections has one says so.
func TestAssembleNamesSectionsWithoutProvenance(t *testing.T) {
	ea, eb := toyExperiment("toy/a"), toyExperiment("toy/b")
	paper := filepath.Join(t.TempDir(), "toy")
	if _, err := Render(runToy(t, ea), paper); err != nil {
		t.Fatal(err)
	}
	if _, err := Render(runToy(t, eb), paper); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(paper, "b", ProvenanceFile)); err != nil {
		t.Fatal(err)
	}
	if err := Assemble(paper, []*experiments.Experiment{ea, eb}, false); err != nil {
		t.Fatal(err)
	}
	md, _ := os.ReadFile(filepath.Join(paper, ReportFile))
	if !strings.Contains(string(md), "Sections rendered before provenance was recorded: b.") {
		t.Fatalf("header does not name b:\n%s", md)
	}
	if err := os.Remove(filepath.Join(paper, "a", ProvenanceFile)); err != nil {
		t.Fatal(err)
	}
	if err := Assemble(paper, []*experiments.Experiment{ea, eb}, false); err != nil {
		t.Fatal(err)
	}
	md, _ = os.ReadFile(filepath.Join(paper, ReportFile))
	if !strings.Contains(string(md), "**Provenance.** Not recorded") {
		t.Fatalf("header does not say provenance is missing:\n%s", md)
	}
}

// TestCheckCommittable: a dirty tree may not render full reports inside the
// work tree; a clean one may, and a dirty one may outside it.
func TestCheckCommittable(t *testing.T) {
	mod := store.ModuleRoot()
	if mod == "" {
		t.Skip("no module root")
	}
	dirty := store.CodeVersion{Revision: "abc", Dirty: true}
	err := CheckCommittable(filepath.Join(mod, "results"), dirty)
	if err == nil || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), "uncommitted changes") {
		t.Fatalf("dirty tree into results/: %v", err)
	}
	if err := CheckCommittable(filepath.Join(mod, "results"), store.CodeVersion{Revision: "abc"}); err != nil {
		t.Fatalf("clean tree: %v", err)
	}
	if err := CheckCommittable(t.TempDir(), dirty); err != nil {
		t.Fatalf("dirty tree outside the work tree: %v", err)
	}
}

// TestSplitDataChecksums: data files and synthetic sets (path-like names)
// are listed one by one; derived digests are counted per name.
func TestSplitDataChecksums(t *testing.T) {
	files, derived := splitDataChecksums([]store.Checksum{
		{Name: "corpus", SHA256: "02"}, {Name: "b/x.gz", SHA256: "0b"}, {Name: "corpus", SHA256: "01"},
		{Name: "synthetic/default", SHA256: "05"}, {Name: "pipeline", SHA256: "03"},
	})
	if len(files) != 2 || files[0].Name != "b/x.gz" || files[1].Name != "synthetic/default" {
		t.Errorf("files %v", files)
	}
	want := []derivedCount{{"corpus", 2}, {"pipeline", 1}}
	if len(derived) != 2 || derived[0] != want[0] || derived[1] != want[1] {
		t.Errorf("derived %v, want %v", derived, want)
	}
}
