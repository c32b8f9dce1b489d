package main

import (
	"encoding/binary"
	"encoding/hex"
	"testing"

	"github.com/corefscore/corefscore/gocore"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The data below is what Python 3.11's marshal.dumps((key, response), 4)
// wrote for the documents named (tuples and small ints that Python holds
// elsewhere carry the "remember" flag, and their repeats are references).

func span(start, end int64) int64 { return start<<32 | end }

func TestSpansFromMarshalReadsDocuments(t *testing.T) {
	t3x7 := span(3, 7)
	cases := []struct {
		name, data string
		nKey       int
		ids, cls   []int64
	}{
		{"([[(0, 1), (3, 4)]], [[(0, 1)], [(3, 4)]])",
			"a9025b010000005b02000000a902e900000000e901000000a902e903000000e9040000005b020000005b0100000072010000005b010000007204000000",
			2, []int64{span(0, 1), span(3, 4), span(0, 1), span(3, 4)}, []int64{0, 0, 0, 1}},
		{"t = (3, 7); ([[t, t]], [[t], [(7, 300)]]): a tuple and ints given again",
			"a9025b010000005b02000000a902e903000000e90700000072010000005b020000005b0100000072010000005b01000000a9027203000000e92c010000",
			2, []int64{t3x7, t3x7, t3x7, span(7, 300)}, []int64{0, 0, 0, 1}},
		{"K = [[(3, 7), (0, 1)], []]; (K, K): the response is the key's list again",
			"a902db020000005b02000000a902e903000000e907000000a902e900000000e9010000005b000000007201000000",
			2, []int64{t3x7, span(0, 1), t3x7, span(0, 1)}, []int64{0, 0, 0, 0}},
		{"([[[1, 2]]], ([[2, 2]],)): lists as mentions, a tuple as a side",
			"a9025b010000005b010000005b02000000e901000000e90200000029015b010000005b0200000072020000007202000000",
			1, []int64{span(1, 2), span(2, 2)}, []int64{0, 0}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := hex.DecodeString(tc.data)
			require.NoError(t, err)
			out := make([]int64, 2*len(tc.ids))
			nKey, err := spansFromMarshal(data, out[:len(tc.ids)], out[len(tc.ids):])
			require.NoError(t, err)
			assert.Equal(t, tc.nKey, nKey)
			assert.Equal(t, tc.ids, out[:len(tc.ids)])
			assert.Equal(t, tc.cls, out[len(tc.ids):])
		})
	}
}

func TestSpansFromMarshalRefusesEverythingElse(t *testing.T) {
	plain := "a9025b010000005b02000000a902e900000000e901000000a902e903000000e9040000005b020000005b0100000072010000005b010000007204000000"
	cases := []struct {
		name, data string
		n          int
		reason     string
	}{
		{"([[(True, 2)]], [])", "a9025b010000005b01000000a90254e9020000005b00000000", 1, "'T'"},
		{"([[(1.0, 2)]], [])", "a9025b010000005b01000000a902e7000000000000f03fe9020000005b00000000", 1, "'g'"},
		{"([[(0, 2**31)]], []): a long", "a9025b010000005b01000000a902e900000000ec030000000000000002005b00000000", 1, "'l'"},
		{"([[(-1, 2)]], [])", "a9025b010000005b01000000a902e9ffffffffe9020000005b00000000", 1, "(-1, 2)"},
		{"([[(5, 2)]], [])", "a9025b010000005b01000000a902e905000000e9020000005b00000000", 1, "(5, 2)"},
		{"([[(1, 2, 3)]], [])", "a9025b010000005b01000000a903e901000000e902000000e9030000005b00000000", 1, "3 items"},
		{"a = [a]; (a, [])", "a902db0100000072010000005b00000000", 1, "1 items"},
		{`(["ab"], [])`, "a9025b01000000da0261625b00000000", 2, "'Z'"},
		{"fewer mentions than announced", plain, 5, "4 mentions, not the 5"},
		{"more mentions than announced", plain, 3, "more mentions than the 3"},
		{"bytes after the document", plain + "00", 4, "1 bytes after"},
		{"a reference to no object", "a9025b01000000" + "7207000000" + "5b00000000", 0, "reference 7"},
		{"a negative list length", "a9025bffffffff5b00000000", 0, "negative length"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data, err := hex.DecodeString(tc.data)
			require.NoError(t, err)
			out := make([]int64, 2*tc.n)
			_, err = spansFromMarshal(data, out[:tc.n], out[tc.n:])
			require.Error(t, err)
			assert.Equal(t, gocore.KindMention, gocore.AsError(err).Kind)
			assert.Contains(t, err.Error(), tc.reason)
		})
	}
	t.Run("every truncation", func(t *testing.T) {
		data, err := hex.DecodeString(plain)
		require.NoError(t, err)
		out := make([]int64, 8)
		for end := range len(data) {
			_, err := spansFromMarshal(data[:end], out[:4], out[4:])
			require.Error(t, err, "first %d bytes", end)
		}
	})
}

