/* The compiled bezique engine: a line-by-line port of bezique.core.deal (see engine.h):
 * the legal actions and applying them; dealing and carte blanche are in deal.c. */
#include "engine_int.h"

#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

/* --- the declarations of the latest state, kept so that they are not worked out twice ---- */
/* Generations are unique across threads (the declaration cache is per thread, a state may move
   between threads): each thread takes a block of numbers at a time. */
static _Atomic uint64_t gen_blocks = 1;
static _Thread_local uint64_t gen_next, gen_end;
static uint64_t next_gen(void) {
    if (gen_next == gen_end) {
        gen_next = atomic_fetch_add_explicit(&gen_blocks, 1, memory_order_relaxed) << 24;
        gen_end = gen_next + (1ULL << 24);
    }
    return gen_next++;
}
void st_touch(State *st) { st->gen = next_gen(); }

void st_recount(State *st) {
    for (int s = 0; s < MAXP; s++) {
        st->ntable[s] = 0;
        for (int i = 0; i < st->hn[s]; i++)
            if (st->mask[st->hand[s][i]].lo | st->mask[st->hand[s][i]].hi) st->ntable[s]++;
    }
}

typedef struct {
    uint64_t gen;
    int n, pending;
    Move moves[MAXMOVES];
} DeclCache;
static _Thread_local DeclCache dcache; /* per thread: searches run without the GIL */
/* --- legal actions ------------------------------------------------------------------------- */
/* A wild card played only when nothing else is held (stage2_wild_card=last-resort): in the last
 * tricks, with a wild card in hand (hands sort it last). */
static inline int wild_last(const State *st, const Config *cfg, int seat) {
    int hn = st->hn[seat];
    return cfg->wild_last && st->stage == 2 && hn && KIND(cfg, st->hand[seat][hn - 1]) == WILD_KIND;
}

/* tricks.follow_duty: the cards of seat's hand it may play to the trick. */
static inline int duty(const State *st, const Config *cfg, int seat, uint16_t *out) {
    const uint16_t *hand = st->hand[seat];
    int hn = st->hn[seat];
    if (!st->tn || (st->stage == 1 && !cfg->s1_follow)) {
        memcpy(out, hand, (size_t)hn * sizeof(uint16_t));
        return hn;
    }
    int led = KIND(cfg, st->tcard[0]) >> 3, ns = 0;
    uint16_t same[MAXH];
    if (led < 4) /* a wild card led has no suit to follow */
        for (int i = 0; i < hn; i++)
            if (KIND(cfg, hand[i]) >> 3 == led) same[ns++] = hand[i];
    if (st->stage == 1) {
        if (!ns) {
            memcpy(out, hand, (size_t)hn * sizeof(uint16_t));
            return hn;
        }
        memcpy(out, same, (size_t)ns * sizeof(uint16_t));
        return ns;
    }
    int best = KIND(cfg, st->tcard[0]), lw = cfg->lead_wins;
    for (int i = 1; i < st->tn; i++)
        if (st_beats(KIND(cfg, st->tcard[i]), best, st->trump, lw)) best = KIND(cfg, st->tcard[i]);
    int n = 0;
    if (ns) {
        if (cfg->s2_head) {
            for (int i = 0; i < ns; i++)
                if (st_beats(KIND(cfg, same[i]), best, st->trump, lw)) out[n++] = same[i];
            if (n) return n;
        }
        memcpy(out, same, (size_t)ns * sizeof(uint16_t));
        return ns;
    }
    if (st->trump >= 0 && cfg->s2_trump) {
        uint16_t trumps[MAXH];
        int nt = 0;
        for (int i = 0; i < hn; i++)
            if (KIND(cfg, hand[i]) >> 3 == st->trump) trumps[nt++] = hand[i];
        if (nt) {
            if (cfg->s2_head) {
                for (int i = 0; i < nt; i++)
                    if (st_beats(KIND(cfg, trumps[i]), best, st->trump, lw)) out[n++] = trumps[i];
                if (n) return n;
                memcpy(out, hand, (size_t)hn * sizeof(uint16_t));
                return hn;
            }
            memcpy(out, trumps, (size_t)nt * sizeof(uint16_t));
            return nt;
        }
    }
    memcpy(out, hand, (size_t)hn * sizeof(uint16_t));
    return hn;
}

