/* abi_check.c: calls the library through corefscore.h with good and bad
 * arguments and prints one line per check, "ok NAME" or "FAIL NAME ...";
 * capi's TestCABI builds and runs it. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>
#include "corefscore.h"

static int failures = 0;

static void check(const char *name, int cond, const cs_error *err) {
    if (cond) {
        printf("ok %s\n", name);
    } else {
        failures++;
        printf("FAIL %s: status %d kind %d doc %lld side %d mention %lld: %s\n", name,
               err ? err->status : -1, err ? err->kind : -1, err ? (long long)err->doc : -1,
               err ? err->side : -1, err ? (long long)err->mention : -1, err ? err->message : "");
    }
}

int main(int argc, char **argv) {
    cs_error err;
    cs_report rep;
    check("abi version", cs_abi_version() == CS_ABI_VERSION, NULL);
    int64_t n_col = 0, names_needed = 0;
    check("columns: sizes", cs_columns(NULL, 0, NULL, 0, &n_col, &names_needed) == CS_BUFFER_TOO_SMALL &&
          n_col > 10 && names_needed > n_col, NULL);
    int32_t ncol = (int32_t)n_col;
    char *colnames = malloc(names_needed);
    int32_t *metric_of = calloc(n_col, sizeof(int32_t));
    check("columns: small buffer", cs_columns(colnames, names_needed - 1, metric_of, n_col, &n_col, &names_needed) ==
          CS_BUFFER_TOO_SMALL, NULL);
    check("columns", cs_columns(colnames, names_needed, metric_of, n_col, &n_col, &names_needed) == CS_OK &&
          strcmp(colnames + strlen(colnames) + 1, "mentions.recall_den") == 0 && metric_of[0] == 0 &&
          metric_of[ncol - 1] >= 1 && colnames[names_needed - 1] == 0, NULL);
    check("columns: NULL with capacity", cs_columns(NULL, 5, metric_of, n_col, &n_col, &names_needed) ==
          CS_INVALID_INPUT, NULL);

    /* Options. */
    const char *keys[] = {"metrics", "singletons"};
    const char *good[] = {"muc,bcub", "keep"};
    const char *bad[] = {"muc", "x"};
    int64_t opt = 0;
    memset(&err, 0, sizeof err);
    check("options ok", cs_options_new(2, keys, good, &opt, &err) == CS_OK && opt > 0, &err);
    int64_t opt2 = 0;
    int32_t st = cs_options_new(2, keys, bad, &opt2, &err);
    check("options bad value", st == CS_INVALID_INPUT && err.kind == CS_ERR_OPTION && err.option == 1 &&
          strstr(err.message, "keep or exclude") != NULL, &err);
    const char *unk[] = {"nope"};
    st = cs_options_new(1, unk, good, &opt2, &err);
    check("options unknown key", st == CS_INVALID_INPUT && err.kind == CS_ERR_OPTION && err.option == 0, &err);

    /* A batch of two documents: key {1 2}{3}, response {1 2 3}. */
    int64_t offs[] = {0, 3, 6};
    int64_t ment[] = {1, 2, 3, 1, 2, 3};
    int64_t kcl[] = {0, 0, 1, 0, 0, 1};
    int64_t rcl[] = {0, 0, 0, 0, 0, 0};
    cs_side key = {offs, ment, kcl, NULL, 6};
    cs_side resp = {offs, ment, rcl, NULL, 6};
    double *counts = calloc(2 * ncol, sizeof(double));
    cs_names names = {"a\0b\nc", (int64_t[]){0, 1, 5}};
    memset(&rep, 0, sizeof rep);
    st = cs_score_batch(2, &key, &resp, &names, opt, NULL, counts, 2 * ncol, NULL, 0, NULL, 0, &rep, &err);
    check("batch ok", st == CS_OK && counts[4] == 1.0 /* muc recall_num */ && counts[ncol + 4] == 1.0 &&
          rep.applied == ((1u << 1) | (1u << 2)), &err);

    /* Bad calls. */
    st = cs_score_batch(2, &key, &resp, NULL, 0, NULL, NULL, 2 * ncol, NULL, 0, NULL, 0, &rep, &err);
    check("counts NULL with length", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    st = cs_score_batch(INT64_MAX / 8, &key, &resp, NULL, 0, NULL, counts, 2 * ncol, NULL, 0, NULL, 0, &rep, &err);
    check("n_docs overflowing counts", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    st = cs_score_batch(2, &key, &resp, NULL, 0, NULL, counts, INT64_MAX, NULL, 0, NULL, 0, &rep, &err);
    check("counts_len overflowing", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    st = cs_score_batch(2, &key, &resp, NULL, 0, NULL, counts, 2 * ncol, NULL, 5, NULL, 0, &rep, &err);
    check("dups NULL with capacity", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    /* n_docs larger than the offsets array: either refused as bad offsets
     * or, if the read faults, an internal error; never a crash. */
    double *big = calloc((size_t)1000000 * ncol, sizeof(double));
    st = cs_score_batch(1000000, &key, &resp, NULL, 0, NULL, big, (int64_t)1000000 * ncol, NULL, 0, NULL, 0, &rep, &err);
    check("n_docs beyond offsets", st == CS_INVALID_INPUT || st == CS_INTERNAL, &err);
    cs_side wild = {offs, (const int64_t *)(uintptr_t)0x10, kcl, NULL, 6};
    st = cs_score_batch(2, &wild, &resp, NULL, 0, NULL, counts, 2 * ncol, NULL, 0, NULL, 0, &rep, &err);
    check("bad pointer is internal", st == CS_INTERNAL && err.kind == CS_ERR_INTERNAL, &err);
    int32_t cancel = 1;
    st = cs_score_batch(2, &key, &resp, NULL, 0, &cancel, counts, 2 * ncol, NULL, 0, NULL, 0, &rep, &err);
    check("cancelled", st == CS_CANCELLED && err.kind == CS_ERR_CANCELLED, &err);

    /* A repeated mention under duplicates=raise names its index. */
    int64_t ment2[] = {1, 2, 3, 1, 2, 2};
    cs_side key2 = {offs, ment2, kcl, NULL, 6};
    const char *dk[] = {"duplicates"};
    const char *dv[] = {"raise"};
    int64_t optr = 0;
    cs_options_new(1, dk, dv, &optr, &err);
    st = cs_score_batch(2, &key2, &resp, NULL, optr, NULL, counts, 2 * ncol, NULL, 0, NULL, 0, &rep, &err);
    check("duplicate raise", st == CS_INVALID_INPUT && err.kind == CS_ERR_DUPLICATE && err.doc == 1 &&
          err.side == 0 && err.mention == 5, &err);
    cs_duplicate dups[1];
    st = cs_score_batch(2, &key2, &resp, NULL, 0, NULL, counts, 2 * ncol, dups, 1, NULL, 0, &rep, &err);
    check("duplicate warn", st == CS_OK && rep.n_dups == 1 && dups[0].mention == 5 && dups[0].doc == 1, &err);

    /* marshal.dumps(([[(0, 1), (3, 4)]], [[(0, 1)], [(3, 4)]]), 4) as Python 3.11 writes it. */
    static const uint8_t marshalled[] = {
        0xa9, 0x02, 0x5b, 0x01, 0, 0, 0, 0x5b, 0x02, 0, 0, 0, 0xa9, 0x02, 0xe9, 0, 0, 0, 0, 0xe9, 0x01, 0, 0, 0,
        0xa9, 0x02, 0xe9, 0x03, 0, 0, 0, 0xe9, 0x04, 0, 0, 0, 0x5b, 0x02, 0, 0, 0, 0x5b, 0x01, 0, 0, 0,
        0x72, 0x01, 0, 0, 0, 0x5b, 0x01, 0, 0, 0, 0x72, 0x04, 0, 0, 0};
    int64_t spans[8], n_key = -1;
    st = cs_spans_from_marshal(marshalled, sizeof marshalled, 4, spans, 8, &n_key, &err);
    check("spans from marshal", st == CS_OK && n_key == 2 && spans[0] == 1 && spans[1] == ((int64_t)3 << 32 | 4) &&
          spans[2] == 1 && spans[7] == 1, &err);
    st = cs_spans_from_marshal(marshalled, sizeof marshalled - 1, 4, spans, 8, &n_key, &err);
    check("spans from truncated marshal", st == CS_INVALID_INPUT && err.kind == CS_ERR_MENTION, &err);
    st = cs_spans_from_marshal(marshalled, sizeof marshalled, 4, spans, 7, &n_key, &err);
    check("spans: out_len", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    st = cs_spans_from_marshal(NULL, 5, 4, spans, 8, &n_key, &err);
    check("spans: NULL data", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);

    int64_t rows[6] = {0, 1, 3, 4, 9, 2}, packed[3];
    st = cs_pack_spans(rows, 2, packed, &err);
    check("pack spans", st == CS_OK && packed[0] == 1 && packed[1] == ((int64_t)3 << 32 | 4), &err);
    st = cs_pack_spans(rows, 3, packed, &err);
    check("pack spans: a bad row", st == CS_INVALID_INPUT && err.kind == CS_ERR_MENTION && err.mention == 2 &&
          err.start == 9 && err.end == 2, &err);
    st = cs_pack_spans(rows, -1, packed, &err);
    check("pack spans: negative n", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);

    /* Error analysis of the batch: per document, {3} conflated into the
     * response entity, and one precision link (3 -> 2) cut by the key. */
    const char *ok_[] = {"outputs"};
    const char *ov[] = {"analysis"};
    int64_t opta = 0;
    check("options outputs", cs_options_new(1, ok_, ov, &opta, &err) == CS_OK, &err);
    memset(&rep, 0, sizeof rep);
    st = cs_score_batch(2, &key, &resp, &names, opta, NULL, NULL, 0, NULL, 0, NULL, 0, &rep, &err);
    int64_t ares = rep.analysis;
    cs_analysis_sizes asz = rep.analysis_sizes;
    check("analyze batch", st == CS_OK && ares > 0 && asz.n_docs == 2 && asz.n_records == 4 &&
          asz.n_mentions == 6 && asz.names_len == 5, &err);
    cs_error_record recs[4];
    int64_t mo[5], ko[5], ro[5], am[6], ake[8], are[8], ano[3];
    char anames[5];
    cs_analysis_buffers ab = {anames, 5, ano, 2, recs, mo, ko, ro, 4, am, 6, ake, 8, are, 8, NULL, 0};
    ab.records_len = 3;
    st = cs_take_analysis(ares, &ab, &err);
    check("take analysis too small", st == CS_BUFFER_TOO_SMALL, &err);
    ab.records_len = 4;
    ab.mentions = NULL;
    st = cs_take_analysis(ares, &ab, &err);
    check("take analysis NULL with capacity", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    ab.mentions = am;
    st = cs_take_analysis(ares, &ab, &err);
    check("take analysis", st == CS_OK && recs[0].category == CS_CAT_CONFLATED_ENTITIES &&
          recs[1].category == CS_CAT_PRECISION_ERROR && recs[2].doc == 1 && mo[1] == 1 && am[0] == 3 &&
          mo[2] == 3 && am[1] == 3 && am[2] == 2 && ano[2] == 5 && memcmp(anames, "a\0b\nc", 5) == 0, &err);
    st = cs_take_analysis(ares, &ab, &err);
    check("take analysis twice", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    cancel = 1;
    st = cs_score_batch(2, &key, &resp, NULL, opta, &cancel, NULL, 0, NULL, 0, NULL, 0, &rep, &err);
    check("analyze cancelled", st == CS_CANCELLED && err.kind == CS_ERR_CANCELLED, &err);
    st = cs_score_batch(2, &wild, &resp, NULL, opta, NULL, NULL, 0, NULL, 0, NULL, 0, &rep, &err);
    check("analyze bad pointer is internal", st == CS_INTERNAL, &err);
    st = cs_score_batch(-1, &key, &resp, NULL, opta, NULL, NULL, 0, NULL, 0, NULL, 0, &rep, &err);
    check("analyze negative n_docs", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
    cs_free(12345);

    /* Files: one call, its outputs chosen by options. */
    if (argc >= 3) {
        cs_files_result fr;
        st = cs_score_files(argv[1], argv[2], 0, NULL, &fr, &err);
        int64_t res = fr.scores, nd = fr.n_docs, nl = fr.names_len;
        check("files ok", st == CS_OK && res > 0 && nd > 0 && fr.report.analysis == 0 && fr.key_documents == 0, &err);
        double *fc = calloc(nd * ncol, sizeof(double));
        char *nm = malloc(nl + 1);
        int64_t *no = calloc(nd + 1, sizeof(int64_t));
        st = cs_take_result(res, fc, nd * ncol - 1, nm, nl, no, nd + 1, NULL, 0, NULL, 0, &err);
        check("take too small", st == CS_BUFFER_TOO_SMALL, &err);
        st = cs_take_result(res, fc, nd * ncol, nm, nl, no, nd + 1, NULL, 0, NULL, 0, &err);
        check("take ok", st == CS_OK && no[nd] == nl, &err);
        st = cs_take_result(res, fc, nd * ncol, nm, nl, no, nd + 1, NULL, 0, NULL, 0, &err);
        check("take twice", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
        /* Analysis of the files and their documents with words. */
        st = cs_score_files(argv[1], argv[2], opta, NULL, &fr, &err);
        ares = fr.report.analysis;
        asz = fr.report.analysis_sizes;
        check("analyze files", st == CS_OK && fr.scores == 0 && asz.n_docs == nd && asz.n_records > 0, &err);
        cs_free(ares);
        st = cs_take_analysis(ares, &ab, &err);
        check("freed analysis", st == CS_INVALID_INPUT, &err);
        st = cs_score_files("/nonexistent/key.conll", argv[2], opta, NULL, &fr, &err);
        check("analyze missing file", st == CS_IO && err.kind == CS_ERR_NOT_FOUND && err.side == 0, &err);
        const char *kd[] = {"outputs"};
        const char *kdv[] = {"key_documents"};
        int64_t optd = 0;
        cs_options_new(1, kd, kdv, &optd, &err);
        st = cs_score_files(argv[1], NULL, optd, NULL, &fr, &err);
        int64_t dres = fr.key_documents;
        cs_documents_sizes dsz = fr.key_sizes;
        check("read documents", st == CS_OK && dres > 0 && dsz.n_docs == nd && dsz.n_words > 0 && dsz.n_sentences > 0,
              &err);
        char *dn = malloc(dsz.names_len + 1), *dw = malloc(dsz.words_len + 1);
        int64_t *dno = calloc(nd + 1, 8), *dmo = calloc(nd + 1, 8), *dwd = calloc(nd + 1, 8), *dsd = calloc(nd + 1, 8);
        int64_t *dwo = calloc(dsz.n_words + 1, 8), *dse = calloc(dsz.n_sentences + 1, 8);
        cs_doc_mention *dm = calloc(dsz.n_mentions + 1, sizeof(cs_doc_mention));
        cs_documents_buffers db = {dn, dsz.names_len, dno, dmo, dwd, dsd, nd, dm, dsz.n_mentions, dw, dsz.words_len,
                                   dwo, dsz.n_words - 1, dse, dsz.n_sentences};
        st = cs_take_documents(dres, &db, &err);
        check("take documents too small", st == CS_BUFFER_TOO_SMALL, &err);
        db.n_words_len = dsz.n_words;
        st = cs_take_documents(dres, &db, &err);
        check("take documents", st == CS_OK && dwo[1] == 4 && memcmp(dw, "JohnSmith", 9) == 0 && dm[0].start == 0 &&
              dm[0].end == 1 && dwd[nd] == dsz.n_words && dse[0] > 0, &err);
        /* One read of each file for a report: four handles, freed here. */
        const char *rv[] = {"scores,analysis,key_documents,response_documents"};
        int64_t optrep = 0;
        cs_options_new(1, kd, rv, &optrep, &err);
        st = cs_score_files(argv[1], argv[2], optrep, NULL, &fr, &err);
        check("report files", st == CS_OK && fr.scores > 0 && fr.report.analysis > 0 && fr.key_documents > 0 &&
              fr.response_documents > 0 && fr.n_docs == nd && fr.report.analysis_sizes.n_records == asz.n_records &&
              fr.key_sizes.n_words == dsz.n_words && fr.response_sizes.n_words == 0 &&
              fr.response_sizes.n_docs == nd, &err);
        cs_free(fr.scores);
        cs_free(fr.report.analysis);
        cs_free(fr.key_documents);
        cs_free(fr.response_documents);
        st = cs_take_analysis(fr.report.analysis, &ab, &err);
        check("freed report analysis", st == CS_INVALID_INPUT, &err);
        st = cs_score_files(argv[1], "/nonexistent/response.conll", optrep, NULL, &fr, &err);
        check("report missing file", st == CS_IO && err.kind == CS_ERR_NOT_FOUND && err.side == 1 && fr.scores == 0 &&
              fr.report.analysis == 0 && fr.key_documents == 0 && fr.response_documents == 0, &err);
        st = cs_score_files(argv[1], NULL, 0, NULL, &fr, &err);
        check("one path for scores", st == CS_INVALID_INPUT && err.kind == CS_ERR_ARGUMENT, &err);
        st = cs_score_files("/nonexistent/key.conll", argv[2], 0, NULL, &fr, &err);
        check("missing file", st == CS_IO && err.kind == CS_ERR_NOT_FOUND && err.side == 0 &&
              strcmp(err.message, "no such file") == 0, &err);
        cs_free(optd);
        cs_free(optrep);
    }
    /* After the parent scored, a forked child's call fails fast, naming the
     * spawn and forkserver start methods (alarm: a hang kills the child). */
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(10);
        st = cs_score_batch(2, &key, &resp, NULL, 0, NULL, counts, 2 * ncol, NULL, 0, NULL, 0, &rep, &err);
        int ok = st == CS_INTERNAL && err.kind == CS_ERR_INTERNAL && strstr(err.message, "spawn") != NULL &&
                 strstr(err.message, "forkserver") != NULL &&
                 cs_columns(NULL, 0, NULL, 0, &n_col, &names_needed) == CS_INTERNAL;
        _exit(ok ? 0 : 1);
    }
    int wstatus = 0;
    waitpid(pid, &wstatus, 0);
    check("forked child fails fast", WIFEXITED(wstatus) && WEXITSTATUS(wstatus) == 0, NULL);
    check("parent still scores",
          cs_score_batch(2, &key, &resp, NULL, 0, NULL, counts, 2 * ncol, NULL, 0, NULL, 0, &rep, &err) == CS_OK, &err);

    cs_free(opt);
    cs_free(optr);
    cs_free(opta);
    printf("%d failures\n", failures);
    return failures != 0;
}
