package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/pipeline/loop"
)

// runnerUsage is the runners' paragraph of the loop's help.
const runnerUsage = `--runner chooses where an iteration's self-play shards run: local (the default) plays
them here, one after the other on --workers cores; slurm writes DIR/iter-NNN/selfplay/
slurm-array.sh, a job array of the shards still to do, submits it with sbatch and waits
for the shards' done markers; kubernetes writes job.yaml there, an Indexed Job with one
completion per shard and DIR mounted from --pvc, applies it with kubectl and waits.
--submit=false only writes the file and prints the command that submits it. The tasks
run 'hexlearn loop shard' (--hexlearn) on the shared DIR; see docs/cluster.md.`

// runnerFlags are the flags of 'hexlearn loop' that choose and configure the runner
// of the self-play shards (loop.Local, loop.Slurm, loop.Kubernetes).
type runnerFlags struct {
	kind, hexlearn, jobName        *string
	cpus, memory                   *int
	submit                         *bool
	timeout, poll                  *time.Duration
	partition                      *string
	sbatch                         sbatchArgs
	image, namespace, pvc, pvcPath *string
	// only names the runners a flag is for (the others refuse it).
	only map[string]string
}

// sbatchArgs collects repeated --sbatch-arg flags.
type sbatchArgs []string

func (s *sbatchArgs) String() string { return strings.Join(*s, " ") }
func (s *sbatchArgs) Set(v string) error {
	if !strings.HasPrefix(v, "-") || strings.ContainsAny(v, "\n\r") {
		return errors.New("want one sbatch option, such as --time=4:00:00")
	}
	*s = append(*s, v)
	return nil
}

// addRunnerFlags defines the runner's flags on fs.
func addRunnerFlags(fs *flagSet) *runnerFlags {
	r := &runnerFlags{}
	r.kind = fs.String("runner", "local", "where an iteration's self-play shards run: local, slurm (a job array) or kubernetes (an Indexed Job)")
	r.hexlearn = fs.String("hexlearn", "", "slurm, kubernetes: the hexlearn binary as the tasks see it (default: this binary; kubernetes: hexlearn)")
	r.jobName = fs.String("job-name", "hexlearn-loop", "slurm, kubernetes: the jobs' name (-iter-NNN is added)")
	r.cpus = fs.Int("task-cpus", 1, "slurm, kubernetes: processors of each task, and the games it plays at once")
	r.memory = fs.Int("task-memory", 0, "slurm, kubernetes: memory of each task in MiB (0: the cluster's default)")
	r.submit = fs.Bool("submit", true, "slurm, kubernetes: submit the job (sbatch, kubectl apply); false: only write it, print the command and wait")
	r.timeout = fs.Duration("cluster-timeout", 24*time.Hour, "slurm, kubernetes: give up waiting for an iteration's shards after this long (0: never)")
	r.poll = fs.Duration("cluster-poll", 10*time.Second, "slurm, kubernetes: how often to look for finished shards and at the job")
	r.partition = fs.String("partition", "", "slurm: the partition (default: the cluster's)")
	fs.Var(&r.sbatch, "sbatch-arg", "slurm: one more sbatch option for the job, such as --time=4:00:00 (repeat it)")
	r.image = fs.String("image", "", "kubernetes: the container image with hexlearn (required)")
	r.namespace = fs.String("namespace", "", "kubernetes: the Job's namespace (default: kubectl's)")
	r.pvc = fs.String("pvc", "", "kubernetes: the persistent volume claim that holds --dir (required)")
	r.pvcPath = fs.String("pvc-path", "", "kubernetes: --dir's path inside the volume (default: its root)")
	r.only = map[string]string{
		"hexlearn": "slurm kubernetes", "job-name": "slurm kubernetes", "task-cpus": "slurm kubernetes", "task-memory": "slurm kubernetes",
		"submit": "slurm kubernetes", "cluster-timeout": "slurm kubernetes", "cluster-poll": "slurm kubernetes",
		"partition": "slurm", "sbatch-arg": "slurm",
		"image": "kubernetes", "namespace": "kubernetes", "pvc": "kubernetes", "pvc-path": "kubernetes",
		"workers": "local",
	}
	return r
}

