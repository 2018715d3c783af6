package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/hexlearn/hexlearn/pipeline/loop"
)

// slurmScript starts and stops the one-node Slurm cluster.
const slurmScript = "../../scripts/slurm-one-node.sh"

// tinyLoop are the flags of a loop iteration small enough for a test: 5x5, 4 games
// in 2 shards, one iteration.
var tinyLoop = []string{"loop", "--size", "5", "--games", "4", "--shards", "2", "--expansions", "20", "--explore", "2",
	"--hidden", "6", "--epochs", "2", "--gate-games", "2", "--gate-min-games", "2", "--gate-time", "0.005",
	"--generations", "1", "--max-iterations", "1"}

// TestLoopSlurmArray runs a tiny loop iteration's self-play as a real Slurm job array
// on a one-node cluster that scripts/slurm-one-node.sh installs (Debian's slurm-wlm
// and munge, when missing), starts and stops; this test binary stands in for hexlearn
// in the array's tasks. The shards the tasks write are the local runner's, byte for
// byte, and so is the candidate trained on them. Skipped where Slurm cannot start
// (not Linux, not root, no apt-get or no network to install it, its ports taken).
func TestLoopSlurmArray(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: no Slurm cluster")
	}
	if runtime.GOOS != "linux" {
		t.Skip("the one-node Slurm cluster runs on Linux only")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("no bash to run " + slurmScript)
	}
	exe := self(t)
	unlock := lockSlurm(t)
	defer unlock()
	state := t.TempDir()
	env := append(os.Environ(), "HEXLEARN_SLURM_DIR="+state, "HEXLEARN_SLURM_PORT=6917")
	script := func(action string) (string, int, error) {
		var o, e bytes.Buffer
		cmd := exec.Command("bash", slurmScript, action)
		cmd.Env, cmd.Stdout, cmd.Stderr = env, &o, &e
		err := cmd.Run()
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return strings.TrimSpace(e.String()), exit.ExitCode(), err
		}
		return strings.TrimSpace(e.String()), 0, err
	}
	begin := time.Now()
	t.Cleanup(func() { // before the state directory is removed
		stopped := time.Now()
		if msg, _, err := script("stop"); err != nil {
			t.Errorf("stopping the cluster: %v: %s", err, msg)
		}
		t.Logf("cluster stopped in %v; the test took %v", time.Since(stopped).Round(time.Millisecond), time.Since(begin).Round(time.Millisecond))
	})
	msg, code, err := script("start")
	switch {
	case code == 3:
		lines := strings.Split(msg, "\n")
		t.Skip(lines[len(lines)-1])
	case err != nil:
		t.Fatalf("%s start: %v\n%s", slurmScript, err, msg)
	}
	t.Logf("cluster up in %v", time.Since(begin).Round(time.Millisecond))
	t.Setenv("SLURM_CONF", filepath.Join(state, "slurm.conf"))

	dir := t.TempDir()
	var out, errb bytes.Buffer
	args := append(append([]string{}, tinyLoop...), "--dir", dir, "--runner", "slurm", "--hexlearn", exe,
		"--cluster-poll", "200ms", "--cluster-timeout", "60s")
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("hexlearn %s: exit %d\n%s%s", strings.Join(args, " "), code, out.String(), errb.String())
	}
	t.Logf("loop on the cluster done %v after the start:\n%s", time.Since(begin).Round(time.Millisecond), out.String())
	id, err := os.ReadFile(filepath.Join(dir, "iter-000", "selfplay", "slurm.job"))
	if err != nil || !strings.Contains(out.String(), "submitted slurm job "+strings.TrimSpace(string(id))) {
		t.Fatalf("job id %q (%v) not in the loop's output:\n%s", id, err, out.String())
	}
	for k := 0; k < 2; k++ { // every shard ran as a task of the array
		log := filepath.Join(dir, "iter-000", "selfplay", "slurm-"+strings.TrimSpace(string(id))+"_"+string(rune('0'+k))+".log")
		if data, err := os.ReadFile(log); err != nil || !strings.Contains(string(data), "shard "+string(rune('0'+k))+" done") {
			t.Errorf("task %d's log %s (%v):\n%s", k, log, err, data)
		}
	}

	local := t.TempDir()
	if code := run(append(append([]string{}, tinyLoop...), "--dir", local), &out, &errb); code != 0 {
		t.Fatalf("the local loop: exit %d\n%s", code, errb.String())
	}
	st, err := loop.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	if it := st.Iterations[0]; it.Games != 4 || it.Rows == 0 || it.Candidate == "" {
		t.Fatalf("iteration 0 on the cluster: %+v", it)
	}
	files := 0
	err = filepath.WalkDir(filepath.Join(local, "iter-000"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !(strings.HasSuffix(path, ".arrow") || strings.HasSuffix(path, ".model")) {
			return err
		}
		rel, _ := filepath.Rel(local, path)
		want, _ := os.ReadFile(path)
		got, err := os.ReadFile(filepath.Join(dir, rel))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("%s: the cluster's differs from the local run's (%v)", rel, err)
		}
		files++
		return nil
	})
	if err != nil || files < 3 {
		t.Errorf("compared %d files (%v), want the shards' and the candidate", files, err)
	}
}

// lockSlurm keeps two test runs on this machine (go test in two work trees) from
// starting their clusters at once; it waits up to two minutes for the other.
func lockSlurm(t *testing.T) func() {
	t.Helper()
	f, err := os.OpenFile(filepath.Join(os.TempDir(), "hexlearn-slurm-test.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Skipf("no lock file for the Slurm test: %v", err)
	}
	for start := time.Now(); ; time.Sleep(200 * time.Millisecond) {
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err == nil {
			return func() { f.Close() }
		}
		if time.Since(start) > 2*time.Minute {
			f.Close()
			t.Skip("another test's Slurm cluster has been running on this machine for two minutes")
		}
	}
}
