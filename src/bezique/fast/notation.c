/* Actions in notation, as the reference core writes them (Deal._namer, str(Action)). */
#include <string.h>

#include "engine.h"

#define KIND(cfg, c) ((cfg)->kind_of[c])
#define HAS_MASK(m) ((m).lo | (m).hi)

static inline int mask_eq(Mask a, Mask b) { return a.hi == b.hi && a.lo == b.lo; }

/* --- notation ------------------------------------------------------------------------------ */
/* Append s at pos, writing only what fits in cap (always ended with a 0); returns the length the
   text has so far, written or not, so that a caller can tell it was cut and make room. */
static int put(char *buf, int pos, int cap, const char *s) {
    for (; *s; s++, pos++)
        if (pos < cap - 1) buf[pos] = *s;
    buf[pos < cap - 1 ? pos : cap - 1] = 0;
    return pos;
}

/* The name of one card of a seat: CODE, CODE@table or CODE@meld+meld (core's Deal._namer). */
static int card_name(const State *st, const Config *cfg, int seat, int c, char *buf, int pos, int cap) {
    int k = KIND(cfg, c);
    Mask m = st->mask[c];
    pos = put(buf, pos, cap, KIND_CODES[k]);
    if (!HAS_MASK(m)) return pos;
    int distinct = 0, concealed = 0;
    Mask seen[MAXH];
    for (int i = 0; i < st->hn[seat]; i++) {
        int d = st->hand[seat][i];
        if (KIND(cfg, d) != k) continue;
        Mask md = st->mask[d];
        if (!HAS_MASK(md)) {
            concealed = 1;
            continue;
        }
        int dup = 0;
        for (int j = 0; j < distinct; j++)
            if (mask_eq(seen[j], md)) dup = 1;
        if (!dup) seen[distinct++] = md;
    }
    if (distinct > 1) {
        int first = 1;
        pos = put(buf, pos, cap, "@");
        for (int ghost = 0; ghost < 2; ghost++)
            for (int b = 0; b < 64; b++)
                if (((ghost ? m.hi : m.lo) >> b) & 1) {
                    if (!first) pos = put(buf, pos, cap, "+");
                    if (ghost) pos = put(buf, pos, cap, "broken-");
                    pos = put(buf, pos, cap, b < NUM_MELDS ? MELD_NAMES[b] : "?");
                    first = 0;
                }
        return pos;
    }
    return concealed ? put(buf, pos, cap, "@table") : pos;
}

int st_move_text(const State *st, const Config *cfg, const Move *mv, char *buf, int cap) {
    int pos = 0, seat = st->to_move;
    buf[0] = 0;
    switch (mv->type) {
    case MV_PLAY:
        pos = put(buf, pos, cap, "play ");
        return card_name(st, cfg, seat, mv->ids[0], buf, pos, cap);
    case MV_MELD:
        pos = put(buf, pos, cap, "meld ");
        pos = put(buf, pos, cap, MELD_NAMES[mv->meld]);
        for (int i = 0; i < mv->n; i++) {
            pos = put(buf, pos, cap, " ");
            pos = card_name(st, cfg, seat, mv->ids[i], buf, pos, cap);
        }
        return pos;
    case MV_EXCH:
        pos = put(buf, pos, cap, "exchange ");
        return put(buf, pos, cap, KIND_CODES[KIND(cfg, mv->ids[0])]);
    case MV_PARTNER:
        return put(buf, pos, cap, "partner");
    default:
        return put(buf, pos, cap, "pass");
    }
}
