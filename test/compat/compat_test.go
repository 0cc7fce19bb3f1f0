package compat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
)

const (
	// scratchModule is the module path of both scratch modules.
	scratchModule = "example.dev/compat"
	// ourModule is this repository's module path.
	ourModule = "github.com/informer-gen-plus/informer-gen-plus"
	// apiPkg is the input API package, inside the scratch modules.
	apiPkg = scratchModule + "/apis/compat/v1"
	// outDir and outPkg are kube_codegen.sh gen_client's --output-dir and
	// --output-pkg.
	outDir = "generated"
	outPkg = scratchModule + "/" + outDir
)

// codegenTools are the upstream generators, built from the version of
// k8s.io/code-generator this repository's go.mod pins.
var codegenTools = []string{"client-gen", "deepcopy-gen", "informer-gen", "lister-gen"}

// sides are the two outputs the consumer is compiled against.
var sides = []struct {
	name     string
	generate func(t *testing.T, env *env, dir string)
}{
	{"informer-gen", generateUpstream},
	{"informer-gen-plus", generatePlus},
}

type env struct {
	root        string // this repository
	work        string // scratch directory
	bin         string // built generators
	boilerplate string
	plusBuild   error // why informer-gen-plus did not build, if it did not
}

func TestCompileCompat(t *testing.T) {
	if testing.Short() {
		t.Skip("builds generators and two scratch modules: skipped with -short")
	}
	e := setup(t)
	base := filepath.Join(e.work, "base")
	step(t, "base module: deepcopy and clientset", func() { prepareBase(t, e, base) })

	results := map[string]string{}
	for _, s := range sides {
		ok := t.Run(s.name, func(t *testing.T) {
			dir := filepath.Join(e.work, s.name)
			copyTree(t, base, dir)
			step(t, s.name+": generate", func() { s.generate(t, e, dir) })
			copyDir(t, filepath.Join("testdata", "consumer"), filepath.Join(dir, "consumer"))
			step(t, s.name+": go mod tidy", func() { mustRun(t, dir, nil, "go", "mod", "tidy") })
			if !compile(t, s.name, dir) {
				return
			}
			out := filepath.Join(e.work, s.name+".json")
			// compile has vetted the module with go vet, whose checks
			// include those of go test's own vet: -vet=off spares
			// computing the analysis facts of every dependency again.
			step(t, s.name+": run the consumer's test", func() {
				res := run(dir, []string{"COMPAT_RESULTS=" + out},
					"go", "test", "-count=1", "-vet=off", "-timeout=5m", "-run=^TestRecord$", "./consumer/")
				if res.err != nil {
					t.Errorf("the consumer's test fails against %s's output:\n%s", s.name, res.out)
					return
				}
				results[s.name] = out
			})
		})
		if !ok {
			t.Logf("%s: see above", s.name)
		}
	}

	t.Run("same-results", func(t *testing.T) {
		up, plus := results["informer-gen"], results["informer-gen-plus"]
		if up == "" || plus == "" {
			t.Skip("needs both consumer runs")
		}
		compareResults(t, readResults(t, up), readResults(t, plus))
	})
}

// setup builds the generators and returns where everything lives.
func setup(t *testing.T) *env {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "go.mod")); err != nil {
		t.Fatalf("repository root not found: %v", err)
	}
	var work string
	if os.Getenv("COMPAT_KEEP") != "" {
		work, err = os.MkdirTemp("", "compat-")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("scratch modules kept in %s", work)
	} else {
		work = t.TempDir()
	}
	e := &env{
		root:        root,
		work:        work,
		bin:         filepath.Join(work, "bin"),
		boilerplate: filepath.Join(root, "hack", "boilerplate.go.txt"),
	}
	step(t, "build code-generator's generators", func() {
		args := []string{"build", "-o", e.bin + string(filepath.Separator)}
		for _, tool := range codegenTools {
			args = append(args, "k8s.io/code-generator/cmd/"+tool)
		}
		mustRun(t, root, nil, "go", args...)
	})
	step(t, "build informer-gen-plus", func() {
		res := run(root, nil, "go", "build", "-o", filepath.Join(e.bin, "informer-gen-plus"), "./cmd/informer-gen-plus")
		if res.err != nil {
			e.plusBuild = fmt.Errorf("%v\n%s", res.err, res.out)
		}
	})
	return e
}

