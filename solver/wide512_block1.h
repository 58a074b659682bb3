// Included between uses of the row macros of wide_ops_amd64.h: they then
// run on block 1 of a pair (wide512_amd64.s), velocities and normal in
// Z24-Z31, fields at R14. wide512_block0.h renames them back.
#undef V0
#define V0 Z24
#undef V1
#define V1 Z25
#undef V2
#define V2 Z26
#undef V3
#define V3 Z27
#undef V4
#define V4 Z28
#undef V5
#define V5 Z29
#undef V6
#define V6 Z30
#undef V7
#define V7 Z31
#undef BLK
#define BLK R14
