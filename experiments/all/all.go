package all

import (
	_ "github.com/topicmf/topicmf/experiments/foundation" // harness sanity checks on planted topics
	_ "github.com/topicmf/topicmf/experiments/rlsi2011"   // RLSI, SIGIR 2011
)
