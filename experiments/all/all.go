package all

import (
	_ "github.com/topicmf/topicmf/experiments/foundation" // harness sanity checks on planted topics
	_ "github.com/topicmf/topicmf/experiments/gmf2012"    // Group MF, SIGIR 2012
	_ "github.com/topicmf/topicmf/experiments/gnmfnc2014" // GNMFNC, COLING 2014
	_ "github.com/topicmf/topicmf/experiments/jtd2013"    // joint topic-document model, ICASSP 2013
	_ "github.com/topicmf/topicmf/experiments/rlsi2011"   // RLSI, SIGIR 2011
	_ "github.com/topicmf/topicmf/experiments/tnmf2013"   // TNMF, SDM 2013
)