static int playable(const State *st, const Config *cfg, int seat, uint16_t *out) {
    int n = duty(st, cfg, seat, out);
    if (__builtin_expect(cfg->wild_last, 0) && wild_last(st, cfg, seat)) {
        int m = 0;
        for (int i = 0; i < n; i++)
            if (KIND(cfg, out[i]) != WILD_KIND) out[m++] = out[i];
        if (m) return m;
        return duty(st, cfg, seat, out); /* nothing but wild cards may be played */
    }
    return n;
}

int st_play_cards(const State *st, const Config *cfg, int seat, uint16_t *pick) {
    uint16_t buf[MAXH];
    const uint16_t *cards = st->hand[seat];
    int np = st->hn[seat], n = 0;
    if ((st->tn && (st->stage != 1 || cfg->s1_follow)) || wild_last(st, cfg, seat)) {
        /* a duty to follow, or to keep a wild card, may narrow the choice */
        np = playable(st, cfg, seat, buf);
        cards = buf;
    }
    if (!st->ntable[seat]) { /* the usual case, none declared: one action per kind */
        int prev = -1;
        for (int i = 0; i < np; i++) {
            int k = KIND(cfg, cards[i]);
            if (k == prev) continue;
            prev = k;
            pick[n++] = cards[i];
        }
        return n;
    }
    /* cards of one kind are next to each other: one action per (kind, mask), masks in order */
    const Mask *mask = st->mask;
    int start = 0, prev = -1;
    for (int i = 0; i < np; i++) {
        uint16_t c = cards[i];
        int k = KIND(cfg, c);
        if (k != prev) { /* a kind's first card starts its actions */
            prev = k;
            start = n;
            pick[n++] = c;
            continue;
        }
        Mask m = mask[c];
        int dup = 0;
        for (int b = start; b < n && !dup; b++) dup = mask_eq(mask[pick[b]], m);
        if (dup) continue;
        int at = n++;
        while (at > start && mask_lt(m, mask[pick[at - 1]])) {
            pick[at] = pick[at - 1];
            at--;
        }
        pick[at] = c;
    }
    return n;
}

static int play_moves(const State *st, const Config *cfg, int seat, Move *out, int max) {
    /* the cards worked out in a local list first (a store to a Move, which holds bytes, could
       alias anything and would make the compiler reload every value) */
    uint16_t pick[MAXH];
    int n = st_play_cards(st, cfg, seat, pick);
    if (n > max) return -1;
    for (int i = 0; i < n; i++) {
        out[i].type = MV_PLAY;
        out[i].meld = 0;
        out[i].n = 1;
        out[i].ids[0] = pick[i];
    }
    return n;
}

/* The plan items (bits, plan_indexed) whose needed kinds are all held, and those needing copies
 * of a rank held often enough; plan_held then tests each.  For a hand without a wild card (one
 * with a wild card tries every item). */
static inline uint64_t plan_candidates(const Config *cfg, int pi, const uint64_t *have, const uint8_t *by_rank) {
    const uint64_t(*sub)[256] = cfg->plan_sub_byte[pi];
    uint64_t ks = have[1];
    uint64_t cand = sub[0][ks & 255] & sub[1][ks >> 8 & 255] & sub[2][ks >> 16 & 255] & sub[3][ks >> 24 & 255];
    /* the ranks held at least plan_rank_min times, all eight at once: each byte of
       (counts + 128) - least keeps its high bit where the count reaches the least */
    uint64_t counts, hi = 0x8080808080808080ULL;
    memcpy(&counts, by_rank, sizeof counts);
    for (uint64_t ok = ((counts | hi) - cfg->plan_rank_least[pi]) & hi; ok; ok &= ok - 1) {
        int r = __builtin_ctzll(ok) >> 3;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        r = 7 - r;
#endif
        cand |= cfg->plan_by_rank[pi][r];
    }
    return cand;
}

