module github.com/tumble2d/tumble

go 1.26

require github.com/mlange-42/arche v0.15.3
