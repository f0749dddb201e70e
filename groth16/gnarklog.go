package groth16

import "github.com/consensys/gnark/logger"

// gnark writes its own lines (its verifier's, its solver's, its
// compiler's) through one global zerolog logger, which by default prints
// colour-coded debug lines to standard output. Importing this package
// turns that logger off, so that a program proving with g16 writes only
// what it logs itself (WithLogger). A program that wants gnark's lines
// sets gnark's logger after import (logger.Set); g16 leaves it as set.
func init() { silenceGnark() }

func silenceGnark() { logger.Disable() }
