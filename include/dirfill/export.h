/* SPDX-License-Identifier: MIT */
/**
 * @file export.h
 * @brief DF_API: the mark of an exported function or table.
 */
#ifndef DIRFILL_EXPORT_H
#define DIRFILL_EXPORT_H

/** The library is built with hidden visibility; only what carries DF_API is exported. */
#if defined(__GNUC__) || defined(__clang__)
#define DF_API __attribute__((visibility("default")))
#else
#define DF_API
#endif

/** Marks a call kept under a former name: the compiler warns where it is used, with msg. */
#if defined(__GNUC__) || defined(__clang__)
#define DF_DEPRECATED(msg) __attribute__((deprecated(msg)))
#else
#define DF_DEPRECATED(msg)
#endif

#endif
