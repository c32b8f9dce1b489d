package main

import (
	"encoding/binary"
	"sync"

	"github.com/corefscore/corefscore/gocore"
)

// The subset of CPython's marshal format (version 4, the default since
// Python 3.4) that spansFromMarshal reads: the type byte of every object,
// whose high bit (marshalRefFlag) asks the reader to remember the object, and the
// codes below. marshal writes an int, list or tuple only for those exact
// types (bool, subclasses, NumPy scalars and tensors are written otherwise or
// refused), so reading these codes only is the per-call path's type check.
const (
	marshalInt        = 'i' // int32, little-endian: an int in [-2^31, 2^31)
	marshalList       = '[' // int32 count, then the items
	marshalTuple      = '(' // int32 count, then the items
	marshalSmallTuple = ')' // uint8 count, then the items
	marshalRef        = 'r' // uint32 index of an earlier remembered object
	marshalRefFlag    = 0x80
)

// marshalDepth names the level an object is read at: the (key, response)
// pair, a side (its clusters), a cluster (its mentions), a mention (its two
// bounds, read by spanReader.bound).
type marshalDepth int

const (
	depthPair marshalDepth = iota
	depthSide
	depthCluster
	depthMention
)

// spanReader decodes one document for spansFromMarshal.
type spanReader struct {
	data []byte
	refs []int // offset of the type byte of each remembered object, in order
	ids  []int64
	cls  []int64
	n    int   // mentions written
	nKey int   // mentions of the key side
	clus int64 // position of the cluster being read in its side
	grow bool  // ids and cls grow as mentions come (marshalDocument), else their length is the count announced
	err  error
	// general reads every mention the general way (item), without
	// plainMentions: the tests' second reading, which must agree.
	general bool
}

// spansFromMarshal reads one document given as the bytes of Python's
// marshal.dumps((key, response), 4), each side a list or tuple of clusters,
// each cluster a list or tuple of mentions, each mention a list or tuple of
// two ints (start, end) with 0 <= start <= end < 2^31. It writes the packed
// span id (start << 32 | end) of each mention, key first, into ids and the
// position of its cluster in its side into clusters; both must be exactly
// as long as the document has mentions. It returns the key's mention count.
//
// Anything else is a KindMention error that says what it met; the caller
// (Python's per-call path) then converts the document itself, with its own
// messages. An object referred to again (a tuple or a cluster list given
// twice, `score(key, key)`) is read again from its bytes. Each level reads
// the next one down, whatever the references, so this always ends, and the
// work is bounded by the data's length plus the mentions written.
func spansFromMarshal(data []byte, ids, clusters []int64) (nKey int, err error) {
	if len(ids) != len(clusters) {
		return 0, argErr("ids and clusters differ in length (%d, %d)", len(ids), len(clusters))
	}
	r := spanReader{data: data, ids: ids, cls: clusters}
	return r.announced()
}

// announced reads r.data as spansFromMarshal does, as many mentions as r.ids
// is long, into r.ids and r.cls.
func (r *spanReader) announced() (nKey int, err error) {
	end := r.item(0, depthPair, false)
	switch {
	case r.err != nil:
		return 0, r.err
	case end != len(r.data):
		return 0, r.refuse("%d bytes after the document", len(r.data)-end)
	case r.n != len(r.ids):
		return 0, r.refuse("%d mentions, not the %d announced", r.n, len(r.ids))
	}
	return r.nKey, nil
}

// marshalDocument is spansFromMarshal without a mention count announced: it
// returns the packed span ids and cluster positions (key first) in slices
// of its own, as many as the document holds. It is the reading of
// cs_score_batch's input=marshal form, where one call reads and scores.
func marshalDocument(data []byte) (ids, clusters []int64, nKey int, err error) {
	guess := len(data)/12 + 1 // a mention (start, end) takes at least 11 bytes unless referred to again
	// one allocation for ids and clusters (until references replay more)
	return readMarshal(data, make([]int64, 2*guess), guess)
}

// readMarshal is marshalDocument reading into both, ids in its first guess
// values and clusters in the rest, as long as they have room.
func readMarshal(data []byte, both []int64, guess int) (ids, clusters []int64, nKey int, err error) {
	if n, nKey, ok := readPlain(data, both[:guess], both[guess:]); ok {
		return both[:n], both[guess : guess+n], nKey, nil
	}
	r := spanReader{data: data, ids: both[:guess:guess], cls: both[guess:], grow: true}
	end := r.item(0, depthPair, false)
	switch {
	case r.err != nil:
		return nil, nil, 0, r.err
	case end != len(data):
		return nil, nil, 0, r.refuse("%d bytes after the document", len(data)-end)
	}
	return r.ids[:r.n], r.cls[:r.n], r.nKey, nil
}

