module github.com/corefscore/corefscore

go 1.26.8

require (
	github.com/pkg/errors v0.9.1
	github.com/stretchr/testify v1.12.1
)

require go.yaml.in/yaml/v3 v3.0.5 // indirect
