package report

import "github.com/topicmf/topicmf/experiments"

// Citation is the full reference of the paper p names ("Authors. Title.
// Venue."), or its short citation when p carries no full reference.
func Citation(p experiments.PaperRef) string {
	if r := p.Reference.String(); r != "" {
		return r
	}
	return p.Cite
}

// ShortTitle is "Cite: Title" for a paper with a full reference (the short
// citation and the paper's title, as a listing shows it), else the short
// citation.
func ShortTitle(p experiments.PaperRef) string {
	if p.Reference.Title != "" {
		if p.Cite == "" {
			return p.Reference.Title
		}
		return p.Cite + ": " + p.Reference.Title
	}
	return p.Cite
}
