/* dirfill — symbol export and portability macros shared by every public header. */
#ifndef DIRFILL_EXPORT_H
#define DIRFILL_EXPORT_H

/* The library is built with hidden visibility; only what carries DF_API is exported. */
#if defined(_WIN32) && defined(DF_SHARED_BUILD)
#define DF_API __declspec(dllexport)
#elif defined(__GNUC__) || defined(__clang__)
#define DF_API __attribute__((visibility("default")))
#else
#define DF_API
#endif

/* 32-byte alignment lets the AVX2 backend load and store a df_rays with aligned moves. */
#ifdef __cplusplus
#define DF_ALIGN32             alignas(32)
#define DF_STATIC_ASSERT(c, m) static_assert(c, m)
#else
#define DF_ALIGN32             _Alignas(32)
#define DF_STATIC_ASSERT(c, m) _Static_assert(c, m)
#endif

#endif
