package loop

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"sigs.k8s.io/yaml"
)

// jobSchemaFile holds Kubernetes' OpenAPI schemas of batch/v1 (testdata/README.md
// says where it comes from).
const jobSchemaFile = "testdata/kubernetes-v1.34.0-batch-v1-openapi.json"

// jobSchema compiles the Job schema of jobSchemaFile, made strict the way kubeconform's
// -strict schemas are: an object schema with properties allows no others (the API
// server's strict field validation, kubectl apply --validate=strict).
func jobSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	data, err := os.ReadFile(jobSchemaFile)
	if err != nil {
		t.Fatal(err)
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	schemas := doc.(map[string]any)["components"].(map[string]any)["schemas"].(map[string]any)
	if len(schemas) < 100 {
		t.Fatalf("%s: %d schemas", jobSchemaFile, len(schemas))
	}
	for _, s := range schemas {
		strict(s)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4) // OpenAPI 3.0's schema objects are draft 4's, extended
	const url = "https://kubernetes.io/openapi/v3/apis/batch/v1.json"
	if err := c.AddResource(url, doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile(url + "#/components/schemas/io.k8s.api.batch.v1.Job")
	if err != nil {
		t.Fatal(err)
	}
	return sch
}

// strict forbids the properties an object schema does not name, in schema s and the
// schemas inside it.
func strict(s any) {
	m, ok := s.(map[string]any)
	if !ok {
		return
	}
	if props, ok := m["properties"].(map[string]any); ok {
		if _, set := m["additionalProperties"]; !set {
			m["additionalProperties"] = false
		}
		for _, p := range props {
			strict(p)
		}
	}
	strict(m["items"])
	strict(m["additionalProperties"])
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		if l, ok := m[k].([]any); ok {
			for _, sub := range l {
				strict(sub)
			}
		}
	}
}

