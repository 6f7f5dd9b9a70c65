package all

import (
	_ "github.com/topicmf/topicmf/experiments/foundation" // harness sanity checks on planted topics
)
