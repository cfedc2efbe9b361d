/* Writes a benchmark workload (bench/README.md) with libxlsxwriter in
 * constant-memory mode. Usage: lxw_write W1|W2|W3 OUT.xlsx [ROWS] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "xlsxwriter.h"

static const char *phrases[8] = {"alpha & beta", "Café résumé", "x < y > z", "中文字符测试", "plain text value",
    "Tom & Jerry <b>", "naïve façade", "数据-data-mix"};

int main(int argc, char **argv) {
    const char *w = argv[1];
    lxw_workbook_options options = {.constant_memory = LXW_TRUE, .tmpdir = NULL, .use_zip64 = LXW_FALSE};
    lxw_workbook *wb = workbook_new_opt(argv[2], &options);
    lxw_worksheet *ws = workbook_add_worksheet(wb, NULL);
    char buf[128];
    long rows;
    if (strcmp(w, "W1") == 0) {
        rows = argc > 3 ? atol(argv[3]) : 1000000;
        for (int j = 0; j < 10; j++) {
            snprintf(buf, sizeof buf, "col%d", j + 1);
            worksheet_write_string(ws, 0, j, buf, NULL);
        }
        for (long i = 0; i < rows; i++) {
            lxw_row_t r = i + 1;
            worksheet_write_number(ws, r, 0, (double)i, NULL);
            worksheet_write_number(ws, r, 1, (double)(i * 7 % 100000), NULL);
            worksheet_write_number(ws, r, 2, (double)(i * 13 % 1000), NULL);
            worksheet_write_number(ws, r, 3, (double)(i * 31 % 1000000), NULL);
            worksheet_write_number(ws, r, 4, (double)i * 1.25 + 0.5, NULL);
            worksheet_write_number(ws, r, 5, (double)(i % 10000) / 100.0, NULL);
            worksheet_write_number(ws, r, 6, (double)i / 7.0, NULL);
            snprintf(buf, sizeof buf, "name-%ld", i % 1000);
            worksheet_write_string(ws, r, 7, buf, NULL);
            snprintf(buf, sizeof buf, "city-%ld", i % 50);
            worksheet_write_string(ws, r, 8, buf, NULL);
            snprintf(buf, sizeof buf, "x%ld", i);
            worksheet_write_string(ws, r, 9, buf, NULL);
        }
    } else if (strcmp(w, "W2") == 0) {
        rows = argc > 3 ? atol(argv[3]) : 100000;
        for (long i = 0; i < rows; i++)
            for (long j = 0; j < 100; j++)
                worksheet_write_number(ws, i, j, j % 2 == 0 ? (double)((i * (j + 1)) % 1000003) : (double)((i * j) % 100000) / 100.0, NULL);
    } else {
        rows = argc > 3 ? atol(argv[3]) : 200000;
        for (long i = 0; i < rows; i++)
            for (int j = 0; j < 10; j++) {
                snprintf(buf, sizeof buf, "row %ld col %d: %s", i, j, phrases[(3 * i + j) % 8]);
                worksheet_write_string(ws, i, j, buf, NULL);
            }
    }
    return workbook_close(wb) == LXW_NO_ERROR ? 0 : 1;
}
