package loop

import (
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

func TestShardList(t *testing.T) {
	for _, tc := range []struct {
		in   []int
		want string
	}{
		{nil, ""}, {[]int{0}, "0"}, {[]int{0, 1}, "0-1"}, {[]int{0, 1, 2, 3}, "0-3"},
		{[]int{1, 3}, "1,3"}, {[]int{0, 1, 2, 5, 7, 8}, "0-2,5,7-8"}, {[]int{4, 6, 7, 8, 10}, "4,6-8,10"},
	} {
		if got := shardList(tc.in); got != tc.want {
			t.Errorf("shardList(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestShellQuote(t *testing.T) {
	for in, want := range map[string]string{
		"/usr/bin/hexlearn": "/usr/bin/hexlearn", "": "''", "a b": "'a b'", "it's": `'it'\''s'`, "$HOME": "'$HOME'",
	} {
		if got := shellQuote(in); got != want {
			t.Errorf("shellQuote(%q) = %s, want %s", in, got, want)
		}
	}
}

// testCluster is a cluster configuration for the tests: it polls fast.
func testCluster() Cluster {
	return Cluster{Hexlearn: "/opt/hexlearn/bin/hexlearn", JobName: "hexlearn-loop", CPUs: 2, Submit: true,
		Timeout: 20 * time.Second, Poll: 20 * time.Millisecond}
}

// golden compares got with testdata/name (rewritten with -update).
func golden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		t.Errorf("%s differs (run with -update to rewrite it)\n--- want\n%s\n--- got\n%s", path, want, got)
	}
}

// TestSlurmScript: the batch script of the shards still to do, with every option.
func TestSlurmScript(t *testing.T) {
	s := &Slurm{Cluster: testCluster(), Partition: "cpu", SbatchArgs: []string{"--time=4:00:00", "--account=hex"}}
	s.MemoryMiB = 3000
	golden(t, "slurm-array.sh", s.Script("/shared/loops/run 1", 2, []int{0, 1, 2, 5}))
}

// TestKubernetesManifestGolden: the Job manifest with every option.
func TestKubernetesManifestGolden(t *testing.T) {
	k := &Kubernetes{Cluster: testCluster(), Image: "registry.example.org/hexlearn:0.1.0", Namespace: "hex", PVC: "hexlearn-data", PVCPath: "loops/run1"}
	k.Hexlearn, k.MemoryMiB = "hexlearn", 3000
	golden(t, "job.yaml", k.Manifest(2, 8))
}

func TestRunnersValidate(t *testing.T) {
	slurm := func(f func(*Slurm)) error {
		s := &Slurm{Cluster: testCluster()}
		f(s)
		return s.Validate()
	}
	kube := func(f func(*Kubernetes)) error {
		k := &Kubernetes{Cluster: testCluster(), Image: "hexlearn:1", PVC: "data"}
		f(k)
		return k.Validate()
	}
	for name, err := range map[string]error{
		"no binary":        slurm(func(s *Slurm) { s.Hexlearn = "" }),
		"job name":         slurm(func(s *Slurm) { s.JobName = "Hex_Loop" }),
		"long job name":    slurm(func(s *Slurm) { s.JobName = strings.Repeat("a", 60) }),
		"no cpus":          slurm(func(s *Slurm) { s.CPUs = 0 }),
		"negative memory":  slurm(func(s *Slurm) { s.MemoryMiB = -1 }),
		"negative timeout": slurm(func(s *Slurm) { s.Timeout = -time.Second }),
		"sbatch option":    slurm(func(s *Slurm) { s.SbatchArgs = []string{"time=1"} }),
		"partition":        slurm(func(s *Slurm) { s.Partition = "a b" }),
		"no image":         kube(func(k *Kubernetes) { k.Image = "" }),
		"namespace":        kube(func(k *Kubernetes) { k.Namespace = "Hex" }),
		"no pvc":           kube(func(k *Kubernetes) { k.PVC = "" }),
		"pvc path up":      kube(func(k *Kubernetes) { k.PVCPath = "../x" }),
		"pvc path abs":     kube(func(k *Kubernetes) { k.PVCPath = "/x" }),
	} {
		if !errors.Is(err, ErrConfig) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v, want a one-line ErrConfig", name, err)
		}
	}
	if err := slurm(func(*Slurm) {}); err != nil {
		t.Error(err)
	}
	if err := kube(func(*Kubernetes) {}); err != nil {
		t.Error(err)
	}
}

// loopDir makes a loop directory whose iteration 0 waits for its self-play: what
// Run has done when it calls the runner.
func loopDir(t *testing.T) (string, *Config) {
	t.Helper()
	dir := t.TempDir()
	cfg := tinyConfig()
	cfg.Games = 4
	st := &State{Format: stateFormat, Config: cfg}
	if err := st.start(dir); err != nil {
		t.Fatal(err)
	}
	st.Iterations = []Iteration{{Index: 0, Shards: make([]bool, cfg.Shards), Generation: -1}}
	if err := st.save(dir); err != nil {
		t.Fatal(err)
	}
	return dir, &cfg
}

// fakeClients puts shell scripts standing in for sbatch, squeue, scancel and kubectl
// first on PATH (only them: the real ones are not found). Each appends its command
// line to DIR/calls; squeue prints DIR/queue, kubectl get prints DIR/kube-state;
// DIR/fail makes sbatch and kubectl apply fail; sbatch prints DIR/sbatch-out if
// there is one; with DIR/block, sbatch and kubectl apply wait for DIR/go.
func fakeClients(t *testing.T) string {
	t.Helper()
	bin := t.TempDir()
	scripts := map[string]string{
		"sbatch": `if [ -f "$D/block" ]; then while [ ! -f "$D/go" ]; do :; done; fi
if [ -f "$D/fail" ]; then echo "sbatch: error: Batch job submission failed: Invalid partition name specified" >&2; exit 1; fi
if [ -f "$D/sbatch-out" ]; then while IFS= read -r l; do echo "$l"; done <"$D/sbatch-out"; else echo "4242;hexcluster"; fi`,
		"squeue":  `[ -f "$D/queue" ] && while IFS= read -r l; do echo "$l"; done <"$D/queue"; exit 0`,
		"scancel": `exit 0`,
		"kubectl": `case $1 in
get) [ -f "$D/kube-state" ] && while IFS= read -r l; do echo "$l"; done <"$D/kube-state" ;;
apply) if [ -f "$D/block" ]; then while [ ! -f "$D/go" ]; do :; done; fi
	if [ -f "$D/fail" ]; then echo 'error: error validating "job.yaml": unknown field "spec.completion"' >&2; exit 1; fi; echo "job.batch/x created" ;;
esac
exit 0`,
	}
	for name, body := range scripts {
		script := "#!/bin/sh\nD=" + shellQuote(bin) + "\necho \"" + name + " $*\" >>\"$D/calls\"\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(bin, name), []byte(script), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", bin)
	return bin
}

// calls returns the fake clients' command lines.
func calls(bin string) string {
	data, _ := os.ReadFile(filepath.Join(bin, "calls"))
	return string(data)
}

// playShards plays shards as a cluster's tasks would, once the runner submitted.
func playShards(t *testing.T, dir string, shards []int) {
	t.Helper()
	for _, k := range shards {
		if err := RunShard(context.Background(), dir, 0, k, 1, nil); err != nil {
			t.Error(err)
		}
	}
}

// runAsync runs r.RunShards in the background.
func runAsync(ctx context.Context, r Runner, dir string, cfg *Config, todo []int) <-chan error {
	done := make(chan error, 1)
	go func() { done <- r.RunShards(ctx, dir, cfg, 0, todo) }()
	return done
}

// TestSlurmRunner: the runner writes the script, submits it, records the job and
// returns once the tasks wrote every shard's marker; then the loop's data are there.
func TestSlurmRunner(t *testing.T) {
	bin := fakeClients(t)
	os.WriteFile(filepath.Join(bin, "queue"), []byte("4242_0\n4242_1\n"), 0o644)
	dir, cfg := loopDir(t)
	var logged []string
	cfg.Log = func(format string, a ...any) { logged = append(logged, format) }
	s := &Slurm{Cluster: testCluster()}
	done := runAsync(context.Background(), s, dir, cfg, []int{0, 1})
	script := filepath.Join(dir, "iter-000", "selfplay", SlurmScript)
	for !strings.Contains(calls(bin), "sbatch") {
		time.Sleep(5 * time.Millisecond)
	}
	playShards(t, dir, []int{0, 1})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := calls(bin); !strings.HasPrefix(got, "sbatch --parsable "+script+"\n") || !strings.Contains(got, "squeue --noheader --jobs=4242 --format=%i") {
		t.Errorf("calls:\n%s", got)
	}
	if id, _ := os.ReadFile(filepath.Join(dir, "iter-000", "selfplay", slurmJobFile)); string(id) != "4242\n" {
		t.Errorf("job file %q", id)
	}
	data, err := os.ReadFile(script)
	if err != nil || !strings.Contains(string(data), "#SBATCH --array=0-1\n") ||
		!strings.Contains(string(data), "loop shard --dir "+dir+" --iteration 0 --workers 2") {
		t.Errorf("script (%v):\n%s", err, data)
	}
	if len(logged) == 0 {
		t.Error("the runner logged nothing")
	}
	// The loop reads the shards' markers: run as the loop would, it finds them all.
	st, err := Run(context.Background(), dir, func() Config { c := *cfg; c.Runner, c.Log, c.MaxIterations = s, nil, 1; return c }())
	if err != nil {
		t.Fatal(err)
	}
	if it := st.Iterations[0]; !allDone(it.Shards) || it.Games != cfg.Games || it.Rows == 0 {
		t.Errorf("iteration 0 after the cluster's self-play: %+v", it)
	}
}

// TestSlurmRunnerResumes: a loop started again while its job still runs waits for
// that job instead of submitting another.
func TestSlurmRunnerResumes(t *testing.T) {
	bin := fakeClients(t)
	dir, cfg := loopDir(t)
	sp := filepath.Join(dir, "iter-000", "selfplay")
	os.MkdirAll(sp, 0o755)
	os.WriteFile(filepath.Join(sp, slurmJobFile), []byte("77\n"), 0o644)
	os.WriteFile(filepath.Join(bin, "queue"), []byte("77_1\n"), 0o644)
	playShards(t, dir, []int{0})
	done := runAsync(context.Background(), &Slurm{Cluster: testCluster()}, dir, cfg, []int{1})
	for !strings.Contains(calls(bin), "squeue") {
		time.Sleep(5 * time.Millisecond)
	}
	playShards(t, dir, []int{1})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if got := calls(bin); strings.Contains(got, "sbatch") || !strings.Contains(got, "--jobs=77") {
		t.Errorf("calls:\n%s", got)
	}
}

// TestClusterErrors: every way a cluster run fails is one line of ErrCluster naming
// the problem: a missing client, the client's refusal, a job that ended without its
// shards, a timeout with the missing shards and the job to inspect.
func TestClusterErrors(t *testing.T) {
	for _, tc := range []struct {
		name  string
		setup func(bin string, c *Cluster) Runner
		want  []string
	}{
		{"no sbatch", func(bin string, c *Cluster) Runner {
			os.Remove(filepath.Join(bin, "sbatch"))
			return &Slurm{Cluster: *c}
		},
			[]string{"sbatch not found on PATH"}},
		{"no kubectl", func(bin string, c *Cluster) Runner {
			os.Remove(filepath.Join(bin, "kubectl"))
			return &Kubernetes{Cluster: *c, Image: "hexlearn:1", PVC: "data"}
		}, []string{"kubectl not found on PATH"}},
		{"sbatch refuses", func(bin string, c *Cluster) Runner {
			os.WriteFile(filepath.Join(bin, "fail"), nil, 0o644)
			return &Slurm{Cluster: *c}
		},
			[]string{"sbatch: error: Batch job submission failed: Invalid partition name specified"}},
		{"sbatch answers no id", func(bin string, c *Cluster) Runner {
			os.WriteFile(filepath.Join(bin, "sbatch-out"), []byte("Submitted batch job\n"), 0o644)
			return &Slurm{Cluster: *c}
		}, []string{`sbatch answered "Submitted batch job", not a job id`}},
		{"kubectl refuses", func(bin string, c *Cluster) Runner {
			os.WriteFile(filepath.Join(bin, "fail"), nil, 0o644)
			return &Kubernetes{Cluster: *c, Image: "hexlearn:1", PVC: "data"}
		}, []string{`kubectl apply: error: error validating "job.yaml": unknown field "spec.completion"`}},
		{"slurm job ended", func(bin string, c *Cluster) Runner { return &Slurm{Cluster: *c} },
			[]string{"slurm job 4242 (sacct -j 4242; logs ", "ended without shards 0-1 of iteration 0"}},
		{"kubernetes job failed", func(bin string, c *Cluster) Runner {
			os.WriteFile(filepath.Join(bin, "kube-state"), []byte("hexlearn-loop-iter-000  FailureTarget Failed \n"), 0o644)
			return &Kubernetes{Cluster: *c, Image: "hexlearn:1", PVC: "data", Namespace: "hex"}
		}, []string{"kubernetes job hexlearn-loop-iter-000 (kubectl describe job hexlearn-loop-iter-000 --namespace=hex) ended without shards 0-1"}},
		{"timeout, nothing submitted", func(bin string, c *Cluster) Runner {
			c.Submit, c.Timeout = false, 150*time.Millisecond
			return &Slurm{Cluster: *c}
		},
			[]string{"shards 0-1 not done after 150ms", "no job was submitted"}},
		{"timeout", func(bin string, c *Cluster) Runner {
			os.WriteFile(filepath.Join(bin, "queue"), []byte("4242_[0-1]\n"), 0o644)
			c.Timeout = 150 * time.Millisecond
			return &Slurm{Cluster: *c}
		}, []string{"iteration 0: shards 0-1 not done after 150ms; inspect slurm job 4242 (sacct -j 4242"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := fakeClients(t)
			dir, cfg := loopDir(t)
			c := testCluster()
			r := tc.setup(bin, &c)
			start := time.Now()
			err := r.RunShards(context.Background(), dir, cfg, 0, []int{0, 1})
			if !errors.Is(err, ErrCluster) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("%v, want one line of ErrCluster", err)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("%v\nwant %q in it", err, w)
				}
			}
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("took %v", el)
			}
		})
	}
}

