package loop

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hexlearn/hexlearn/internal/fileutil"
	"github.com/hexlearn/hexlearn/internal/progress"
)

// ErrCluster reports a cluster run that failed: a client that is missing or refused
// the job, a job that ended without all its shards, a timeout.
var ErrCluster = errors.New("loop: cluster")

// Cluster holds what the cluster runners share. A runner writes the manifest of an
// iteration's self-play into DIR/iter-NNN/selfplay/, submits it with the engine's
// client (or, without Submit, tells the user the command), and waits until every
// shard's done marker is in the shared directory.
type Cluster struct {
	// Hexlearn is the hexlearn binary as the tasks see it.
	Hexlearn string
	// JobName names the jobs: Slurm's job name, the Kubernetes Job's name (both with
	// "-iter-NNN" added). A DNS label (lower-case letters, digits and '-').
	JobName string
	// CPUs is every task's processors, and the games it plays at once; MemoryMiB its
	// memory in MiB (0: the engine's default).
	CPUs, MemoryMiB int
	// Submit submits the manifest with the engine's client (sbatch, kubectl); without
	// it the runner only writes the manifest, logs the command that submits it and
	// waits for the shards.
	Submit bool
	// Timeout bounds the wait for an iteration's shards (0: none); Poll is how often
	// the runner looks at the done markers and the job (0: 10 s).
	Timeout, Poll time.Duration
}

// defaultPoll is Cluster.Poll's default.
const defaultPoll = 10 * time.Second