// checkJob checks a Job manifest as kubectl and the API server would: YAML read as
// kubectl reads it (duplicate keys refused), the strict schema, and the rules of the
// Job API that the schema does not carry (pkg/apis/batch/validation).
func checkJob(sch *jsonschema.Schema, manifest []byte) error {
	js, err := yaml.YAMLToJSONStrict(manifest)
	if err != nil {
		return fmt.Errorf("yaml: %w", err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(js))
	if err != nil {
		return err
	}
	if err := sch.Validate(v); err != nil {
		return err
	}
	var job struct {
		APIVersion, Kind string
		Metadata         struct{ Name, Namespace string }
		Spec             struct {
			CompletionMode       string
			Completions          *int
			Parallelism          *int
			BackoffLimitPerIndex *int
			Template             struct {
				Spec struct {
					RestartPolicy string
					Containers    []struct {
						Name, Image  string
						Resources    struct{ Requests, Limits map[string]any }
						VolumeMounts []struct{ Name, MountPath string }
					}
					Volumes []struct{ Name string }
				}
			}
		}
	}
	if err := yaml.Unmarshal(manifest, &job); err != nil {
		return err
	}
	sp, pod := job.Spec, job.Spec.Template.Spec
	quantity := regexp.MustCompile(`^[0-9]+(\.[0-9]+)?(m|k|M|G|T|Ki|Mi|Gi|Ti)?$`)
	switch {
	case job.APIVersion != "batch/v1" || job.Kind != "Job":
		return fmt.Errorf("apiVersion %q kind %q, want batch/v1 Job", job.APIVersion, job.Kind)
	case !ValidName(job.Metadata.Name, 63):
		return fmt.Errorf("metadata.name %q: an Indexed Job's name is a DNS label", job.Metadata.Name)
	case job.Metadata.Namespace != "" && !ValidName(job.Metadata.Namespace, 63):
		return fmt.Errorf("metadata.namespace %q", job.Metadata.Namespace)
	case sp.CompletionMode != "Indexed":
		return fmt.Errorf("spec.completionMode %q, want Indexed", sp.CompletionMode)
	case sp.Completions == nil || *sp.Completions < 1:
		return fmt.Errorf("spec.completions: an Indexed Job needs at least one")
	case sp.Parallelism != nil && *sp.Parallelism < 0, sp.BackoffLimitPerIndex != nil && *sp.BackoffLimitPerIndex < 0:
		return fmt.Errorf("spec: negative parallelism or backoffLimitPerIndex")
	case pod.RestartPolicy != "Never" && !(pod.RestartPolicy == "OnFailure" && sp.BackoffLimitPerIndex == nil):
		return fmt.Errorf("spec.template.spec.restartPolicy %q: a Job's is Never or OnFailure, and Never with backoffLimitPerIndex", pod.RestartPolicy)
	case len(pod.Containers) == 0:
		return fmt.Errorf("spec.template.spec.containers: none")
	}
	volumes := map[string]bool{}
	for _, v := range pod.Volumes {
		volumes[v.Name] = true
	}
	for _, c := range pod.Containers {
		if !ValidName(c.Name, 63) || c.Image == "" {
			return fmt.Errorf("container %q image %q", c.Name, c.Image)
		}
		for _, q := range []map[string]any{c.Resources.Requests, c.Resources.Limits} {
			for name, v := range q {
				if s, ok := v.(string); (name != "cpu" && name != "memory") || ok && !quantity.MatchString(s) {
					return fmt.Errorf("container %s: resource %s: %v", c.Name, name, v)
				}
			}
		}
		for _, m := range c.VolumeMounts {
			if !volumes[m.Name] || !strings.HasPrefix(m.MountPath, "/") {
				return fmt.Errorf("container %s: volume mount %q at %q", c.Name, m.Name, m.MountPath)
			}
		}
	}
	return nil
}

// TestKubernetesManifestSchema: the Jobs the runner writes pass Kubernetes' schema of
// batch/v1 Job (strict) and the Job API's rules; broken ones do not.
func TestKubernetesManifestSchema(t *testing.T) {
	sch := jobSchema(t)
	base := &Kubernetes{Cluster: testCluster(), Image: "registry.example.org/hexlearn:0.1.0", PVC: "hexlearn-data"}
	full := *base
	full.Namespace, full.PVCPath, full.MemoryMiB, full.Hexlearn = "hex", "loops/run1", 4096, `/usr/local/bin/hex "learn"`
	for name, m := range map[string]string{"plain": base.Manifest(0, 1), "every option": full.Manifest(12, 64)} {
		if err := checkJob(sch, []byte(m)); err != nil {
			t.Errorf("%s: %v\n%s", name, err, m)
		}
	}
	good := base.Manifest(3, 4)
	// Broken as text: what YAML itself refuses, or a value spelled wrong.
	for _, tc := range []struct{ name, from, to string }{
		{"duplicate key", "  completions: 4\n", "  completions: 4\n  completions: 5\n"},
		{"unknown field", "  completions: 4\n", "  completions: 4\n  completion: 4\n"},
		{"wrong type", "  completions: 4\n", "  completions: \"four\"\n"},
		{"wrong type in a list", `args: ["loop"`, `args: [1`},
		{"not Indexed", "completionMode: Indexed", "completionMode: NonIndexed"},
		{"restart always", "restartPolicy: Never", "restartPolicy: Always"},
		{"bad name", `name: "hexlearn-loop-iter-003"`, `name: "Hexlearn_Loop"`},
		{"bad quantity", `cpu: "2"`, `cpu: "two"`},
		{"other kind", "kind: Job", "kind: Pod"},
	} {
		if !strings.Contains(good, tc.from) {
			t.Fatalf("%s: the manifest has no %q:\n%s", tc.name, tc.from, good)
		}
		bad := strings.Replace(good, tc.from, tc.to, 1)
		if err := checkJob(sch, []byte(bad)); err != nil {
			t.Logf("%s: %v", tc.name, err)
		} else {
			t.Errorf("%s: the check passed\n%s", tc.name, bad)
		}
	}
	// Broken as a structure.
	container := func(j map[string]any) map[string]any {
		return path(j, "spec", "template", "spec", "containers").([]any)[0].(map[string]any)
	}
	for _, tc := range []struct {
		name   string
		mutate func(j map[string]any)
	}{
		{"unknown container field", func(j map[string]any) { container(j)["imag"] = "x" }},
		{"list for an object", func(j map[string]any) { container(j)["resources"] = []any{"2"} }},
		{"object for a string", func(j map[string]any) { container(j)["image"] = map[string]any{"name": "x"} }},
		{"container without a name", func(j map[string]any) { delete(container(j), "name") }},
		{"no template", func(j map[string]any) { delete(path(j, "spec").(map[string]any), "template") }},
		{"no containers", func(j map[string]any) { path(j, "spec", "template", "spec").(map[string]any)["containers"] = []any{} }},
		{"no claim name", func(j map[string]any) {
			delete(path(j, "spec", "template", "spec", "volumes").([]any)[0].(map[string]any)["persistentVolumeClaim"].(map[string]any), "claimName")
		}},
		{"unknown volume", func(j map[string]any) { container(j)["volumeMounts"].([]any)[0].(map[string]any)["name"] = "data" }},
	} {
		var j map[string]any
		if err := yaml.Unmarshal([]byte(good), &j); err != nil {
			t.Fatal(err)
		}
		tc.mutate(j)
		bad, err := yaml.Marshal(j)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkJob(sch, bad); err != nil {
			t.Logf("%s: %v", tc.name, err)
		} else {
			t.Errorf("%s: the check passed\n%s", tc.name, bad)
		}
	}
}

// path follows keys from the object j.
func path(j map[string]any, keys ...string) any {
	var v any = j
	for _, k := range keys {
		v = v.(map[string]any)[k]
	}
	return v
}
