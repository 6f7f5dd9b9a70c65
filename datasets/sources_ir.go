package datasets

// Download locations of the IR collections. Where a staged file is the
// Glasgow IR group's own file (Cranfield), the URL is Glasgow's; otherwise
// it is the raw GitHub URL of the copy the staged bytes came from, pinned
// to the commit named in the collection's SOURCE.md. SHA256 and Size are
// those of the staged bytes.
const (
	glasgowCollections = "http://ir.dcs.gla.ac.uk/resources/test_collections/"
	rawGenPolya        = "https://raw.githubusercontent.com/ronancummins/gen_polya/6415a5fab3c976c32a8eebf6be45e68fc957cc44/"
	rawBeliefNetwork   = "https://raw.githubusercontent.com/lailaglez/belief-network-irs/a66c5b620580ffb67324dafeca1eda49f02f53b9/"
	rawTerrier         = "https://raw.githubusercontent.com/terrier-org/terrier-core/3ceec7d89cb943a56e4bf298b00897d4221d0002/share/vaswani_npl/"
	rawLSIProject      = "https://raw.githubusercontent.com/eferos93/LatentSemanticIndexing_IRProject/8b85e649541cef4ebb4b76b8ba459460a6457ca9/data/npl/"
	rawIyas            = "https://raw.githubusercontent.com/diyessi/Iyas/df5b7b237024cf4ec49073559b4ed21b2eedddb9/semeval2016-3/data/Semeval2016-Task3-English-data/datasets/semeval2016-task3-cqa-ql-train/v2.0/"
	rawCQASemEval      = "https://raw.githubusercontent.com/Mieloch/cqa-sem-eval/cf5f125c54074e1c9fafb86175a403cd9b808640/data/"
	rawCQATest         = "https://raw.githubusercontent.com/ahashisyuu/Community-Question-Answer-master/cb148d9353c35f7b6cb8b244acaa61c58f07fec8/Task3/"
	rawNLTKData        = "https://raw.githubusercontent.com/nltk/nltk_data/5db857e6f7df11eabb5e5665836db9ec8df07e28/packages/corpora/"
)