// TestClusterCancel: a stopped loop returns within a second and cancels its job, also
// when it is stopped while the job is being submitted.
func TestClusterCancel(t *testing.T) {
	slurm := &Slurm{Cluster: testCluster()}
	kube := &Kubernetes{Cluster: testCluster(), Image: "hexlearn:1", PVC: "data"}
	const scancel, kdelete = "scancel 4242", "kubectl delete job hexlearn-loop-iter-000 --ignore-not-found --wait=false"
	for _, tc := range []struct {
		name     string
		runner   Runner
		want     string
		blocking bool // stopped while sbatch or kubectl apply runs
	}{
		{"slurm", slurm, scancel, false},
		{"kubernetes", kube, kdelete, false},
		{"slurm while sbatch runs", slurm, scancel, true},
		{"kubernetes while kubectl apply runs", kube, kdelete, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := fakeClients(t)
			os.WriteFile(filepath.Join(bin, "queue"), []byte("4242_[0-1]\n"), 0o644)
			os.WriteFile(filepath.Join(bin, "kube-state"), []byte("hexlearn-loop-iter-000  \n"), 0o644)
			if tc.blocking {
				os.WriteFile(filepath.Join(bin, "block"), nil, 0o644)
			}
			dir, cfg := loopDir(t)
			ctx, cancel := context.WithCancel(context.Background())
			done := runAsync(ctx, tc.runner, dir, cfg, []int{0, 1})
			submitted := "squeue"
			if tc.blocking {
				submitted = "sbatch"
			}
			for !strings.Contains(calls(bin), submitted) && !strings.Contains(calls(bin), "apply") {
				time.Sleep(5 * time.Millisecond)
			}
			cancel()
			if tc.blocking { // the submission ends after the stop
				time.Sleep(50 * time.Millisecond)
				os.WriteFile(filepath.Join(bin, "go"), nil, 0o644)
			}
			start := time.Now()
			select {
			case err := <-done:
				if !errors.Is(err, context.Canceled) {
					t.Errorf("%v, want context.Canceled", err)
				}
			case <-time.After(time.Second):
				t.Fatal("the runner did not stop within a second")
			}
			if el := time.Since(start); el > time.Second {
				t.Errorf("stopped after %v", el)
			}
			if !strings.Contains(calls(bin), tc.want) {
				t.Errorf("calls:\n%s\nwant %q", calls(bin), tc.want)
			}
		})
	}
}

