/* Whole deals, playouts, the stage-2 solver and determinization in C (search.c). */
#ifndef BEZIQUE_FAST_SEARCH_H
#define BEZIQUE_FAST_SEARCH_H

#include "engine.h"

enum { POLICY_RANDOM = 0, POLICY_HEURISTIC = 1, POLICY_HEURISTIC_EXACT = 2, POLICY_MELD = 3, POLICY_MELD_EXACT = 4, POLICY_SMART = 5,
       POLICY_SMART_EXACT = 6 };

/* The declarations seat could make now (engine.c): their number, -1 when out is too small. */
int declare_moves(const State *st, const Config *cfg, int seat, Move *out, int max);

/* Play the deal to its end, choosing with the policy; returns 0, or -1 on too many actions. */
int play_out(State *st, const Config *cfg, int policy, Rng *rng);

/* Exact stage-2 values for side of each kind the seat to move may play (solver.c): the number
   of kinds, or -1 when more than max_nodes nodes (0: no limit) were needed. */
int solve_stage2(const State *st, const Config *cfg, const double *per_rank, double per_trick, int side,
                 long max_nodes, int *kinds, double *values, long *nodes);

/* The exact stage-2 value for side of the tricks left (solver.c): 0 and *value, -1 past the
   node limit, -2 without memory. */
int solve_stage2_value(const State *st, const Config *cfg, const double *per_rank, double per_trick, int side,
                       long max_nodes, double *value, long *nodes);

/* The calling thread's CPU time in seconds (search.c): the clock of a search's budget. */
double thread_cpu_seconds(void);

/* Fill the solver's fixed hashing keys (solver.c): once, when the module is loaded, before any
   search runs without the GIL. */
void solver_setup(void);

/* The search players' utility for side: its points less the mean of the other sides' (search.c). */
double state_utility(const State *st, const Config *cfg, int side);

/* Deal every card seat has not seen (other seats' unknown concealed cards, the stock) again at
   random among those places (search.c). */
void determinize_state(State *st, const Config *cfg, int seat, Rng *rng);
void determinize_biased(State *st, const Config *cfg, int seat, Rng *rng, const double *bias);

/* The action the plain or 'meld' policy picks (meld_aware), the 'smart' one with weights sp,
   and the policy of play_out (POLICY_*) picks; explore: chance of a uniform pick; noisy: small
   random tie-breaks (policy.c). */
int heuristic_pick(const State *st, const Config *cfg, const Move *mv, int n, Rng *rng, double explore, int noisy,
                   int meld_aware);
int smart_pick(const State *st, const Config *cfg, const Move *mv, int n, Rng *rng, double explore, int noisy,
               const double *sp);
int policy_pick(const State *st, const Config *cfg, const Move *mv, int n, Rng *rng, int policy);

/* Play on with the default policy (style 0 plain, 1 'meld', 2 'smart'; a uniform move with
   chance explore), the stage-2 solver finishing from the first trick of stage 2 while it needs
   at most max_nodes nodes (0: never): the margin for side (*solved set where the solver
   finished; its nodes added to *nodes).  NAN when an action list overflowed (search.c). */
double search_rollout(State *st, const Config *cfg, int side, Rng *rng, double explore, long max_nodes, int style,
                      int *solved, long *nodes);

/* The index of the action the policy of this style (0 plain, 1 'meld', 2 'smart') picks with
   no random move and no noise (policy.c). */
int policy_choice(const State *st, const Config *cfg, const Move *mv, int n, int style);

/* The weights of the 'smart' policy (policy.c's SMART_DEFAULT says what each is; in Python,
   bezique.fast.SMART_PARAMS), then those of its learned terms (SMART_NLEARN of them, 0 in
   SMART_DEFAULT; bezique.fast.smart.LEARNED_FEATURES), then its network's. */
enum {
    SP_POWER = 0, /* 8 of them, by rank */
    SP_TRUMP = 8, SP_MELD, SP_EXCHANGE, SP_LATE_TRUMP, SP_LATE_TRUMP_RANK, SP_LATE_ACE, SP_DECLARE, SP_WIN_BASE,
    SP_LAST_TRICK, SP_LEAD_RISK, SP_LEAD_WIN_COST, SP_LOSE, SP_HOLD, SP_LEARN,
    SMART_NLEARN = 56, SP_NET = SP_LEARN + SMART_NLEARN,
    /* A small network on top (0 in SMART_DEFAULT): SMART_NHIDDEN rectified units over the
       card's value by the rules alone and its learned features (SMART_NIN inputs); per unit its input
       weights (SP_NET + h * SMART_NIN + j), then every unit's bias, then every unit's weight in
       the card's value (bezique.fast.smart.NET_SHAPE). */
    SMART_NHIDDEN = 16, SMART_NIN = SMART_NLEARN + 1,
    SMART_NPARAM = SP_NET + SMART_NHIDDEN * (SMART_NIN + 2)
};
extern const double SMART_DEFAULT[SMART_NPARAM];

/* The 'smart' policy's choice with these weights, no random move and no noise (policy.c). */
int smart_choice(const State *st, const Config *cfg, const Move *mv, int n, const double *sp);

/* Most stage-1 positions endgame_value visits for one world and candidate. */
#define ENDGAME_POSITIONS 20000L

/* The exact value for side of a two-handed deal near the end of the stock, every card known
   (endgame.c): alpha-beta over the stage-1 moves left, the stage-2 solver (at most leaf_nodes
   nodes a position) at every line's first stage-2 trick.  0 and *value; -1 where it gives up
   (other rules, more than max_positions positions, a solver past its limit); -2 without memory.
   Its solver nodes are added to *nodes. */
int endgame_value(const State *st, const Config *cfg, int side, long leaf_nodes, long max_positions, double *value,
                  long *nodes);

/* The learned evaluation (value.c, bezique.bots.value): VALUE_NF features of a seat's view, and
   a network given as its folded layers (w: the linear part, its bias, then per hidden unit its
   VALUE_NF input weights, bias and output weight). */
#define VALUE_NF 106
typedef struct {
    double *w;
    int nh;
} ValueNet;
/* Whether the features can be read on these rules (brisques told apart by their trick points). */
int value_supported(const Config *cfg);
void value_features(const State *st, const Config *cfg, int seat, double *x);
/* The expected final margin of seat's side, from seat's view of the state. */
double value_eval(const State *st, const Config *cfg, const ValueNet *net, int seat);

#endif
