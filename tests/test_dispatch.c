/* SPDX-License-Identifier: MIT */
#define _POSIX_C_SOURCE 200809L
/* Backend registry, selection, DIRFILL_BACKEND resolution and the first-call race. This
 * executable never selects a backend before the race: the first resolution happens there. */
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "dft.h"
#include "reference.h"

enum { THREADS = 16 };
/* A spinning start line: every thread waits until all are running, then all make their
 * first call at once. */
static atomic_int ready;
static df_bb inputs[THREADS][3];
static df_rays results[THREADS];
static const char *seen[THREADS];

static void *first_call(void *arg)
{
    int t = (int)(intptr_t)arg;
    atomic_fetch_add(&ready, 1);
    while (atomic_load(&ready) < THREADS) sched_yield();
    df_slider_rays(&results[t], inputs[t][0], inputs[t][1], inputs[t][2]);
    seen[t] = df_backend_name();
    return NULL;
}

/* Must run first: 16 threads make the library's first dispatched call at once. */
static void test_first_call_race(void **state)
{
    (void)state;
    if (getenv("DFT_NO_THREADS")) {
        /* The aarch64 preset under qemu-user: pthread_create never returns there. */
        print_message("skipped: DFT_NO_THREADS is set (no threads under this emulator)\n");
        skip();
    }
    pthread_t th[THREADS];
    for (int t = 0; t < THREADS; t++) {
        inputs[t][0] = dft_rand_bb();
        inputs[t][1] = dft_rand_bb();
        inputs[t][2] = dft_rand_bb() & ~(inputs[t][0] | inputs[t][1]);
        assert_int_equal(0, pthread_create(&th[t], NULL, first_call, (void *)(intptr_t)t));
    }
    for (int t = 0; t < THREADS; t++) pthread_join(th[t], NULL);
    for (int t = 0; t < THREADS; t++) {
        assert_ptr_equal(seen[0], seen[t]);
        for (int d = 0; d < 8; d++)
            DFT_ASSERT_BB(ref_ray_attacks(inputs[t][d & 1], inputs[t][2], d), results[t].r[d],
                          "thread %d direction %d", t, d);
    }
}

static const char *best_supported(void)
{
    df_backend_info info;
    for (size_t i = 0; df_backend_info_at(i, &info); i++)
        if (info.supported) return info.name;
    return NULL;
}

/* What DIRFILL_BACKEND asked for is used when it is supported; anything else falls back. */
static void test_environment_resolution(void **state)
{
    (void)state;
    const char *env = getenv("DIRFILL_BACKEND"), *expect = best_supported();
    df_backend_info info;
    for (size_t i = 0; env && df_backend_info_at(i, &info); i++)
        if (strcmp(info.name, env) == 0 && info.supported) expect = info.name;
    print_message("DIRFILL_BACKEND=%s resolved to %s\n", env ? env : "(unset)", df_backend_name());
    assert_string_equal(expect, df_backend_name());
}

/* df_backend_env_status names what became of the variable: honoured, or ignored and why. */
static void test_environment_status(void **state)
{
    (void)state;
    const char *env = getenv("DIRFILL_BACKEND");
    df_status expect = DF_OK;
    if (env && *env && strcmp(env, "auto") != 0) {
        expect = DF_ERR_UNKNOWN_BACKEND;
        df_backend_info info;
        for (size_t i = 0; df_backend_info_at(i, &info); i++)
            if (strcmp(info.name, env) == 0)
                expect = info.supported ? DF_OK : DF_ERR_UNSUPPORTED_BACKEND;
    }
    print_message("DIRFILL_BACKEND=%s: %s\n", env ? env : "(unset)",
                  df_status_string(df_backend_env_status()));
    assert_int_equal(expect, df_backend_env_status());
}

static void test_registry(void **state)
{
    (void)state;
    size_t n = df_backend_count();
    assert_true(n >= 1);
    df_backend_info info, other;
    bool scalar = false;
    for (size_t i = 0; i < n; i++) {
        assert_true(df_backend_info_at(i, &info));
        assert_non_null(info.name);
        for (size_t j = 0; j < i; j++) {
            assert_true(df_backend_info_at(j, &other));
            assert_string_not_equal(info.name, other.name);
        }
        if (strcmp(info.name, "scalar") == 0) scalar = info.supported;
    }
    assert_true(scalar);
    assert_false(df_backend_info_at(n, &info));
    assert_false(df_backend_info_at(0, NULL));
}

static void test_select(void **state)
{
    (void)state;
    assert_int_equal(DF_ERR_UNKNOWN_BACKEND, df_backend_select("avx1024"));
    assert_int_equal(DF_ERR_UNKNOWN_BACKEND, df_backend_select("avx2emu")); /* tests only */
    assert_int_equal(DF_ERR_UNKNOWN_BACKEND, df_backend_select(""));
    assert_int_equal(DF_ERR_UNKNOWN_BACKEND, df_backend_select(NULL));
    df_backend_info info;
    for (size_t i = 0; df_backend_info_at(i, &info); i++) {
        const char *before = df_backend_name();
        df_status s = df_backend_select(info.name);
        if (info.supported) {
            assert_int_equal(DF_OK, s);
            assert_string_equal(info.name, df_backend_name());
        } else {
            assert_int_equal(DF_ERR_UNSUPPORTED_BACKEND, s);
            assert_string_equal(before, df_backend_name());
        }
    }
    assert_int_equal(DF_OK, df_backend_select("auto"));
    assert_string_equal(best_supported(), df_backend_name());
}