/* declare_moves, inlined where a trick ends */
static inline int declarations(const State *st, const Config *cfg, int seat, Move *out, int max) {
    int trump = st->trump, pi = trump < 0 ? 4 : trump;
    int room = st->decl < cfg->melds_per_trick;
    /* min_tricks_before_declaring: no meld yet, though the seven may be exchanged where
       exchange_before_min_tricks allows it */
    int may_meld = !cfg->min_tricks || st->won[seat] >= cfg->min_tricks;
    /* have[j]: the kinds held at least j times; by_rank: the cards of each rank (State keeps
       both as cards come and go) */
    const uint64_t *have = st->khave[seat];
    uint64_t cand = 0;
    int all = 0;
    if (room && may_meld) {
        /* a wild card may fill any gap: no pre-check */
        if (have[1] >> WILD_KIND & 1)
            all = 1;
        else if (!cfg->plan_indexed[pi])
            return declare_more(st, cfg, seat, out, max, 0, 0, may_meld, room);
        else
            cand = plan_candidates(cfg, pi, have, st->krank[seat]);
    }
    /* most calls find nothing: no candidate item, no exchange, no partner */
    int ek = cfg->exch_kind[pi];
    int exch = ek >= 0 && st->turn_up >= 0 && (have[1] >> ek & 1) && KIND(cfg, st->turn_up) != ek;
    if (cand | all || exch || cfg->partner_or)
        return declare_more(st, cfg, seat, out, max, cand, all, may_meld, room);
    return 0;
}

int declare_moves(const State *st, const Config *cfg, int seat, Move *out, int max) {
    return declarations(st, cfg, seat, out, max);
}

int st_moves(const State *st, const Config *cfg, Move *out, int max) {
    if (st->phase == PH_PLAY) return play_moves(st, cfg, st->to_move, out, max);
    if (st->phase == PH_DECLARE) {
        int n;
        if (dcache.gen == st->gen && dcache.n <= max) {
            n = dcache.n;
            if (n > 0) memcpy(out, dcache.moves, sizeof(Move) * (size_t)n);
        } else {
            n = declare_moves(st, cfg, st->to_move, out, max);
        }
        if (n == 0 && max > 0) {
            /* a world rebuilt from another seat's view may leave nothing to declare */
            out[0].type = MV_PASS;
            out[0].meld = 0;
            out[0].n = 0;
            n = 1;
        }
        return n;
    }
    return 0;
}

const Move *st_declarations(const State *st, int *n) {
    if (st->phase != PH_DECLARE || dcache.gen != st->gen || dcache.n <= 0) return NULL;
    *n = dcache.n;
    return dcache.moves;
}

/* --- applying actions --------------------------------------------------------------------- */
static void draw(State *st, const Config *cfg);
static inline void draw_cards(State *st, const Config *cfg);

static void continue_declaring(State *st, const Config *cfg) {
    int n = declare_moves(st, cfg, st->to_move, dcache.moves, MAXMOVES);
    dcache.n = n;
    dcache.pending = 1;
    if (n == 0) draw(st, cfg);
}

static void break_melds(State *st, int cid) {
    Inst broken[MAXINST];
    int nb = 0, keep = 0;
    for (int i = 0; i < st->ninst; i++) {
        Inst *in = &st->inst[i];
        int has = 0;
        for (int j = 0; j < in->n; j++)
            if (in->ids[j] == cid) has = 1;
        if (has)
            broken[nb++] = *in;
        else
            st->inst[keep++] = *in;
    }
    st->ninst = (uint16_t)keep;
    for (int b = 0; b < nb; b++) {
        int meld = broken[b].meld;
        for (int j = 0; j < broken[b].n; j++) {
            int c = broken[b].ids[j], live = 0;
            if (c == cid) continue;
            for (int i = 0; i < st->ninst && !live; i++)
                if (st->inst[i].meld == meld)
                    for (int a = 0; a < st->inst[i].n; a++)
                        if (st->inst[i].ids[a] == c) live = 1;
            if (!live) {
                st->mask[c].lo &= ~(1ULL << meld);
                st->mask[c].hi |= 1ULL << meld;
            }
        }
    }
}

