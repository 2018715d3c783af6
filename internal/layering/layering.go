// Package layering states the import layers of the module (docs/design.md) and checks
// import lists against them. From the bottom:
//
//	engine/*  <-  model, dataset  <-  player  <-  selfplay, train  <-  pipeline  <-  experiments/*  <-  cmd/*
//
// A package may import packages of its own layer and of the layers below it, never
// one above. The helpers under internal/ may be imported by any layer and may import
// only engine/* and other internal/* packages. Every package of the module must sit in
// a layer: a new top-level directory is a violation until it is added to Layers.
package layering

import (
	"bufio"
	"errors"
	"fmt"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Layers are the module's layers from the bottom, each the top-level directories of
// its packages (a package belongs to the layer of the first element of its
// module-relative path).
var Layers = [][]string{
	{"engine"},
	{"model", "dataset"},
	{"player"},
	{"selfplay", "train"},
	{"pipeline"},
	{"experiments"},
	{"cmd"},
}

// Helpers is the top-level directory of the helper packages, which any layer may
// import and which may import only the bottom layer (engine) and each other.
const Helpers = "internal"

// helperLayer is the layer number Layer gives the helpers.
const helperLayer = -1

// Layer returns the layer number of a module-relative package path (0 for the
// bottom layer, -1 for the helpers under internal/) and whether the path is in a
// layer at all.
func Layer(pkg string) (int, bool) {
	top, _, _ := strings.Cut(pkg, "/")
	if top == Helpers {
		return helperLayer, true
	}
	for i, dirs := range Layers {
		if slices.Contains(dirs, top) {
			return i, true
		}
	}
	return 0, false
}

// layerName names layer n for messages.
func layerName(n int) string {
	if n == helperLayer {
		return Helpers + "/*"
	}
	return strings.Join(Layers[n], ", ")
}

// Violation is one import that breaks the layering.
type Violation struct {
	From, To string // module-relative package paths: From imports To
	Reason   string
}

// String formats the violation as one line.
func (v Violation) String() string {
	return fmt.Sprintf("%s imports %s: %s", v.From, v.To, v.Reason)
}

// Check returns the imports that break the layering, sorted by importer and import.
// imports maps each module-relative package path to the module-relative paths of
// the module's packages it imports (tests included).
func Check(imports map[string][]string) []Violation {
	var out []Violation
	for from, tos := range imports {
		lf, ok := Layer(from)
		if !ok {
			out = append(out, Violation{From: from, To: "", Reason: "the package is in no layer (add its directory to layering.Layers)"})
			continue
		}
		for _, to := range tos {
			lt, ok := Layer(to)
			switch {
			case !ok:
				out = append(out, Violation{From: from, To: to, Reason: "the imported package is in no layer (add its directory to layering.Layers)"})
			case lf == helperLayer && lt != helperLayer && lt != 0:
				out = append(out, Violation{From: from, To: to, Reason: fmt.Sprintf("%s may import only %s and %s", layerName(helperLayer), layerName(0), layerName(helperLayer))})
			case lf != helperLayer && lt > lf:
				out = append(out, Violation{From: from, To: to, Reason: fmt.Sprintf("upward import (layer %q above layer %q)", layerName(lt), layerName(lf))})
			}
		}
	}
	slices.SortFunc(out, func(a, b Violation) int {
		if c := strings.Compare(a.From, b.From); c != 0 {
			return c
		}
		return strings.Compare(a.To, b.To)
	})
	return out
}

// ErrNoModule reports that no go.mod was found above a directory.
var ErrNoModule = errors.New("layering: no go.mod in the directory or above it")

// ModuleRoot returns the directory holding the go.mod of the module dir is in, and
// the module path that go.mod declares.
func ModuleRoot(dir string) (root, module string, err error) {
	dir, err = filepath.Abs(dir)
	if err != nil {
		return "", "", fmt.Errorf("layering: %w", err)
	}
	for {
		f, err := os.Open(filepath.Join(dir, "go.mod"))
		if err == nil {
			defer f.Close()
			sc := bufio.NewScanner(f)
			for sc.Scan() {
				if rest, ok := strings.CutPrefix(strings.TrimSpace(sc.Text()), "module"); ok && rest != "" && (rest[0] == ' ' || rest[0] == '\t') {
					m := strings.TrimSpace(rest)
					if u, err := strconv.Unquote(m); err == nil {
						m = u
					}
					return dir, m, nil
				}
			}
			if err := sc.Err(); err != nil {
				return "", "", fmt.Errorf("layering: %s: %w", f.Name(), err)
			}
			return "", "", fmt.Errorf("layering: %s: no module line", f.Name())
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", "", ErrNoModule
		}
		dir = parent
	}
}

// ModuleImports parses the imports of every Go file of the module at root (module
// path module), tests and files of every build constraint included, and returns for
// each package directory (module-relative, slash-separated; "." for the root) the
// module-relative paths of the module's packages they import. Like the go command
// it skips testdata, directories whose names start with "." or "_", and nested
// modules.
func ModuleImports(root, module string) (map[string][]string, error) {
	out := map[string][]string{}
	fset := token.NewFileSet()
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		name := d.Name()
		if d.IsDir() {
			if path == root {
				return nil
			}
			if name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
				return filepath.SkipDir // a nested module
			}
			return nil
		}
		if !strings.HasSuffix(name, ".go") || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			return fmt.Errorf("layering: %w", err)
		}
		rel, err := filepath.Rel(root, filepath.Dir(path))
		if err != nil {
			return fmt.Errorf("layering: %w", err)
		}
		rel = filepath.ToSlash(rel)
		if _, ok := out[rel]; !ok {
			out[rel] = nil
		}
		for _, imp := range f.Imports {
			p, err := strconv.Unquote(imp.Path.Value)
			if err != nil {
				return fmt.Errorf("layering: %s: bad import %s", path, imp.Path.Value)
			}
			to, ok := strings.CutPrefix(p, module+"/")
			if !ok || to == rel || slices.Contains(out[rel], to) {
				continue // outside the module, the package's own external test, or seen
			}
			out[rel] = append(out[rel], to)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	for k := range out {
		slices.Sort(out[k])
	}
	return out, nil
}