// FuzzSpansFromMarshal: any bytes give an error or a document whose ids are
// spans in range and whose cluster positions are non-negative; never a panic.
func FuzzSpansFromMarshal(f *testing.F) {
	for _, seed := range []string{
		"a9025b010000005b02000000a902e900000000e901000000a902e903000000e9040000005b020000005b0100000072010000005b010000007204000000",
		"a902db020000005b02000000a902e903000000e907000000a902e900000000e9010000005b000000007201000000",
		"a902db0100000072010000005b00000000",
	} {
		data, _ := hex.DecodeString(seed)
		f.Add(data, uint8(4))
	}
	// marshal.dumps(([[(0, 1), (3, 4)]], [[(0, 1)], [(3, 4)]]), 2) and marshal.dumps(([[(4, 1)]], []), 2)
	for _, seed := range []string{
		"28020000005b010000005b020000002802000000690000000069010000002802000000690300000069040000005b020000005b010000002802000000690000000069010000005b01000000280200000069030000006904000000",
		"28020000005b010000005b010000002802000000690400000069010000005b00000000",
	} {
		data, _ := hex.DecodeString(seed)
		f.Add(data, uint8(4))
	}
	f.Fuzz(func(t *testing.T, data []byte, n uint8) {
		out := make([]int64, 2*int(n))
		nKey, err := spansFromMarshal(data, out[:n], out[n:])
		// The general reading of every mention gives the same document, or the same refusal.
		general := spanReader{data: data, ids: make([]int64, n), cls: make([]int64, n), general: true}
		generalKey, generalErr := general.announced()
		// The version 2 reading, where it reads the data, reads that document too.
		both := make([]int64, 2*int(n))
		if plainN, plainKey, ok := readPlain(data, both[:n], both[n:]); ok && plainN == int(n) {
			require.NoError(t, err)
			require.Equal(t, nKey, plainKey)
			require.Equal(t, out, both)
		}
		if err != nil || generalErr != nil {
			require.Equal(t, err, generalErr)
			return
		}
		require.Equal(t, nKey, generalKey)
		require.Equal(t, out[:n], general.ids)
		require.Equal(t, out[n:], general.cls)
		require.LessOrEqual(t, nKey, int(n))
		for i, id := range out[:n] {
			start, end := id>>32, id&(1<<32-1)
			require.True(t, 0 <= start && start <= end && end < 1<<31, "id %d", i)
			require.GreaterOrEqual(t, out[int(n)+i], int64(0))
		}
	})
}

// marshalled writes a document as marshal version 4 data without the
// "remember" flags (as Python writes objects that nothing else holds).
func marshalled(sides ...[][][2]int32) []byte {
	le := func(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) }
	out := []byte{marshalSmallTuple, byte(len(sides))}
	for _, side := range sides {
		out = le(append(out, marshalList), int32(len(side)))
		for _, cluster := range side {
			out = le(append(out, marshalList), int32(len(cluster)))
			for _, m := range cluster {
				out = append(out, marshalSmallTuple, 2)
				out = le(append(out, marshalInt), m[0])
				out = le(append(out, marshalInt), m[1])
			}
		}
	}
	return out
}

// marshalledV2 writes a document as marshal version 2 data (what the
// per-call road sends: tuples with an int32 count, no flags).
func marshalledV2(sides ...[][][2]int32) []byte {
	le := func(b []byte, v int32) []byte { return binary.LittleEndian.AppendUint32(b, uint32(v)) }
	out := le([]byte{marshalTuple}, int32(len(sides)))
	for _, side := range sides {
		out = le(append(out, marshalList), int32(len(side)))
		for _, cluster := range side {
			out = le(append(out, marshalList), int32(len(cluster)))
			for _, m := range cluster {
				out = le(append(out, marshalTuple), 2)
				out = le(append(out, marshalInt), m[0])
				out = le(append(out, marshalInt), m[1])
			}
		}
	}
	return out
}

