/* The built-in `longest` bot of hokm-sim as a hokm-bot/1 protocol bot: one file of
 * standard C, no libraries beyond the C library.
 *
 *     cc -O2 -o longest examples/bots/longest.c
 *     hokm-sim run "exec:./longest" expert --hands 20000 --seed 5
 *
 * Trump: the longest suit among the Hakem's five cards; ties go to the higher
 * rank sum (2 counts 0 ... A counts 12), then to the lower suit (C D H S).
 * Play: lead an off-trump ace, else the lowest card of the longest side suit
 * (holding only trumps, the lowest trump); follow low when partner is
 * winning, else with the cheapest card that beats the trick; void, ruff with
 * the cheapest winning trump unless partner is winning, else discard the
 * lowest-ranked side card.
 *
 * One JSON object per line in, one per line out. Each request is answered on
 * its own: everything the seat knows is in it. The JSON reader below knows
 * just enough for the protocol's messages and skips fields it does not use.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* --- cards: index suit * 13 + rank (2..A = 0..12), sets as bit masks --------- */

typedef unsigned long long Mask;
static const char RANKS[] = "23456789TJQKA", SUITS[] = "CDHS";
#define BIT(c) (1ULL << (c))
#define SUIT_OF(c) ((c) / 13)
#define RANK_OF(c) ((c) % 13)

static Mask suit_cards(Mask m, int s) { return m & (0x1FFFULL << (13 * s)); }
static Mask above(int c) { return ~((2ULL << c) - 1) & (BIT(52) - 1); } /* higher indices */

static int lowest(Mask m) { /* lowest suit, then lowest rank */
    for (int c = 0; c < 52; c++)
        if (m & BIT(c)) return c;
    return -1;
}

static int lowest_by_rank(Mask m) { /* lowest rank, then lowest suit */
    for (int r = 0; r < 13; r++)
        for (int s = 0; s < 4; s++)
            if (m & BIT(13 * s + r)) return 13 * s + r;
    return -1;
}

