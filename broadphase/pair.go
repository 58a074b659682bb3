package broadphase

// Pair is a candidate pair in the combined index space: moving box i has
// index i, frozen box k has index nMoving+k. A < B always holds, so A is
// always a moving box (frozen-frozen pairs are never reported).
type Pair struct{ A, B int32 }