// BenchmarkSpansFromMarshalFifty reads bench/per_call.py's 50-mention
// document (50 key mentions in 10 clusters, 50 response mentions in 8), as
// marshal version 4 and version 2 (the per-call road's) write it.
func BenchmarkSpansFromMarshalFifty(b *testing.B) {
	side := func(per int) [][][2]int32 {
		out := make([][][2]int32, (50+per-1)/per)
		for i := range 50 {
			out[i/per] = append(out[i/per], [2]int32{int32(i), int32(i)})
		}
		return out
	}
	for name, data := range map[string][]byte{"v4": marshalled(side(5), side(7)), "v2": marshalledV2(side(5), side(7))} {
		b.Run(name, func(b *testing.B) {
			out := make([]int64, 200)
			b.ReportAllocs()
			for b.Loop() {
				if _, err := spansFromMarshal(data, out[:100], out[100:]); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// TestMarshalDocumentAgreesWithSpansFromMarshal: cs_score_batch's
// input=marshal reading (no mention count announced) gives what
// spansFromMarshal gives with the right count, references included, and
// refuses what it refuses.
func TestMarshalDocumentAgreesWithSpansFromMarshal(t *testing.T) {
	fifty := func(per int) [][][2]int32 {
		out := make([][][2]int32, (50+per-1)/per)
		for i := range 50 {
			out[i/per] = append(out[i/per], [2]int32{int32(i), int32(2 * i)})
		}
		return out
	}
	cases := map[string][]byte{
		"the 50-mention document": marshalled(fifty(5), fifty(7)),
		"empty sides":             marshalled(nil, nil),
	}
	for _, h := range []string{
		"a9025b010000005b02000000a902e900000000e901000000a902e903000000e9040000005b020000005b0100000072010000005b010000007204000000",
		"a902db020000005b02000000a902e903000000e907000000a902e900000000e9010000005b000000007201000000",
		"a9025b010000005b010000005b02000000e901000000e90200000029015b010000005b0200000072020000007202000000",
		// c = [(i, i + 1) for i in range(10)]; ([c] * 10, [c]): 110 mentions in 187 bytes, past the first guess
		"29025b0a000000db0a0000002902e900000000e90100000029027202000000e90200000029027203000000e90300000029027204000000e90400000029027205000000e90500000029027206000000e90600000029027207000000e90700000029027208000000e90800000029027209000000e9090000002902720a000000e90a0000007200000000720000000072000000007200000000720000000072000000007200000000720000000072000000005b010000007200000000",
	} {
		data, err := hex.DecodeString(h)
		require.NoError(t, err)
		cases[h] = data
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			ids, cls, nKey, err := marshalDocument(data)
			require.NoError(t, err)
			require.Len(t, cls, len(ids))
			out := make([]int64, 2*len(ids))
			wantKey, err := spansFromMarshal(data, out[:len(ids)], out[len(ids):])
			require.NoError(t, err)
			assert.Equal(t, wantKey, nKey)
			assert.Equal(t, out[:len(ids)], ids)
			assert.Equal(t, out[len(ids):], cls)
		})
	}
	refused, err := hex.DecodeString("a9025b010000005b01000000a90254e9020000005b00000000") // ([[(True, 2)]], [])
	require.NoError(t, err)
	_, _, _, err = marshalDocument(refused)
	require.Error(t, err)
	assert.Equal(t, gocore.KindMention, gocore.AsError(err).Kind)
	_, _, _, err = marshalDocument(marshalled(fifty(5), fifty(7))[:40])
	require.Error(t, err, "truncated data")
}

func TestInputOptionIsValidated(t *testing.T) {
	co, err := parseCallOptions([]string{"input"}, []string{"marshal"})
	require.NoError(t, err)
	assert.True(t, co.marshal)
	co, err = parseCallOptions([]string{"metrics", "input"}, []string{"muc", "arrays"})
	require.NoError(t, err)
	assert.False(t, co.marshal)
	_, err = parseCallOptions([]string{"metrics", "input"}, []string{"muc", "pickle"})
	require.Error(t, err)
	assert.Equal(t, 1, gocore.AsError(err).Option)
}

// TestMarshalVersionTwoIsReadPlainly: the per-call path writes marshal
// version 2 (no references, so CPython keeps no table of the objects it
// wrote); its mentions take plainMentions, with the same checks.
func TestMarshalVersionTwoIsReadPlainly(t *testing.T) {
	// marshal.dumps(([[(0, 1), (3, 4)]], [[(0, 1)], [(3, 4)]]), 2)
	data, err := hex.DecodeString("28020000005b010000005b020000002802000000690000000069010000002802000000690300000069040000005b020000005b010000002802000000690000000069010000005b01000000280200000069030000006904000000")
	require.NoError(t, err)
	ids, cls, nKey, err := marshalDocument(data)
	require.NoError(t, err)
	assert.Equal(t, 2, nKey)
	assert.Equal(t, []int64{span(0, 1), span(3, 4), span(0, 1), span(3, 4)}, ids)
	assert.Equal(t, []int64{0, 0, 0, 1}, cls)
	// marshal.dumps(([[(4, 1)]], []), 2): a span out of order is refused by the plain reading too
	bad, err := hex.DecodeString("28020000005b010000005b010000002802000000690400000069010000005b00000000")
	require.NoError(t, err)
	_, _, _, err = marshalDocument(bad)
	require.ErrorContains(t, err, "span (4, 1)")
	out := make([]int64, 2)
	_, err = spansFromMarshal(bad, out[:1], out[1:])
	require.ErrorContains(t, err, "span (4, 1)")
}

// TestScoreMarshalAgreesWithScoreBatch: the per-call road (scoreMarshal,
// its memory reused from call to call) gives the counts, applied metrics,
// repeated mentions and errors of scoreBatch on the document marshalDocument
// reads, whatever the documents scored before it on the same memory: larger
// ones, ones read past the first guess (references replayed), refused ones.
func TestScoreMarshalAgreesWithScoreBatch(t *testing.T) {
	h, err := newOptions([]string{"span_mentions", "input"}, []string{"true", "marshal"})
	require.NoError(t, err)
	defer freeHandle(h)
	co, err := callOptionsOf(h)
	require.NoError(t, err)
	replayed, err := hex.DecodeString("29025b0a000000db0a0000002902e900000000e90100000029027202000000e90200000029027203000000e90300000029027204000000e90400000029027205000000e90500000029027206000000e90600000029027207000000e90700000029027208000000e90800000029027209000000e9090000002902720a000000e90a0000007200000000720000000072000000007200000000720000000072000000007200000000720000000072000000005b010000007200000000")
	require.NoError(t, err)
	docs := perCallDocuments()
	repeated := marshalled([][][2]int32{{{0, 1}, {3, 4}}, {{0, 1}}}, [][][2]int32{{{0, 1}}})
	refused := marshalled([][][2]int32{{{4, 1}}}, nil)
	ncol := gocore.NumColumns()
	for round := 0; round < 2; round++ {
		for _, data := range [][]byte{docs["fifty"], docs["one"], replayed, repeated, refused, docs["fifty_v2"], docs["one"]} {
			got := make([]float64, ncol)
			res, err := scoreMarshal(data, nil, &co, nil, got, 4)
			ids, cls, nKey, readErr := marshalDocument(data)
			if readErr != nil {
				require.Error(t, err)
				assert.Equal(t, readErr.Error(), err.Error())
				continue
			}
			require.NoError(t, err)
			n := int64(len(ids))
			key := flatSide{offsets: []int64{0, int64(nKey)}, mentions: ids[:nKey], clusters: cls[:nKey]}
			resp := flatSide{offsets: []int64{0, n - int64(nKey)}, mentions: ids[nKey:], clusters: cls[nKey:]}
			want := make([]float64, ncol)
			wantRes, err := scoreBatch(key, resp, nil, h, nil, want, 4)
			require.NoError(t, err)
			assert.Equal(t, want, got)
			assert.Equal(t, wantRes.applied, res.applied)
			assert.Equal(t, wantRes.nDups, res.nDups)
			assert.Equal(t, wantRes.dups, res.dups)
		}
	}
	got := make([]float64, ncol)
	_, err = scoreMarshal(docs["one"], []string{"a", "b"}, &co, nil, got, 0)
	require.ErrorContains(t, err, "2 document names for 1 document")
}