// irSources are the IR test collections and question sets (readers in
// smart.go, npl.go, semeval.go, trecqc.go).
func irSources() []Source {
	return []Source{
		{
			Name: "cranfield",
			Description: "Cranfield 1400 (aeronautics abstracts): 1,400 documents, 225 queries, 1,837 graded judgments " +
				"(codes 1-4 and -1; gain 5 - code, 0 for -1). Query ids are positions 1..225 in cran.qry, as the qrels number them. " +
				"Glasgow IR group distribution, byte-identical.",
			Files: []File{{
				Path:   "cranfield/cran.tar.gz",
				URL:    glasgowCollections + "cran/cran.tar.gz",
				SHA256: "8c48a8412e4a7e6e0dd5af99c959f8d75fdf88135602adc1a56aa22770652d64",
				Size:   506960,
			}},
			Read: ReadCranfield,
		},
		{
			Name: "med",
			Description: "MED / MEDLINE 1033 (medical abstracts): 1,033 documents, 30 queries, 696 binary judgments (MED.REL). " +
				"Glasgow IR group distribution (" + glasgowCollections + "medl/), fetched from a GitHub copy.",
			Files: []File{{
				Path:   "medline/med.tar.gz",
				URL:    rawGenPolya + "data/med.tar.gz",
				SHA256: "07478afc5370ba3dfa66c8c1994ea56a2341cea8584af619a63eb51c31f26f1e",
				Size:   375183,
			}},
			Read: ReadMED,
		},
		{
			Name: "cisi",
			Description: "CISI (library science): 1,460 documents, 112 queries of which 76 are judged, 3,114 binary judgments. " +
				"Glasgow IR group distribution (" + glasgowCollections + "cisi/), fetched from a GitHub copy.",
			Files: []File{{
				Path:   "cisi/cisi.tar.gz",
				URL:    rawGenPolya + "data/cisi.tar.gz",
				SHA256: "bddb284e19369d153dad90770ae897e19221b0bc50e1329b5a702aa56f5e8483",
				Size:   775144,
			}},
			Read: ReadCISI,
		},
		{
			Name: "adi",
			Description: "ADI (documentation abstracts; tiny, a test fixture): 82 documents, 35 queries, 170 binary judgments. " +
				"Glasgow IR group distribution format, fetched from a GitHub copy.",
			Files: []File{{
				Path:   "adi/adi.tar.gz",
				URL:    rawBeliefNetwork + "adi.tar.gz",
				SHA256: "68c1867824cbad9e28ce498fafa644d5ac1a7a8a41cde0bffaf402095bbc7aa6",
				Size:   17307,
			}},
			Read: ReadADI,
		},
		{
			Name: "npl",
			Description: "NPL / Vaswani (electronics abstracts): 11,429 documents, 93 queries, 2,083 binary judgments; " +
				"the TREC-format conversion shipped with Terrier (original at " + glasgowCollections + "npl/). " +
				"doc-text.trec.gz was gzip-compressed when staged: the URL serves the uncompressed doc-text.trec, " +
				"which fetch checks against the staged file's uncompressed content and then compresses itself (canonical.go).",
			Files: []File{
				{
					Path:   "npl/terrier_trec/doc-text.trec.gz",
					URL:    rawTerrier + "corpus/doc-text.trec",
					SHA256: "bfc02120b0856878d033d32b64c4885419fe4306fe1d209a22fba922b86c50dd",
					Size:   1029554,
				},
				{
					Path:   "npl/terrier_trec/query-text.trec",
					URL:    rawTerrier + "query-text.trec",
					SHA256: "fef998db14818f74a22b2fb2be06425d5fb0dbd83ed9841fa0440e0a5477da7b",
					Size:   10991,
				},
				{
					Path:   "npl/terrier_trec/qrels",
					URL:    rawTerrier + "qrels",
					SHA256: "1b3ed6a43752c7a7becb0dbd1614d662791bb7825b60182fd36be24d480ea447",
					Size:   24863,
				},
			},
			Read: ReadNPL,
		},
		{
			Name: "npl-glasgow",
			Description: "NPL / Vaswani in the original Glasgow file layout (doc-text, query-text, rlv-ass); same 11,429 documents, " +
				"93 queries and 2,083 judgments as \"npl\". Taken from a GitHub copy (its rlv-ass terminators are \"/\" rather than " +
				"Glasgow's \"   /\"). doc-text.gz was gzip-compressed when staged: the URL serves the uncompressed doc-text, " +
				"which fetch checks against the staged file's uncompressed content and then compresses itself (canonical.go).",
			Files: []File{
				{
					Path:   "npl/glasgow_raw/doc-text.gz",
					URL:    rawLSIProject + "doc-text",
					SHA256: "fbc524b94687ee7aa591c059758563eee17900ea08338ca0230392ee9bfbed67",
					Size:   1001007,
				},
				{
					Path:   "npl/glasgow_raw/query-text",
					URL:    rawLSIProject + "query-text",
					SHA256: "0f5e9a179334183cc3b04fe24d9bdfc3f656b08330e6798d8df5dc621bf8e6d5",
					Size:   7457,
				},
				{
					Path:   "npl/glasgow_raw/rlv-ass",
					URL:    rawLSIProject + "rlv-ass",
					SHA256: "73dec5698ac1cb212f03d6d979cb6ae99da7f303d7ca900f40cf0f06f5d93988",
					Size:   12961,
				},
			},
			Read: ReadNPLGlasgow,
		},
		{
			Name: "semeval2016",
			Description: "SemEval-2016 Task 3 subtask B (Qatar Living forum, English), partial: train part 1 v2.0, train part 2, dev. " +
				"220 original questions (queries), 1,783 related questions (documents, 26 forum categories), " +
				"3-level judgments PerfectMatch 2 / Relevant 1 / Irrelevant 0. The 2016 and 2017 test sets and " +
				"part 1 questions Q104-Q200 of release v3.2 are absent. All three files were gzip-compressed when staged: " +
				"the URLs serve the uncompressed XML, which fetch checks against the staged files' uncompressed content and then compresses itself (canonical.go). " +
				"README.v2.0.txt (release notes and license: free for general research use) is registered but not read.",
			Files: semevalTrainDevFiles(),
			Read:  ReadSemEval2016,
		},
		{
			Name: "semeval2016-all",
			Description: "SemEval-2016 Task 3 subtask B (Qatar Living forum, English): train part 1 v2.0, train part 2, dev and the 2016 test set " +
				"with its gold labels (the official train / dev / test split). 290 original questions (queries), 2,483 related questions " +
				"(documents, 26 forum categories), 3-level judgments PerfectMatch 2 / Relevant 1 / Irrelevant 0. The 2017 test set and " +
				"part 1 questions Q104-Q200 of release v3.2 are absent. The .relevancy file (the scorer's binary gold, which agrees with the inline " +
				"labels on 700 of 700 pairs) is registered but not read. The four XML files were gzip-compressed when staged: " +
				"the URLs serve the uncompressed XML, which fetch checks against the staged files' uncompressed content and then compresses itself (canonical.go). " +
				"README.v2.0.txt (release notes and license: free for general research use) is registered but not read.",
			Files: append(semevalTrainDevFiles(),
				File{
					Path:   "semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-test.xml.gz",
					URL:    rawCQATest + "SemEval2016-Task3-CQA-QL-test.xml",
					SHA256: "4a52133c912fa3625c1c9ad2a0c7b95cb8cb26d62838bc19a095e04e32a3248d",
					Size:   875458,
				},
				File{
					// Not read by the reader: the binary gold in the scorer's format.
					Path:   "semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-test.xml.subtaskB.relevancy",
					URL:    rawCQATest + "SemEval2016-Task3-CQA-QL-test.xml.subtaskB.relevancy",
					SHA256: "77e48afab8dc30c63c156cfc73bb38fa6d2114c3627a17650a6d250021c81450",
					Size:   26424,
				},
			),
			Read: ReadSemEval2016All,
		},
		{
			Name: "trec-qc",
			Description: "TREC question classification (Li & Roth, UIUC; NLTK qc.zip): 5,452 train and 500 test questions, " +
				"6 coarse and 50 fine classes. Class is the fine label COARSE:fine; Categories = [coarse, COARSE:fine]. " +
				"No queries or judgments.",
			Files: []File{{
				Path:   "trec_qc_nltk/qc.zip",
				URL:    rawNLTKData + "qc.zip",
				SHA256: "091fb01e50883014d150acb7d5013d787136968b3f955ae01725a65e7e80f304",
				Size:   125456,
			}},
			Read: ReadTRECQC,
		},
	}
}

