/* SPDX-License-Identifier: MIT */
/* Internal: the backend table. One static const instance per ISA (src/scalar, src/avx2,
 * src/avx512), a registry in priority order and an atomic pointer to the active one
 * (dispatch.c). */
#ifndef DF_SRC_BACKEND_H
#define DF_SRC_BACKEND_H

#include <stdatomic.h>

#include "dirfill.h"

/* The dispatched entries, one line each: X(return type, name, parameters, arguments). The
 * table's fields, each backend's table and the resolving stubs are all made from it. */
#define DF__BACKEND_ENTRIES(X)                                                                     \
    X(void, slider_rays, (df_rays * out, df_bb orth, df_bb diag, df_bb empty),                     \
      (out, orth, diag, empty))                                                                    \
    X(void, slider_rays_both, (df_rays out[2], const df_sliders in[2]), (out, in))                 \
    X(void, slider_rays_batch, (df_rays * out, const df_sliders *in, size_t n), (out, in, n))      \
    X(void, xrays, (df_rays * out, const df_rays *rays, df_bb empty, df_bb blockers),              \
      (out, rays, empty, blockers))                                                                \
    X(void, between_sliders_and_targets,                                                           \
      (df_rays * out, df_bb orth, df_bb diag, df_bb targets, df_bb empty),                         \
      (out, orth, diag, targets, empty))                                                           \
    X(void, attack_map, (df_attack_map * out, const df_board *b, df_color color), (out, b, color)) \
    X(void, attack_maps, (df_attack_map out[2], const df_board *b), (out, b))                      \
    X(void, attack_maps_batch, (df_attack_map * out, const df_board *boards, size_t n),            \
      (out, boards, n))                                                                            \
    X(void, king_safety, (df_king_safety_sets * out, const df_board *b), (out, b))                 \
    X(void, checks_and_pins, (df_king_safety_sets * out, const df_board *b), (out, b))             \
    X(void, attackers_to_all, (df_bb out[64], const df_board *b), (out, b))                        \
    X(void, generate, (const df_board *b, unsigned kinds, df_move_list *out), (b, kinds, out))     \
    X(uint64_t, count_legal, (const df_board *b), (b))                                             \
    X(uint64_t, perft, (const df_board *b, int depth), (b, depth))                                 \
    X(int, see, (const df_board *b, df_move m), (b, m))                                            \
    X(void, attack_planes, (uint8_t * out, const df_board *boards, size_t n), (out, boards, n))    \
    X(size_t, nnue_features,                                                                       \
      (int32_t * out, size_t room, const df_board *b, df_color persp, const df_nnue_set *set),     \
      (out, room, b, persp, set))                                                                  \
    X(size_t, nnue_batch,                                                                          \
      (int32_t * white, int32_t * black, size_t width, const df_board *boards, size_t n,           \
       const df_nnue_set *set),                                                                    \
      (white, black, width, boards, n, set))                                                       \
    X(size_t, pgn_skim, (const char *p, const char *end, bool line_start, uint64_t *line),         \
      (p, end, line_start, line))

typedef struct df__backend {
    const char *name;
    bool (*cpu_supports)(void);
#define DF__FIELD(ret, fn, params, args) ret(*fn) params;
    DF__BACKEND_ENTRIES(DF__FIELD)
#undef DF__FIELD
} df__backend;

/* Which moves the generator lists (the kinds argument). */
enum { DF__GEN_CAPTURES = 1, DF__GEN_QUIETS = 2, DF__GEN_ALL = 3 };

extern const df__backend df__backend_scalar;
#ifdef DF_HAVE_SCALAR_POPCNT
extern const df__backend df__backend_scalar_popcnt;
#endif
#ifdef DF_HAVE_AVX2
extern const df__backend df__backend_avx2;
#endif
#ifdef DF_HAVE_AVX512
extern const df__backend df__backend_avx512;
#endif

/* cpu.c: compiled with baseline flags so detection never runs an instruction it tests for. */
bool df__cpu_has_popcnt(void);
bool df__cpu_has_avx2(void);
bool df__cpu_has_avx512(void);
bool df__cpu_always(void);
/* What the rule needs to know of a CPU: its vendor, its family as cpuid displays it
 * (base family plus extended family), and whether it has BMI2. */
typedef enum { DF__VENDOR_OTHER, DF__VENDOR_INTEL, DF__VENDOR_AMD } df__cpu_vendor;
typedef struct df__cpu_desc {
    df__cpu_vendor vendor;
    unsigned family;
    bool bmi2;
} df__cpu_desc;

/* This CPU (cpu.c). */
df__cpu_desc df__cpu_describe(void);
/* The rule behind the vector backends' checks, on the values of CPUID.1:ECX, CPUID.(7,0):EBX
 * and XCR0: the backend's features and the vector states the OS saves for them, POPCNT,
 * OSXSAVE, AVX, BMI1 and BMI2. */
typedef enum { DF__ISA_AVX2, DF__ISA_AVX512, DF__VECTOR_ISAS } df__vector_isa;
bool df__cpu_rule(unsigned ecx1, unsigned ebx7, unsigned xcr0, df__vector_isa isa);

/* Whether the AVX-512 backend counts moves with VPOPCNTDQ (vpopcntq, eight popcounts in one
 * instruction): only on a CPU that has it besides AVX-512 F and VL (Ice Lake and later, Zen 4
 * and later; Skylake-X and Cascade Lake have AVX-512 without it). The rule, a pure function
 * of what the CPU has; this CPU's answer, found once (cpu.c) and read by every count. */
bool df__vpopcnt_rule(bool avx512, bool vpopcntdq);
extern _Atomic int df__vpopcnt_state; /* -1 until found, then 0 or 1 */
bool df__vpopcnt_resolve(void);
static inline bool df__vpopcnt(void)
{
    const int v = atomic_load_explicit(&df__vpopcnt_state, memory_order_relaxed);
    return v >= 0 ? v != 0 : df__vpopcnt_resolve();
}
/* The tests' way to run the AVX-512 backend's counting without it on a CPU that has it. */
void df__vpopcnt_force(bool on);

/* dispatch.c. The active table starts as a resolver whose every entry picks the backend,
 * installs it and forwards the call (zlib-ng's self-resolving function table): a dispatched
 * call is one relaxed load and one indirect call, with no test. The tables are constant
 * from program start, so the load needs no ordering. */
extern _Atomic(const df__backend *) df__active;
static inline const df__backend *df__backend_active(void)
{
    return atomic_load_explicit(&df__active, memory_order_relaxed);
}
/* The backend resolved from DIRFILL_BACKEND (installed on first use). */
const df__backend *df__backend_resolve(void);
/* Every backend compiled into this library, best first (the registry), each name once. */
const df__backend *const *df__backend_registry(size_t *count);
/* Runs every later dispatched call through b: df_backend_select's last step, and the tests'
 * way to run an emulated build that the registry does not list. */
void df__backend_force(const df__backend *b);

#endif
