package benchutil

import (
	"runtime"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/engine/vc"
)

func TestThreadClock(t *testing.T) {
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	clock, cpu := ThreadClock()
	if runtime.GOOS == "linux" && !cpu {
		t.Fatal("no thread CPU clock on Linux")
	}
	t0 := clock()
	x := 0
	for i := 0; i < 20_000_000; i++ {
		x ^= i * i
	}
	d := clock() - t0
	if d <= 0 || d > time.Minute {
		t.Fatalf("busy loop measured %v (x %d)", d, x)
	}
}

func TestMeasureVC(t *testing.T) {
	boards, err := vc.BenchPositions(8)
	if err != nil {
		t.Fatal(err)
	}
	boards = boards[:5]
	tests := []struct {
		name string
		both bool
	}{{"side to move", false}, {"both colours", true}}
	for _, tc := range tests {
		st, err := MeasureVC(boards, vc.DefaultConfig(), tc.both, 1)
		if err != nil {
			t.Fatal(err)
		}
		if st.Positions != 5 || st.Median <= 0 || st.P90 < st.Median || st.Mean <= 0 || st.Full <= 0 || st.Semi <= 0 {
			t.Errorf("%s: %+v", tc.name, st)
		}
	}
	bad := vc.DefaultConfig()
	bad.MaxFull = -1
	if _, err := MeasureVC(boards, bad, true, 1); err == nil {
		t.Error("MeasureVC accepted a bad config")
	}
	if st, err := MeasureVC(nil, vc.DefaultConfig(), true, 1); err != nil || st.Positions != 0 {
		t.Errorf("no boards: %+v, %v", st, err)
	}
}

func TestMeasurePlay(t *testing.T) {
	tests := []struct {
		name       string
		cfg        vc.Config
		allRebuild bool // vc.Builder.Play rebuilds on every move (XH-search)
	}{
		{"H", vc.DefaultConfig(), false},
		{"XH", vc.XHConfig(), true},
	}
	for _, tc := range tests {
		st, err := MeasurePlay(5, 2, tc.cfg, 1)
		if err != nil {
			t.Fatal(err)
		}
		if st.Games != 2 || st.Moves < 2*5 || st.PlayTotal <= 0 || st.BuildTotal <= 0 || st.PlayP90 < st.PlayMedian || st.BuildP90 < st.BuildMedian {
			t.Errorf("%s: %+v", tc.name, st)
		}
		if tc.allRebuild && st.Rebuilds != 2*st.Moves { // two Builders, one per colour
			t.Errorf("%s: %d rebuilds over %d moves, want %d", tc.name, st.Rebuilds, st.Moves, 2*st.Moves)
		}
		if !tc.allRebuild && st.Rebuilds >= 2*st.Moves {
			t.Errorf("%s: every Play rebuilt (%d over %d moves)", tc.name, st.Rebuilds, st.Moves)
		}
	}
	if _, err := MeasurePlay(0, 1, vc.DefaultConfig(), 1); err == nil {
		t.Error("size 0 accepted")
	}
}
