package conll

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestJSONFastMatchesEncodingJSON reads jsonlines documents with the fast
// path and with encoding/json alone: the same documents, or the same error,
// on the usual shapes and on every shape the fast path leaves to
// encoding/json.
func TestJSONFastMatchesEncodingJSON(t *testing.T) {
	lines := []string{
		`{"doc_key": "a", "sentences": [["x", "y"], ["z"]], "clusters": [[[0, 1], [2, 2]], [[1, 1]]]}`,
		`  { "doc_key" : "a" ,"clusters":[ [ [0,0] ] ] , "sentences" : [ [ "x" , 1, null, true, {"k": [1, "v"]}, [] ] ] }  `,
		`{"doc_key": "a", "clusters": [], "sentences": []}`,
		`{"doc_key": "a", "clusters": [[]], "sentences": [[]]}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "speakers": [["s"]], "meta": {"x": [1.5e3, -0, "\"q\\"]}}`,
		`{"doc_key": "a\u00e9", "clusters": [[[0, 1]]]}`,
		`{"doc_key": "a\"b", "clusters": [[[0, 1]]]}`,
		`{"doc_key": "é", "clusters": [[[0, 1]]]}`,
		`{"Doc_Key": "a", "clusters": [[[0, 1]]]}`,
		`{"doc_key": "a", "CLUSTERS": [[[0, 1]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "doc_key": "b"}`,
		`{"doc_key": null, "clusters": [[[0, 1]]]}`,
		`{"doc_key": 7, "clusters": [[[0, 1]]]}`,
		`{"doc_key": "a", "clusters": null}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "sentences": null}`,
		`{"doc_key": "a", "clusters": [[[0, 1.0]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 1e1]]]}`,
		`{"doc_key": "a", "clusters": [[[-0, 3]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 9223372036854775807]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 9223372036854775808]]]}`,
		`{"doc_key": "a", "clusters": [[[-9223372036854775808, 1]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 1, 2]]]}`,
		`{"doc_key": "a", "clusters": [[[0]]]}`,
		`{"doc_key": "a", "clusters": [[[0, "1"]]]}`,
		`{"doc_key": "a", "clusters": [[0, 1]]}`,
		`{"doc_key": "a", "clusters": [[[0, 1],]]}`,
		`{"doc_key": "a", "clusters": [[[01, 1]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]],}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]]} {}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]]}]`,
		`{"doc_key": "a", "sentences": [["x"]], "clusters": [[[0, 1]]]}`,
		`{"doc_key": "a", "sentences": ["x"], "clusters": [[[0, 0]]]}`,
		`{"doc_key": "a", "sentences": [["x\ty"]], "clusters": [[[0, 0]]]}`,
		`{"doc_key": "a", "sentences": [["\u12"]], "clusters": [[[0, 0]]]}`,
		`{"doc_key": "a", "sentences": [["x"]], "clusters": [[[0, 0]]], "predicted_clusters": [[[0, 0]]]}`,
		`{"doc_key": "a", "predicted_clusters": [[[0, 0]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "x": tru}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "x": [1 2]}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "x": {"k" 1}}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "x": -}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "x": 1.}`,
		`{"doc_key": "a", "clusters": [[[0, 1]]], "x": "\x"}`,
		`{"doc_key": "a", "clusters": [[[3, 1]]]}`,
		`{"doc_key": "a", "sentences": [["x", "y"]], "clusters": [[[0, 1]], [[1, 2]]]}`,
		`{"doc_key": "a", "sentences": [["x", "y"]], "clusters": [[[0, 1]], [[1, 1]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 2147483647]], [], [ [ 1 , 1 ] ] ] }`,
		`{"doc_key": "a", "clusters": [[[0, 2147483648]]]}`,
		`{"doc_key": "a", "clusters": [[[5, 12345678901]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 0], [1, 1] [2, 2]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 0]] [[1, 1]]]}`,
		`{"doc_key": "a", "clusters": [[[0, 0]]], "sentences": [["x\"y", "\u00e9", "z", "\u12"]]}`,
		`{"doc_key": "a", "clusters": [[[0, 0]]], "sentences": [["x\"y", "\u00e9", "z"]]}`,
		`{"doc_key": "a", "clusters": [[[0, 0]]], "sentences": [["x", "unclosed]]}`,
		`{}`,
		`[]`,
		`{"doc_key": "a", "clusters": [[[0, 1]]]` + "\r",
		`{"doc_key": "a", "clusters": [[[0, 1]]], "x": ` + strings.Repeat("[", 1200) + strings.Repeat("]", 1200) + `}`,
	}
	for i, line := range lines {
		for _, o := range []readOpts{{}, {response: true}, {response: true, clustersField: "predicted_clusters"}, {clustersField: "x"}} {
			t.Run(fmt.Sprintf("%d/%v/%s", i, o.response, o.clustersField), func(t *testing.T) {
				data := []byte(line + "\n")
				fast, fastErr := parseJSONLinesWith(data, "x.jsonl", o)
				jsonFast = false
				slow, slowErr := parseJSONLinesWith(data, "x.jsonl", o)
				jsonFast = true
				require.Equal(t, fmt.Sprint(slowErr), fmt.Sprint(fastErr), "line %s", line)
				require.Equal(t, slow, fast, "line %s", line)
			})
		}
	}
}
