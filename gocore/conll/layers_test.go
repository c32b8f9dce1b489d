package conll

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadersOnlyRead checks the layer card of DESIGN.md: the readers
// produce the model and never call the scorer (package files composes
// reading and scoring, above both).
func TestReadersOnlyRead(t *testing.T) {
	scorer := map[string]bool{"Score": true, "ScoreBatch": true, "AnalyzeBatch": true, "Analyze": true, "ScoreUA": true}
	paths, err := filepath.Glob("*.go")
	require.NoError(t, err)
	fset := token.NewFileSet()
	checked := 0
	for _, path := range paths {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		require.NoError(t, err)
		checked++
		ast.Inspect(f, func(n ast.Node) bool {
			if sel, ok := n.(*ast.SelectorExpr); ok {
				if id, ok := sel.X.(*ast.Ident); ok && id.Name == "gocore" && scorer[sel.Sel.Name] {
					assert.Fail(t, "a reader calls the scorer", "%s: gocore.%s", fset.Position(sel.Pos()), sel.Sel.Name)
				}
			}
			return true
		})
	}
	assert.Greater(t, checked, 5)
}
