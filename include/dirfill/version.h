/* SPDX-License-Identifier: MIT */
/**
 * @file version.h
 * @brief The version of the headers (macros) and of the linked library (df_version).
 *
 * While the major version is 0, a minor bump (0.x to 0.y) may change the API and the ABI;
 * a patch bump changes neither. The shared library's SONAME carries the minor version
 * (libdirfill.so.0.MINOR), and the CMake package accepts only the same minor version. This
 * header is the one place the version is written: CMake and the Python package read it.
 */
#ifndef DIRFILL_VERSION_H
#define DIRFILL_VERSION_H

#include "export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define DIRFILL_VERSION_MAJOR  0       /**< major version of these headers */
#define DIRFILL_VERSION_MINOR  5       /**< minor version of these headers */
#define DIRFILL_VERSION_PATCH  0       /**< patch version of these headers */
#define DIRFILL_VERSION_STRING "0.5.0" /**< the version of these headers as text */

/** The version of the library actually linked, as "MAJOR.MINOR.PATCH" in the form of
 *  DIRFILL_VERSION_STRING: compare the two to catch a header/library mismatch. Thread-safe. */
DF_API const char *df_version(void);

#ifdef __cplusplus
}
#endif
#endif
