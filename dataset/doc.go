// Package dataset is hexlearn's training-corpus layer: the one Arrow schema in which
// every evaluated board is stored, atomic Arrow IPC writers, validating readers, and
// the in-memory Table that training reads (partitions by board size and ply, k-fold
// splits, duplicate removal, symmetry augmentation, CSV and FANN export, statistics).
//
// It implements the data side of Kahl, Edelkamp & Hildebrand 2007, "Learning How to
// Play Hex", section 3 (figure 3 and the text around it): during self-play and random
// play every board the exact evaluator (Six: H-search plus Anshelevich's resistance
// circuit) evaluated was captured with its value, one network input per cell encoded
// +1 white, 0 empty, -1 black, and one output, the evaluator's value. The paper trained
// on 112,737 such examples on 6x6 and 142,383 on 11x11 with ten-fold cross-validation
// in FANN; Table.Folds and WriteFANN provide exactly that.
//
// Sign convention (docs/design.md): every value is from Black's point of view, positive good
// for Black; for the exact evaluator value = ln(R_W/R_B), the negation of Anshelevich's
// E = log(R_B/R_W).
package dataset