/* The end of a deal: the trick points settle (Deal._settle_tricks): none when the deal ended
 * early (unless they count at once), or the brisque-majority adjustment (core/brisques.py). */
static void finish(State *st, const Config *cfg) {
    st->phase = PH_OVER;
    st->to_move = -1;
    if (st->early && !cfg->immediate) {
        for (int s = 0; s < cfg->sides; s++) st->pts[s][PART_TRICKS] = 0;
    } else if (cfg->majority && cfg->sides == 2) {
        int64_t adj[2];
        for (int s = 0; s < 2; s++) {
            const int64_t *p = st->pts[s];
            int64_t mine = p[PART_TRICKS], theirs = st->pts[1 - s][PART_TRICKS];
            int64_t score = st->carry[s] + p[PART_MELDS] + p[PART_LAST] + p[PART_BONUS];
            if (score < cfg->b_min)
                adj[s] = 0;
            else if (mine == theirs)
                adj[s] = cfg->b_tie;
            else if (mine > theirs)
                adj[s] = mine;
            else if (cfg->floor_zero)
                adj[s] = -(cfg->b_penalty < (score > 0 ? score : 0) ? cfg->b_penalty : (score > 0 ? score : 0));
            else
                adj[s] = -cfg->b_penalty;
        }
        for (int s = 0; s < 2; s++) st->pts[s][PART_TRICKS] = adj[s];
    }
}

/* target_check=immediate (HAITIAN.md 6): a side whose game score reaches the target ends the
 * deal at once; returns 1 if it did. */
static int target_check(State *st, const Config *cfg) {
    if (st->phase == PH_OVER) return 0;
    int64_t pts[MAXP];
    st_points(st, cfg, pts);
    for (int s = 0; s < cfg->sides; s++)
        if (st->carry[s] + pts[s] >= cfg->target) {
            st->early = 1;
            finish(st, cfg);
            return 1;
        }
    return 0;
}

/* the option tested where the call is (most rules never end a deal early) */
static inline int target_reached(State *st, const Config *cfg) { return cfg->target_now && target_check(st, cfg); }

static void drop_insts(State *st, int cid) {
    int keep = 0;
    for (int i = 0; i < st->ninst; i++) {
        const Inst *in = &st->inst[i];
        int has = 0;
        for (int j = 0; j < in->n; j++) has |= in->ids[j] == cid;
        if (!has) st->inst[keep++] = *in;
    }
    st->ninst = (uint16_t)keep;
}

/* A concealed card cid leaves seat's hidden cards (played, shown, exchanged).  If it was not
   known but a like copy in the hand was, the others cannot tell which went, so that copy stops
   being known (as _forget_like_copy in core.transitions; the meld's other cards keep their
   marks). */
static void forget_like_copy(State *st, const Config *cfg, int seat, int cid, const Move *mv) {
    if (!st->views || st->known[cid]) return;
    int k = KIND(cfg, cid);
    const uint16_t *h = st->hand[seat];
    for (int i = 0, n = st->hn[seat]; i < n; i++) {
        int c = h[i];
        if (!st->known[c] || c == cid || KIND(cfg, c) != k || HAS_MASK(st->mask[c])) continue;
        int leaving = 0;
        for (int j = 0; mv && j < mv->n; j++) leaving |= mv->ids[j] == c;
        if (leaving) continue;
        st->known[c] = 0;
        return;
    }
}

