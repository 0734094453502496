/* Starting a deal (Deal.new, Deal.from_cards), its random source, and carte blanche: the
 * parts of bezique.core.transitions the engine runs outside the play of a trick (see engine.c). */
#include <stddef.h>
#include <string.h>

#include "engine_int.h"

/* --- random source ------------------------------------------------------------------------ */
static uint64_t splitmix(uint64_t *x) {
    uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

void rng_seed(Rng *r, uint64_t seed) { r->s = splitmix(&seed); }

void st_recount_kinds(State *st, const Config *cfg) {
    memset(st->kcount, 0, sizeof st->kcount);
    memset(st->krank, 0, sizeof st->krank);
    memset(st->khave, 0, sizeof st->khave);
    for (int s = 0; s < MAXP; s++)
        for (int i = 0; i < st->hn[s]; i++) kinds_add(st, s, KIND(cfg, st->hand[s][i]));
}

/* --- carte blanche (RULES.md 2.1, 2.5) ----------------------------------------------------- */
static int blank(const State *st, const Config *cfg, int seat) {
    for (int i = 0; i < st->hn[seat]; i++)
        if (COURT_RANK_BITS >> (KIND(cfg, st->hand[seat][i]) & 7) & 1) return 0;
    return 1;
}

static void show_blank(State *st, const Config *cfg, int seat) {
    for (int i = 0; i < st->hn[seat]; i++) {
        int c = st->hand[seat][i];
        if (!HAS_MASK(st->mask[c])) st->known[c] = 1;
    }
    score(st, cfg, seat, PART_MELDS, cfg->carte_blanche);
    st->ncb[seat]++;
    st->cb_any = 1;
    st->cb_state[seat] = 1;
}

void carte_blanche(State *st, const Config *cfg, const uint8_t *order, int norder, const int *drawn) {
    if (!cfg->cb_repeat) {
        if (!st->cb_any)
            for (int i = 0; i < norder; i++)
                if (blank(st, cfg, order[i])) {
                    show_blank(st, cfg, order[i]);
                    break;
                }
        return;
    }
    for (int i = 0; i < norder; i++) {
        int seat = order[i];
        if (!drawn) {
            if (blank(st, cfg, seat)) show_blank(st, cfg, seat);
            continue;
        }
        if (st->cb_state[seat] == 1) {
            int c = drawn[seat];
            if (COURT_RANK_BITS >> (KIND(cfg, c) & 7) & 1) {
                st->cb_state[seat] = 2; /* "carte blanche ends" */
            } else {
                st->known[c] = 1;
                score(st, cfg, seat, PART_MELDS, cfg->carte_blanche);
                st->ncb[seat]++;
            }
        }
    }
}

/* --- starting a deal ------------------------------------------------------------------------ */
static void turn_up_bonus(State *st, const Config *cfg, int k) {
    int dealer = st->dealer;
    if (cfg->turn_up_bonus == 1 && (k & 7) == RANK_SEVEN) {
        score(st, cfg, dealer, PART_BONUS, 10);
    } else if (cfg->turn_up_bonus == 2) {
        if ((k & 7) == 0) {
            int s = k >> 3;
            score(st, cfg, dealer, PART_BONUS, (s == 0 || s == 3) ? 20 : 12);
        } else if ((k & 7) == RANK_SEVEN) {
            score(st, cfg, dealer, PART_BONUS, 10);
            for (int seat = 0; seat < cfg->players; seat++)
                if (side_of(cfg, seat) != side_of(cfg, dealer)) score(st, cfg, seat, PART_BONUS, -5);
        }
    }
}

static void st_blank(State *st, const Config *cfg, int dealer) {
    size_t head = offsetof(State, hand);
    memset(st, 0, head);
    st->views = 1;
    memset(st->known, 0, sizeof st->known);
    memset(st->played, 0, sizeof st->played);
    memset(st->mask, 0, (size_t)cfg->ncards * sizeof(Mask));
    memset(st->nmeld, 0, sizeof st->nmeld);
    memset(st->nexch, 0, sizeof st->nexch);
    memset(st->ncb, 0, sizeof st->ncb);
    st->ninst = 0;
    st->dealer = (int8_t)dealer;
    st->stage = 1;
    st->trump = -1;
    st->turn_up = -1;
    st->last_winner = -1;
    st->last_leader = -1;
}

void st_start(State *st, const Config *cfg, int dealer, uint16_t hands[MAXP][MAXH], const uint8_t *hn,
              int turn_up, const uint16_t *stock_draw_order, int nstock) {
    st_blank(st, cfg, dealer);
    int n = cfg->players;
    for (int s = 0; s < n; s++) {
        st->hn[s] = 0;
        for (int i = 0; i < hn[s]; i++) hand_insert(st, cfg, s, hands[s][i]);
    }
    st->nstock = (int16_t)nstock;
    for (int i = 0; i < nstock; i++) st->stock[nstock - 1 - i] = stock_draw_order[i];
    st->turn_up = (int16_t)turn_up;
    st->trump = turn_up >= 0 ? (int8_t)(KIND(cfg, turn_up) >> 3) : -1;
    st->leader = (int8_t)(cfg->first_left ? (dealer + 1) % n : (dealer - 1 + n) % n);
    st->to_move = st->leader;
    st->phase = PH_PLAY;
    if (turn_up >= 0) turn_up_bonus(st, cfg, KIND(cfg, turn_up));
    if (cfg->carte_blanche) {
        carte_blanche(st, cfg, cfg->seat_order[dealer][st->leader], cfg->nactive, NULL);
    }
    st_touch(st);
}

void st_new(State *st, const Config *cfg, int dealer, Rng *rng) {
    uint16_t order[MAXC];
    int nc = cfg->ncards;
    for (int i = 0; i < nc; i++) order[i] = (uint16_t)i;
    rng_shuffle(rng, order, nc);
    uint16_t hands[MAXP][MAXH];
    uint8_t hn[MAXP] = {0};
    const uint8_t *seats = cfg->seat_order[dealer][(dealer + 1) % cfg->players];
    int ns = cfg->nactive, pos = 0;
    for (int i = 0; i < ns; i++) {
        memcpy(hands[seats[i]], order + pos, (size_t)cfg->hand_size * sizeof(uint16_t));
        hn[seats[i]] = (uint8_t)cfg->hand_size;
        pos += cfg->hand_size;
    }
    int up = -1;
    if (cfg->has_turn_up) {
        /* a wild card cannot be the trump: it goes back into the stock at a random place and
           the next card is turned (core/dealing.py, decision 11) */
        int rest = nc - pos, guard = 0;
        while (cfg->wild && KIND(cfg, order[pos]) == WILD_KIND && rest > 1 && guard++ < 1000) {
            int at = 1 + (int)rng_below(rng, (uint32_t)(rest - 1)); /* its new place, 1 .. rest-1 */
            uint16_t w = order[pos];
            memmove(order + pos, order + pos + 1, (size_t)at * sizeof(uint16_t));
            order[pos + at] = w;
        }
        up = order[pos++];
    }
    st_start(st, cfg, dealer, hands, hn, up, order + pos, nc - pos);
}
