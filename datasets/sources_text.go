package datasets

// textSources are the labelled text collections (readers in newsgroups.go,
// reuters.go, shorttext.go, moviereview.go).
func textSources() []Source {
	return nil
}
