/*
 * corefscore.h: the C ABI of the corefscore scoring engine (version 2).
 *
 * This hand-written header is the contract; the library (capi/) follows it
 * and its entry points (capi/entry.c) are compiled against it. Rules that
 * hold for every call:
 *   - The caller owns every buffer; the library reads and writes them during
 *     the call only and hands out no pointer. Results that the caller cannot
 *     size in advance (file scoring) stay in the library behind an integer
 *     handle until taken or freed.
 *   - Every call returns a status (CS_OK = 0) and, on any other status, fills
 *     the caller's cs_error (when not NULL) with facts as fields: the caller
 *     builds its exception from them and shows `message`, never parses it.
 *   - No Go panic escapes, and a bad pointer within declared lengths becomes
 *     CS_INTERNAL, not a crash. Every length and capacity is checked.
 *   - Calls may run concurrently from several threads. The library does not
 *     survive fork(): in a process forked after it was loaded, every call
 *     returns at once (CS_INTERNAL; cs_num_columns and cs_column_metric -1),
 *     its message naming the spawn and forkserver start methods.
 */
#ifndef COREFSCORE_H
#define COREFSCORE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CS_ABI_VERSION 2

/* Status codes. */
#define CS_OK 0
#define CS_INVALID_INPUT 1    /* the input or an option is wrong; cs_error says where */
#define CS_BUFFER_TOO_SMALL 2 /* a caller buffer is smaller than the call's contract asks */
#define CS_INTERNAL 3         /* a bug in the library (or a bad pointer) */
#define CS_IO 4               /* a file could not be read */
#define CS_CANCELLED 5        /* the caller's cancel flag was set */

/* What is wrong (cs_error.kind), finer than the status. */
#define CS_ERR_NONE 0
#define CS_ERR_ARGUMENT 1      /* a bad call: NULL pointer, negative or overflowing length, bad offsets */
#define CS_ERR_OPTION 2        /* an option's name or value; cs_error.option is its index */
#define CS_ERR_MENTION 3       /* a mention, cluster id or type code is malformed */
#define CS_ERR_DUPLICATE 4     /* a repeated mention under duplicates=raise */
#define CS_ERR_MISSING_TYPES 5 /* a metric that reads mention types meets an untyped mention */
#define CS_ERR_PARSE 6         /* a file's content is malformed (cs_error.side, .line) */
#define CS_ERR_NOT_FOUND 7     /* a file does not exist (cs_error.side) */
#define CS_ERR_IO 8            /* another read error (permission, a directory, ...) */
#define CS_ERR_CANCELLED 9
#define CS_ERR_INTERNAL 10
#define CS_ERR_MISSING_HEADS 11 /* match=partial|head or a metric reading mention words (mor, zero) meets input without them */

/* Mention type codes (int8). */
#define CS_TYPE_UNKNOWN 0
#define CS_TYPE_NAME 1
#define CS_TYPE_NOMINAL 2
#define CS_TYPE_PRONOUN 3

#define CS_MESSAGE_LEN 512

/* An error, as facts. Fields that do not apply are -1 (line: 0). */
typedef struct {
    int32_t status;
    int32_t kind;      /* CS_ERR_* */
    int64_t doc;       /* document index: in the batch, or in the file's document order */
    int32_t side;      /* 0 key, 1 response (for files: the key or the response file) */
    int32_t option;    /* index of the offending option in cs_options_new's lists */
    int64_t mention;   /* the mention as the caller gave it: its index in the side's arrays */
    int64_t line;      /* 1-based line of the file, 0 = none */
    int64_t start;     /* the mention's first and last token (files), -1 = none */
    int64_t end;
    char message[CS_MESSAGE_LEN]; /* what is wrong, NUL-terminated; names no package */
} cs_error;

/* One side (key or response) of a batch of n_docs documents, CSR style: the
 * mentions of document d are entries offsets[d] .. offsets[d+1]-1 of the
 * parallel arrays. offsets has n_docs + 1 entries, offsets[0] = 0,
 * non-decreasing, offsets[n_docs] = length. types may be NULL. */
typedef struct {
    const int64_t *offsets;
    const int64_t *mentions; /* mention ids: equal ids on both sides = same mention */
    const int64_t *clusters; /* cluster ids, >= 0 */
    const int8_t *types;     /* CS_TYPE_* per mention, or NULL */
    int64_t length;          /* entries in mentions, clusters (and types) */
} cs_side;

/* Document names: name d is bytes[offsets[d] .. offsets[d+1]-1] (any bytes,
 * NUL and newline included); offsets has n_docs + 1 entries. */
typedef struct {
    const char *bytes;
    const int64_t *offsets;
} cs_names;

/* A repeated mention: the first occurrence is kept, this one is not. */
typedef struct {
    int64_t doc;
    int32_t side;          /* 0 key, 1 response */
    int32_t reserved;
    int64_t mention;       /* index in the side's arrays (batch), -1 for files */
    int64_t first_cluster; /* the kept occurrence's cluster */
    int64_t cluster;       /* this occurrence's cluster */
    int64_t line;          /* files: 1-based line where this occurrence closes, else 0 */
    int64_t start, end;    /* files: its first and last token, else -1 */
} cs_duplicate;

