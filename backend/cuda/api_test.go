package cuda

import (
	"go/ast"
	"go/build"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strings"
	"testing"
)

// exportedAPI parses the package's non-test files that the build with tags
// compiles and returns each exported name (methods as Type.Method) with
// whether it has a doc comment.
func exportedAPI(t *testing.T, tags []string) map[string]bool {
	t.Helper()
	ctx := build.Default
	ctx.BuildTags = tags
	ctx.CgoEnabled = true
	pkg, err := ctx.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	files := append(append([]string{}, pkg.GoFiles...), pkg.CgoFiles...)
	api := map[string]bool{}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(pkg.Dir, name), nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if !d.Name.IsExported() {
					continue
				}
				key := d.Name.Name
				if d.Recv != nil {
					typ := d.Recv.List[0].Type
					if s, ok := typ.(*ast.StarExpr); ok {
						typ = s.X
					}
					id, ok := typ.(*ast.Ident)
					if !ok || !id.IsExported() {
						continue
					}
					key = id.Name + "." + key
				}
				api[key] = d.Doc != nil
			case *ast.GenDecl:
				for _, s := range d.Specs {
					var names []*ast.Ident
					doc := d.Doc
					switch s := s.(type) {
					case *ast.TypeSpec:
						names = []*ast.Ident{s.Name}
						if s.Doc != nil {
							doc = s.Doc
						}
					case *ast.ValueSpec:
						names = s.Names
						if s.Doc != nil {
							doc = s.Doc
						}
					}
					for _, n := range names {
						if n.IsExported() {
							api[n.Name] = doc != nil
						}
					}
				}
			}
		}
	}
	return api
}

// TestSameAPIBothBuilds: the builds with and without the cuda tag export
// the same names, each documented in both.
func TestSameAPIBothBuilds(t *testing.T) {
	with, without := exportedAPI(t, []string{"cuda"}), exportedAPI(t, nil)
	var names []string
	for n := range with {
		names = append(names, n)
	}
	for n := range without {
		if _, ok := with[n]; !ok {
			names = append(names, n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		docW, inW := with[n]
		docWo, inWo := without[n]
		switch {
		case !inW:
			t.Errorf("%s exists only without the cuda tag", n)
		case !inWo:
			t.Errorf("%s exists only with the cuda tag", n)
		case !docW || !docWo:
			t.Errorf("%s is undocumented (with the tag: %v, without: %v)", n, docW, docWo)
		}
	}
	if len(names) < 20 || !strings.Contains(strings.Join(names, " "), "Backend.MSMG2") {
		t.Fatalf("the API listing looks wrong: %v", names)
	}
	t.Logf("%d exported names: %s", len(names), strings.Join(names, " "))
}
