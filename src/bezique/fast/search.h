/* Whole deals, playouts, the stage-2 solver and determinization in C (search.c). */
#ifndef BEZIQUE_FAST_SEARCH_H
#define BEZIQUE_FAST_SEARCH_H

#include "engine.h"

enum { POLICY_RANDOM = 0, POLICY_HEURISTIC = 1, POLICY_HEURISTIC_EXACT = 2 };

/* Play the deal to its end, choosing with the policy; returns 0, or -1 on too many actions. */
int play_out(State *st, const Config *cfg, int policy, Rng *rng);

/* Exact stage-2 values for side of each kind the seat to move may play (solver.c): the number
   of kinds, or -1 when more than max_nodes nodes (0: no limit) were needed. */
int solve_stage2(const State *st, const Config *cfg, const double *per_rank, double per_trick, int side,
                 long max_nodes, int *kinds, double *values, long *nodes);

#endif
