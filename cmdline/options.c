/* SPDX-License-Identifier: MIT */
/* Option parsing, shared messages and the output check. */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "cmdline.h"

static void cmd_vmessage(const char *cmd, const char *fmt, va_list ap)
{
    fprintf(stderr, "dirfill%s%s: ", cmd ? " " : "", cmd ? cmd : "");
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
}

int cmd_usage_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cmd_vmessage(cmd, fmt, ap);
    va_end(ap);
    return EXIT_USAGE;
}

int cmd_input_error(const char *cmd, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cmd_vmessage(cmd, fmt, ap);
    va_end(ap);
    return EXIT_BAD_INPUT;
}

int cmd_open_error(const char *cmd, const char *path, df_status opened)
{
    const char *name = strcmp(path, "-") ? path : "standard input";
    if (opened == DF_ERR_UNSUPPORTED)
        return cmd_input_error(cmd, "%s: this build cannot decompress it (built without %s)", name,
                               strstr(path, ".gz") ? "zlib" : "libzstd");
    return cmd_input_error(cmd, "cannot open %s: %s", name, strerror(errno));
}

bool cmd_is(const char *arg, const char *name) { return strcmp(arg, name) == 0; }

int cmd_value(const char *cmd, int argc, char **argv, int *i, const char *name, const char **value)
{
    const char *a = argv[*i];
    const size_t n = strlen(name);
    if (strncmp(a, name, n) != 0) return 0;
    if (a[n] == '=') {
        *value = a + n + 1;
        return 1;
    }
    if (a[n] != 0) return 0;
    if (*i + 1 >= argc) return -cmd_usage_error(cmd, "%s needs a value", name);
    *value = argv[++*i];
    return 1;
}

int cmd_help_or_unknown(const char *cmd, const char *arg, const char *help)
{
    if (cmd_is(arg, "--help") || cmd_is(arg, "-h")) {
        fputs(help, stdout);
        return 0;
    }
    return cmd_usage_error(cmd, "unknown argument '%s' (see dirfill %s --help)", arg, cmd);
}

bool cmd_parse_count(const char *text, unsigned long min, unsigned long max, unsigned long *out)
{
    if (!*text || strlen(text) > 9) return false;
    unsigned long v = 0;
    for (const char *p = text; *p; p++) {
        if (*p < '0' || *p > '9') return false;
        v = v * 10 + (unsigned long)(*p - '0');
    }
    if (v < min || v > max) return false;
    *out = v;
    return true;
}

const char *cmd_backend_list(void)
{
    static char list[128];
    if (list[0]) return list;
    df_backend_info info;
    for (size_t i = 0; df_backend_info_at(i, &info); i++) {
        if (i) strncat(list, ", ", sizeof list - strlen(list) - 1);
        strncat(list, info.name, sizeof list - strlen(list) - 1);
    }
    return list;
}

int cmd_select_backend(const char *name, const char *source)
{
    switch (df_backend_select(name)) {
    case DF_OK:
        return 0;
    case DF_ERR_UNSUPPORTED_BACKEND:
        return cmd_usage_error(NULL, "this CPU cannot run the %s backend (%s)", name, source);
    default:
        return cmd_usage_error(NULL, "unknown backend '%s' (%s); choose one of %s, auto", name,
                               source, cmd_backend_list());
    }
}

int cmd_finish_output(int status)
{
    errno = 0;
    if (fflush(stdout) != 0 || ferror(stdout)) {
        const int e = errno;
        fprintf(stderr, "dirfill: cannot write standard output%s%s\n", e ? ": " : "",
                e ? strerror(e) : "");
        return EXIT_BAD_INPUT;
    }
    return status;
}
