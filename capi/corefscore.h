/*
 * corefscore.h: the C ABI of the corefscore scoring engine (version 4).
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
 *     returns at once (CS_INTERNAL), its message naming the spawn and
 *     forkserver start methods.
 *   - A new need is an option (cs_options_new), not a new function: the
 *     scoring calls' outputs (scores, an error analysis, a file's documents)
 *     are chosen by the "outputs" option.
 */
#ifndef COREFSCORE_H
#define COREFSCORE_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CS_ABI_VERSION 4

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


/* Error categories (cs_error_record.category): the seven of Kummerfeld &
 * Klein (2013), then the link errors of Martschat & Strube (2014). */
#define CS_CAT_SPAN_ERROR 1
#define CS_CAT_CONFLATED_ENTITIES 2
#define CS_CAT_EXTRA_MENTION 3
#define CS_CAT_EXTRA_ENTITY 4
#define CS_CAT_DIVIDED_ENTITY 5
#define CS_CAT_MISSING_MENTION 6
#define CS_CAT_MISSING_ENTITY 7
#define CS_CAT_RECALL_ERROR 8
#define CS_CAT_PRECISION_ERROR 9

/* One error of an analysis. Its mentions (mention ids: the caller's for a
 * batch, packed spans start << 32 | end for files), key entities and
 * response entities (cluster ids; -1 in a link error for a mention absent
 * from that side) are entries mention_offsets[r] .. mention_offsets[r+1]-1
 * (and likewise key_offsets, response_offsets) of the flat arrays of
 * cs_analysis_buffers. */
typedef struct {
    int64_t doc;       /* document index */
    int64_t anchor;    /* a mention id of the part that stays or is joined, when has_anchor */
    int8_t category;   /* CS_CAT_* */
    int8_t has_anchor; /* 0 or 1 */
    int8_t types[2];   /* link errors: the anaphor's and antecedent's CS_TYPE_* */
    int32_t reserved;
} cs_error_record;

/* The sizes of an analysis result, to allocate cs_analysis_buffers. */
typedef struct {
    int64_t n_docs;
    int64_t names_len;           /* bytes of all document names */
    int64_t n_records;
    int64_t n_mentions;          /* entries of all records' mention lists */
    int64_t n_key_entities;
    int64_t n_response_entities;
    int64_t n_warnings;
} cs_analysis_sizes;

/* What a scoring call produced besides the counts matrix. */
typedef struct {
    uint64_t applied;  /* bit i = metric i (cs_columns) was computed for every document */
    int64_t n_dups;    /* repeated mentions found (all of them; only the first dups_cap are written) */
    int64_t n_warnings;
    int64_t analysis;  /* outputs=analysis: the error analysis's handle (> 0; cs_take_analysis), else 0 */
    cs_analysis_sizes analysis_sizes;
} cs_report;

/* The caller's buffers for cs_take_analysis. Each *_len is the capacity of
 * its array in elements; the offsets arrays have one entry more than their
 * capacity says (name_offsets docs_len + 1, the record offsets records_len
 * + 1). Any array may be NULL with a zero capacity. */
typedef struct {
    char *names;
    int64_t names_len;
    int64_t *name_offsets;
    int64_t docs_len;
    cs_error_record *records;
    int64_t *mention_offsets;
    int64_t *key_offsets;
    int64_t *response_offsets;
    int64_t records_len;
    int64_t *mentions;
    int64_t mentions_len;
    int64_t *key_entities;
    int64_t key_entities_len;
    int64_t *response_entities;
    int64_t response_entities_len;
    cs_warning *warnings;
    int64_t warnings_cap;
} cs_analysis_buffers;

/* One mention of a document read by cs_score_files (outputs=key_documents or response_documents). */
typedef struct {
    int64_t start;   /* first token (0-based, counted across the document) */
    int64_t end;     /* last token, inclusive */
    int64_t cluster; /* the document's entity index, in order of first sight */
    int32_t type;    /* CS_TYPE_* */
    int32_t line;    /* 1-based line where the mention closes, 0 = unknown */
} cs_doc_mention;

/* The sizes of a documents result. */
typedef struct {
    int64_t n_docs;
    int64_t names_len;
    int64_t n_mentions;
    int64_t n_words;    /* 0 for a document whose words are unknown */
    int64_t words_len;  /* bytes of all words */
    int64_t n_sentences;
} cs_documents_sizes;

/* The caller's buffers for cs_take_documents: name_offsets, mention_offsets,
 * word_docs and sentence_docs have docs_len + 1 entries each (document d's
 * mentions are mention_offsets[d] .. [d+1]-1, its words word_docs[d] ..
 * [d+1]-1, its sentences sentence_docs[d] .. [d+1]-1); word w is bytes
 * word_offsets[w] .. word_offsets[w+1]-1 of words (word_offsets has
 * n_words_len + 1 entries); sentence_ends[s] is the index, within its
 * document, after the sentence's last word. */