/* The mover plays card cid (at place at of the hand; -1: not known). */
static inline __attribute__((always_inline)) void play_card(State *st, const Config *cfg, int cid, int at) {
    int seat = st->to_move;
    if (at >= 0)
        hand_remove_at(st, cfg, seat, at);
    else
        hand_remove(st, cfg, seat, cid);
    if (st->views && !HAS_MASK(st->mask[cid])) forget_like_copy(st, cfg, seat, cid, NULL);
    int k = KIND(cfg, cid);
    if ((k & 7) == RANK_SEVEN && st->stage == 1 && cfg->second_seven == 1 && cfg->seven_pts && st->trump >= 0 &&
        k == st->trump * 8 + RANK_SEVEN && !HAS_MASK(st->mask[cid]))
        score(st, cfg, seat, PART_MELDS, cfg->seven_pts);
    if (HAS_MASK(st->mask[cid])) {
        if (cfg->reforming)
            break_melds(st, cid);
        else if (st->ninst) /* a marriage a sequence must join is broken */
            drop_insts(st, cid);
        st->mask[cid].lo = st->mask[cid].hi = 0;
        st->ntable[seat]--;
    }
    st->known[cid] = 0;
    st->tseat[st->tn] = (uint8_t)seat;
    st->tcard[st->tn++] = (uint16_t)cid;
    if (st->tn < cfg->nactive) { /* the next seat that takes part */
        st->to_move = (int8_t)cfg->seat_order[st->dealer][seat][1];
        return;
    }
    int win_seat = st->tseat[0], best = KIND(cfg, st->tcard[0]), trump = st->trump;
    for (int i = 1; i < st->tn; i++) {
        int kc = KIND(cfg, st->tcard[i]);
        if (st_beats(kc, best, trump, cfg->lead_wins)) {
            best = kc;
            win_seat = st->tseat[i];
        }
    }
    int64_t value = cfg->per_trick;
    for (int i = 0; i < st->tn; i++) {
        value += cfg->kval[KIND(cfg, st->tcard[i])];
        st->played[KIND(cfg, st->tcard[i])]++;
    }
    int ntrick = st->tn;
    st->tn = 0;
    st->ntricks++;
    st->won[win_seat]++;
    st->last_winner = (int16_t)win_seat;
    st->last_leader = st->leader;
    if ((best & 7) == RANK_SEVEN && st->stage == 1 && cfg->second_seven == 2 && cfg->seven_pts && trump >= 0 &&
        best == trump * 8 + RANK_SEVEN)
        score(st, cfg, win_seat, PART_MELDS, cfg->seven_pts);
    if (cfg->second_seven >= 3 && cfg->seven_pts && trump >= 0) /* play-always, capture (HAITIAN.md 4) */
        for (int i = 0; i < ntrick; i++)
            if (KIND(cfg, st->tcard[i]) == trump * 8 + RANK_SEVEN)
                score(st, cfg, cfg->second_seven == 4 ? win_seat : st->tseat[i], PART_MELDS, cfg->seven_pts);
    if (value) st->pts[side_of(cfg, win_seat)][PART_TRICKS] += value;
    int led_by = st->leader;
    st->leader = (int8_t)win_seat;
    st->to_move = (int8_t)win_seat;
    if (target_reached(st, cfg)) return;
    if (st->stage == 1) {
        st->decl = 0;
        st->exched = 0;
        if ((win_seat != led_by || !cfg->only_beating) &&
            (!cfg->min_tricks || cfg->exch_before || st->won[win_seat] >= cfg->min_tricks)) {
            int nd = declarations(st, cfg, win_seat, dcache.moves, MAXMOVES);
            if (nd) {
                dcache.n = nd;
                dcache.pending = 1;
                dcache.gen = st->gen; /* play_at gave the state its new gen first; st_apply rekeys it */
                st->phase = PH_DECLARE;
                return;
            }
        }
        draw_cards(st, cfg); /* inlined: the usual end of a trick */
    } else if (!st->hn[win_seat]) {
        if (cfg->last_bonus) score(st, cfg, win_seat, PART_LAST, cfg->last_bonus);
        finish(st, cfg);
    }
}

/* trump_set_scoring=cumulative (scoring.meld_points): a set pays every card beyond the largest
 * set of its family its cards have shown already (read before this meld marks them). */