// readPlain reads data as readMarshal does when it is what marshal version
// 2 writes for the per-call road's common document: a (key, response)
// tuple, each side a list or tuple of clusters, each cluster a list or
// tuple of mentions, each mention a tuple of two ints in order (0 <= start
// <= end), with room for them in ids and cls. It writes the packed ids and
// cluster positions, key first, and returns their number and the key's; ok
// is false for any other data (then what it wrote means nothing), which
// the general reading (spanReader) reads, refuses or makes room for. One
// loop per level, without the general reading's calls per object.
func readPlain(data []byte, ids, cls []int64) (n, nKey int, ok bool) {
	at, count := 0, 0
	if at, count, ok = plainCount(data, at); !ok || count != 2 || data[0] != marshalTuple {
		return 0, 0, false
	}
	for side := range 2 {
		var clusters int
		if at, clusters, ok = plainCount(data, at); !ok {
			return 0, 0, false
		}
		for c := range clusters {
			var mentions int
			if at, mentions, ok = plainCount(data, at); !ok || mentions > len(ids)-n || mentions > len(cls)-n ||
				mentions > (len(data)-at)/15 {
				return 0, 0, false
			}
			block := data[at : at+15*mentions]
			for len(block) >= 15 {
				w := block[:15]
				start, end := int64(int32(binary.LittleEndian.Uint32(w[6:]))), int64(int32(binary.LittleEndian.Uint32(w[11:])))
				if binary.LittleEndian.Uint64(w)&(1<<48-1) != plainTuple2 || w[10] != marshalInt || start < 0 || start > end {
					return 0, 0, false
				}
				ids[n], cls[n] = start<<32|end, int64(c)
				n++
				block = block[15:]
			}
			at += 15 * mentions
		}
		if side == 0 {
			nKey = n
		}
	}
	return n, nKey, at == len(data)
}

// plainCount reads the header of a list or a tuple as marshal version 2
// writes them (the type byte without the "remember" flag, an int32 count)
// at offset at: the offset after it and the count, ok false for anything
// else.
func plainCount(data []byte, at int) (next, count int, ok bool) {
	if at+5 > len(data) || (data[at] != marshalList && data[at] != marshalTuple) {
		return at, 0, false
	}
	c := int32(binary.LittleEndian.Uint32(data[at+1:]))
	return at + 5, int(c), c >= 0
}

// marshalScratch is the memory of one per-call scoring (scoreMarshal):
// the mentions read, key first, and their cluster positions, the two
// sides' offsets and the document; kept in marshalPool between calls.
type marshalScratch struct {
	both    []int64 // ids then clusters, as marshalDocument lays them out
	offsets [4]int64
	docs    [1]gocore.Document
}

var marshalPool = sync.Pool{New: func() any { return new(marshalScratch) }}

// marshalPooledMentions is the largest mention capacity a marshalScratch
// keeps in marshalPool (a larger document's memory goes to the collector).
const marshalPooledMentions = 1 << 14

// scoreMarshal is scoreBatch on one document given as marshal bytes
// (cs_score_batch's input=marshal): read by marshalDocument, then scored as
// a one-document batch of those sides. Its memory comes from marshalPool,
// so that a call allocates nothing for the document.
func scoreMarshal(data []byte, names []string, co *callOptions, stop func() bool, counts []float64,
	dupsCap int64) (batchOut, error) {
	ms := marshalPool.Get().(*marshalScratch)
	k, r, err := ms.read(data)
	if err != nil {
		marshalPool.Put(ms)
		return batchOut{}, err
	}
	if names != nil && len(names) != 1 {
		marshalPool.Put(ms)
		return batchOut{}, argErr("%d document names for 1 document", len(names))
	}
	ms.docs[0] = gocore.Document{Key: sideSlice(k, 0), Response: sideSlice(r, 0)}
	if names != nil {
		ms.docs[0].Name = names[0]
	}
	out, err := scoreDocs(ms.docs[:], k, r, names, co, stop, counts, dupsCap)
	ms.docs[0] = gocore.Document{}
	// An analysis result may keep the document's mentions: then its memory is not reused.
	if co.outputs&outAnalysis == 0 && cap(ms.both) <= 2*marshalPooledMentions {
		marshalPool.Put(ms)
	}
	return out, err
}