typedef struct {
    char *names;
    int64_t names_len;
    int64_t *name_offsets;
    int64_t *mention_offsets;
    int64_t *word_docs;
    int64_t *sentence_docs;
    int64_t docs_len;
    cs_doc_mention *mentions;
    int64_t mentions_len;
    char *words;
    int64_t words_len;
    int64_t *word_offsets;
    int64_t n_words_len;
    int64_t *sentence_ends;
    int64_t sentences_len;
} cs_documents_buffers;

/* What cs_score_files returns: each output the "outputs" option asks for
 * behind a handle (> 0) that cs_take_result, cs_take_analysis (through
 * report.analysis) or cs_take_documents takes, or cs_free frees, with the
 * sizes that call needs; 0 for an output not asked for. */
typedef struct {
    int64_t scores;                     /* cs_take_result */
    int64_t n_docs;                     /* the scores' sizes */
    int64_t names_len;
    cs_report report;                   /* the scores' report, and the analysis */
    int64_t key_documents;              /* cs_take_documents; with words */
    cs_documents_sizes key_sizes;
    int64_t response_documents;         /* without words (n_words 0) */
    cs_documents_sizes response_sizes;
} cs_files_result;

/* The Go side includes this header for the types only (cgo's generated
 * prototypes drop const), so it defines CS_TYPES_ONLY. */
#ifndef CS_TYPES_ONLY

/* The ABI version the library implements (CS_ABI_VERSION). */
int32_t cs_abi_version(void);

/* Counts columns, named "metric.count" (e.g. "muc.recall_num"). Writes
 * their number to *n and the bytes their names need to *names_needed; when
 * names_len and metrics_len suffice, writes the names, each NUL-terminated,
 * back to back into names, and each column's metric index (the bit of
 * cs_report.applied and of the "metrics" option's order) into metrics.
 * Too small: CS_BUFFER_TOO_SMALL (the sizes are still written). */
int32_t cs_columns(char *names, int64_t names_len, int32_t *metrics, int64_t metrics_len, int64_t *n,
                   int64_t *names_needed);

/* Options: n (key, value) pairs of NUL-terminated strings, validated once
 * into an options handle (> 0) that later calls take; 0 means the defaults.
 * Keys are the Python keyword names; values are as a user types them, e.g.
 *   metrics=muc,bcub  singletons=keep|exclude  duplicates=warn|raise
 *   workers=4  link_weights=1,0.75,0.5,1  da_weights=0.6,0.3,0.1
 *   blanc_rule=key|either  da_greedy=false  types_given=true (the caller supplied mention types, so
 *   an untyped mention is an error rather than a reason to leave typed
 *   metrics out)  format=conll2012|conllu|jsonlines  clusters_field=NAME
 *   span_mentions=true (mention ids are packed spans start << 32 | end: the
 *   batch calls refuse any other id with CS_ERR_MENTION naming it)
 *   outputs=scores,analysis,key_documents,response_documents (what a
 *   scoring call produces; default scores. key_documents and
 *   response_documents: cs_score_files only, the key's with its words)
 *   analysis=kk,ms (the analyses outputs=analysis runs; default both)
 *   words_limit=N (key_documents: only the key file's first words are
 *   kept, at most N bytes of them in file order, so that a caller showing
 *   a part of a huge file does not hold all of it; a document cut by the
 *   limit has its first words in word_docs, possibly none, while its
 *   sentence_ends still cover it whole, the last being its number of
 *   words; default all)
 *   input=arrays|marshal (how cs_score_batch takes its documents; default
 *   arrays, the cs_side arrays. marshal: one document (n_docs = 1) given as
 *   the bytes cs_spans_from_marshal reads, key->mentions pointing at them
 *   and key->length their count; response may be NULL. The Python per-call
 *   path's one crossing: reading and scoring in one call saves a second
 *   call's cost, a third of the whole on a small document. Mention indices
 *   in errors and duplicate records then count the mentions in the order
 *   the data lists them, key first)
 * A bad key or value: CS_INVALID_INPUT, kind CS_ERR_OPTION, option = its
 * index. Handles are freed by cs_free and may be shared by threads. */
int32_t cs_options_new(int32_t n, const char *const *keys, const char *const *values,
                       int64_t *handle, cs_error *err);

/* Frees a handle of any kind (options, or a result not taken); an unknown
 * handle, or 0, is ignored. */
void cs_free(int64_t handle);