static int64_t set_points(const State *st, const Config *cfg, const Move *mv) {
    int m = mv->meld, shown = 0;
    for (int n = 1; n < 9; n++) {
        int mm = cfg->set_member[m][n];
        if (mm < 0) continue;
        for (int i = 0; i < mv->n; i++)
            if (st->mask[mv->ids[i]].lo >> mm & 1) {
                shown = n;
                break;
            }
    }
    return cfg->set_pts[m][shown];
}

static void meld(State *st, const Config *cfg, const Move *mv) {
    int seat = st->to_move, m = mv->meld;
    int64_t set_pts = cfg->cumulative && cfg->set_member[m][0] >= 0 ? set_points(st, cfg, mv) : -1;
    for (int i = 0; i < mv->n; i++) {
        Mask *mk = &st->mask[mv->ids[i]];
        if (!HAS_MASK(*mk)) {
            st->ntable[seat]++;
            forget_like_copy(st, cfg, seat, mv->ids[i], mv);
        }
        mk->lo |= 1ULL << m;
    }
    int64_t points = cfg->meld_score[m];
    if (st->trump < 0 && (TRUMP_FIXING_BITS >> m & 1)) {
        int i = 0; /* the suit of a real card: a wild card may stand in for the king */
        while (i < mv->n - 1 && KIND(cfg, mv->ids[i]) == WILD_KIND) i++;
        st->trump = (int8_t)(KIND(cfg, mv->ids[i]) >> 3);
        if (m == M_DOUBLE_ROYAL_MARRIAGE && cfg->tdm) points = cfg->tdm;
    }
    if ((cfg->reforming || (m == M_ROYAL_MARRIAGE && cfg->seq_marriage)) && st->ninst < MAXINST) {
        Inst *in = &st->inst[st->ninst++];
        in->seat = (uint8_t)seat;
        in->meld = (uint8_t)m;
        in->n = mv->n;
        memcpy(in->ids, mv->ids, sizeof in->ids);
    }
    if (m == M_BEZIQUE && cfg->first_bez) { /* the game's first bezique scores first_bezique */
        int before = st->game_bez; /* one came in an earlier deal of the game (HAITIAN.md H07) */
        for (int s = 0; s < cfg->players; s++) before += st->nmeld[s][M_BEZIQUE];
        if (!before) points = cfg->first_bez;
    }
    if (cfg->repeat_doubles) {
        int d = m == M_ROYAL_MARRIAGE ? 0 : m == M_BEZIQUE ? 1 : m == M_TRUMP_SEQUENCE ? 2 : -1;
        if (d >= 0) points <<= st->ndoubled[seat][d]++;
    }
    if (set_pts >= 0) points = set_pts;
    score(st, cfg, seat, PART_MELDS, points);
    st->nmeld[seat][m]++;
    st->decl++;
    if (!target_reached(st, cfg)) continue_declaring(st, cfg);
}

static void exchange(State *st, const Config *cfg, int cid) {
    int seat = st->to_move, up = st->turn_up;
    hand_remove(st, cfg, seat, cid);
    forget_like_copy(st, cfg, seat, cid, NULL);
    hand_insert(st, cfg, seat, up);
    st->known[up] = 1;
    st->turn_up = (int16_t)cid;
    st->exched = 1;
    st->nexch[seat]++;
    if (cfg->exch_counts) st->decl++;
    if ((KIND(cfg, cid) & 7) == RANK_SEVEN) score(st, cfg, seat, PART_MELDS, cfg->seven_pts);
    continue_declaring(st, cfg);
}

