// Offsets of the wide blocks (wide.go), shared by the AVX2 and AVX-512
// kernels; TestWideLayout checks them.

// wideContact, eight lanes: each [lanes] field is 64 bytes.
#define OFFA 0
#define OFFB 64
#define MASKA 128
#define MASKB 192
#define STIFF 256
#define NX 320
#define NY 384
#define FRIC 448
#define MA 512
#define IA 576
#define MB 640
#define IB 704
#define PT0 832
#define PT1 1536
#define POINTS 2240
#define HEAVY 2248
#define BLOCK 2304

// widePoint offsets.
#define RAX 0
#define RAY 64
#define RBX 128
#define RBY 192
#define BASESEP 256
#define NMASS 320
#define TMASS 384
#define NIMP 448
#define TIMP 512
#define MAXNIMP 576

// wideParams offsets.
#define PZERO 0
#define PONE 64
#define PSIGN 128
#define PINVH 192
#define PNEGMPO 256
#define PBIAS 320
#define PFLIP 384
#define PSOFTBR 448
#define PSOFTMS 512
#define PSOFTIS 576
#define PSTIFFBR 640
#define PSTIFFMS 704
#define PSTIFFIS 768
#define PHEAVYBR 832
#define PHEAVYMS 896
#define PHEAVYIS 960
#define PDEEP 1024
#define PDEEPF 1088
