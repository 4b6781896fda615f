//go:build tools

// Package tools pins what build.sh uses, so `go mod tidy` keeps their dependencies in go.mod/go.sum:
// controller-gen, and the Prometheus Operator's monitoring.coreos.com/v1 types it reads. The build tag
// keeps it out of builds.
package tools

import (
	_ "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	_ "sigs.k8s.io/controller-tools/cmd/controller-gen"
)
