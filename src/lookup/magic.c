/* SPDX-License-Identifier: MIT */
/* Fancy magic bitboards: a slider's relevant occupancy multiplied by a constant whose top
 * bits index the square's part of the table (no destructive collision). Plain C: every CPU. */
#include <assert.h>
#include <pthread.h>

#include "tables.h"

/* The multipliers, found once by the usual search (sparse random candidates, a fixed seed)
 * and checked when the tables are built (debug builds assert that no two occupancies with
 * different attacks share an entry; the tests compare every lookup with the ray walk). */
static const df_bb df__rook_magic[64] = {
    UINT64_C(0x0080021620804001), UINT64_C(0x0040001000200041), UINT64_C(0x0200102200088040),
    UINT64_C(0x4080040800821000), UINT64_C(0x2200020004200810), UINT64_C(0x4b00020c000d0008),
    UINT64_C(0x01000c4183000600), UINT64_C(0x2080010000402c80), UINT64_C(0x8002800826864000),
    UINT64_C(0x0410802000884000), UINT64_C(0x0c01004010200100), UINT64_C(0x020300100100203c),
    UINT64_C(0x0450800801040080), UINT64_C(0x4010800200040080), UINT64_C(0x8804000208048110),
    UINT64_C(0x0c40800080004100), UINT64_C(0xa2018880024004a0), UINT64_C(0x0080848020004004),
    UINT64_C(0x1010410010200101), UINT64_C(0x2010008008008010), UINT64_C(0x0a08010004110008),
    UINT64_C(0x0802080104209040), UINT64_C(0x0080040090010802), UINT64_C(0x0280020000841069),
    UINT64_C(0x080c400080248000), UINT64_C(0x2048850100224008), UINT64_C(0x00200800c0300040),
    UINT64_C(0x11400d0100201000), UINT64_C(0x0041001100080204), UINT64_C(0x4802000200040810),
    UINT64_C(0x0100080c00103601), UINT64_C(0x0020084200043085), UINT64_C(0x0100804000800022),
    UINT64_C(0x0460401000402002), UINT64_C(0x8309002001001044), UINT64_C(0x0000800800801000),
    UINT64_C(0x0000800800800400), UINT64_C(0xb542040080800200), UINT64_C(0x1041000401000200),
    UINT64_C(0x000318b04a000401), UINT64_C(0x0280082000484000), UINT64_C(0x0080400081010030),
    UINT64_C(0x0010002000108080), UINT64_C(0x012010002101000a), UINT64_C(0x0801000408010012),
    UINT64_C(0x0004008002008004), UINT64_C(0x0ad1005200110014), UINT64_C(0x4000004110820004),
    UINT64_C(0x9400400080003080), UINT64_C(0x0000802200490200), UINT64_C(0x1521100080200280),
    UINT64_C(0x9021000824100100), UINT64_C(0x0081080080840280), UINT64_C(0x0002000904100200),
    UINT64_C(0x0130024801302400), UINT64_C(0x0102008100442200), UINT64_C(0x0080984063800101),
    UINT64_C(0x0016810201412812), UINT64_C(0x40200101603008c1), UINT64_C(0x2851100004082101),
    UINT64_C(0x1049001002880005), UINT64_C(0x0081000804000201), UINT64_C(0x100020901208410c),
    UINT64_C(0x0101064400813102),
};
static const df_bb df__bishop_magic[64] = {
    UINT64_C(0x24e0440c00802202), UINT64_C(0x00881808841a4500), UINT64_C(0x29c1021085004190),
    UINT64_C(0x18c4041080042020), UINT64_C(0x0841104000008108), UINT64_C(0x890828080880c088),
    UINT64_C(0x0006021024062018), UINT64_C(0x2000404044104040), UINT64_C(0x09000504104a0210),
    UINT64_C(0x0088390204040820), UINT64_C(0x4001420082008402), UINT64_C(0x028108048b001142),
    UINT64_C(0x1c00140421001008), UINT64_C(0x0008021212200400), UINT64_C(0x080000581a082004),
    UINT64_C(0x3000048208027204), UINT64_C(0x0120004044148482), UINT64_C(0x4021000808108090),
    UINT64_C(0x0084011808009452), UINT64_C(0x11c802242020e000), UINT64_C(0x0124002210140002),
    UINT64_C(0x4009008200420200), UINT64_C(0x0000830202100202), UINT64_C(0x9002042500420200),
    UINT64_C(0x0a60200004480210), UINT64_C(0x0402481020480080), UINT64_C(0x8001100101004200),
    UINT64_C(0x6240104004004080), UINT64_C(0x1124848014002000), UINT64_C(0x00180200204100a0),
    UINT64_C(0x8020890844880800), UINT64_C(0x0000802009040204), UINT64_C(0x0410042041100280),
    UINT64_C(0x0804022000020440), UINT64_C(0x2418280400480024), UINT64_C(0x0801080800420a00),
    UINT64_C(0x4002248400020020), UINT64_C(0x3020004102038084), UINT64_C(0x84280110601c0200),
    UINT64_C(0x2004004208088080), UINT64_C(0x0008022220041210), UINT64_C(0x00820e0120000440),
    UINT64_C(0x0002002201020822), UINT64_C(0x0000002019000804), UINT64_C(0x0211204c10101100),
    UINT64_C(0x0604808081001200), UINT64_C(0x1010029204030041), UINT64_C(0x1008090102110621),
    UINT64_C(0x0002015002100c00), UINT64_C(0x06002c040404400a), UINT64_C(0xc030002201100011),
    UINT64_C(0x4040008020884000), UINT64_C(0x0248000903040100), UINT64_C(0xc010092008008040),
    UINT64_C(0x6008084108020494), UINT64_C(0x28102182008e0042), UINT64_C(0x0010210820842002),
    UINT64_C(0x4080020111491002), UINT64_C(0x0108100084008800), UINT64_C(0x0022242100420221),
    UINT64_C(0x10a8008110020210), UINT64_C(0x400019122a900102), UINT64_C(0x00800a1051080300),
    UINT64_C(0x0420222088008080),
};

