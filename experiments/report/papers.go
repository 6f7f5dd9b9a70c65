package report

import "github.com/topicmf/topicmf/experiments"

// Reference is a paper's bibliographic entry.
type Reference struct {
	Authors string // as printed on the paper, "and" before the last
	Title   string
	Venue   string // proceedings and year (pages where the paper prints them)
}

func (r Reference) String() string {
	return r.Authors + ". " + r.Title + ". " + r.Venue + "."
}

// references are the papers topicmf reproduces, by the file name of their
// text in the shared papers folder (experiments.PaperRef.File), which a
// reader of a report does not have: reports cite the paper itself.
var references = map[string]Reference{
	"000_5c39da06696519bc.txt": {
		Authors: "Quan Wang, Zheng Cao, Jun Xu and Hang Li",
		Title:   "Group Matrix Factorization for Scalable Topic Modeling",
		Venue:   "Proceedings of the 35th International ACM SIGIR Conference on Research and Development in Information Retrieval (SIGIR 2012)",
	},
	"001_08e5ee3a9c1f5f0e.txt": {
		Authors: "Quan Wang, Jun Xu, Hang Li and Nick Craswell",
		Title:   "Regularized Latent Semantic Indexing",
		Venue:   "Proceedings of the 34th International ACM SIGIR Conference on Research and Development in Information Retrieval (SIGIR 2011)",
	},
	"002_7faa184d69d38746.txt": {
		Authors: "Xiaohui Yan, Jiafeng Guo, Shenghua Liu, Xueqi Cheng and Yanfeng Wang",
		Title:   "Learning Topics in Short Texts by Non-negative Matrix Factorization on Term Correlation Matrix",
		Venue:   "Proceedings of the 2013 SIAM International Conference on Data Mining (SDM 2013)",
	},
	"003_578d04b0d21c0b2e.txt": {
		Authors: "Kerui Min and Yi Ma",
		Title:   "Joint Topic-Document Modeling via Low-Dimensional Sparse Models",
		Venue:   "IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP 2013)",
	},
	"004_730a446967159585.txt": {
		Authors: "Guangyou Zhou, Yubo Chen, Daojian Zeng and Jun Zhao",
		Title:   "Group Non-negative Matrix Factorization with Natural Categories for Question Retrieval in Community Question Answer Archives",
		Venue:   "Proceedings of COLING 2014, the 25th International Conference on Computational Linguistics: Technical Papers, pages 89–98",
	},
}

// Citation is the full reference of the paper p names ("Authors. Title.
// Venue."), or its short citation when the paper is not one of the five.
func Citation(p experiments.PaperRef) string {
	if r, ok := references[p.File]; ok {
		return r.String()
	}
	return p.Cite
}

// ShortTitle is "Cite: Title" for one of the five papers (the short
// citation and the paper's title, as a listing shows it), else the short
// citation.
func ShortTitle(p experiments.PaperRef) string {
	if r, ok := references[p.File]; ok {
		if p.Cite == "" {
			return r.Title
		}
		return p.Cite + ": " + r.Title
	}
	return p.Cite
}