/* A warning about the input that did not stop scoring (e.g. a response-only
 * document, a coreference item that is not a number). */
#define CS_WARN_RESPONSE_ONLY 1 /* a response document with no key document */
#define CS_WARN_BAD_ITEM 2      /* a coreference item that is not a number was skipped */
#define CS_WARN_NAME_PAIRING 3  /* documents paired by a looser name rule */
#define CS_WARN_TYPES_SKIPPED 4 /* metrics that read types were left out: some mention is untyped */
#define CS_WARN_OTHER 100
typedef struct {
    int32_t kind;  /* CS_WARN_* */
    int32_t side;  /* -1, 0 key, 1 response */
    int64_t doc;   /* -1 or a document index */
    int64_t line;  /* 0 or a 1-based line */
    int64_t count; /* how many times this warning occurred (a repeated one is kept once) */
    char message[CS_MESSAGE_LEN];
} cs_warning;

/* What a scoring call produced besides the counts matrix. */
typedef struct {
    uint64_t applied;  /* bit i = metric i (cs_column_metric) was computed for every document */
    int64_t n_dups;    /* repeated mentions found (all of them; only the first dups_cap are written) */
    int64_t n_warnings;
} cs_report;

/* The Go side includes this header for the types only (cgo's generated
 * prototypes drop const), so it defines CS_TYPES_ONLY. */
#ifndef CS_TYPES_ONLY

/* The ABI version the library implements (CS_ABI_VERSION). */
int32_t cs_abi_version(void);

/* Counts columns: cs_num_columns() of them, named "metric.count" (e.g.
 * "muc.recall_num"). cs_column_name writes column i's name, NUL-terminated,
 * into buf; cs_column_metric returns the metric index of column i (the bit
 * of cs_report.applied and of the "metrics" option's order). */
int32_t cs_num_columns(void);
int32_t cs_column_name(int32_t i, char *buf, int64_t buf_len);
int32_t cs_column_metric(int32_t i);

/* Options: n (key, value) pairs of NUL-terminated strings, validated once
 * into an options handle (> 0) that later calls take; 0 means the defaults.
 * Keys are the Python keyword names; values are as a user types them, e.g.
 *   metrics=muc,bcub  singletons=keep|exclude  duplicates=warn|raise
 *   workers=4  link_weights=1,0.75,0.5,1  da_weights=0.6,0.3,0.1
 *   blanc_rule=key|either  da_greedy=false  types_given=true (the caller supplied mention types, so
 *   an untyped mention is an error rather than a reason to leave typed
 *   metrics out)  format=conll2012|conllu|jsonlines  clusters_field=NAME
 * A bad key or value: CS_INVALID_INPUT, kind CS_ERR_OPTION, option = its
 * index. Handles are freed by cs_options_free and may be shared by threads. */
int32_t cs_options_new(int32_t n, const char *const *keys, const char *const *values,
                       int64_t *handle, cs_error *err);
void cs_options_free(int64_t handle);

/* Scores n_docs documents into counts, a row-major float64 matrix of n_docs
 * rows and cs_num_columns() columns (counts_len = its number of cells).
 * names may be NULL. dups has room for dups_cap records; warnings for
 * warnings_cap. cancel may be NULL; while *cancel is non-zero the call stops
 * within 100 ms with CS_CANCELLED. */
int32_t cs_score_batch(int64_t n_docs, const cs_side *key, const cs_side *response,
                       const cs_names *names, int64_t options, const volatile int32_t *cancel,
                       double *counts, int64_t counts_len,
                       cs_duplicate *dups, int64_t dups_cap,
                       cs_warning *warnings, int64_t warnings_cap,
                       cs_report *report, cs_error *err);

/* Reads a key file and a response file (each parsed once), pairs documents by
 * name and scores them; the results stay in the library behind *result (a
 * handle > 0) and their sizes are written to *n_docs and *names_len. */
int32_t cs_score_files(const char *key_path, const char *response_path, int64_t options,
                       const volatile int32_t *cancel,
                       int64_t *result, int64_t *n_docs, int64_t *names_len,
                       cs_report *report, cs_error *err);

/* Copies a file result into caller buffers and frees it: counts (n_docs
 * rows), names (names_len bytes, no NUL) with name_offsets (n_docs + 1), the
 * first dups_cap repeated mentions and warnings_cap warnings. Any buffer may
 * be NULL with a zero capacity. CS_BUFFER_TOO_SMALL (the result is kept)
 * when counts, names or name_offsets is smaller than the sizes reported. */
int32_t cs_take_result(int64_t result, double *counts, int64_t counts_len,
                       char *names, int64_t names_len, int64_t *name_offsets, int64_t offsets_len,
                       cs_duplicate *dups, int64_t dups_cap,
                       cs_warning *warnings, int64_t warnings_cap, cs_error *err);

/* Frees a file result that will not be taken. */
void cs_free_result(int64_t result);

#endif /* CS_TYPES_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* COREFSCORE_H */
