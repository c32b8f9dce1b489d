package files

import (
	"fmt"
	"strconv"

	"github.com/corefscore/corefscore/gocore"
	"github.com/corefscore/corefscore/gocore/conll"
)

// scoreUA reads two CoNLL-UA files and scores them with gocore.ScoreUA
// under opt.UA: key documents pair with response documents by name; a key
// document the response lacks is scored against an empty response, with a
// warning, and response documents the key lacks are ignored, with a
// warning. Errors are those of Score.
func scoreUA(keyPath, respPath string, opt gocore.Options) (*FileResult, error) {
	var key, resp []conll.UADoc
	var respErr error
	done := make(chan struct{})
	go func() {
		defer close(done)
		resp, respErr = conll.ReadUA(respPath)
	}()
	key, err := conll.ReadUA(keyPath)
	<-done
	if err != nil {
		return nil, conll.SideError(err, 0, keyPath)
	}
	if respErr != nil {
		return nil, conll.SideError(respErr, 1, respPath)
	}
	respByName := map[string]int{}
	for i, d := range resp {
		respByName[d.Name] = i
	}
	res := &FileResult{Names: make([]string, len(key))}
	docs := make([]gocore.UADocument, len(key))
	used := make([]bool, len(resp))
	for i, k := range key {
		res.Names[i] = k.Name
		docs[i] = gocore.UADocument{Name: k.Name, Key: k.Identity}
		if opt.UA.DiscourseDeixis {
			docs[i].Key = k.Deixis
		}
		j, ok := respByName[k.Name]
		if !ok {
			res.Warnings = append(res.Warnings, gocore.Warning{Kind: gocore.WarnOther, Side: 1, Doc: i, Count: 1,
				Msg: "document " + strconv.Quote(k.Name) + " is missing from the response: scored against an empty response"})
			continue
		}
		used[j] = true
		docs[i].Response = resp[j].Identity
		if opt.UA.DiscourseDeixis {
			docs[i].Response = resp[j].Deixis
		}
	}
	for j, u := range used {
		if !u {
			res.Warnings = append(res.Warnings, gocore.Warning{Kind: gocore.WarnResponseOnly, Side: 1, Doc: -1, Count: 1,
				Msg: "response document " + strconv.Quote(resp[j].Name) + " is not in the key: ignored"})
		}
	}
	for i := range docs {
		for side, s := range []*gocore.UASide{&docs[i].Key, &docs[i].Response} {
			if w, ok := uaRepeats(s, key[i].Name, side); ok {
				if opt.Duplicates == gocore.DuplicatesError {
					e := gocore.NewError(gocore.KindDuplicate, "%s", w.Msg)
					e.Doc, e.Name, e.Side, e.Path = i, key[i].Name, side, keyPath
					if side == 1 {
						e.Path = respPath
					}
					return nil, e
				}
				w.Doc = i
				res.Warnings = append(res.Warnings, w)
			}
		}
	}
	res.Counts = make([]float64, len(docs)*gocore.NumColumns())
	applied, err := gocore.ScoreUA(docs, opt, res.Counts)
	if err != nil {
		e := gocore.AsError(err)
		if e.Doc >= 0 && e.Doc < len(key) {
			e.Path, e.Line = key[e.Doc].Path, key[e.Doc].Line
			if e.Side == 1 {
				if j, ok := respByName[key[e.Doc].Name]; ok {
					e.Path, e.Line = resp[j].Path, resp[j].Line
				}
			}
		}
		return nil, e
	}
	res.Applied = applied
	return res, nil
}

// uaRepeats reports markables of a side that repeat the tokens of an
// earlier one: they are scored as the UA scorer scores them (a cluster
// holds a span once; a span in two entities is looked up in the later
// one), and the warning says so.
func uaRepeats(s *gocore.UASide, doc string, side int) (gocore.Warning, bool) {
	seen := map[[2]int32]bool{}
	var n int64
	var first [2]int32
	for _, m := range s.Markables {
		sp := [2]int32{m.Start, m.End}
		if seen[sp] {
			if n == 0 {
				first = sp
			}
			n++
		}
		seen[sp] = true
	}
	if n == 0 {
		return gocore.Warning{}, false
	}
	return gocore.Warning{Kind: gocore.WarnOther, Side: side, Count: n, Msg: fmt.Sprintf(
		"document %q: %d markables of the %s repeat the tokens of another (first: tokens %d-%d); "+
			"a cluster counts a span once, and a span in two entities counts in the later one, as in the UA scorer",
		doc, n, gocore.SideKind(side), first[0]+1, first[1]+1)}, true
}

// uaRequested reports whether opt asks for a UA mode.
func uaRequested(opt *gocore.Options) bool { return opt.UA != (gocore.UAOptions{}) }