static inline __attribute__((always_inline)) void draw_cards(State *st, const Config *cfg) {
    int winner = st->leader, drawn[MAXP] = {0};
    /* the trick's winner draws first, or (draw_order=leader-first) the one who led it */
    int first = cfg->leader_draws && st->last_leader >= 0 ? st->last_leader : winner;
    const uint8_t *order = cfg->seat_order[st->dealer][first];
    int no = cfg->nactive;
    if (st->nstock > no) { /* the usual case: a card from the stock each, and more left */
        for (int i = 0; i < no; i++) {
            int c = st->stock[--st->nstock];
            hand_insert(st, cfg, order[i], c);
            drawn[order[i]] = c;
        }
    } else {
        for (int i = 0; i < no; i++) {
            int seat = order[i], c;
            if (st->nstock) {
                c = st->stock[--st->nstock];
                if (!st->nstock && st->turn_up >= 0 && i == 0 && cfg->reveal_last) st->known[c] = 1;
            } else if (st->turn_up >= 0) {
                c = st->turn_up;
                st->turn_up = -1;
                st->known[c] = 1;
            } else {
                break;
            }
            hand_insert(st, cfg, seat, c);
            drawn[seat] = c;
        }
    }
    st->phase = PH_PLAY;
    st->to_move = (int8_t)winner;
    st->decl = 0;
    st->exched = 0;
    if (cfg->carte_blanche && (st->nstock || st->turn_up >= 0)) carte_blanche(st, cfg, order, no, drawn);
    if (!st->nstock && st->turn_up < 0 && !cfg->play_out) {
        if (cfg->last_bonus) score(st, cfg, winner, PART_LAST, cfg->last_bonus);
        finish(st, cfg);
    } else if (!st->nstock && st->turn_up < 0) {
        st->stage = 2;
        st->ninst = 0;
        memset(st->ntable, 0, sizeof st->ntable);
        for (int s = 0; s < cfg->players; s++)
            for (int i = 0; i < st->hn[s]; i++) {
                int c = st->hand[s][i];
                if (HAS_MASK(st->mask[c])) {
                    st->mask[c].lo = st->mask[c].hi = 0;
                    st->known[c] = 1;
                }
            }
    }
}

static void draw(State *st, const Config *cfg) { draw_cards(st, cfg); }

void st_apply(State *st, const Config *cfg, const Move *mv) {
    uint64_t g = next_gen();
    dcache.pending = 0;
    dcache.gen = 0;
    switch (mv->type) {
    case MV_PLAY:
        play_card(st, cfg, mv->ids[0], -1);
        break;
    case MV_MELD:
        meld(st, cfg, mv);
        break;
    case MV_EXCH:
        exchange(st, cfg, mv->ids[0]);
        break;
    case MV_PARTNER:
        st->to_move = (int8_t)((st->leader + 2) % cfg->players);
        continue_declaring(st, cfg);
        break;
    default:
        draw(st, cfg);
    }
    st->gen = g;
    if (dcache.pending && st->phase == PH_DECLARE) dcache.gen = g;
}

/* st_apply of the play of the card at place at of the mover's hand (random play knows it). */
static inline __attribute__((always_inline)) void play_at(State *st, const Config *cfg, int at) {
    st->gen = next_gen(); /* first: the end of a trick keys the declarations it lists by it */
    dcache.gen = 0;
    play_card(st, cfg, st->hand[st->to_move][at], at);
}

/* --- random play (simulate and random playouts) ------------------------------------------ */
/* The kinds seat may play, as bits (tricks.follow_duty and the last-resort wild card, as
   playable works them out card by card: every card of a kind is alike there). */
static uint64_t playable_kinds(const State *st, const Config *cfg, int seat) {
    uint64_t held = st->khave[seat][1], out = held;
    if (st->tn && (st->stage != 1 || cfg->s1_follow)) {
        int best = cfg->kind_of[st->tcard[0]], led = best >> 3, trump = st->trump, lw = cfg->lead_wins;
        uint64_t same = led < 4 ? held & 0xffULL << (led * 8) : 0; /* a wild card led: no suit */
        if (st->stage == 1) {
            out = same ? same : held;
        } else {
            for (int i = 1; i < st->tn; i++)
                if (st_beats(cfg->kind_of[st->tcard[i]], best, trump, lw)) best = cfg->kind_of[st->tcard[i]];
            uint64_t trumps = trump >= 0 && cfg->s2_trump ? held & 0xffULL << (trump * 8) : 0;
            uint64_t must = same ? same : trumps, beat = 0;
            if (must && cfg->s2_head)
                for (uint64_t m = must; m; m &= m - 1)
                    if (st_beats(__builtin_ctzll(m), best, trump, lw)) beat |= m & -m;
            /* following: the cards that beat, else any of the suit; trumping: the trumps that
               beat, else (with a duty to head) any card */
            out = beat ? beat : same ? same : trumps && !cfg->s2_head ? trumps : held;
        }
    }
    if (cfg->wild_last && st->stage == 2 && (out >> WILD_KIND & 1) && (out & ~(1ULL << WILD_KIND)))
        out &= ~(1ULL << WILD_KIND);
    return out;
}