/* Scores n_docs documents into counts, a row-major float64 matrix of n_docs
 * rows and n columns (cs_columns; counts_len = its number of cells, 0 when
 * the outputs leave scores out). names may be NULL. dups has room for
 * dups_cap records; warnings for warnings_cap. With outputs=analysis the
 * analysis (Kummerfeld & Klein 2013; Martschat & Strube 2014; mention ids
 * the caller's) stays behind report->analysis. cancel may be NULL; while
 * *cancel is non-zero the call stops within 100 ms with CS_CANCELLED. */
int32_t cs_score_batch(int64_t n_docs, const cs_side *key, const cs_side *response,
                       const cs_names *names, int64_t options, const volatile int32_t *cancel,
                       double *counts, int64_t counts_len,
                       cs_duplicate *dups, int64_t dups_cap,
                       cs_warning *warnings, int64_t warnings_cap,
                       cs_report *report, cs_error *err);

/* Packs n spans (start, end), row-major in spans (2n values), into mention
 * ids: ids[i] = start << 32 | end, as span_mentions expects. A row outside
 * 0 <= start <= end < 2^31: CS_INVALID_INPUT, kind CS_ERR_MENTION, mention =
 * the row, start and end its bounds (ids then partly written). A separate
 * call because NumPy callers pack arrays they then slice and keep. */
int32_t cs_pack_spans(const int64_t *spans, int64_t n, int64_t *ids, cs_error *err);

/* For Python callers: one document given as the bytes of CPython's
 * marshal.dumps((key, response), 4) (or version 2, which writes no
 * references and is read fastest), each side a list or tuple of clusters,
 * each a list or tuple of (start, end) pairs of int, 0 <= start <= end < 2^31
 * (marshal writes exact int, list and tuple only; bool, subclasses and NumPy
 * scalars come out otherwise). Writes the n_mentions packed span ids
 * (start << 32 | end), key first, then their clusters' positions in their
 * side into out (out_len = 2 * n_mentions), and the key's mention count into
 * *n_key. Other data, or another number of mentions: CS_INVALID_INPUT, kind
 * CS_ERR_MENTION (the caller then converts the document itself). A separate
 * call because it is the Python callers' one packing of span lists, which
 * the per-call path then scores without a copy. */
int32_t cs_spans_from_marshal(const uint8_t *data, int64_t size, int64_t n_mentions, int64_t *out,
                              int64_t out_len, int64_t *n_key, cs_error *err);

/* Reads a key file and a response file (each parsed once; the two read
 * concurrently) and produces what the "outputs" option asks for: the
 * documents paired by name and scored; their error analysis (the files
 * read and paired as for scoring, mention ids packed spans start << 32 |
 * end); the key's documents with their words; the response's documents
 * without words. Scoring and analysis run concurrently. key_path or
 * response_path may be NULL when only the other file's documents are asked
 * for (a file read alone, as a key or as a response). On success every
 * handle of *out asked for is > 0 and must be taken or freed; on failure
 * all are 0. cancel as for cs_score_batch. */
int32_t cs_score_files(const char *key_path, const char *response_path, int64_t options,
                       const volatile int32_t *cancel, cs_files_result *out, cs_error *err);

/* Copies a file result into caller buffers and frees it: counts (n_docs
 * rows), names (names_len bytes, no NUL) with name_offsets (n_docs + 1), the
 * first dups_cap repeated mentions and warnings_cap warnings. Any buffer may
 * be NULL with a zero capacity. CS_BUFFER_TOO_SMALL (the result is kept)
 * when counts, names or name_offsets is smaller than the sizes reported. */
int32_t cs_take_result(int64_t result, double *counts, int64_t counts_len,
                       char *names, int64_t names_len, int64_t *name_offsets, int64_t offsets_len,
                       cs_duplicate *dups, int64_t dups_cap,
                       cs_warning *warnings, int64_t warnings_cap, cs_error *err);

/* Copies an analysis into the caller's buffers and frees it. Records come
 * in document order, within a document the kk categories in code order,
 * then recall and precision errors. CS_BUFFER_TOO_SMALL (the result is
 * kept) when a capacity is below its size; warnings beyond warnings_cap are
 * dropped. */
int32_t cs_take_analysis(int64_t result, const cs_analysis_buffers *buffers, cs_error *err);

/* Copies documents into the caller's buffers and frees them;
 * CS_BUFFER_TOO_SMALL (the result is kept) when a capacity is too small. */
int32_t cs_take_documents(int64_t result, const cs_documents_buffers *buffers, cs_error *err);

#endif /* CS_TYPES_ONLY */

#ifdef __cplusplus
}
#endif

#endif /* COREFSCORE_H */
