/* A trivial hokm-bot/1 bot for benchmarks: trump clubs, the first legal card.
 *
 *     cc -O2 -o first_legal benchmarks/bots/first_legal.c
 *
 * It does the least a protocol bot can do, so that a benchmark measures the
 * host: per request it finds the id, the kind and the first legal card by
 * scanning for the fields in the order hokm-sim writes them, and answers.
 * It is no template: a bot must read requests as JSON (examples/bots/).
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
    char *line = NULL, *out = NULL;
    size_t cap = 0, out_cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (strncmp(line, "{\"type\":\"decide\"", 16) != 0) {
            if (strstr(line, "\"bye\"")) { fputs("{\"type\":\"bye\"}\n", stdout); return 0; }
            fputs("{\"type\":\"hello\",\"protocol\":\"hokm-bot/1\",\"name\":\"first_legal\"}\n", stdout);
            fflush(stdout);
            continue;
        }
        if (out_cap < (size_t)n) { out_cap = (size_t)n; out = realloc(out, out_cap + 64); }
        size_t len = (size_t)sprintf(out, "{\"type\":\"answers\",\"answers\":[");
        int first = 1;
        for (char *p = strstr(line, "{\"id\":"); p; p = strstr(p, "{\"id\":")) {
            char *id = p + 6, *end = strchr(id, ',');
            if (!first) out[len++] = ',';
            first = 0;
            memcpy(out + len, "{\"id\":", 6);
            memcpy(out + len + 6, id, (size_t)(end - id));
            len += 6 + (size_t)(end - id);
            if (end[9] == 't') { /* ,"kind":"trump" */
                memcpy(out + len, ",\"suit\":\"C\"}", 12);
                len += 12;
            } else {
                char *legal = strstr(end, "\"legal\":[\"") + 10;
                memcpy(out + len, ",\"card\":\"", 9);
                out[len + 9] = legal[0];
                out[len + 10] = legal[1];
                memcpy(out + len + 11, "\"}", 2);
                len += 13;
            }
            p = end;
        }
        memcpy(out + len, "]}\n", 3);
        fwrite(out, 1, len + 3, stdout);
        fflush(stdout);
    }
    return 0;
}
