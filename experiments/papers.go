package experiments

// Reference is a paper's bibliographic entry, as a report cites it.
type Reference struct {
	Authors string // as printed on the paper, "and" before the last
	Title   string
	Venue   string // proceedings and year (pages where the paper prints them)
}

// String is "Authors. Title. Venue.", or "" for the zero Reference.
func (r Reference) String() string {
	if r == (Reference{}) {
		return ""
	}
	return r.Authors + ". " + r.Title + ". " + r.Venue + "."
}

// The papers topicmf reproduces.
var (
	PaperGMF2012 = Reference{
		Authors: "Quan Wang, Zheng Cao, Jun Xu and Hang Li",
		Title:   "Group Matrix Factorization for Scalable Topic Modeling",
		Venue:   "Proceedings of the 35th International ACM SIGIR Conference on Research and Development in Information Retrieval (SIGIR 2012)",
	}
	PaperRLSI2011 = Reference{
		Authors: "Quan Wang, Jun Xu, Hang Li and Nick Craswell",
		Title:   "Regularized Latent Semantic Indexing",
		Venue:   "Proceedings of the 34th International ACM SIGIR Conference on Research and Development in Information Retrieval (SIGIR 2011)",
	}
	PaperTNMF2013 = Reference{
		Authors: "Xiaohui Yan, Jiafeng Guo, Shenghua Liu, Xueqi Cheng and Yanfeng Wang",
		Title:   "Learning Topics in Short Texts by Non-negative Matrix Factorization on Term Correlation Matrix",
		Venue:   "Proceedings of the 2013 SIAM International Conference on Data Mining (SDM 2013)",
	}
	PaperJTD2013 = Reference{
		Authors: "Kerui Min and Yi Ma",
		Title:   "Joint Topic-Document Modeling via Low-Dimensional Sparse Models",
		Venue:   "IEEE International Conference on Acoustics, Speech and Signal Processing (ICASSP 2013)",
	}
	PaperGNMFNC2014 = Reference{
		Authors: "Guangyou Zhou, Yubo Chen, Daojian Zeng and Jun Zhao",
		Title:   "Group Non-negative Matrix Factorization with Natural Categories for Question Retrieval in Community Question Answer Archives",
		Venue:   "Proceedings of COLING 2014, the 25th International Conference on Computational Linguistics: Technical Papers, pages 89–98",
	}
)
