/* The end of the stock solved exactly inside one world (the PIMC rollouts of search.c).

   Within a world every hand and the order of the stock are fixed, so the last tricks of stage
   1 (the plays, the declarations, the draws) and all of stage 2 form a game of perfect
   information.  Near the end of the stock the search players' PIMC values a candidate by this
   game's exact value instead of a playout by the default policy: alpha-beta over the stage-1
   moves left, each line ended by the exact stage-2 solver (solver.c) once stage 2 starts.

   Two-handed games only (there the stage-2 solver is exact on every line); the caller plays
   the world out with its policy where this gives up (more stage-1 nodes or solver nodes than
   allowed, too many actions in one position). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "search.h"

enum { EG_LEVELS = 24, EG_MOVES = 256 };

typedef struct {
    const Config *cfg;
    int side;
    long leaf_nodes; /* most solver nodes for one stage-2 position */
    long budget;     /* stage-1 positions left to visit */
    long nodes;      /* solver nodes, added up */
    int failed;
    State *st;  /* one position a level */
    Move *mv;   /* EG_MOVES actions a level */
} Endgame;

static double eg_search(Endgame *e, int d, double alpha, double beta) {
    const State *st = &e->st[d];
    if (st->phase == PH_OVER) return state_utility(st, e->cfg, e->side);
    if (st->stage == 2 && st->phase == PH_PLAY) {
        double v;
        long used = 0;
        int rc = solve_stage2_value(st, e->cfg, e->cfg->pol_rank, e->cfg->pol_per_trick, e->side, e->leaf_nodes, &v,
                                    &used);
        e->nodes += used;
        if (rc != 0) {
            e->failed = 1;
            return 0.0;
        }
        return state_utility(st, e->cfg, e->side) + v;
    }
    if (d + 1 >= EG_LEVELS || --e->budget < 0) {
        e->failed = 1;
        return 0.0;
    }
    Move *mv = e->mv + (size_t)d * EG_MOVES;
    int n = st_moves(st, e->cfg, mv, EG_MOVES);
    if (n <= 0) {
        e->failed = 1;
        return 0.0;
    }
    /* two hands: a seat is its side */
    int maximize = st->to_move == e->side;
    double best = maximize ? -INFINITY : INFINITY;
    for (int i = 0; i < n; i++) {
        State *next = &e->st[d + 1];
        memcpy(next, st, sizeof(State));
        st_apply(next, e->cfg, &mv[i]);
        double v = eg_search(e, d + 1, alpha, beta);
        if (e->failed) return 0.0;
        if (maximize) {
            if (v > best) best = v;
            if (best > alpha) alpha = best;
        } else {
            if (v < best) best = v;
            if (best < beta) beta = best;
        }
        if (alpha >= beta) break;
    }
    return best;
}

int endgame_value(const State *st, const Config *cfg, int side, long leaf_nodes, long budget, double *value,
                  long *nodes) {
    if (cfg->players != 2 || cfg->active != 2 || cfg->partnerships || !cfg->pol_ready) return -1;
    Endgame e = {cfg, side, leaf_nodes, budget, 0, 0, NULL, NULL};
    e.st = malloc(sizeof(State) * EG_LEVELS);
    e.mv = malloc(sizeof(Move) * EG_MOVES * EG_LEVELS);
    if (!e.st || !e.mv) {
        free(e.st);
        free(e.mv);
        return -2;
    }
    memcpy(&e.st[0], st, sizeof(State));
    double v = eg_search(&e, 0, -INFINITY, INFINITY);
    *nodes += e.nodes;
    free(e.st);
    free(e.mv);
    if (e.failed) return -1;
    *value = v;
    return 0;
}