// read reads data as marshalDocument does, into ms's memory while it has
// room, and returns the two sides of that document.
func (ms *marshalScratch) read(data []byte) (k, r flatSide, err error) {
	guess := len(data)/12 + 1 // a mention (start, end) takes at least 11 bytes unless referred to again
	if cap(ms.both) < 2*guess {
		ms.both = make([]int64, 2*guess)
	}
	ids, clusters, nKey, err := readMarshal(data, ms.both[:2*guess], guess)
	if err != nil {
		return k, r, err
	}
	n := len(ids)
	ms.offsets = [4]int64{0, int64(nKey), 0, int64(n - nKey)}
	k = flatSide{offsets: ms.offsets[:2], mentions: ids[:nKey], clusters: clusters[:nKey]}
	r = flatSide{offsets: ms.offsets[2:], mentions: ids[nKey:], clusters: clusters[nKey:]}
	return k, r, nil
}

// refuse records the first reason the data is not a document of span pairs
// and returns it.
func (r *spanReader) refuse(format string, args ...any) error {
	if r.err == nil {
		r.err = gocore.NewError(gocore.KindMention, "marshal data: "+format, args...)
	}
	return r.err
}

// item reads the item at offset at as level d and returns the offset after
// it, or -1 once refused. An item is an object or a reference to one read
// before; replay is set while an object is read again, whose own remembered
// objects were counted the first time.
func (r *spanReader) item(at int, d marshalDepth, replay bool) int {
	if at < 0 || at >= len(r.data) {
		r.refuse("truncated")
		return -1
	}
	if r.data[at]&^marshalRefFlag == marshalRef {
		if at+5 > len(r.data) {
			r.refuse("truncated")
			return -1
		}
		i := binary.LittleEndian.Uint32(r.data[at+1:])
		if uint64(i) >= uint64(len(r.refs)) {
			r.refuse("reference %d to no object", i)
			return -1
		}
		if r.object(r.refs[i], d, true) < 0 {
			return -1
		}
		return at + 5
	}
	return r.object(at, d, replay)
}

// object reads the object whose type byte is at offset at (not a reference).
func (r *spanReader) object(at int, d marshalDepth, replay bool) int {
	code := r.data[at]
	if code&marshalRefFlag != 0 && !replay {
		r.refs = append(r.refs, at)
	}
	code &^= marshalRefFlag
	count, p := 0, at+1
	switch code {
	case marshalList, marshalTuple:
		if p+4 > len(r.data) {
			r.refuse("truncated")
			return -1
		}
		c := int32(binary.LittleEndian.Uint32(r.data[p:]))
		if c < 0 {
			r.refuse("negative length at byte %d", at)
			return -1
		}
		count, p = int(c), p+4
	case marshalSmallTuple:
		if p >= len(r.data) {
			r.refuse("truncated")
			return -1
		}
		count, p = int(r.data[p]), p+1
	default:
		r.refuse("type code %q at byte %d where a list or tuple belongs", code, at)
		return -1
	}
	switch d {
	case depthPair:
		if count != 2 {
			r.refuse("%d items, not (key, response)", count)
			return -1
		}
		if p = r.item(p, depthSide, replay); p >= 0 {
			r.nKey = r.n
			p = r.item(p, depthSide, replay)
		}
	case depthSide:
		for c := 0; c < count && p >= 0; c++ {
			r.clus = int64(c)
			p = r.item(p, depthCluster, replay)
		}
	case depthCluster:
		for m := 0; m < count && p >= 0; m++ {
			if !r.general {
				var plain int
				if p, plain = r.plainMentions(p, count-m); plain == count-m {
					break
				}
				m += plain
			}
			p = r.item(p, depthMention, replay) // the mention that stopped plainMentions
		}
	case depthMention:
		p = r.mention(p, count, replay)
	}
	return p
}

// Plain mentions as their first bytes read as a little-endian integer
// (low bytes first): a tuple of two items whose first is an int, in marshal
// version 2 ('(', count 2 as an int32, 'i') and as version 4 writes a small
// tuple (')', count 2 as a byte, 'i'), neither with the "remember" flag.
const (
	plainTuple2      = 0x69_00000002_28 // 6 bytes
	plainSmallTuple2 = 0x69_02_29       // 3 bytes
)

