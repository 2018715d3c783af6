package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLoopRunnerFlags: every bad value of the runner's flags is a usage error (exit
// 2) of one line naming the flag, before anything is written.
func TestLoopRunnerFlags(t *testing.T) {
	slurm := []string{"--runner", "slurm", "--submit=false"}
	kube := []string{"--runner", "kubernetes", "--image", "hexlearn:1", "--pvc", "data", "--submit=false"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--runner", "pbs"}, `--runner "pbs": want local, slurm or kubernetes`},
		{[]string{"--runner", ""}, `--runner "": want local, slurm or kubernetes`},
		{[]string{"--image", "x"}, "--image is for --runner kubernetes, not local"},
		{[]string{"--task-cpus", "2"}, "--task-cpus is for --runner slurm or kubernetes, not local"},
		{[]string{"--submit=false"}, "--submit is for --runner slurm or kubernetes, not local"},
		{append(slurm, "--image", "x"), "--image is for --runner kubernetes, not slurm"},
		{append(slurm, "--workers", "2"), "--workers is for --runner local, not slurm"},
		{append(kube, "--partition", "cpu"), "--partition is for --runner slurm, not kubernetes"},
		{append(kube, "--sbatch-arg", "--time=1:00:00"), "--sbatch-arg is for --runner slurm, not kubernetes"},
		{append(slurm, "--task-cpus", "0"), "--task-cpus 0: want 1..1024"},
		{append(slurm, "--task-cpus", "-1"), "--task-cpus -1: want 1..1024"},
		{append(slurm, "--task-memory", "-1"), "--task-memory -1: want 0.."},
		{append(slurm, "--task-cpus", "x"), `--task-cpus "x": want a whole number`},
		{append(slurm, "--cluster-timeout", "-1s"), "--cluster-timeout -1s: want 0s..720h0m0s"},
		{append(slurm, "--cluster-timeout", "1000000h"), "--cluster-timeout 1000000h0m0s: want 0s..720h0m0s"},
		{append(slurm, "--cluster-timeout", "soon"), `--cluster-timeout "soon": want a duration`},
		{append(slurm, "--cluster-poll", "1ms"), "--cluster-poll 1ms: want 100ms..1h0m0s"},
		{append(slurm, "--cluster-poll", "0"), "--cluster-poll 0s: want 100ms..1h0m0s"},
		{append(slurm, "--submit=maybe"), `--submit "maybe": want true or false`},
		{append(slurm, "--job-name", "Hex_Loop"), `--job-name "Hex_Loop": want at most 54`},
		{append(slurm, "--job-name", ""), `--job-name "": want`},
		{append(slurm, "--sbatch-arg", "time=1:00:00"), `--sbatch-arg "time=1:00:00": want one sbatch option`},
		{append(slurm, "--partition", "a b"), `--partition "a b"`},
		{[]string{"--runner", "kubernetes", "--pvc", "data"}, "--runner kubernetes needs --image and --pvc"},
		{[]string{"--runner", "kubernetes", "--image", "hexlearn:1"}, "--runner kubernetes needs --image and --pvc"},
		{append(kube, "--pvc", "Data"), `--pvc "Data"`},
		{append(kube, "--pvc-path", "../up"), `--pvc-path "../up"`},
		{append(kube, "--pvc-path", "/abs"), `--pvc-path "/abs"`},
		{append(kube, "--namespace", "Hex"), `--namespace "Hex"`},
		{append(kube, "--image", "a b"), `--image "a b"`},
		{append(slurm, "--job-name", strings.Repeat("a", 55)), "--job-name"},
	} {
		dir := filepath.Join(t.TempDir(), "loop")
		args := append([]string{"loop", "--dir", dir, "--size", "3", "--games", "2", "--shards", "1"}, tc.args...)
		code, _, errs, p := runCancelled(args)
		lines := strings.Split(strings.TrimSpace(errs), "\n")
		if p != nil || code != 2 || len(lines) != 2 || !strings.Contains(lines[0], tc.want) {
			t.Errorf("%s: exit %d, panic %v, want exit 2 and one line with %q:\n%s", strings.Join(tc.args, " "), code, p, tc.want, errs)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%s: wrote %s", strings.Join(tc.args, " "), dir)
		}
	}
}
