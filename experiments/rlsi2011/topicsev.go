package rlsi2011

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/topicmf/topicmf/experiments"
)

// shownTopics is how many topics of a run the evidence lists (Tables 6 and
// 8 show 10).
const shownTopics = 10

// readTopics returns the top-term lists of the first n topics in a run's
// topics.txt ("topic k (non-zero c): t1 t2 ...").
func readTopics(dir string, n int) ([]string, error) {
	f, err := os.Open(filepath.Join(dir, "topics.txt"))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() && len(out) < n {
		_, terms, ok := strings.Cut(sc.Text(), "): ")
		if !ok {
			terms = "–"
		}
		if strings.TrimSpace(terms) == "" {
			terms = "(empty)"
		}
		out = append(out, terms)
	}
	return out, sc.Err()
}

// topicsEvidence lists, for every selected job (in job order, at most
// maxJobs), the top-5 terms of its first shownTopics topics. It is
// evidence, not a claim: the verdict is inconclusive.
func topicsEvidence(where map[string]string, maxJobs int) func(r *experiments.Results) experiments.Verdict {
	return func(r *experiments.Results) experiments.Verdict {
		var parts []string
		jobs := r.Select(where)
		for i, j := range jobs {
			if i == maxJobs {
				parts = append(parts, fmt.Sprintf("(%d more runs: see their topics.txt)", len(jobs)-maxJobs))
				break
			}
			ts, err := readTopics(j.Dir, shownTopics)
			if err != nil {
				parts = append(parts, fmt.Sprintf("[%s] no topics: %v", j.Job.Label(), err))
				continue
			}
			for k := range ts {
				ts[k] = fmt.Sprintf("%d: %s", k+1, ts[k])
			}
			a, _ := j.Run.Metric("avgcomp")
			label := j.Job.Method.DisplayName()
			if cfg := j.Job.PointLabel(); cfg != "" {
				label += " " + cfg
			}
			parts = append(parts, fmt.Sprintf("[%s, AvgComp %.4f] %s", label, a, strings.Join(ts, " · ")))
		}
		if len(parts) == 0 {
			return experiments.Undecided("no runs")
		}
		return experiments.Undecided(strings.Join(parts, " "))
	}
}