/* The uniform random choice of an action, as st_moves lists them, without building them: a
   declaration read where the engine keeps them; a card to play: where no card in hand is
   declared or no kind it may play is held twice, one action per kind (the first card of each
   kind: card ids run kind by kind). */
static inline int random_step(State *st, const Config *cfg, Rng *rng) {
    int seat = st->to_move;
    if (st->phase != PH_PLAY) {
        int n;
        const Move *decl = st_declarations(st, &n);
        if (!decl) return 0;
        Move mv = decl[rng_below(rng, (uint32_t)n)]; /* copied: applying it lists the next ones */
        st_apply(st, cfg, &mv);
        return 1;
    }
    const uint16_t *h = st->hand[seat];
    int i = 0;
    uint64_t kinds = playable_kinds(st, cfg, seat);
    if (kinds == st->khave[seat][1]) { /* any card */
        if (!kinds) return 0;
        /* a card at random, kept with chance 1 / the cards alike held (else drawn again):
           every action alike; then the first card of those.  Cards alike: the copies of its
           kind, or where cards are declared those of the same history (one action per kind and
           history, as st_play_cards lists them) */
        const uint8_t *count = st->kcount[seat];
        uint64_t hn = st->hn[seat];
        int declared = st->ntable[seat];
        for (;;) {
            uint64_t x = rng_next(rng);
            i = (int)(((x >> 32) * hn) >> 32);
            int k = KIND(cfg, h[i]), c = count[k];
            if (c == 1) break;
            int f = i; /* the kind's first card */
            for (int first = cfg->first_id[k]; f && h[f - 1] >= first;) f--;
            int alike = c, rep = f;
            if (declared) {
                Mask m = st->mask[h[i]];
                alike = 0;
                rep = -1;
                for (int j = f; j < f + c; j++)
                    if (mask_eq(st->mask[h[j]], m)) {
                        if (rep < 0) rep = j;
                        alike++;
                    }
            }
            if (!(((x & 0xffffffffULL) * (uint64_t)alike) >> 32)) {
                i = rep;
                break;
            }
        }
    } else if (st->ntable[seat] && (kinds & st->khave[seat][2])) {
        /* declared cards, a duty, and a kind held more than once: the actions listed */
        uint16_t pick[MAXH];
        int n = st_play_cards(st, cfg, seat, pick);
        if (n <= 0) return 0;
        int c = pick[rng_below(rng, (uint32_t)n)];
        while (h[i] != c) i++;
    } else { /* a duty to follow: the few kinds allowed, as bits */
        int n = 0;
        for (uint64_t m = kinds; m; m &= m - 1) n++;
        for (uint32_t r = rng_below(rng, (uint32_t)n); r; r--) kinds &= kinds - 1;
        int first = cfg->first_id[__builtin_ctzll(kinds)];
        while (h[i] < first) i++;
    }
    play_at(st, cfg, i);
    return 1;
}

int st_random_run(State *st, const Config *cfg, Rng *rng) {
    int steps = 0;
    while (st->phase != PH_OVER && random_step(st, cfg, rng)) steps++;
    return steps;
}

void st_points(const State *st, const Config *cfg, int64_t *out) {
    int count = st->phase == PH_OVER || cfg->immediate;
    for (int s = 0; s < cfg->sides; s++) {
        const int64_t *p = st->pts[s];
        out[s] = p[PART_MELDS] + p[PART_LAST] + p[PART_BONUS] + (!cfg->settle && count ? p[PART_TRICKS] : 0);
    }
}