// TestKubernetesRunner: the runner writes the manifest, deletes a Job of the same
// name that ended, applies the manifest and returns when the pods wrote every marker.
func TestKubernetesRunner(t *testing.T) {
	bin := fakeClients(t)
	os.WriteFile(filepath.Join(bin, "kube-state"), []byte("hexlearn-loop-iter-000  Complete \n"), 0o644)
	dir, cfg := loopDir(t)
	k := &Kubernetes{Cluster: testCluster(), Image: "hexlearn:1", PVC: "data", Namespace: "hex"}
	done := runAsync(context.Background(), k, dir, cfg, []int{0, 1})
	for !strings.Contains(calls(bin), "apply") {
		time.Sleep(5 * time.Millisecond)
	}
	os.WriteFile(filepath.Join(bin, "kube-state"), []byte("hexlearn-loop-iter-000  \n"), 0o644)
	playShards(t, dir, []int{0, 1})
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	manifest := filepath.Join(dir, "iter-000", "selfplay", KubernetesManifest)
	want := []string{
		"kubectl get job hexlearn-loop-iter-000 --ignore-not-found --output=jsonpath=",
		"kubectl delete job hexlearn-loop-iter-000 --ignore-not-found --cascade=foreground --namespace=hex",
		"kubectl apply -f " + manifest + " --namespace=hex",
	}
	got := calls(bin)
	at := 0
	for _, w := range want {
		i := strings.Index(got[at:], w)
		if i < 0 {
			t.Fatalf("calls:\n%s\nwant %q after byte %d", got, w, at)
		}
		at += i + len(w)
	}
	if _, err := os.Stat(manifest); err != nil {
		t.Error(err)
	}
}