// plainMentions reads, from offset at, up to count mentions of the cluster
// being read while they are plain: a tuple of two ints that nothing refers
// to (all of marshal version 2's data), in order (0 <= start <= end), with
// room for them in ids. It returns the offset after them and how many it
// read. The mention that stopped it, if any, is the caller's to read the
// general way (item), which refuses it or makes room. The common case of a
// long document, in one loop without calls.
func (r *spanReader) plainMentions(at, count int) (next, read int) {
	data, clus := r.data, r.clus
	if at > len(data) {
		return at, 0
	}
	ids, cls := r.ids[r.n:], r.cls[r.n:]
	limit := min(count, len(ids), len(cls))
	ids, cls = ids[:limit], cls[:limit]
	for read < limit {
		w := data[at:]
		var start, end uint32
		var size int
		switch {
		case len(w) >= 15 && binary.LittleEndian.Uint64(w)&(1<<48-1) == plainTuple2 && w[10] == marshalInt:
			start, end, size = binary.LittleEndian.Uint32(w[6:]), binary.LittleEndian.Uint32(w[11:]), 15
		case len(w) >= 12 && binary.LittleEndian.Uint32(w)&(1<<24-1) == plainSmallTuple2 && w[7] == marshalInt:
			start, end, size = binary.LittleEndian.Uint32(w[3:]), binary.LittleEndian.Uint32(w[8:]), 12
		}
		s, e := int64(int32(start)), int64(int32(end))
		if size == 0 || s < 0 || s > e {
			break
		}
		ids[read], cls[read] = s<<32|e, clus
		read++
		at += size
	}
	r.n += read
	return at, read
}

// mention reads the two bounds of a mention, whose items start at p, and
// writes its packed id.
func (r *spanReader) mention(p, count int, replay bool) int {
	if count != 2 {
		r.refuse("a mention of %d items, not (start, end)", count)
		return -1
	}
	start, p := r.bound(p, replay)
	if p < 0 {
		return -1
	}
	end, p := r.bound(p, replay)
	if p < 0 {
		return -1
	}
	if r.mentionAt(start, end) < 0 {
		return -1
	}
	return p
}

// mentionAt checks the bounds of a mention and writes its packed id: -1
// once refused, else 0.
func (r *spanReader) mentionAt(start, end int64) int {
	if start < 0 || start > end {
		r.refuse("span (%d, %d) is not 0 <= start <= end < 2^31", start, end)
		return -1
	}
	if r.n >= len(r.ids) {
		if !r.grow {
			r.refuse("more mentions than the %d announced", len(r.ids))
			return -1
		}
		r.ids, r.cls = append(r.ids, make([]int64, len(r.ids)+1)...), append(r.cls, make([]int64, len(r.cls)+1)...)
	}
	r.ids[r.n], r.cls[r.n] = start<<32|end, r.clus
	r.n++
	return 0
}

// bound reads the span bound at offset at (an int, or a reference to one)
// and returns it with the offset after it (-1 once refused). It is the
// innermost level, read without the generic item/object calls: two per
// mention.
func (r *spanReader) bound(at int, replay bool) (int64, int) {
	data := r.data
	if at < 0 || at+5 > len(data) {
		r.refuse("truncated")
		return 0, -1
	}
	obj, code := at, data[at]
	if code == marshalInt { // the common case first
		return int64(int32(binary.LittleEndian.Uint32(data[at+1 : at+5]))), at + 5
	}
	switch code &^ marshalRefFlag {
	case marshalRef:
		i := binary.LittleEndian.Uint32(data[at+1 : at+5])
		if uint64(i) >= uint64(len(r.refs)) {
			r.refuse("reference %d to no object", i)
			return 0, -1
		}
		obj = r.refs[i]
		code = data[obj]
	case marshalInt:
		if !replay {
			r.refs = append(r.refs, at)
		}
	}
	if code&^marshalRefFlag != marshalInt || obj < 0 || obj+5 > len(data) {
		r.refuse("type code %q at byte %d where a span bound (an int in [0, 2^31)) belongs", code&^marshalRefFlag, obj)
		return 0, -1
	}
	return int64(int32(binary.LittleEndian.Uint32(data[obj+1 : obj+5]))), at + 5
}
