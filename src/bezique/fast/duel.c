/* Two weightings of the 'smart' policy against each other on mirrored decks, for tuning the
   policy (lab/scripts/tune_policy.py): everything runs in C, so a thousand decks cost about a second. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>

#include "search.h"

PyObject *config_type(void);
const Config *config_of(PyObject *o);
int smart_params(PyObject *seq, double *out);
PyObject *batch_begin(Py_ssize_t size, State **st);
PyObject *batch_end(PyObject *out, State *st, int failed);

/* One deal from a fresh shuffle of rng, `a` choosing for seat a_seat and `b` for the other:
   stage 1 and the declarations by the weights, from the first trick of stage 2 the exact
   solver's value (while it needs at most max_nodes nodes, else the policy plays on).  The
   margin of a_seat's side, NAN when an action list overflowed. */
static double duel_deal(State *st, const Config *cfg, Rng *rng, int dealer, int a_seat, const double *a,
                        const double *b, long max_nodes, long *nodes) {
    static _Thread_local Move buf[MAXMOVES];
    st_new(st, cfg, dealer, rng);
    st->views = 0; /* played to its end for its points: nobody reads the views */
    int side = a_seat, try_solver = max_nodes > 0;
    while (st->phase != PH_OVER) {
        if (try_solver && st->stage == 2 && st->phase == PH_PLAY) {
            double v;
            long used = 0;
            int rc = solve_stage2_value(st, cfg, cfg->pol_rank, cfg->pol_per_trick, side, max_nodes, &v, &used);
            *nodes += used;
            if (rc == 0) return state_utility(st, cfg, side) + v;
            try_solver = 0;
        }
        int n = st_moves(st, cfg, buf, MAXMOVES);
        if (n <= 0) return NAN;
        st_apply(st, cfg, &buf[smart_choice(st, cfg, buf, n, st->to_move == a_seat ? a : b)]);
    }
    return state_utility(st, cfg, side);
}

/* duel(config, decks, seed, a, b, max_nodes): for each deck (shuffled from seed and its number,
   the dealers taking turns), A's margin with A in seat 0 and then, the same cards dealt again,
   in seat 1; as bytes of 2 * decks doubles.  Two-handed rules only. */
PyObject *search_duel(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *co, *pa, *pb;
    long long decks;
    unsigned long long seed;
    long max_nodes;
    if (!PyArg_ParseTuple(args, "O!LKOOl", (PyTypeObject *)config_type(), &co, &decks, &seed, &pa, &pb, &max_nodes)) return NULL;
    double a[SMART_NPARAM], b[SMART_NPARAM];
    if (smart_params(pa, a) < 0 || smart_params(pb, b) < 0) return NULL;
    const Config *cfg = config_of(co);
    if (cfg->players != 2 || cfg->sides != 2)
        return PyErr_Format(PyExc_ValueError, "a duel needs two-handed rules: these have %d hands", cfg->players);
    if (decks < 0) return PyErr_Format(PyExc_ValueError, "decks must be at least 0: got %lld", decks);
    if (max_nodes < 0) return PyErr_Format(PyExc_ValueError, "max_nodes must be at least 0: got %ld", max_nodes);
    if (!cfg->pol_ready) return PyErr_Format(PyExc_RuntimeError, "the default policy is not set up");
    State *st;
    PyObject *out = batch_begin((Py_ssize_t)(decks * 2 * (long long)sizeof(double)), &st);
    if (!out) return NULL;
    double *margin = (double *)PyBytes_AS_STRING(out);
    long nodes = 0;
    int failed = 0;
    /* pure C from here (the engine's scratch space is per thread): other threads may run */
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < decks && !failed; i++) {
        uint64_t dseed = seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i;
        for (int g = 0; g < 2; g++) {
            Rng rng;
            rng_seed(&rng, dseed); /* the same cards in both deals of a deck */
            double v = duel_deal(st, cfg, &rng, (int)(i % 2), g, a, b, max_nodes, &nodes);
            failed |= isnan(v);
            margin[2 * i + g] = v;
        }
    }
    Py_END_ALLOW_THREADS
    return batch_end(out, st, failed);
}