// runner checks the runner's flags of the parsed fs and returns the runner (nil: the
// loop's default, local).
func (r *runnerFlags) runner(fs *flagSet) (loop.Runner, error) {
	kind := *r.kind
	switch kind {
	case "local", "slurm", "kubernetes":
	default:
		return nil, usageErr("--runner %q: want local, slurm or kubernetes", kind)
	}
	var wrong []string
	fs.Visit(func(f *flag.Flag) {
		if only, ok := r.only[f.Name]; ok && !strings.Contains(only, kind) {
			wrong = append(wrong, fmt.Sprintf("--%s is for --runner %s", f.Name, strings.ReplaceAll(only, " ", " or ")))
		}
	})
	if len(wrong) > 0 {
		sort.Strings(wrong)
		return nil, usageErr("%s, not %s", wrong[0], kind)
	}
	if kind == "local" {
		return nil, nil
	}
	if err := checkAll(intIn("task-cpus", *r.cpus, 1, maxWorkers), intIn("task-memory", *r.memory, 0, 1<<30),
		durationIn("cluster-timeout", *r.timeout, 0, 30*24*time.Hour), durationIn("cluster-poll", *r.poll, 100*time.Millisecond, time.Hour)); err != nil {
		return nil, err
	}
	if !loop.ValidName(*r.jobName, loop.MaxJobName) {
		return nil, usageErr("--job-name %q: want at most %d lower-case letters, digits and '-', starting and ending with a letter or digit", *r.jobName, loop.MaxJobName)
	}
	c := loop.Cluster{Hexlearn: *r.hexlearn, JobName: *r.jobName, CPUs: *r.cpus, MemoryMiB: *r.memory, Submit: *r.submit,
		Timeout: *r.timeout, Poll: *r.poll}
	var run interface {
		loop.Runner
		Validate() error
	}
	switch kind {
	case "slurm":
		if c.Hexlearn == "" {
			exe, err := os.Executable()
			if err != nil {
				return nil, usageErr("--hexlearn is required: this binary's path is unknown (%v)", err)
			}
			c.Hexlearn = exe
		} else if strings.Contains(c.Hexlearn, "/") {
			abs, err := filepath.Abs(c.Hexlearn)
			if err != nil {
				return nil, usageErr("--hexlearn %s: %v", c.Hexlearn, err)
			}
			c.Hexlearn = abs
		}
		if strings.ContainsAny(*r.partition, " \t\n\r") {
			return nil, usageErr("--partition %q: want one partition name", *r.partition)
		}
		run = &loop.Slurm{Cluster: c, Partition: *r.partition, SbatchArgs: r.sbatch}
	case "kubernetes":
		if c.Hexlearn == "" {
			c.Hexlearn = "hexlearn"
		}
		switch {
		case *r.image == "" || *r.pvc == "":
			return nil, usageErr("--runner kubernetes needs --image and --pvc")
		case strings.ContainsAny(*r.image, " \t\n\r\""):
			return nil, usageErr("--image %q: want an image reference such as registry.example.org/hexlearn:1.0", *r.image)
		case !loop.ValidName(*r.pvc, 253):
			return nil, usageErr("--pvc %q: want a claim name of lower-case letters, digits and '-'", *r.pvc)
		case *r.namespace != "" && !loop.ValidName(*r.namespace, 63):
			return nil, usageErr("--namespace %q: want at most 63 lower-case letters, digits and '-'", *r.namespace)
		case !loop.ValidVolumePath(*r.pvcPath):
			return nil, usageErr("--pvc-path %q: want a relative path inside the volume", *r.pvcPath)
		}
		run = &loop.Kubernetes{Cluster: c, Image: *r.image, Namespace: *r.namespace, PVC: *r.pvc, PVCPath: *r.pvcPath}
	}
	if err := run.Validate(); err != nil {
		return nil, usageErr("%s", strings.TrimPrefix(err.Error(), loop.ErrConfig.Error()+": "))
	}
	return run, nil
}

// durationIn returns a usage error unless lo <= v <= hi.
func durationIn(name string, v, lo, hi time.Duration) error {
	if v < lo || v > hi {
		return usageErr("--%s %s: want %s..%s", name, v, lo, hi)
	}
	return nil
}

// Type names the flag's value in the help.
func (s *sbatchArgs) Type() string { return "option" }
