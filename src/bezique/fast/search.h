/* Whole deals, playouts, the stage-2 solver and determinization in C (search.c). */
#ifndef BEZIQUE_FAST_SEARCH_H
#define BEZIQUE_FAST_SEARCH_H

#include "engine.h"

enum { POLICY_RANDOM = 0, POLICY_HEURISTIC = 1, POLICY_HEURISTIC_EXACT = 2 };

/* Play the deal to its end, choosing with the policy; returns 0, or -1 on too many actions. */
int play_out(State *st, const Config *cfg, int policy, Rng *rng);

#endif
