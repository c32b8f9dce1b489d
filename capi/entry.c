// entry.c: the library's public entry points, as corefscore.h declares
// them. Each checks that it runs in the process that loaded the library and
// then calls its Go implementation (csgo_*, exports.go). A Go runtime does
// not survive fork(): in a child process, entering Go can wait forever on a
// lock held by a thread that the child does not have. So a child's call
// returns at once instead: CS_INTERNAL with a cs_error that says why and
// names the spawn and forkserver start methods; cs_free does nothing.
//
// The header is included with its prototypes, so the compiler checks every
// definition below against the contract, and then cgo's _cgo_export.h, so
// it checks every call of a Go implementation against the declaration cgo
// generated from exports.go: no declaration is written twice.

#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "corefscore.h"
#include "_cgo_export.h"

static pid_t loaded_pid;

__attribute__((constructor)) static void record_pid(void) { loaded_pid = getpid(); }

// forked reports whether this is a child of the process that loaded the
// library, filling err (when not NULL) if so.
static int forked(cs_error *err) {
    if (getpid() == loaded_pid) {
        return 0;
    }
    if (err != NULL) {
        static const char msg[] =
            "the library was loaded before fork() and cannot run in the child process: "
            "start worker processes with the spawn or forkserver method instead of fork";
        memset(err, 0, sizeof *err);
        err->status = CS_INTERNAL;
        err->kind = CS_ERR_INTERNAL;
        err->doc = -1;
        err->side = -1;
        err->option = -1;
        err->mention = -1;
        err->start = -1;
        err->end = -1;
        memcpy(err->message, msg, sizeof msg < CS_MESSAGE_LEN ? sizeof msg : CS_MESSAGE_LEN - 1);
    }
    return 1;
}

int32_t cs_abi_version(void) { return forked(NULL) ? CS_ABI_VERSION : csgo_abi_version(); }

int32_t cs_columns(char *names, int64_t names_len, int32_t *metrics, int64_t metrics_len, int64_t *n,
                   int64_t *names_needed) {
    return forked(NULL) ? CS_INTERNAL : csgo_columns(names, names_len, metrics, metrics_len, n, names_needed);
}

int32_t cs_options_new(int32_t n, const char *const *keys, const char *const *values, int64_t *handle,
                       cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_options_new(n, (char **)keys, (char **)values, handle, err);
}

void cs_free(int64_t handle) {
    if (!forked(NULL)) {
        csgo_free(handle);
    }
}

int32_t cs_score_batch(int64_t n_docs, const cs_side *key, const cs_side *response, const cs_names *names,
                       int64_t options, const volatile int32_t *cancel, double *counts, int64_t counts_len,
                       cs_duplicate *dups, int64_t dups_cap, cs_warning *warnings, int64_t warnings_cap,
                       cs_report *report, cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_score_batch(n_docs, (cs_side *)key, (cs_side *)response, (cs_names *)names, options,
                            (int32_t *)cancel, counts, counts_len, dups, dups_cap, warnings, warnings_cap,
                            report, err);
}

int32_t cs_pack_spans(const int64_t *spans, int64_t n, int64_t *ids, cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_pack_spans((int64_t *)spans, n, ids, err);
}

int32_t cs_spans_from_marshal(const uint8_t *data, int64_t size, int64_t n_mentions, int64_t *out,
                              int64_t out_len, int64_t *n_key, cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_spans_from_marshal((uint8_t *)data, size, n_mentions, out, out_len, n_key, err);
}

int32_t cs_score_files(const char *key_path, const char *response_path, int64_t options,
                       const volatile int32_t *cancel, cs_files_result *out, cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_score_files((char *)key_path, (char *)response_path, options, (int32_t *)cancel, out, err);
}

int32_t cs_take_result(int64_t result, double *counts, int64_t counts_len, char *names, int64_t names_len,
                       int64_t *name_offsets, int64_t offsets_len, cs_duplicate *dups, int64_t dups_cap,
                       cs_warning *warnings, int64_t warnings_cap, cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_take_result(result, counts, counts_len, names, names_len, name_offsets, offsets_len, dups,
                            dups_cap, warnings, warnings_cap, err);
}

int32_t cs_take_analysis(int64_t result, const cs_analysis_buffers *buffers, cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_take_analysis(result, (cs_analysis_buffers *)buffers, err);
}

int32_t cs_take_documents(int64_t result, const cs_documents_buffers *buffers, cs_error *err) {
    if (forked(err)) {
        return CS_INTERNAL;
    }
    return csgo_take_documents(result, (cs_documents_buffers *)buffers, err);
}