// prepareBase writes the part both scratch modules share: go.mod, the API
// package with its deepcopy functions, and client-gen's clientset.
func prepareBase(t *testing.T, e *env, dir string) {
	versions := mustRun(t, e.root, nil, "go", "list", "-m", "-f", "{{.Path}} {{.Version}}",
		"k8s.io/api", "k8s.io/apimachinery", "k8s.io/client-go", "k8s.io/klog/v2")
	var gomod strings.Builder
	fmt.Fprintf(&gomod, "module %s\n\ngo 1.26.0\n\nrequire (\n", scratchModule)
	for _, line := range strings.Split(strings.TrimSpace(versions), "\n") {
		fmt.Fprintf(&gomod, "\t%s\n", line)
	}
	gomod.WriteString(")\n")
	writeFile(t, filepath.Join(dir, "go.mod"), gomod.String())
	// The packages the generated code and the consumer import, so that
	// go mod tidy keeps them before any of that code exists.
	writeFile(t, filepath.Join(dir, "deps.go"), `//go:build tools

package compat

import (
	_ "k8s.io/client-go/discovery/fake"
	_ "k8s.io/client-go/listers"
	_ "k8s.io/client-go/testing"
	_ "k8s.io/client-go/tools/cache"
	_ "k8s.io/klog/v2"
)
`)
	copyDir(t, filepath.Join("testdata", "apis", "compat", "v1"), filepath.Join(dir, "apis", "compat", "v1"))
	mustRun(t, dir, nil, "go", "mod", "tidy")
	e.tool(t, dir, "deepcopy-gen",
		"--go-header-file", e.boilerplate,
		"--output-file", "zz_generated.deepcopy.go",
		apiPkg)
	e.tool(t, dir, "client-gen",
		"--go-header-file", e.boilerplate,
		"--output-dir", outDir+"/clientset",
		"--output-pkg", outPkg+"/clientset",
		"--clientset-name", "versioned",
		"--input-base", scratchModule+"/apis",
		"--input", "compat/v1")
	// The hand-written lister expansion is in the listers package before
	// the listers are generated, as in a repository that has one.
	copyFile(t, filepath.Join("testdata", "listers", "foo_expansion.go"),
		filepath.Join(dir, outDir, "listers", "compat", "v1", "foo_expansion.go"))
}

// generateUpstream runs lister-gen and informer-gen as kube_codegen.sh's
// gen_client --with-watch does.
func generateUpstream(t *testing.T, e *env, dir string) {
	e.tool(t, dir, "lister-gen",
		"--go-header-file", e.boilerplate,
		"--output-dir", outDir+"/listers",
		"--output-pkg", outPkg+"/listers",
		apiPkg)
	e.tool(t, dir, "informer-gen",
		"--go-header-file", e.boilerplate,
		"--output-dir", outDir+"/informers",
		"--output-pkg", outPkg+"/informers",
		"--versioned-clientset-package", outPkg+"/clientset/versioned",
		"--listers-package", outPkg+"/listers",
		apiPkg)
}

// generatePlus runs informer-gen-plus, in a module that requires this
// repository (replaced by its directory), with the flags informer-gen gets
// from kube_codegen.sh: it writes the listers too, into the directory of
// --listers-package.
func generatePlus(t *testing.T, e *env, dir string) {
	if e.plusBuild != nil {
		t.Fatalf("informer-gen-plus does not build: %v", e.plusBuild)
	}
	mustRun(t, dir, nil, "go", "mod", "edit",
		"-require="+ourModule+"@v0.0.0-00010101000000-000000000000",
		"-replace="+ourModule+"="+e.root)
	writeFile(t, filepath.Join(dir, "plusdeps.go"), `//go:build tools

package compat

import (
	_ "`+ourModule+`/runtime/cache"
	_ "`+ourModule+`/runtime/informers"
)
`)
	mustRun(t, dir, nil, "go", "mod", "tidy")
	e.tool(t, dir, "informer-gen-plus",
		"--go-header-file", e.boilerplate,
		"--output-dir", outDir+"/informers",
		"--output-pkg", outPkg+"/informers",
		"--versioned-clientset-package", outPkg+"/clientset/versioned",
		"--listers-package", outPkg+"/listers",
		apiPkg)
}

// compile builds and vets the scratch module, naming each use of the
// consumer that does not compile. It reports whether both passed.
func compile(t *testing.T, name, dir string) bool {
	ok := true
	step(t, name+": build", func() {
		res := run(dir, nil, "go", "build", "-gcflags=-e", "./...")
		if res.err != nil {
			t.Errorf("does not compile against %s's output:\n%s\n\ncompiler output:\n%s",
				name, attribute(dir, res.out), res.out)
			ok = false
		}
	})
	if !ok {
		return false
	}
	step(t, name+": vet (compiles the consumer's test too)", func() {
		res := run(dir, nil, "go", "vet", "./...")
		if res.err != nil {
			t.Errorf("go vet fails against %s's output:\n%s\n\nvet output:\n%s",
				name, attribute(dir, res.out), res.out)
			ok = false
		}
	})
	return ok
}

var diagnostic = regexp.MustCompile(`(?m)^(?:vet: )?((?:\.?/)?[^\s:]+\.go):(\d+):(?:(\d+):)? (.*)$`)

