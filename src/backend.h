/* Internal: the backend table. One static const instance per ISA (src/scalar, src/avx2),
 * a registry in priority order and an atomic pointer to the active one (dispatch.c). */
#ifndef DF_SRC_BACKEND_H
#define DF_SRC_BACKEND_H

#include <stdatomic.h>

#include "dirfill/board.h"
#include "dirfill/kernels.h"

typedef struct df__backend {
    const char *name;
    bool (*cpu_supports)(void);
    void (*slider_rays)(df_rays *out, df_bb orth, df_bb diag, df_bb empty);
    void (*slider_rays_both)(df_rays out[2], const df_bb orth[2], const df_bb diag[2],
                             const df_bb empty[2]);
    void (*xrays)(df_rays *out, const df_rays *rays, df_bb empty, df_bb blockers);
    void (*between_sliders_and_targets)(df_rays *out, df_bb orth, df_bb diag, df_bb targets,
                                        df_bb empty);
    void (*slider_rays_batch)(df_rays *out, const df_sliders *in, size_t n);
    void (*attack_map)(df_attack_map *out, const df_board *b, int color);
    void (*attack_maps)(df_attack_map out[2], const df_board *b);
    void (*attack_maps_batch)(df_attack_map *out, const df_board *boards, size_t n);
    void (*king_safety)(df_pins_checks *out, const df_board *b);
    void (*checks_and_pins)(df_pins_checks *out, const df_board *b);
    void (*attackers_to_all)(df_bb out[64], const df_board *b);
} df__backend;

extern const df__backend df__backend_scalar;
#ifdef DF_HAVE_AVX2
extern const df__backend df__backend_avx2;
#endif

/* cpu.c: compiled with baseline flags so detection never runs an instruction it tests for. */
bool df__cpu_has_avx2(void);
bool df__cpu_always(void);

/* dispatch.c */
const df__backend *df__backend_resolve(void);
/* Tests only: run every dispatched call through b (e.g. the SIMDe-emulated AVX2 build). */
void df__backend_force(const df__backend *b);

extern _Atomic(const df__backend *) df__active;

/** The active backend; resolved on first use. A plain load once resolved. */
static inline const df__backend *df__backend_active(void)
{
    const df__backend *b = atomic_load_explicit(&df__active, memory_order_acquire);
    return b ? b : df__backend_resolve();
}

#endif