/* The library's rule for the AVX-512 backend's counting (src/backend.h, internal). */
bool df__vpopcnt_rule(bool avx512, bool vpopcntdq);
bool df__vpopcnt_resolve(void);

/* vpopcntq only where the CPU has VPOPCNTDQ besides AVX-512: described CPUs, both ways. */
static void test_vpopcnt_rule(void **state)
{
    (void)state;
    static const struct {
        const char *cpu;
        bool avx512, vpopcntdq, used;
    } cpus[] = {
        {"Skylake-X / Cascade Lake (AVX-512 without VPOPCNTDQ)", true, false, false},
        {"Ice Lake, Sapphire Rapids, Zen 4, Zen 5", true, true, true},
        {"Zen 3, Haswell (no AVX-512)", false, false, false},
        {"VPOPCNTDQ with AVX-512 state not saved by the OS", false, true, false},
    };
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
        if (df__vpopcnt_rule(cpus[i].avx512, cpus[i].vpopcntdq) != cpus[i].used)
            fail_msg("%s: vpopcntq %s", cpus[i].cpu, cpus[i].used ? "not used" : "used");
    print_message("this CPU: vpopcntq %s\n", df__vpopcnt_resolve() ? "used" : "not used");
}

/* The rule for the vector backends (src/backend.h, internal), on CPUs described by their CPUID
 * and XCR0 bits: an AVX2 CPU without BMI2 (the backends use shlx and friends) or BMI1 gets
 * none, nor one whose OS does not save the vector state. */
typedef enum { DF__ISA_AVX2, DF__ISA_AVX512 } df__vector_isa;
bool df__cpu_rule(unsigned ecx1, unsigned ebx7, unsigned xcr0, df__vector_isa isa);

static void test_cpu_rule(void **state)
{
    (void)state;
    enum { ECX1 = 1u << 1 | 1u << 23 | 1u << 27 | 1u << 28 }; /* PCLMULQDQ, POPCNT, OSXSAVE, AVX */
    const unsigned bmi = 1u << 3 | 1u << 8, avx2 = 1u << 5, xcr0_avx = 1u << 1 | 1u << 2,
                   bw = 1u << 30, avx512 = avx2 | 1u << 16 | bw | 1u << 31 /* F, BW, VL */,
                   xcr0_512 = xcr0_avx | 7u << 5;
    static const char *const names[] = {"avx2", "avx512"};
    const struct {
        const char *cpu;
        unsigned ecx1, ebx7, xcr0;
        bool want[2]; /* avx2, avx512 */
    } cpus[] = {
        {"Haswell, Zen 1-3", ECX1, avx2 | bmi, xcr0_avx, {true, false}},
        {"Skylake-X, Zen 4, Zen 5", ECX1, avx512 | bmi, xcr0_512, {true, true}},
        {"AVX2 without BMI2", ECX1, avx2 | (1u << 3), xcr0_avx, {false, false}},
        {"AVX2 without BMI1", ECX1, avx2 | (1u << 8), xcr0_avx, {false, false}},
        {"AVX-512 F and VL without BW", ECX1, (avx512 & ~bw) | bmi, xcr0_512, {true, false}},
        {"AVX-512 but no PCLMULQDQ", ECX1 & ~(1u << 1), avx512 | bmi, xcr0_512, {false, false}},
        {"AVX-512 with the OS saving only YMM", ECX1, avx512 | bmi, xcr0_avx, {true, false}},
        {"AVX2, the OS saving no AVX state", ECX1, avx2 | bmi, 1u << 1, {false, false}},
        {"no POPCNT", ECX1 & ~(1u << 23), avx2 | bmi, xcr0_avx, {false, false}},
    };
    for (size_t i = 0; i < sizeof cpus / sizeof cpus[0]; i++)
        for (int k = 0; k < 2; k++) {
            const bool got = df__cpu_rule(cpus[i].ecx1, cpus[i].ebx7, cpus[i].xcr0,
                                          k ? DF__ISA_AVX512 : DF__ISA_AVX2);
            if (got != cpus[i].want[k])
                fail_msg("%s: %s %s", cpus[i].cpu, names[k], got ? "picked" : "refused");
        }
}

int main(void)
{
    dft_srand(dft_seed);
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_first_call_race),
        cmocka_unit_test(test_environment_resolution),
        cmocka_unit_test(test_environment_status),
        cmocka_unit_test(test_registry),
        cmocka_unit_test(test_select),
        cmocka_unit_test(test_vpopcnt_rule),
        cmocka_unit_test(test_cpu_rule),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