// attribute turns compiler diagnostics into one line per diagnostic that
// names the consumer's function (use*, record*) or type it is in.
func attribute(dir, out string) string {
	decls := map[string][]declSpan{}
	var lines []string
	for _, m := range diagnostic.FindAllStringSubmatch(out, -1) {
		file, msg := filepath.Clean(m[1]), m[4]
		line, _ := strconv.Atoi(m[2])
		abs := file
		if !filepath.IsAbs(abs) {
			abs = filepath.Join(dir, file)
		}
		rel, err := filepath.Rel(dir, abs)
		if err != nil {
			rel = file
		}
		if filepath.Dir(rel) != "consumer" {
			lines = append(lines, fmt.Sprintf("  generated or scratch code %s:%d: %s", rel, line, msg))
			continue
		}
		spans, seen := decls[abs]
		if !seen {
			spans = declSpans(abs)
			decls[abs] = spans
		}
		where := "outside any function"
		for _, s := range spans {
			if line >= s.from && line <= s.to {
				where = s.name
				break
			}
		}
		lines = append(lines, fmt.Sprintf("  %s (%s:%d): %s", where, rel, line, msg))
	}
	if len(lines) == 0 {
		return "  (no file:line diagnostics; see the output below)"
	}
	return strings.Join(lines, "\n")
}

type declSpan struct {
	name     string
	from, to int
}

func declSpans(file string) []declSpan {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil
	}
	var spans []declSpan
	for _, d := range f.Decls {
		name := ""
		switch d := d.(type) {
		case *ast.FuncDecl:
			name = d.Name.Name
			if d.Recv != nil && len(d.Recv.List) == 1 {
				name = recvName(d.Recv.List[0].Type) + "." + name
			}
		case *ast.GenDecl:
			var names []string
			for _, s := range d.Specs {
				switch s := s.(type) {
				case *ast.TypeSpec:
					names = append(names, "type "+s.Name.Name)
				case *ast.ValueSpec:
					for _, n := range s.Names {
						names = append(names, n.Name)
					}
				}
			}
			if len(names) == 0 {
				continue // imports
			}
			name = strings.Join(names, ", ")
		}
		spans = append(spans, declSpan{name, fset.Position(d.Pos()).Line, fset.Position(d.End()).Line})
	}
	return spans
}

func recvName(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return "*" + recvName(e.X)
	case *ast.Ident:
		return e.Name
	default:
		return "?"
	}
}

func readResults(t *testing.T, file string) map[string]json.RawMessage {
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	return m
}

func compareResults(t *testing.T, up, plus map[string]json.RawMessage) {
	keys := map[string]bool{}
	for k := range up {
		keys[k] = true
	}
	for k := range plus {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		u, p := up[k], plus[k]
		if !bytes.Equal(compact(u), compact(p)) {
			t.Errorf("%s differs:\n  informer-gen:      %s\n  informer-gen-plus: %s", k, orNone(u), orNone(p))
		}
	}
	t.Logf("%d observations compared", len(sorted))
}

func compact(b json.RawMessage) []byte {
	if b == nil {
		return nil
	}
	var buf bytes.Buffer
	if err := json.Compact(&buf, b); err != nil {
		return b
	}
	return buf.Bytes()
}

func orNone(b json.RawMessage) string {
	if b == nil {
		return "(not recorded)"
	}
	return string(compact(b))
}

// tool runs a generator built into e.bin, in dir.
func (e *env) tool(t *testing.T, dir, name string, args ...string) {
	t.Helper()
	start := time.Now()
	mustRun(t, dir, nil, filepath.Join(e.bin, name), args...)
	t.Logf("    %s: %v", name, time.Since(start).Round(10*time.Millisecond))
}

type result struct {
	out string
	err error
}

func run(dir string, extraEnv []string, name string, args ...string) result {
	cmd := exec.Command(name, args...)
	cmd.Dir = dir
	// The scratch modules stand alone: no go.work of the caller.
	cmd.Env = append(append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod"), extraEnv...)
	out, err := cmd.CombinedOutput()
	return result{string(out), err}
}

func mustRun(t *testing.T, dir string, extraEnv []string, name string, args ...string) string {
	t.Helper()
	res := run(dir, extraEnv, name, args...)
	if res.err != nil {
		t.Fatalf("%s %s (in %s): %v\n%s", filepath.Base(name), strings.Join(args, " "), dir, res.err, res.out)
	}
	return res.out
}

// step runs f and logs how long it took.
func step(t *testing.T, what string, f func()) {
	t.Helper()
	start := time.Now()
	defer func() { t.Logf("%s: %v", what, time.Since(start).Round(10*time.Millisecond)) }()
	f()
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, to, string(b))
}

// copyDir copies the regular files of a directory (not its subdirectories).
func copyDir(t *testing.T, from, to string) {
	t.Helper()
	entries, err := os.ReadDir(from)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.Type().IsRegular() {
			copyFile(t, filepath.Join(from, e.Name()), filepath.Join(to, e.Name()))
		}
	}
}

// copyTree copies a directory tree of regular files.
func copyTree(t *testing.T, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, d fs.DirEntry, err error) error {
		if err != nil || !d.Type().IsRegular() {
			return err
		}
		rel, err := filepath.Rel(from, path)
		if err != nil {
			return err
		}
		copyFile(t, path, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
