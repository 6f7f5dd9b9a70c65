package grouping_test

import (
	"github.com/topicmf/topicmf/engine/grouping"
	"github.com/topicmf/topicmf/engine/groupnmf"
	"github.com/topicmf/topicmf/engine/grouprlsi"
)

// Both group models offer GroupModel; the per-class models fold in by class.
var (
	_ grouping.GroupModel  = (*grouprlsi.Model)(nil)
	_ grouping.GroupModel  = (*groupnmf.Model)(nil)
	_ grouping.ClassFolder = (*grouping.PerClass)(nil)
)
