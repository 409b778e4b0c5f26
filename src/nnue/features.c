/* SPDX-License-Identifier: MIT */
/* NNUE input sets (nnue.h): set names, sizes, and the dispatched per-position and batch
 * calls, the batch also on threads. The features themselves are nnue/features_tpl.h's. */
#include <string.h>

#include "backend.h"
#include "nnue/tables.h"
#include "services/threads.h"

/* By df_nnue_part: nnue-pytorch's names, inputs and row widths. */
static const struct {
    const char *name;
    uint32_t inputs, active;
} df__parts[DF_NNUE_PARTS] = {
    [DF_NNUE_HALFKAV2_HM] = {"HalfKAv2_hm", DF__NNUE_HALFKA_INPUTS, DF__NNUE_HALFKA_ACTIVE},
    [DF_NNUE_FULL_THREATS] = {"Full_Threats", DF__NNUE_THREAT_INPUTS, DF__NNUE_THREAT_ACTIVE},
    [DF_NNUE_PP_3WIDE] = {"PP_3Wide", DF__NNUE_PAIRS_INPUTS, DF__NNUE_PAIRS_ACTIVE},
};

/* 1 to 3 known parts, none twice. */
static bool df__set_valid(const df_nnue_set *set)
{
    if (!set || set->count < 1 || set->count > DF_NNUE_PARTS) return false;
    unsigned seen = 0;
    for (int i = 0; i < set->count; i++) {
        if (set->parts[i] >= DF_NNUE_PARTS || (seen >> set->parts[i]) & 1) return false;
        seen |= 1u << set->parts[i];
    }
    return true;
}

df_status df_nnue_set_parse(df_nnue_set *out, const char *name, size_t len)
{
    if (!out || !name) return DF_ERR_ARGUMENT;
    df_nnue_set set = {0, {0}};
    size_t start = 0;
    for (;;) {
        const char *plus = memchr(name + start, '+', len - start);
        const size_t end = plus ? (size_t)(plus - name) : len;
        /* nnue-pytorch's trainer names the factorised HalfKAv2_hm "HalfKAv2_hm^"; its loader
         * reads the plain set's inputs, as the trainer's Python hands it. */
        size_t part_end = end;
        if (part_end - start == sizeof "HalfKAv2_hm^" - 1 &&
            !memcmp(name + start, "HalfKAv2_hm^", part_end - start))
            part_end--;
        int found = -1;
        for (int p = 0; p < DF_NNUE_PARTS; p++)
            if (strlen(df__parts[p].name) == part_end - start &&
                memcmp(df__parts[p].name, name + start, part_end - start) == 0)
                found = p;
        if (found < 0 || set.count == DF_NNUE_PARTS) return DF_ERR_ARGUMENT;
        set.parts[set.count++] = (uint8_t)found;
        if (!df__set_valid(&set)) return DF_ERR_ARGUMENT; /* a part named twice */
        if (!plus) break;
        start = end + 1;
    }
    *out = set;
    return DF_OK;
}

size_t df_nnue_set_name(char *out, size_t size, const df_nnue_set *set)
{
    char name[DF_NNUE_SET_NAME_MAX] = "";
    size_t len = 0;
    for (int i = 0; df__set_valid(set) && i < set->count; i++) {
        const char *part = df__parts[set->parts[i]].name;
        if (i) name[len++] = '+';
        memcpy(name + len, part, strlen(part));
        len += strlen(part);
    }
    name[len] = '\0';
    if (out && size) {
        const size_t n = len < size ? len : size - 1;
        memcpy(out, name, n);
        out[n] = '\0';
    }
    return len;
}

/* The sum of a field of the set's parts; 0 for an invalid set. */
#define DF__SET_SUM(set, field)                                                                    \
    do {                                                                                           \
        uint32_t sum = 0;                                                                          \
        for (int i = 0; df__set_valid(set) && i < (set)->count; i++)                               \
            sum += df__parts[(set)->parts[i]].field;                                               \
        return sum;                                                                                \
    } while (0)

uint32_t df_nnue_set_inputs(const df_nnue_set *set) { DF__SET_SUM(set, inputs); }
uint32_t df_nnue_set_max_active(const df_nnue_set *set) { DF__SET_SUM(set, active); }

df_nnue_set df_nnue_set_default(void)
{
    return (df_nnue_set){3, {DF_NNUE_FULL_THREATS, DF_NNUE_PP_3WIDE, DF_NNUE_HALFKAV2_HM}};
}

size_t df_nnue_features(int32_t *out, size_t room, const df_board *b, df_color perspective,
                        const df_nnue_set *set)
{
    if (!b || (!out && room) || (unsigned)perspective >= DF_COLORS || !df__set_valid(set)) return 0;
    return df__backend_active()->nnue_features(out, room, b, perspective, set);
}

/* A batch: its boards, and where their rows go. */
typedef struct df__nnue_job {
    int32_t *white, *black;
    size_t width;
    const df_board *boards;
    const df_nnue_set *set;
} df__nnue_job;

/* Rows of positions [begin, end) of the batch; returns how many were cut. */
static size_t df__nnue_run(void *arg, size_t begin, size_t end)
{
    const df__nnue_job *j = arg;
    const size_t at = begin * j->width;
    return df__backend_active()->nnue_batch(j->white + at, j->black + at, j->width,
                                            j->boards + begin, end - begin, j->set);
}

size_t df_nnue_batch(int32_t *white, int32_t *black, size_t width, const df_board *boards, size_t n,
                     const df_nnue_set *set)
{
    return df_nnue_batch_mt(white, black, width, boards, n, set, 1);
}

/* Positions a thread takes at least: fewer cost more to start than they save. */
enum { DF__NNUE_GRAIN = 256 };

size_t df_nnue_batch_mt(int32_t *white, int32_t *black, size_t width, const df_board *boards,
                        size_t n, const df_nnue_set *set, unsigned threads)
{
    if (n == 0 || !white || !black || !boards) return 0;
    if (!df__set_valid(set)) {
        /* No features: every row is padding. */
        for (size_t i = 0; i < n * width; i++) white[i] = black[i] = -1;
        return 0;
    }
    df__nnue_job job = {white, black, width, boards, set};
    return df__parallel_for(n, DF__NNUE_GRAIN, threads, df__nnue_run, &job);
}