// semevalTrainDevFiles are the SemEval-2016 train and dev files that both
// semeval2016 and semeval2016-all read.
func semevalTrainDevFiles() []File {
	return []File{
		{
			// Not read by the reader: the release notes (format, license).
			Path:   "semeval2016_task3_cqa_partial/README.v2.0.txt",
			URL:    rawIyas + "README.txt",
			SHA256: "d5e12032ccb3c058d313070063b85de527926f11a1b17525e88e63eaee587add",
			Size:   10175,
		},
		{
			Path:   "semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml.gz",
			URL:    rawIyas + "SemEval2016-Task3-CQA-QL-train-part1.xml",
			SHA256: "1749cb9d6996bea60aae96bc113877736cb28989218abaeb6d2d62f6afcb84de",
			Size:   759724,
		},
		{
			Path:   "semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-train-part2.xml.gz",
			URL:    rawCQASemEval + "SemEval2016-Task3-CQA-QL-train-part2.xml",
			SHA256: "6aa7289e564192b929f01cab310c9074bb76a21bad9df361088a107be9b47f8f",
			Size:   820812,
		},
		{
			Path:   "semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-dev.xml.gz",
			URL:    rawCQASemEval + "SemEval2016-Task3-CQA-QL-dev.xml",
			SHA256: "6d316162d4e7986d6f4e05e49ad69df8a7dd3deaf64c0b426a4176e3fe188d65",
			Size:   620742,
		},
	}
}
