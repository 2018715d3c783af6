package model_test

import (
	"errors"
	"fmt"

	"github.com/hexlearn/hexlearn/engine/hex"
	"github.com/hexlearn/hexlearn/model"
)

// A search loads a model for its board size, then drives the evaluator through
// Reset/Play/Undo so each evaluation costs O(hidden).
func ExampleEvaluator() {
	m, err := model.LoadFor("testdata/tiny.model", 3, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	ev, err := model.NewEvaluator(m, 3, 3)
	if err != nil {
		fmt.Println(err)
		return
	}
	b := hex.MustBoard(3, 3)
	ev.Reset(b)
	b.PlayStone(hex.Black, 4) // b2
	ev.Play(hex.Black, 4)
	fmt.Printf("value after b2: %.4f\n", ev.Evaluate(b).Value)
	b.Undo()
	ev.Undo(hex.Black, 4)
	fmt.Printf("value of the empty board: %.4f\n", ev.Evaluate(b).Value)

	_, err = model.LoadFor("testdata/tiny.model", 5, 5)
	fmt.Println(errors.Is(err, model.ErrWrongSize))
	// Output:
	// value after b2: 0.7183
	// value of the empty board: 0.2565
	// true
}