static df_bb df__magic_table[DF__ROOK_ENTRIES + DF__BISHOP_ENTRIES];
df__magic_square df__magic_rook[64], df__magic_bishop[64];

static inline df_bb df__rook(df_square sq, df_bb occ)
{
    return df__magic_lookup(&df__magic_rook[sq], occ);
}
static inline df_bb df__bishop(df_square sq, df_bb occ)
{
    return df__magic_lookup(&df__magic_bishop[sq], occ);
}

/* Fills sq's part of the table from next on; returns where the next square's part starts. */
static df_bb *df__magic_fill(df__magic_square *e, df_bb *next, df_square sq, bool orth)
{
    const df_bb mask = df__relevant(sq, orth);
    const unsigned bits = (unsigned)df_popcount(mask);
    *e = (df__magic_square){mask, orth ? df__rook_magic[sq] : df__bishop_magic[sq], next,
                            64u - bits};
    df_bb sub = 0;
    do {
        df_bb *slot = &next[(sub * e->magic) >> e->shift];
        const df_bb att = df__slow_attacks(sq, sub, orth);
        /* Attack sets are never empty: a non-zero slot was written before. */
        assert(*slot == 0 || *slot == att);
        *slot = att;
        sub = (sub - mask) & mask;
    } while (sub);
    return next + (UINT64_C(1) << bits);
}

static void df__magic_build(void)
{
    df_bb *next = df__magic_table;
    for (int s = 0; s < 64; s++) {
        next = df__magic_fill(&df__magic_rook[s], next, (df_square)s, true);
        next = df__magic_fill(&df__magic_bishop[s], next, (df_square)s, false);
    }
}

static void df__magic_init(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, df__magic_build);
}

#define DF__LOOKUP_SYMBOL    df__lookup_magic
#define DF__LOOKUP_NAME      "magic"
#define DF__LOOKUP_SUPPORTED df__cpu_always
#define DF__LOOKUP_INIT      df__magic_init
#define DF__LOOKUP_SLIDERS   DF__SLIDERS_MAGIC
#include "table_tpl.h"
