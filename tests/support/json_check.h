/* SPDX-License-Identifier: MIT */
/* A small JSON checker for the program's output: validates a document and finds values
 * by a dotted path ("white.rays.NE"). Enough for tests; not a general parser. */
#ifndef DFT_JSON_CHECK_H
#define DFT_JSON_CHECK_H

#include <stdbool.h>
#include <stddef.h>

/* True when s[0..len) is exactly one JSON value (white space around allowed). */
bool json_valid(const char *s, size_t len);
/* Start of the value at path inside the document, or NULL. Sets *vlen to its length. */
const char *json_find(const char *s, size_t len, const char *path, size_t *vlen);
/* The string value at path (unescaped for plain ASCII) copied into out, or false. */
bool json_string_at(const char *s, size_t len, const char *path, char *out, size_t size);

#endif
