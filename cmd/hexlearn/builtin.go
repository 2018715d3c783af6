package main

import (
	"github.com/hexlearn/hexlearn/model"
	"github.com/hexlearn/hexlearn/player"
)

// builtinModel is the --model value that names the model built into the binary.
const builtinModel = player.BuiltinModel

// optionalModel checks a --model value: empty, "builtin" or an existing file.
func optionalModel(path string) error {
	if path == builtinModel {
		return nil
	}
	return optionalInput("model", path)
}

// loadModelFor loads --model for a w x h board: the built-in model or a file (a model
// for another size is refused with model.ErrWrongSize).
func loadModelFor(path string, w, h int) (*model.Model, error) {
	if path == builtinModel {
		return player.Builtin(w, h)
	}
	return model.LoadFor(path, w, h)
}

// optionalBook checks --book: builtin, none, or an existing file.
func optionalBook(path string) error {
	if path == player.BookBuiltin || path == player.BookNone {
		return nil
	}
	return optionalInput("book", path)
}