static int count(Mask m) {
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

static int beats(int c, int best, int trump) { /* does c beat the card winning so far? */
    if (SUIT_OF(c) == SUIT_OF(best)) return c > best;
    return SUIT_OF(c) == trump;
}

/* --- the bot ------------------------------------------------------------------ */

typedef struct {
    long long id;
    int trump_call; /* 1: "kind": "trump" */
    int seat, hakem, trump;
    Mask hand;
    int plays[52], nplays;
} Request;

static int choose_trump(Mask five) {
    int best = 0, best_n = -1, best_sum = -1;
    for (int s = 0; s < 4; s++) {
        Mask m = suit_cards(five, s);
        int sum = 0;
        for (int c = 0; c < 52; c++)
            if (m & BIT(c)) sum += RANK_OF(c);
        if (count(m) > best_n || (count(m) == best_n && sum > best_sum)) {
            best = s;
            best_n = count(m);
            best_sum = sum;
        }
    }
    return best;
}

static int lead(Mask hand, int trump) {
    Mask side = hand & ~suit_cards(~0ULL, trump), aces = 0;
    for (int s = 0; s < 4; s++) aces |= BIT(13 * s + 12);
    if (side & aces) return lowest(side & aces);
    if (!side) return lowest(hand);
    int best = -1, best_len = 0;
    for (int s = 0; s < 4; s++)
        if (s != trump && count(suit_cards(hand, s)) > best_len) {
            best = s;
            best_len = count(suit_cards(hand, s));
        }
    return lowest(suit_cards(hand, best));
}

static int play_card(const Request *r) {
    /* Replay the tricks so far: who leads the current one, and who is winning it. */
    int leader = r->hakem, done = r->nplays - r->nplays % 4;
    for (int t = 0; t < done; t += 4) {
        int best = 0;
        for (int k = 1; k < 4; k++)
            if (beats(r->plays[t + k], r->plays[t + best], r->trump)) best = k;
        leader = (leader + best) % 4;
    }
    int n = r->nplays - done;
    if (n == 0) return lead(r->hand, r->trump);
    const int *trick = r->plays + done;
    int best = 0;
    for (int k = 1; k < n; k++)
        if (beats(trick[k], trick[best], r->trump)) best = k;
    int win = trick[best], led = SUIT_OF(trick[0]);
    int partner_wins = (leader + best) % 4 == (r->seat + 2) % 4;
    Mask follow = suit_cards(r->hand, led);
    if (follow) {
        if (!partner_wins && SUIT_OF(win) == led && (follow & above(win)))
            return lowest(follow & above(win));
        return lowest(follow);
    }
    if (!partner_wins) {
        Mask trumps = suit_cards(r->hand, r->trump);
        Mask winning = SUIT_OF(win) == r->trump ? trumps & above(win) : trumps;
        if (winning) return lowest(winning);
    }
    Mask side = r->hand & ~suit_cards(~0ULL, r->trump);
    return lowest_by_rank(side ? side : r->hand);
}

/* --- reading JSON ----------------------------------------------------------------- */

static const char *p; /* the reader's place in the line */
static const char *problem; /* the first thing found wrong, if any */

static void ws(void) { while (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n') p++; }
static int eat(char ch) { ws(); if (*p == ch) { p++; return 1; } return 0; }
static void fail(const char *what) { if (!problem) problem = what; }

static int read_string(char *out, int cap) { /* plain strings; escapes kept as is */
    int n = 0;
    if (!eat('"')) { fail("expected a string"); return 0; }
    while (*p && *p != '"') {
        if (*p == '\\' && p[1]) p++;
        if (n < cap - 1) out[n++] = *p;
        p++;
    }
    if (!eat('"')) fail("unterminated string");
    out[n] = 0;
    return n;
}

static long long read_int(void) {
    ws();
    char *end;
    long long v = strtoll(p, &end, 10);
    if (end == p) fail("expected a number");
    p = end;
    return v;
}

static void skip_value(void) {
    char s[8];
    ws();
    if (*p == '"') read_string(s, sizeof s);
    else if (*p == '{' || *p == '[') {
        char close = *p == '{' ? '}' : ']';
        p++;
        if (eat(close)) return;
        do {
            if (close == '}') { read_string(s, sizeof s); if (!eat(':')) fail("expected ':'"); }
            skip_value();
        } while (!problem && eat(','));
        if (!eat(close)) fail("unterminated object or array");
    } else if (*p == '-' || (*p >= '0' && *p <= '9')) strtod(p, (char **)&p);
    else if (!strncmp(p, "true", 4) || !strncmp(p, "null", 4)) p += 4;
    else if (!strncmp(p, "false", 5)) p += 5;
    else fail("bad value");
}

static int card_of(const char *t) {
    const char *r = strchr(RANKS, t[0]), *s = strchr(SUITS, t[1]);
    if (!t[0] || !t[1] || t[2] || !r || !s) { fail("bad card"); return 0; }
    return (int)(s - SUITS) * 13 + (int)(r - RANKS);
}

static int read_cards(int *cards) { /* an array of card texts; how many */
    char t[8];
    int n = 0;
    if (!eat('[')) { fail("expected a list of cards"); return 0; }
    if (eat(']')) return 0;
    do {
        read_string(t, sizeof t);
        if (n < 52) cards[n++] = card_of(t);
    } while (!problem && eat(','));
    if (!eat(']')) fail("unterminated list of cards");
    return n;
}

static Request read_request(void) {
    Request r = {0};
    char key[32], t[8];
    int cards[52];
    r.trump = -1;
    if (!eat('{')) { fail("a request is not an object"); return r; }
    do {
        read_string(key, sizeof key);
        if (!eat(':')) fail("expected ':'");
        if (!strcmp(key, "id")) r.id = read_int();
        else if (!strcmp(key, "kind")) { read_string(t, sizeof t); r.trump_call = !strcmp(t, "trump"); }
        else if (!strcmp(key, "seat")) r.seat = (int)read_int();
        else if (!strcmp(key, "hakem")) r.hakem = (int)read_int();
        else if (!strcmp(key, "trump")) {
            ws();
            if (*p == 'n') skip_value();
            else { read_string(t, sizeof t); r.trump = strchr(SUITS, t[0]) ? (int)(strchr(SUITS, t[0]) - SUITS) : -1; }
        } else if (!strcmp(key, "hand")) {
            int n = read_cards(cards);
            for (int i = 0; i < n; i++) r.hand |= BIT(cards[i]);
        } else if (!strcmp(key, "plays")) r.nplays = read_cards(r.plays);
        else skip_value(); /* legal, first_five, tricks, scores, target, seed, ... */
    } while (!problem && eat(','));
    if (!eat('}')) fail("unterminated request");
    return r;
}

/* --- messages ------------------------------------------------------------------- */

static char *out;
static size_t out_len, out_cap;

static void put(const char *text) {
    size_t n = strlen(text);
    if (out_len + n + 1 > out_cap) {
        out_cap = 2 * (out_len + n + 1);
        out = realloc(out, out_cap);
        if (!out) exit(1);
    }
    memcpy(out + out_len, text, n + 1);
    out_len += n;
}

static void answer(const Request *r, int first) {
    char text[64];
    if (r->trump_call)
        snprintf(text, sizeof text, "%s{\"id\":%lld,\"suit\":\"%c\"}", first ? "" : ",", r->id,
                 SUITS[choose_trump(r->hand)]);
    else {
        int c = play_card(r);
        snprintf(text, sizeof text, "%s{\"id\":%lld,\"card\":\"%c%c\"}", first ? "" : ",", r->id,
                 RANKS[RANK_OF(c)], SUITS[SUIT_OF(c)]);
    }
    put(text);
}

int main(void) {
    char *line = NULL;
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        char type[16] = "", key[32];
        p = line;
        problem = NULL;
        out_len = 0;
        put("{\"type\":\"answers\",\"answers\":[");
        if (!eat('{')) fail("a message is not an object");
        do {
            read_string(key, sizeof key);
            if (!eat(':')) fail("expected ':'");
            if (!strcmp(key, "type")) read_string(type, sizeof type);
            else if (!strcmp(key, "requests")) {
                if (!eat('[')) fail("expected a list of requests");
                else if (!eat(']')) {
                    int first = 1;
                    do {
                        Request r = read_request();
                        if (!problem) answer(&r, first);
                        first = 0;
                    } while (!problem && eat(','));
                    if (!eat(']')) fail("unterminated list of requests");
                }
            } else skip_value();
        } while (!problem && eat(','));
        if (problem) printf("{\"type\":\"error\",\"message\":\"%s\"}\n", problem);
        else if (!strcmp(type, "hello"))
            printf("{\"type\":\"hello\",\"protocol\":\"hokm-bot/1\",\"name\":\"longest.c\",\"version\":\"1\"}\n");
        else if (!strcmp(type, "decide")) printf("%s]}\n", out);
        else if (!strcmp(type, "bye")) { printf("{\"type\":\"bye\"}\n"); return 0; }
        else printf("{\"type\":\"error\",\"message\":\"unknown message type\"}\n");
        fflush(stdout);
    }
    return 0;
}