// TestSubmitFalse: without submission the runner writes the file, logs the command
// that submits it and waits for the shards; no client is called.
func TestSubmitFalse(t *testing.T) {
	for _, tc := range []struct {
		name   string
		runner func(c Cluster) Runner
		cmd    string
	}{
		{"slurm", func(c Cluster) Runner { return &Slurm{Cluster: c} }, "sbatch "},
		{"kubernetes", func(c Cluster) Runner { return &Kubernetes{Cluster: c, Image: "hexlearn:1", PVC: "data"} }, "kubectl apply -f "},
	} {
		t.Run(tc.name, func(t *testing.T) {
			bin := fakeClients(t)
			dir, cfg := loopDir(t)
			logged := make(chan string, 10)
			cfg.Log = func(format string, a ...any) { logged <- format }
			c := testCluster()
			c.Submit = false
			done := runAsync(context.Background(), tc.runner(c), dir, cfg, []int{0, 1})
			if line := <-logged; !strings.Contains(line, tc.cmd) {
				t.Errorf("logged %q, want the command %q", line, tc.cmd)
			}
			playShards(t, dir, []int{0, 1})
			if err := <-done; err != nil {
				t.Fatal(err)
			}
			if got := calls(bin); got != "" {
				t.Errorf("calls without submission:\n%s", got)
			}
		})
	}
}