// dnsLabel is a Kubernetes name (RFC 1123 label), also used for Slurm's job names.
var dnsLabel = regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?$`)

// ValidName reports whether s is a valid job, namespace or volume claim name (an RFC
// 1123 label of at most max characters).
func ValidName(s string, max int) bool { return len(s) <= max && dnsLabel.MatchString(s) }

// MaxJobName is the longest Cluster.JobName: the Job's name (JobName-iter-NNN) labels
// its pods, at most 63 characters.
const MaxJobName = 63 - len("-iter-000")

func (c *Cluster) validate() error {
	switch {
	case c.Hexlearn == "":
		return fmt.Errorf("%w: no hexlearn binary for the cluster's tasks", ErrConfig)
	case !ValidName(c.JobName, MaxJobName):
		return fmt.Errorf("%w: job name %q (want at most %d lower-case letters, digits and '-', starting and ending with a letter or digit)", ErrConfig, c.JobName, MaxJobName)
	case c.CPUs < 1 || c.MemoryMiB < 0:
		return fmt.Errorf("%w: %d CPUs and %d MiB per task (want >= 1 CPU)", ErrConfig, c.CPUs, c.MemoryMiB)
	case c.Timeout < 0 || c.Poll < 0:
		return fmt.Errorf("%w: negative cluster timeout or poll interval", ErrConfig)
	}
	return nil
}

// jobName is the name of iteration i's job.
func (c *Cluster) jobName(i int) string { return fmt.Sprintf("%s-iter-%03d", c.JobName, i) }

// selfplayDir is iteration i's self-play directory, which holds the shards, their
// markers and the manifests.
func selfplayDir(dir string, i int) string { return filepath.Join(iterDir(dir, i), "selfplay") }

// job is a submitted job the runners watch while they wait for its shards.
type job interface {
	// String names the job and how to inspect it ("slurm job 12 (sacct -j 12)").
	String() string
	// ended reports whether the job has ended; an error means it is not known.
	ended(ctx context.Context) (bool, error)
	// cancel stops the job (the loop was stopped), within about a second.
	cancel() error
}

// wait waits until the done markers of iteration i's shards todo are all there, the
// job j (nil: none submitted) has ended without them, the timeout passes or ctx is
// done (then it cancels j).
func (c *Cluster) wait(ctx context.Context, dir string, cfg *Config, i int, todo []int, j job) error {
	poll := c.Poll
	if poll == 0 {
		poll = defaultPoll
	}
	// A job that ended without all its markers is given this long for a shared file
	// system to show the last ones.
	grace := min(6*poll, time.Minute)
	var deadline <-chan time.Time
	if c.Timeout > 0 {
		t := time.NewTimer(c.Timeout)
		defer t.Stop()
		deadline = t.C
	}
	tick := time.NewTicker(poll)
	defer tick.Stop()
	m := progress.Part(cfg.Meter, fmt.Sprintf("iteration %d self-play", i))
	m.Start("", int64(len(todo)), "shard")
	var endedAt time.Time
	for {
		missing := missingShards(dir, i, todo)
		m.Set(int64(len(todo) - len(missing)))
		if len(missing) == 0 {
			m.Done(nil)
			return nil
		}
		if j != nil {
			if ended, err := j.ended(ctx); err == nil && ended {
				if endedAt.IsZero() {
					endedAt = time.Now()
				} else if time.Since(endedAt) >= grace {
					err := fmt.Errorf("%w: %s ended without shards %s of iteration %d", ErrCluster, j, shardList(missing), i)
					m.Done(err)
					return err
				}
			}
		}
		select {
		case <-ctx.Done():
			if j != nil {
				if err := j.cancel(); err != nil {
					logf(cfg)("could not cancel %s: %v", j, err)
				}
			}
			m.Done(ctx.Err())
			return ctx.Err()
		case <-deadline:
			on := "; no job was submitted here: was the manifest submitted, and do its tasks write to this directory?"
			if j != nil {
				on = "; inspect " + j.String()
			}
			err := fmt.Errorf("%w: iteration %d: shards %s not done after %s%s", ErrCluster, i, shardList(missing), c.Timeout, on)
			m.Done(err)
			return err
		case <-tick.C:
		}
	}
}

// missingShards are the shards of todo without their done marker.
func missingShards(dir string, i int, todo []int) []int {
	var missing []int
	for _, k := range todo {
		if _, err := os.Stat(doneMarker(dir, i, k)); err != nil {
			missing = append(missing, k)
		}
	}
	return missing
}

// shardList writes shards as ranges, the way Slurm's --array takes them: "0-3,5,7-8".
func shardList(shards []int) string {
	var b strings.Builder
	for n := 0; n < len(shards); {
		m := n
		for m+1 < len(shards) && shards[m+1] == shards[m]+1 {
			m++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(strconv.Itoa(shards[n]))
		if m > n {
			fmt.Fprintf(&b, "-%d", shards[m])
		}
		n = m + 1
	}
	return b.String()
}

// logf is the configuration's log, or one that drops the lines.
func logf(cfg *Config) func(string, ...any) {
	if cfg.Log != nil {
		return cfg.Log
	}
	return func(string, ...any) {}
}

// client runs a cluster engine's client and returns its standard output; a failure is
// one line naming the client and its last line of standard error.
func client(ctx context.Context, name string, args ...string) (string, error) {
	path, err := exec.LookPath(name)
	if err != nil {
		return "", fmt.Errorf("%w: %s not found on PATH", ErrCluster, name)
	}
	var out, errb bytes.Buffer
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		what := name
		if len(args) > 0 && !strings.HasPrefix(args[0], "-") {
			what += " " + args[0] // kubectl's verb
		}
		msg := strings.TrimPrefix(lastLine(errb.String()), name+": ")
		if msg == "" {
			msg = err.Error()
		}
		return out.String(), fmt.Errorf("%w: %s: %s", ErrCluster, what, msg)
	}
	return out.String(), nil
}

// submit runs a client that submits a job. A stop (ctx) gives it cancelTimeout more
// to finish before it is killed, so that the job it submitted is known and can be
// cancelled.
func submit(ctx context.Context, name string, args ...string) (string, error) {
	sub, stop := context.WithCancel(context.WithoutCancel(ctx))
	defer stop()
	defer context.AfterFunc(ctx, func() { time.AfterFunc(cancelTimeout, stop) })()
	return client(sub, name, args...)
}

// lastLine is the last non-empty line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// cancelTimeout bounds a job's cancellation after the loop was stopped.
const cancelTimeout = time.Second

// shellQuote quotes s for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Slurm runs an iteration's shards as a Slurm job array: DIR/iter-NNN/selfplay/
// slurm-array.sh, one array task per shard still to do, each running 'hexlearn loop
// shard' (the shard from $SLURM_ARRAY_TASK_ID) on the shared directory, which every
// node sees at the same path. The submitted job's id is kept in slurm.job there: a
// loop resumed while that job still runs waits for it instead of submitting another.
type Slurm struct {
	Cluster
	// Partition is the partition to run in ("": the cluster's default).
	Partition string
	// SbatchArgs are more of sbatch's options, one #SBATCH line each ("--time=4:00:00").
	SbatchArgs []string
}

// Validate reports a Slurm runner that cannot run.
func (s *Slurm) Validate() error {
	if err := s.validate(); err != nil {
		return err
	}
	for _, a := range s.SbatchArgs {
		if !strings.HasPrefix(a, "-") || strings.ContainsAny(a, "\n\r") {
			return fmt.Errorf("%w: sbatch option %q (want one option starting with '-')", ErrConfig, a)
		}
	}
	if strings.ContainsAny(s.Partition, " \n\r\t") {
		return fmt.Errorf("%w: partition %q", ErrConfig, s.Partition)
	}
	return nil
}

// SlurmScript is the name of the batch script the Slurm runner writes.
const SlurmScript = "slurm-array.sh"

// slurmJobFile holds the id of the Slurm job submitted for an iteration.
const slurmJobFile = "slurm.job"

// Script returns the batch script of iteration i's shards todo of the loop in dir (an
// absolute path).
func (s *Slurm) Script(dir string, i int, todo []int) string {
	sp := selfplayDir(dir, i)
	var b strings.Builder
	fmt.Fprintf(&b, "#!/bin/bash\n# The self-play of iteration %d of the hexlearn loop in %s: one array task\n", i, dir)
	fmt.Fprintf(&b, "# per shard still to do. Written by 'hexlearn loop --runner slurm'; submit it with\n#   sbatch %s\n", shellQuote(filepath.Join(sp, SlurmScript)))
	fmt.Fprintf(&b, "#SBATCH --job-name=%s\n#SBATCH --array=%s\n#SBATCH --ntasks=1\n#SBATCH --cpus-per-task=%d\n", s.jobName(i), shardList(todo), s.CPUs)
	if s.MemoryMiB > 0 {
		fmt.Fprintf(&b, "#SBATCH --mem=%dM\n", s.MemoryMiB)
	}
	if s.Partition != "" {
		fmt.Fprintf(&b, "#SBATCH --partition=%s\n", s.Partition)
	}
	out := filepath.Join(sp, "slurm-%A_%a.log")
	if strings.ContainsAny(out, " \t") {
		out = `"` + out + `"` // sbatch reads a quoted #SBATCH argument whole
	}
	fmt.Fprintf(&b, "#SBATCH --output=%s\n", out)
	for _, a := range s.SbatchArgs {
		fmt.Fprintf(&b, "#SBATCH %s\n", a)
	}
	fmt.Fprintf(&b, "exec %s loop shard --dir %s --iteration %d --workers %d\n", shellQuote(s.Hexlearn), shellQuote(dir), i, s.CPUs)
	return b.String()
}

// RunShards implements Runner.
func (s *Slurm) RunShards(ctx context.Context, dir string, cfg *Config, i int, todo []int) error {
	if err := s.Validate(); err != nil {
		return err
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	if strings.ContainsAny(dir, "\"%\\\n\r") {
		return fmt.Errorf("%w: loop directory %q: sbatch's --output cannot name a file in it (it has '\"', '%%', '\\' or a line break)", ErrConfig, dir)
	}
	log := logf(cfg)
	sp := selfplayDir(dir, i)
	if err := os.MkdirAll(sp, 0o755); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	var j *slurmJob
	if data, err := os.ReadFile(filepath.Join(sp, slurmJobFile)); err == nil && s.Submit {
		old := &slurmJob{id: strings.TrimSpace(string(data)), dir: sp}
		if ended, err := old.ended(ctx); err == nil && !ended {
			log("iteration %d: waiting for %s, submitted before", i, old)
			j = old
		}
	}
	if j == nil {
		script := filepath.Join(sp, SlurmScript)
		if err := fileutil.WriteFileAtomic(script, []byte(s.Script(dir, i, todo))); err != nil {
			return fmt.Errorf("loop: %w", err)
		}
		if !s.Submit {
			log("iteration %d: wrote %s; submit it with: sbatch %s (the loop waits for its shards)", i, script, shellQuote(script))
		} else {
			out, err := submit(ctx, "sbatch", "--parsable", script)
			if err != nil {
				if ctx.Err() != nil {
					log("iteration %d: stopped while sbatch ran: a job %s may have been submitted (squeue --name=%s)", i, s.jobName(i), s.jobName(i))
					return ctx.Err()
				}
				return err
			}
			id, _, _ := strings.Cut(strings.TrimSpace(out), ";")
			if _, err := strconv.ParseUint(id, 10, 64); err != nil {
				return fmt.Errorf("%w: sbatch answered %q, not a job id", ErrCluster, strings.TrimSpace(out))
			}
			if err := fileutil.WriteFileAtomic(filepath.Join(sp, slurmJobFile), []byte(id+"\n")); err != nil {
				return fmt.Errorf("loop: %w", err)
			}
			j = &slurmJob{id: id, dir: sp}
			log("iteration %d: submitted %s: shards %s", i, j, shardList(todo))
		}
	}
	var watched job // nil when nothing was submitted (a nil *slurmJob is not a nil job)
	if j != nil {
		watched = j
	}
	return s.wait(ctx, dir, cfg, i, todo, watched)
}

// slurmJob is a submitted Slurm job array.
type slurmJob struct {
	id  string
	dir string // where its logs are
}

func (j *slurmJob) String() string {
	return fmt.Sprintf("slurm job %s (sacct -j %s; logs %s)", j.id, j.id, filepath.Join(j.dir, "slurm-"+j.id+"_*.log"))
}

// ended asks squeue whether any task of the job is still pending or running.
func (j *slurmJob) ended(ctx context.Context) (bool, error) {
	out, err := client(ctx, "squeue", "--noheader", "--jobs="+j.id, "--format=%i")
	if err != nil {
		if strings.Contains(err.Error(), "Invalid job id") {
			return true, nil // gone from the controller's memory
		}
		return false, err
	}
	return strings.TrimSpace(out) == "", nil
}

func (j *slurmJob) cancel() error {
	ctx, stop := context.WithTimeout(context.Background(), cancelTimeout)
	defer stop()
	_, err := client(ctx, "scancel", j.id)
	return err
}

// Kubernetes runs an iteration's shards as a Kubernetes Indexed Job: DIR/iter-NNN/
// selfplay/job.yaml, one completion per shard (the shard from $JOB_COMPLETION_INDEX;
// finished shards end at once), each pod running 'hexlearn loop shard' with the loop's
// directory mounted from a persistent volume claim. The directory the loop is given
// must be the same directory, seen from where the loop runs.
type Kubernetes struct {
	Cluster
	// Image is the container image with the hexlearn binary.
	Image string
	// Namespace is the Job's namespace ("": kubectl's current one).
	Namespace string
	// PVC is the persistent volume claim holding the loop's directory; PVCPath the
	// directory's path inside the volume ("": its root).
	PVC, PVCPath string
}

// KubernetesManifest is the name of the Job manifest the Kubernetes runner writes.
const KubernetesManifest = "job.yaml"

// mountPath is where the pods see the loop's directory.
const mountPath = "/loop"

// Validate reports a Kubernetes runner that cannot run.
func (k *Kubernetes) Validate() error {
	if err := k.validate(); err != nil {
		return err
	}
	switch {
	case k.Image == "" || strings.ContainsAny(k.Image, " \n\r\t\""):
		return fmt.Errorf("%w: container image %q", ErrConfig, k.Image)
	case k.Namespace != "" && !ValidName(k.Namespace, 63):
		return fmt.Errorf("%w: namespace %q (want an RFC 1123 label)", ErrConfig, k.Namespace)
	case !ValidName(k.PVC, 253):
		return fmt.Errorf("%w: persistent volume claim %q (want a name of lower-case letters, digits and '-')", ErrConfig, k.PVC)
	case !ValidVolumePath(k.PVCPath):
		return fmt.Errorf("%w: path in the volume %q (want a relative path inside it)", ErrConfig, k.PVCPath)
	}
	return nil
}

// ValidVolumePath reports whether p is a path inside a volume ("" its root): relative,
// and not leaving it.
func ValidVolumePath(p string) bool {
	return p == "" || !filepath.IsAbs(p) && filepath.IsLocal(p) && !strings.ContainsAny(p, "\n\r")
}

// Manifest returns the Job manifest of iteration i of a loop of shards shards.
func (k *Kubernetes) Manifest(i, shards int) string {
	q := strconv.Quote // a JSON string is a YAML double-quoted scalar
	var b strings.Builder
	fmt.Fprintf(&b, "# The self-play of iteration %d of the hexlearn loop: one pod per shard (finished\n", i)
	fmt.Fprintf(&b, "# shards end at once). Written by 'hexlearn loop --runner kubernetes'; submit it with\n#   kubectl apply -f %s\n", KubernetesManifest)
	fmt.Fprintf(&b, "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: %s\n", q(k.jobName(i)))
	if k.Namespace != "" {
		fmt.Fprintf(&b, "  namespace: %s\n", q(k.Namespace))
	}
	fmt.Fprintf(&b, "  labels:\n    app.kubernetes.io/name: hexlearn\n    app.kubernetes.io/component: loop-selfplay\n")
	fmt.Fprintf(&b, "spec:\n  completionMode: Indexed\n  completions: %d\n  parallelism: %d\n  backoffLimitPerIndex: 2\n", shards, shards)
	fmt.Fprintf(&b, "  template:\n    metadata:\n      labels:\n        app.kubernetes.io/name: hexlearn\n        app.kubernetes.io/component: loop-selfplay\n")
	fmt.Fprintf(&b, "    spec:\n      restartPolicy: Never\n      containers:\n        - name: shard\n          image: %s\n", q(k.Image))
	fmt.Fprintf(&b, "          command: [%s]\n", q(k.Hexlearn))
	fmt.Fprintf(&b, "          args: [\"loop\", \"shard\", \"--dir\", %s, \"--iteration\", \"%d\", \"--workers\", \"%d\"]\n", q(mountPath), i, k.CPUs)
	fmt.Fprintf(&b, "          resources:\n            requests:\n              cpu: \"%d\"\n", k.CPUs)
	if k.MemoryMiB > 0 {
		fmt.Fprintf(&b, "              memory: \"%dMi\"\n            limits:\n              memory: \"%dMi\"\n", k.MemoryMiB, k.MemoryMiB)
	}
	fmt.Fprintf(&b, "          volumeMounts:\n            - name: loop\n              mountPath: %s\n", q(mountPath))
	if k.PVCPath != "" {
		fmt.Fprintf(&b, "              subPath: %s\n", q(filepath.ToSlash(filepath.Clean(k.PVCPath))))
	}
	fmt.Fprintf(&b, "      volumes:\n        - name: loop\n          persistentVolumeClaim:\n            claimName: %s\n", q(k.PVC))
	return b.String()
}

// RunShards implements Runner.
func (k *Kubernetes) RunShards(ctx context.Context, dir string, cfg *Config, i int, todo []int) error {
	if err := k.Validate(); err != nil {
		return err
	}
	log := logf(cfg)
	sp := selfplayDir(dir, i)
	if err := os.MkdirAll(sp, 0o755); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	manifest := filepath.Join(sp, KubernetesManifest)
	if err := fileutil.WriteFileAtomic(manifest, []byte(k.Manifest(i, cfg.Shards))); err != nil {
		return fmt.Errorf("loop: %w", err)
	}
	j := &kubeJob{name: k.jobName(i), namespace: k.Namespace}
	if !k.Submit {
		log("iteration %d: wrote %s; submit it with: kubectl apply -f %s (the loop waits for its shards)", i, manifest, shellQuote(manifest))
		return k.wait(ctx, dir, cfg, i, todo, nil)
	}
	exists, done, err := j.state(ctx)
	if err != nil {
		return err
	}
	if exists && done { // a Job that ended (or is being deleted) is not run again by apply
		if _, err := client(ctx, "kubectl", j.args("delete", "job", j.name, "--ignore-not-found", "--cascade=foreground")...); err != nil {
			return err
		}
		log("iteration %d: deleted the ended %s", i, j)
	}
	if _, err := submit(ctx, "kubectl", j.args("apply", "-f", manifest)...); err != nil {
		if ctx.Err() != nil {
			if err := j.cancel(); err != nil {
				log("could not delete %s: %v", j, err)
			}
			return ctx.Err()
		}
		return err
	}
	log("iteration %d: applied %s: shards %s", i, j, shardList(todo))
	return k.wait(ctx, dir, cfg, i, todo, j)
}

// kubeJob is a Kubernetes Job.
type kubeJob struct{ name, namespace string }

// args adds the namespace to kubectl's arguments.
func (j *kubeJob) args(a ...string) []string {
	if j.namespace != "" {
		a = append(a, "--namespace="+j.namespace)
	}
	return a
}

func (j *kubeJob) String() string {
	return fmt.Sprintf("kubernetes job %s (%s)", j.name, strings.Join(append([]string{"kubectl"}, j.args("describe", "job", j.name)...), " "))
}

// state reports whether the Job exists and whether it has ended (complete, failed
// or being deleted).
func (j *kubeJob) state(ctx context.Context) (exists, ended bool, err error) {
	out, err := client(ctx, "kubectl", j.args("get", "job", j.name, "--ignore-not-found",
		`--output=jsonpath={.metadata.name} {.metadata.deletionTimestamp} {range .status.conditions[?(@.status=="True")]}{.type} {end}`)...)
	if err != nil {
		return false, false, err
	}
	f := strings.Fields(out)
	if len(f) == 0 {
		return false, false, nil
	}
	for _, w := range f[1:] {
		if w == "Complete" || w == "Failed" || strings.Contains(w, ":") { // a deletion time
			return true, true, nil
		}
	}
	return true, false, nil
}

func (j *kubeJob) ended(ctx context.Context) (bool, error) {
	exists, ended, err := j.state(ctx)
	return !exists || ended, err
}

func (j *kubeJob) cancel() error {
	ctx, stop := context.WithTimeout(context.Background(), cancelTimeout)
	defer stop()
	_, err := client(ctx, "kubectl", j.args("delete", "job", j.name, "--ignore-not-found", "--wait=false")...)
	return err
}
