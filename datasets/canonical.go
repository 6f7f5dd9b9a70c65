package datasets

import (
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"strings"
)

// CanonicalForm describes a registered file whose staged bytes are not what
// its URL serves, so that Fetch can still rebuild it from the canonical
// download and Verify can still accept the result.
//
// Two cases occur in the staged data (see each folder's SOURCE.md):
//   - Gzip: the staged file is the URL's bytes compressed with
//     "gzip -9 -n". No Go compressor reproduces GNU gzip's bytes, so Fetch
//     compresses the download with compress/gzip, and a stored file is
//     intact when its decompressed bytes have SHA256 and Size. Readers read
//     .gz files through a decompressor, so they see the same bytes.
//   - !Gzip: the staged archive was rebuilt (git archive) from a copy with
//     the same member files as the canonical archive; the canonical archive
//     itself (SHA256, Size when known) is accepted as well, the reader
//     accepting either layout.
type CanonicalForm struct {
	Gzip   bool
	SHA256 string // of the URL's bytes (= the decompressed content when Gzip)
	Size   int64  // bytes of the URL's content; 0 when not known
	Note   string // where the digest comes from
}

// gzipOfURL marks files staged as gzip -9 -n of the repository file their
// URL serves. The content digests and sizes were computed here with
// "gunzip -c FILE | sha256sum" and "gunzip -c FILE | wc -c" on the staged
// copies in the data directory (whose own digests are in its SHA256SUMS).
const gzipOfURL = "staged copy is gzip -9 -n of the URL's file; digest of the decompressed staged copy"

