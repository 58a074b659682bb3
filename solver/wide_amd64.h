// Offsets of the wide blocks (wide.go), shared by the AVX2 and AVX-512
// kernels; TestWideLayout checks them.

// wideContact, eight lanes: each [lanes]float64 or int64 field is 64
// bytes, each [lanes]int8 field (MASKA, MASKB, STIFF, HEAVY) 8.
#define OFFA 0
#define OFFB 64
#define NX 128
#define NY 192
#define FRIC 256
#define MA 320
#define IA 384
#define MB 448
#define IB 512
#define MASKA 576
#define MASKB 584
#define STIFF 592
#define HEAVY 600
#define POINTS 608
#define PT0 640
#define PT1 1280
// BLOCK is the length of a two-point block in the arena, BLOCK1 of a
// one-point block (no second point: wideUnit). A block of p points is
// 640 (p + 1) bytes long: NEXTBLOCK.
#define BLOCK 1920
#define BLOCK1 1280

// NEXTBLOCK moves r from a block to the next one in the arena. It
// clobbers R10.
#define NEXTBLOCK(r) \
	MOVQ POINTS(r), R10; \
	INCQ R10; \
	IMULQ $640, R10; \
	ADDQ R10, r

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
