package train

import (
	"context"

	"github.com/hexlearn/hexlearn/model"
)

// inputs returns the network inputs of every row of ex for m's feature set, row by row
// (ex.X itself for the cells set).
func inputs(ctx context.Context, ex *Examples, m *model.Model) ([]float32, error) {
	if m.Features == "" || m.Features == model.FeaturesCells {
		return ex.X, nil
	}
	enc, err := model.NewEncoder(m)
	if err != nil {
		return nil, err
	}
	in := m.Inputs()
	x := make([]float32, ex.Rows()*in)
	for i := 0; i < ex.Rows(); i++ {
		if i%4096 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		b, err := ex.Board(i)
		if err != nil {
			return nil, err
		}
		enc.Encode(b, x[i*in:(i+1)*in])
	}
	return x, nil
}
