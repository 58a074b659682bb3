// Renames the row macros' registers back to block 0 of a pair
// (wide512_amd64.s): velocities and normal in Z0-Z7, fields at DI.
#undef V0
#define V0 Z0
#undef V1
#define V1 Z1
#undef V2
#define V2 Z2
#undef V3
#define V3 Z3
#undef V4
#define V4 Z4
#undef V5
#define V5 Z5
#undef V6
#define V6 Z6
#undef V7
#define V7 Z7
#undef BLK
#define BLK DI
