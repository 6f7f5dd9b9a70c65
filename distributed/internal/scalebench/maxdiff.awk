# maxdiff.awk doc_ids.txt V.mtx transform.tsv: the largest |difference| between
# V.mtx (K×N dense Matrix Market, column-major) and transform's rows, by id.
FNR == 1 { f++ }
f == 1 { id[FNR - 1] = $1; next }
f == 2 && /^%/ { next }
f == 2 && !hdr { hdr = 1; K = $1; next }
f == 2 { v[id[int(i / K)], i % K] = $1; i++; next }
f == 3 && FNR > 1 { for (k = 0; k < K; k++) if (($1, k) in v) { d = $(k + 2) - v[$1, k]; if (d < 0) d = -d; if (d > m) m = d; c++ } }
END { printf "%d values compared, max |difference| %.3g\n", c, m }
