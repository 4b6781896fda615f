//go:build tools

// Package tools pins the command build.sh compiles, so `go mod tidy` keeps
// its dependencies in go.mod/go.sum. The build tag keeps it out of builds.
package tools

import (
	_ "helm.sh/helm/v3/cmd/helm"
)