// canonicalForms is keyed by the registered (staged) SHA-256.
var canonicalForms = map[string]CanonicalForm{
	// npl/glasgow_raw/doc-text.gz
	"fbc524b94687ee7aa591c059758563eee17900ea08338ca0230392ee9bfbed67": {true, "9a9a396da453eb0a6c659b1399ae6c551d11d04a68b6f0a4e21fc757e77c398f", 3231451, gzipOfURL},
	// npl/terrier_trec/doc-text.trec.gz
	"bfc02120b0856878d033d32b64c4885419fe4306fe1d209a22fba922b86c50dd": {true, "117ae7491647cb9725621bad52969a78307de19b1757852a0a2383659a856d36", 3494318, gzipOfURL},
	// semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-dev.xml.gz
	"6d316162d4e7986d6f4e05e49ad69df8a7dd3deaf64c0b426a4176e3fe188d65": {true, "dd132f19108cf64f16be01dde40dc297d5c42c06e7a98a9cb23b7b819468064a", 2506987, gzipOfURL},
	// semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-test.xml.gz
	"4a52133c912fa3625c1c9ad2a0c7b95cb8cb26d62838bc19a095e04e32a3248d": {true, "3981e3247d618229e59ef4d2a3fcee9f5be288c807aefd304f51903b138bfb30", 3613241, gzipOfURL},
	// semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-train-part1.v2.0.xml.gz
	"1749cb9d6996bea60aae96bc113877736cb28989218abaeb6d2d62f6afcb84de": {true, "15af8a4ce6d7658d4269b048820abc2bce47df9e10921ac881adf1db89137fff", 3063115, gzipOfURL},
	// semeval2016_task3_cqa_partial/SemEval2016-Task3-CQA-QL-train-part2.xml.gz
	"6aa7289e564192b929f01cab310c9074bb76a21bad9df361088a107be9b47f8f": {true, "1962eae41ce580f593b62ee162929f0bace83740f0dec8ffdf65b4c0abca3d7e", 3354925, gzipOfURL},
	// short_text_stc2/Biomedical.txt.gz
	"a24f5a959505236c788d9e3bca00cabdb2250419ded052b5a76eea9bb41259b6": {true, "5824b74b2064a6b2940b15ab30bab8abe1bd42aa1ec4089e62a0ba28efa2ba87", 1822214, gzipOfURL},
	// short_text_stc2/Biomedical_gnd.txt.gz
	"950a1ec0afb307f9e3c897c5541cb56b728faf73252bb1588cf78c9f3fce02f3": {true, "3e3d2b77aefc232661bb5b1723f123f4b23cf654c777a4a8b6d3c1ef752f836f", 51000, gzipOfURL},
	// short_text_stc2/SearchSnippets.txt.gz
	"281542a9d2a90645c1409b114f663ffb822ac5eddd9d6b4613faeb978e4592ec": {true, "611608df8e343df204acf5826e70fd3e590482d352b2c81bf2a6d37621677603", 1795115, gzipOfURL},
	// short_text_stc2/SearchSnippets_gnd.txt.gz
	"fc068639557b05d2722f2a42870cb1ca4124b3f3635835f5b95f97e37248773a": {true, "03c0c750b699c29fb2c13cfbf62fa5e96a05694da9d5a9bd7fc4367cdd9735c6", 24680, gzipOfURL},
	// short_text_stc2/StackOverflow.txt.gz
	"480f799feac5ab0eda9dcea55b2b8c640149919ea7ae3ce8d0160971563e2d0e": {true, "56fdb3932c6a2e35c1943b8a3d3c1cf51901fc1139e51b1587091898ffb22e86", 1030059, gzipOfURL},
	// short_text_stc2/StackOverflow_gnd.txt.gz
	"9727c66c0762261ae9808cc6a905daa7cf9c34b69b4a52a6678cfe0862276842": {true, "ac6b52afbf696611680f8ea944be682bcdf1979b62fde2b5fa2a9dcc6ab8d7d3", 51000, gzipOfURL},
	// short_text_sttm/Biomedical.txt.gz
	"55a676757cb3c3e1515fe8298f6e68110782b631347dd1acab5c61c2dd43dd27": {true, "3adeaa2961a358a2f6b77d7223372cda961473e6f010611efe734ccf9882ee25", 1280639, gzipOfURL},
	// short_text_sttm/Biomedical_label.txt.gz
	"4840707ac8b8ff7232cd45f189b49d48d1a981300d793e27b7ad26621311d77a": {true, "8204c1040fc715d8d841d6f9ffba0ec1b15e23ad99d9cf141b0a001dbfc21dbb", 49571, gzipOfURL},
	// short_text_sttm/SearchSnippets.txt.gz
	"08428b89c3fcd68b2837896d1d4d0e0caf333fceffc8b2b03ca2cc30d01cb683": {true, "4cee6f82db04e4dde2c4f26aa845910af9adc7b7022a23fee1cabcab877fdec5", 1412085, gzipOfURL},
	// short_text_sttm/SearchSnippets_label.txt.gz
	"7b291c1a24397ee548baf47bdf7eea9c50686dcab5b865d32d8bc740bdcee94e": {true, "fc68e7645dd28b7d6741dedd5054b46764408aff1834f730d2a222f9c9a1256e", 24590, gzipOfURL},
	// short_text_sttm/StackOverflow.txt.gz
	"b73c9bf1cd7f803c815a1e09cd08444defcae69d818efa8bea3301f1fcbe03fc": {true, "3e9d681e977c0d6d643cc903c121dc83387db3ffb7f2ca5a3e411c610e85e837", 599092, gzipOfURL},
	// short_text_sttm/StackOverflow_label.txt.gz
	"bdd5cd7e2aaa30d2bc588e42ef0753c94bb97605efe8f91a2f955c7f58e16c5d": {true, "fb60f6d82563fd153a01159d085863b95b9dc8bc1866a1ef6d9e764f9c758d33", 41707, gzipOfURL},
	// short_text_sttm/Tweet.txt.gz
	"8f97923b56ffbcd991754912c9662a9999afdde34f02f4126b51147277831649": {true, "211216e954ed0744a138410e5f1049ed5accd7aac44aa0c8c4a6cd240325d9a6", 146003, gzipOfURL},
	// short_text_sttm/Tweet_LABEL.txt.gz
	"0e08d3534883b6362805e3d223d986bc5aac97063f17dfb68298f9e7b1f50a9b": {true, "d36ed0d4e142067c1904455b941cb958b8e439c691972579e7940d0cf8df21ea", 7622, gzipOfURL},
	// 20newsgroups/20news-bydate.tar.gz: the staged archive is a git-archive
	// rebuild; Rennie's original is the file scikit-learn pins
	// (sklearn/datasets/_twenty_newsgroups.py, ARCHIVE checksum, served from
	// figshare). Size not recorded there.
	"0b77ddb1e0db5c66e486909d60e754c629d6e144db245ea46d1477b2f3276ecb": {false, "8f1b2514ca22a5ade8fbb9cfa5727df95fa587f4c87b786e15c759fa66d95610", 0,
		"Rennie's 20news-bydate.tar.gz, SHA-256 as pinned by scikit-learn"},
}

// CanonicalFor returns the canonical form of f, if its staged bytes differ
// from what its URL serves.
func CanonicalFor(f File) (CanonicalForm, bool) {
	c, ok := canonicalForms[strings.ToLower(f.SHA256)]
	return c, ok
}

// matchesCanonical reports whether the file at local is an accepted
// canonical form c: its decompressed content (Gzip) or its bytes have
// c.SHA256 and, when known, c.Size.
func matchesCanonical(local string, c CanonicalForm) (bool, error) {
	fh, err := os.Open(local)
	if err != nil {
		return false, err
	}
	defer fh.Close()
	var r io.Reader = fh
	if c.Gzip {
		gz, err := gzip.NewReader(fh)
		if err != nil {
			return false, nil // not gzip: not this form
		}
		defer gz.Close()
		r = gz
	}
	h := sha256.New()
	var n int64
	if c.Size > 0 {
		n, err = io.Copy(h, io.LimitReader(r, c.Size+1))
	} else {
		n, err = io.Copy(h, r)
	}
	if err != nil {
		if c.Gzip {
			return false, nil // corrupt compressed stream: not intact
		}
		return false, fmt.Errorf("%s: %w", local, err)
	}
	if c.Size > 0 && n != c.Size {
		return false, nil
	}
	return strings.EqualFold(hex.EncodeToString(h.Sum(nil)), c.SHA256), nil
}
