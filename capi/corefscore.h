/*
 * corefscore.h: the C ABI of the corefscore scoring engine.
 *
 * This hand-written header is the contract; the Go side (capi/*.go) follows
 * it. Rules that hold for every call:
 *   - The caller owns every buffer. The library reads input arrays and writes
 *     output buffers during the call only; it keeps no pointer past a call and
 *     hands out none.
 *   - Every call returns a status (CS_OK = 0). On any other status a
 *     NUL-terminated message is written into `err` (truncated to `err_len`
 *     bytes, NUL included) when `err` is not NULL and `err_len` > 0.
 *   - No call lets a Go panic escape: an internal error becomes CS_INTERNAL.
 *   - Calls may run concurrently from several threads.
 */
#ifndef COREFSCORE_H
#define COREFSCORE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Bumped on any incompatible change of this header. */
#define CS_ABI_VERSION 1

/* Status codes. */
#define CS_OK 0
#define CS_INVALID_INPUT 1    /* the input is malformed; the message says how */
#define CS_BUFFER_TOO_SMALL 2 /* an output buffer is too small; sizes were written */
#define CS_INTERNAL 3         /* a bug in the library */
#define CS_IO 4               /* a file could not be read */

/* Mention type codes (int8). */
#define CS_TYPE_UNKNOWN 0
#define CS_TYPE_NAME 1
#define CS_TYPE_NOMINAL 2
#define CS_TYPE_PRONOUN 3

/* The engine's options. A zeroed struct is the reference scorer's behaviour
 * with every metric and default weights. */
typedef struct {
    uint64_t metrics;       /* bit i = metric i of cs_columns' order; 0 = all */
    int32_t singletons;     /* 0 = keep, 1 = exclude one-mention clusters */
    int32_t duplicates;     /* 0 = keep first and report, 1 = refuse (CS_INVALID_INPUT) */
    int32_t workers;        /* worker threads; < 1 = number of CPUs */
    int32_t da_greedy;      /* 1 = DA's greedy correspondence instead of the optimal one */
    double link_weights[4]; /* (w_nam, w_nom, w_pro, w_sing); all 0 = default W4 */
    double da_weights[3];   /* (a, b, c); all 0 = default (0.6, 0.3, 0.1) */
} cs_options;

/* One side (key or response) of a batch of n_docs documents, CSR style:
 * the mentions of document d are at positions offsets[d] .. offsets[d+1]-1 of
 * the parallel arrays. offsets has n_docs + 1 entries, offsets[0] = 0,
 * non-decreasing, offsets[n_docs] = length. types may be NULL. */
typedef struct {
    const int64_t *offsets;
    const int64_t *mentions; /* mention ids: equal ids on both sides = same mention */
    const int64_t *clusters; /* cluster ids, >= 0 */
    const int8_t *types;     /* CS_TYPE_* per mention, or NULL */
    int64_t length;          /* entries in mentions, clusters (and types) */
} cs_side;

/* Size of one duplicate record in int64 values:
 * (document index, side (0 key, 1 response), mention id, first cluster, cluster). */
#define CS_DUPLICATE_FIELDS 5

/* The Go side includes this header for the types only (cgo's generated
 * prototypes drop const), so it defines CS_TYPES_ONLY. */
#ifndef CS_TYPES_ONLY

/* The ABI version the library implements (CS_ABI_VERSION). */
int32_t cs_abi_version(void);

/* Number of counts columns. */
int32_t cs_num_columns(void);

/* Writes the column names, separated by '\n' and NUL-terminated, into buf.
 * *needed receives the size needed, NUL included; CS_BUFFER_TOO_SMALL when
 * buf_len is less. Column names are "metric.count", e.g. "muc.recall_num";
 * metric i of cs_options.metrics is the i-th distinct metric prefix. */
int32_t cs_columns(char *buf, int64_t buf_len, int64_t *needed);

/* Scores n_docs documents into counts, a row-major float64 matrix of n_docs
 * rows and cs_num_columns() columns (counts_len = n_docs * columns).
 * names: optional '\n'-separated document names (NULL = none), used in
 * error messages. dups: room for dups_cap records of CS_DUPLICATE_FIELDS
 * int64 each; *n_dups receives the number of repeated mentions found (when it
 * exceeds dups_cap only the first dups_cap are written). */
int32_t cs_score_batch(int64_t n_docs, const cs_side *key, const cs_side *response,
                       const char *names, int64_t names_len, const cs_options *options,
                       double *counts, int64_t counts_len,
                       int64_t *dups, int64_t dups_cap, int64_t *n_dups,
                       char *err, int64_t err_len);

/* Reads a key file and a response file (format: "" to detect, or
 * "conll2012", "conllu", "jsonlines"), pairs documents by name and scores
 * them. Outputs, each with its capacity and the size needed:
 *   counts:   rows_cap rows of cs_num_columns() float64; *n_docs documents
 *   names:    '\n'-separated document names, NUL-terminated; *names_needed bytes
 *   dups:     as in cs_score_batch
 *   warnings: '\n'-separated messages, NUL-terminated; *warnings_needed bytes
 * When counts or names do not fit, nothing is scored into them and the call
 * returns CS_BUFFER_TOO_SMALL with *n_docs and *names_needed set: call again
 * with larger buffers. */
int32_t cs_score_files(const char *key_path, const char *response_path, const char *format,
                       const cs_options *options,
                       double *counts, int64_t rows_cap, int64_t *n_docs,
                       char *names, int64_t names_cap, int64_t *names_needed,
                       int64_t *dups, int64_t dups_cap, int64_t *n_dups,
                       char *warnings, int64_t warnings_cap, int64_t *warnings_needed,
                       char *err, int64_t err_len);

#endif /* CS_TYPES_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* COREFSCORE_H */
