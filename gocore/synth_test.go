package gocore

import (
	"math/rand/v2"
)

// synthKey returns a seeded synthetic key of n mentions that looks like real
// annotation: most entities are singletons, the others have a few mentions
// (a geometric size distribution) and a few are long chains. Mention ids are
// packed spans (start<<32 | end) in document order; cluster ids are sparse.
func synthKey(rng *rand.Rand, n int) Side {
	s := Side{Mentions: make([]int64, 0, n), Clusters: make([]int64, 0, n)}
	clusterOfSlot := make([]int64, 0, n)
	// Draw entity sizes until n mentions are allotted.
	for len(clusterOfSlot) < n {
		id := int64(rng.Uint32())<<8 | int64(len(clusterOfSlot)&0xff)
		size := 1
		switch u := rng.Float64(); {
		case u < 0.6:
			size = 1
		case u < 0.98:
			size = 2
			for size < 40 && rng.Float64() < 0.55 {
				size++
			}
		default:
			size = 20 + rng.IntN(200)
		}
		for i := 0; i < size && len(clusterOfSlot) < n; i++ {
			clusterOfSlot = append(clusterOfSlot, id)
		}
	}
	// Scatter the entities' mentions through the document.
	rng.Shuffle(len(clusterOfSlot), func(i, j int) {
		clusterOfSlot[i], clusterOfSlot[j] = clusterOfSlot[j], clusterOfSlot[i]
	})
	pos := int64(0)
	for _, c := range clusterOfSlot {
		pos += 1 + int64(rng.IntN(8))
		s.Mentions = append(s.Mentions, pos<<32|(pos+int64(rng.IntN(4))))
		s.Clusters = append(s.Clusters, c)
	}
	return s
}

// perturb returns a seeded system response derived from key: it drops about
// 8% of the mentions, adds about 8% spurious ones (half singletons, half
// attached to existing clusters), moves about 5% of mentions to another
// cluster, splits about 10% of the clusters and merges about 10% of them
// into another.
func perturb(rng *rand.Rand, key Side) Side {
	n := len(key.Mentions)
	// Rename clusters: response ids are unrelated to key ids.
	rename := make(map[int64]int64)
	var ids []int64
	cl := func(c int64) int64 {
		r, ok := rename[c]
		if !ok {
			r = int64(len(rename))*7 + 3
			rename[c] = r
			ids = append(ids, r)
		}
		return r
	}
	out := Side{Mentions: make([]int64, 0, n+n/10), Clusters: make([]int64, 0, n+n/10)}
	for i, m := range key.Mentions {
		if rng.Float64() < 0.08 {
			continue
		}
		out.Mentions = append(out.Mentions, m)
		out.Clusters = append(out.Clusters, cl(key.Clusters[i]))
	}
	next := int64(len(rename))*7 + 1000003
	// Split: a cluster's later mentions (by coin) move to a fresh cluster.
	split := make(map[int64]int64)
	for _, c := range ids {
		if rng.Float64() < 0.10 {
			split[c] = next
			next += 7
		}
	}
	// Merge: a cluster is renamed to another existing one.
	merge := make(map[int64]int64)
	for _, c := range ids {
		if rng.Float64() < 0.10 {
			merge[c] = ids[rng.IntN(len(ids))]
		}
	}
	for i, c := range out.Clusters {
		if s, ok := split[c]; ok && rng.IntN(2) == 0 {
			out.Clusters[i] = s
			continue
		}
		if m, ok := merge[c]; ok {
			out.Clusters[i] = m
		}
		if rng.Float64() < 0.05 {
			out.Clusters[i] = ids[rng.IntN(len(ids))]
		}
	}
	// Spurious mentions: odd positions never used by the key (key starts are
	// pos<<32 with pos increasing, so use end < start, which the key never has).
	extra := n / 12
	for i := 0; i < extra; i++ {
		m := int64(rng.Uint32())<<32 | 0xffffffff
		out.Mentions = append(out.Mentions, m^int64(i)) // distinct low bits
		if rng.IntN(2) == 0 {
			out.Clusters = append(out.Clusters, next)
			next += 7
		} else {
			out.Clusters = append(out.Clusters, ids[rng.IntN(len(ids))])
		}
	}
	return out
}

// synthDoc returns a seeded synthetic document of about n key mentions.
func synthDoc(seed uint64, n int) Document {
	rng := rand.New(rand.NewPCG(seed, 0x5eed))
	key := synthKey(rng, n)
	return Document{Name: "synthetic", Key: key, Response: perturb(rng, key)}
}

// randomPartitionDoc returns a document of n mentions, all on both sides,
// whose key and response are independent uniform random partitions into k
// clusters (each mention takes a uniformly random cluster on each side):
// what an untrained model emits, and the hard case of the CEAF alignment
// (one giant overlap component with distinct φ4 weights). Mentions carry
// seeded types, shared by both sides.
func randomPartitionDoc(seed uint64, n, k int) Document {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	d := Document{Name: "random-partition"}
	d.Key.Mentions = make([]int64, n)
	d.Key.Clusters = make([]int64, n)
	d.Response.Clusters = make([]int64, n)
	d.Key.Types = make([]MentionType, n)
	for m := range n {
		d.Key.Mentions[m] = int64(m) << 32
		d.Key.Clusters[m] = int64(rng.IntN(k))
		d.Response.Clusters[m] = int64(rng.IntN(k))
		d.Key.Types[m] = MentionType(1 + rng.IntN(3))
	}
	d.Response.Mentions = d.Key.Mentions
	d.Response.Types = d.Key.Types
	return d
}
