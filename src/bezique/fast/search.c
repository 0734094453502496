/* Whole deals and playouts inside C (module functions of bezique.fast._engine). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "search.h"

State *core_state(PyObject *o);
const Config *core_config(PyObject *o);
int core_check(PyObject *o);
void core_touch(PyObject *o);
PyObject *config_type(void);
PyObject *codes_list(const Config *cfg, const uint16_t *ids, int n);
int smart_params(PyObject *seq, double *out);

const Config *config_of(PyObject *o);
int value_net_of(const char *data, Py_ssize_t len, ValueNet *net); /* value.c */


int play_out(State *st, const Config *cfg, int policy, Rng *rng) {
    static _Thread_local Move moves_buf[MAXMOVES];
    st->views = 0; /* a scratch state played to its end: nobody reads its views */
    while (st->phase != PH_OVER) {
        if (policy == POLICY_RANDOM && st_random_run(st, cfg, rng)) continue;
        int n = st_moves(st, cfg, moves_buf, MAXMOVES);
        if (n <= 0) return -1;
        st_apply(st, cfg, &moves_buf[policy_pick(st, cfg, moves_buf, n, rng, policy)]);
    }
    return 0;
}

static int policy_of(const char *name) {
    if (!strcmp(name, "random")) return POLICY_RANDOM;
    if (!strcmp(name, "heuristic")) return POLICY_HEURISTIC;
    if (!strcmp(name, "heuristic-exact")) return POLICY_HEURISTIC_EXACT;
    if (!strcmp(name, "meld")) return POLICY_MELD;
    if (!strcmp(name, "meld-exact")) return POLICY_MELD_EXACT;
    if (!strcmp(name, "smart")) return POLICY_SMART;
    if (!strcmp(name, "smart-exact")) return POLICY_SMART_EXACT;
    PyErr_Format(PyExc_ValueError,
                 "unknown policy '%s': the compiled engine has 'random', 'heuristic', 'meld' and "
                 "'smart' (and '-exact' of the last three)",
                 name);
    return -1;
}

/* The bytes object a batch of whole deals writes its results into, and the scratch state it
   plays them in (NULL, an exception set, without memory). */
PyObject *batch_begin(Py_ssize_t size, State **st) {
    PyObject *out = PyBytes_FromStringAndSize(NULL, size);
    if (!out) return NULL;
    *st = malloc(sizeof(State));
    if (!*st) {
        Py_DECREF(out);
        return PyErr_NoMemory();
    }
    return out;
}

/* The batch's results (NULL, an exception set, where a deal failed); the state freed. */
PyObject *batch_end(PyObject *out, State *st, int failed) {
    free(st);
    if (failed) {
        Py_DECREF(out);
        PyErr_SetString(PyExc_RuntimeError, "too many legal actions for the compiled engine");
        return NULL;
    }
    return out;
}

/* simulate(config, n, seed, policy): n deals from seed; points per side, as bytes of int64. */
PyObject *search_simulate(PyObject *m, PyObject *args) {
    (void)m;
    PyObject *co;
    long long n;
    unsigned long long seed;
    const char *pname;
    if (!PyArg_ParseTuple(args, "O!LKs", (PyTypeObject *)config_type(), &co, &n, &seed, &pname)) return NULL;
    int policy = policy_of(pname);
    if (policy < 0) return NULL;
    if (n < 0) return PyErr_Format(PyExc_ValueError, "n must be at least 0: got %lld", n);
    const Config *cfg = config_of(co);
    int sides = cfg->sides;
    State *st;
    PyObject *out = batch_begin((Py_ssize_t)(n * sides * (long long)sizeof(int64_t)), &st);
    if (!out) return NULL;
    int64_t *pts = (int64_t *)PyBytes_AS_STRING(out);
    int failed = 0;
    /* pure C from here (the engine's scratch space is per thread): other threads may run */
    Py_BEGIN_ALLOW_THREADS
    for (long long i = 0; i < n && !failed; i++) {
        Rng rng;
        rng_seed(&rng, seed * 0x9e3779b97f4a7c15ULL + (uint64_t)i);
        st_new(st, cfg, (int)(i % cfg->players), &rng);
        if (play_out(st, cfg, policy, &rng) < 0) failed = 1;
        st_points(st, cfg, pts + i * sides);
    }
    Py_END_ALLOW_THREADS
    return batch_end(out, st, failed);
}

/* playout(policy, seed): points per side at the end of the deal played on from this state
   (the state itself is left as it is). */
PyObject *search_methods_playout(PyObject *self, PyObject *args) {
    const char *pname;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "sK", &pname, &seed)) return NULL;
    int policy = policy_of(pname);
    if (policy < 0) return NULL;
    const Config *cfg = core_config(self);
    State *st = malloc(sizeof(State));
    if (!st) return PyErr_NoMemory();
    memcpy(st, core_state(self), sizeof(State));
    Rng rng;
    rng_seed(&rng, seed);
    int bad = play_out(st, cfg, policy, &rng) < 0;
    int64_t p[MAXP];
    st_points(st, cfg, p);
    free(st);
    if (bad) {
        PyErr_SetString(PyExc_RuntimeError, "too many legal actions for the compiled engine");
        return NULL;
    }
    PyObject *out = PyList_New(cfg->sides);
    for (int s = 0; s < cfg->sides; s++) PyList_SET_ITEM(out, s, PyLong_FromLongLong(p[s]));
    return out;
}

/* policy_pick(policy, seed): the index of the action the policy picks here. */
PyObject *search_methods_pick(PyObject *self, PyObject *args) {
    const char *pname;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "sK", &pname, &seed)) return NULL;
    int policy = policy_of(pname);
    if (policy < 0) return NULL;
    const State *st = core_state(self);
    const Config *cfg = core_config(self);
    if (st->phase == PH_OVER) Py_RETURN_NONE;
    static _Thread_local Move buf[MAXMOVES];
    int n = st_moves(st, cfg, buf, MAXMOVES);
    if (n <= 0) return PyErr_Format(PyExc_RuntimeError, "no legal action");
    Rng rng;
    rng_seed(&rng, seed);
    return PyLong_FromLong(policy_pick(st, cfg, buf, n, &rng, policy));
}

/* solve(side, max_nodes): {card code: exact value} of every card the seat to move may play,
   in stage 2 (see solver.c); None when the node limit was reached. */
PyObject *search_methods_solve(PyObject *self, PyObject *args) {
    int side;
    long max_nodes;
    if (!PyArg_ParseTuple(args, "il", &side, &max_nodes)) return NULL;
    const State *st = core_state(self);
    const Config *cfg = core_config(self);
    if (st->stage != 2 || st->phase != PH_PLAY)
        return PyErr_Format(PyExc_ValueError, "the solver needs a deal in stage 2 with a card to play");
    if (side < 0 || side >= cfg->sides) return PyErr_Format(PyExc_ValueError, "no side %d", side);
    if (!cfg->pol_ready) return PyErr_Format(PyExc_RuntimeError, "rank points not set up");
    int kinds[MAXH];
    double values[MAXH];
    long nodes = 0;
    int n = solve_stage2(st, cfg, cfg->pol_rank, cfg->pol_per_trick, side, max_nodes, kinds, values, &nodes);
    if (n == -2) return PyErr_NoMemory();
    if (n < 0) Py_RETURN_NONE;
    /* the card codes as keys made once (interned, their hashes kept): a new string a key cost
       more than a small solve's search */
    static PyObject *keys[NK];
    PyObject *out = PyDict_New();
    for (int i = 0; out && i < n; i++) {
        PyObject **key = &keys[kinds[i]];
        if (!*key && !(*key = PyUnicode_InternFromString(KIND_CODES[kinds[i]]))) {
            Py_CLEAR(out);
            break;
        }
        PyObject *v = PyFloat_FromDouble(values[i]);
        if (!v || PyDict_SetItem(out, *key, v) < 0) Py_CLEAR(out);
        Py_XDECREF(v);
    }
    return out;
}

/* A uniform number in [0, 1) from the high 53 bits. */
static double rng_unit(Rng *r) { return (double)(rng_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* The bias in seq (None: none, *use set to 0): NK weights, one a card kind, each above 0 and
   finite, into out: 0, or -1 with an exception set. */
static int bias_weights(PyObject *seq, double *out, int *use) {
    *use = 0;
    if (seq == NULL || seq == Py_None) return 0;
    PyObject *fast = PySequence_Fast(seq, "the bias must be a sequence of numbers, one a card kind");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != NK) {
        PyErr_Format(PyExc_ValueError, "the bias has one weight a card kind, %d: got %zd", NK,
                     PySequence_Fast_GET_SIZE(fast));
        Py_DECREF(fast);
        return -1;
    }
    for (int i = 0; i < NK; i++) {
        double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1.0 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        if (!isfinite(v) || v <= 0.0 || v > 1e12) {
            Py_DECREF(fast);
            PyErr_Format(PyExc_ValueError, "a bias weight must be above 0 and at most 1e12: got %g", v);
            return -1;
        }
        out[i] = v;
    }
    Py_DECREF(fast);
    *use = 1;
    return 0;
}

/* Deal every card `seat` has not seen (the other seats' concealed cards nobody knows, and the
   stock) again at random among those places.  bias (NULL: none) weighs the concealed places:
   they are filled one by one, each card of the pool drawn with chance proportional to
   bias[its kind] (a belief about the other hands, from the seat's observation only); the stock
   gets the rest, shuffled. */
void determinize_biased(State *st, const Config *cfg, int seat, Rng *rng, const double *bias) {
    uint16_t *slot[MAXC], pool[MAXC];
    int n = 0;
    for (int s = 0; s < cfg->players; s++) {
        if (s == seat) continue;
        for (int i = 0; i < st->hn[s]; i++) {
            int c = st->hand[s][i];
            if (!(st->mask[c].lo | st->mask[c].hi) && !st->known[c]) {
                slot[n] = &st->hand[s][i];
                pool[n++] = (uint16_t)c;
            }
        }
    }
    int hidden = n;
    for (int i = 0; i < st->nstock; i++) {
        slot[n] = &st->stock[i];
        pool[n++] = st->stock[i];
    }
    if (bias && hidden > 0) {
        double w[MAXC], total = 0.0;
        for (int i = 0; i < n; i++) total += w[i] = bias[cfg->kind_of[pool[i]]];
        for (int h = 0; h < hidden; h++) { /* pool[h..n-1] are left to draw from */
            double r = rng_unit(rng) * total;
            int j = h;
            while (j < n - 1 && (r -= w[j]) >= 0.0) j++;
            total -= w[j];
            uint16_t tc = pool[h];
            pool[h] = pool[j];
            pool[j] = tc;
            double tw = w[h];
            w[h] = w[j];
            w[j] = tw;
        }
        rng_shuffle(rng, pool + hidden, n - hidden);
    } else {
        rng_shuffle(rng, pool, n);
    }
    for (int i = 0; i < n; i++) *slot[i] = pool[i];
    for (int s = 0; s < cfg->players; s++) /* hands stay sorted by card id */
        for (int i = 1; i < st->hn[s]; i++) {
            uint16_t c = st->hand[s][i];
            int j = i;
            while (j > 0 && st->hand[s][j - 1] > c) {
                st->hand[s][j] = st->hand[s][j - 1];
                j--;
            }
            st->hand[s][j] = c;
        }
    st_recount_kinds(st, cfg);
    st_touch(st);
}

void determinize_state(State *st, const Config *cfg, int seat, Rng *rng) { determinize_biased(st, cfg, seat, rng, NULL); }

/* determinize(seat, seed[, bias]): a copy in which every card `seat` has not seen (the other seats'
   concealed cards nobody knows, and the stock) is dealt again at random among those places. */
PyObject *search_methods_determinize(PyObject *self, PyObject *args) {
    int seat, use;
    unsigned long long seed;
    PyObject *bseq = NULL;
    double bias[NK];
    if (!PyArg_ParseTuple(args, "iK|O", &seat, &seed, &bseq)) return NULL;
    if (bias_weights(bseq, bias, &use) < 0) return NULL;
    const Config *cfg = core_config(self);
    if (seat < 0 || seat >= cfg->players)
        return PyErr_Format(PyExc_ValueError, "no seat %d: seats are 0 to %d", seat, cfg->players - 1);
    PyObject *copy = PyObject_CallMethod(self, "clone", NULL);
    if (!copy) return NULL;
    Rng rng;
    rng_seed(&rng, seed);
    determinize_biased(core_state(copy), cfg, seat, &rng, use ? bias : NULL);
    core_touch(copy);
    return copy;
}

/* --- PIMC: candidate actions compared across the same worlds ------------------------------ */

/* The search players' utility for side (bezique.bots.playout.utility): its points less the
   mean of the other sides', where tricks count a tenth when they only settle (Rubicon). */
double state_utility(const State *st, const Config *cfg, int side) {
    double v[MAXP], total = 0.0;
    for (int s = 0; s < cfg->sides; s++) {
        const int64_t *p = st->pts[s];
        v[s] = (double)(p[PART_MELDS] + p[PART_LAST] + p[PART_BONUS]) + (cfg->settle ? 0.1 : 1.0) * (double)p[PART_TRICKS];
        total += v[s];
    }
    return v[side] - (total - v[side]) / (cfg->sides - 1);
}

/* --- coupled draws: each seat draws from its own pile, whoever wins the tricks ------------- */

/* The stock of a world dealt into two piles, one a seat (the cards the seats would draw if
   seat 0 won every trick); a seat draws its pile's next card whoever wins, so that the
   candidates of a world, whose tricks soon go otherwise, still draw the same cards.  The pile
   consumed depends only on who won the trick (public), and the piles are a uniformly random
   arrangement of the unseen stock, so each rollout on its own still sees a uniformly shuffled
   stock: the coupling changes the correlation between candidates, not any one's value. */
typedef struct {
    int on, n0;
    uint16_t pile[2][MAXC / 2 + 1];
} Piles;

static void piles_of(const State *st, const Config *cfg, Piles *pl, int on) {
    pl->on = on && cfg->players == 2 && cfg->active == 2 && st->stage == 1 && !cfg->carte_blanche;
    pl->n0 = st->nstock;
    if (!pl->on) return;
    for (int j = 0; 2 * j < st->nstock; j++) {
        pl->pile[0][j] = st->stock[st->nstock - 1 - 2 * j];
        if (st->nstock - 2 - 2 * j >= 0) pl->pile[1][j] = st->stock[st->nstock - 2 - 2 * j];
    }
}

static int stock_find(const State *st, int c) {
    for (int i = st->nstock - 1; i >= 0; i--)
        if (st->stock[i] == c) return i;
    return -1;
}

/* Before mv is applied: if it may lead to a draw (it completes a trick, or it is made while
   the trick's winner declares), put the winner's and the loser's next pile cards on top. */
static void couple_draw(State *st, const Config *cfg, const Piles *pl, const Move *mv) {
    if (!pl->on || st->stage != 1 || st->nstock < 2 || (pl->n0 - st->nstock) % 2) return;
    int w;
    if (st->phase == PH_DECLARE)
        w = st->leader;
    else if (st->phase == PH_PLAY && st->tn == 1 && mv->type == MV_PLAY)
        w = st_beats(cfg->kind_of[mv->ids[0]], cfg->kind_of[st->tcard[0]], st->trump, cfg->lead_wins) ? st->to_move : st->tseat[0];
    else
        return;
    int e = (pl->n0 - st->nstock) / 2;
    int a = stock_find(st, pl->pile[w][e]), b = stock_find(st, pl->pile[1 - w][e]);
    if (a < 0 || b < 0) return;
    uint16_t t = st->stock[a];
    st->stock[a] = st->stock[st->nstock - 1];
    st->stock[st->nstock - 1] = t;
    if (b == st->nstock - 1) b = a; /* it was on top: the swap moved it */
    t = st->stock[b];
    st->stock[b] = st->stock[st->nstock - 2];
    st->stock[st->nstock - 2] = t;
}

/* Where a playout stops short and the value model scores it (two sides): at the first trick
   of stage 1 led once `tricks` tricks are complete, while the stock holds more than `stock`
   cards.  The value is read from the view of the seat to lead, the position the model was fit
   on. */
typedef struct {
    ValueNet net;
    int tricks, stock;
} Cut;

/* Play on with the default policy (style 0: plain, 1: 'meld', 2: 'smart'; pl: coupled draws);
   from the first trick of stage 2 the exact solver takes over
   (while it stays within max_nodes; 0: no solver).  The margin for side at the end (or the
   value model's where cut stops it short; NULL: never); *solved is set when the solver
   finished the deal. */
static double rollout(State *st, const Config *cfg, int side, Rng *rng, double explore, long max_nodes,
                      int style, const double *sp, const double *sp_other, const Piles *pl, int *solved,
                      long *nodes, const Cut *cut) {
    static _Thread_local Move buf[MAXMOVES];
    int try_solver = max_nodes > 0 && cfg->pol_ready;
    while (st->phase != PH_OVER) {
        if (cut && st->ntricks >= cut->tricks && st->stage == 1 && st->phase == PH_PLAY && st->tn == 0 &&
            st->nstock > cut->stock) {
            double v = value_eval(st, cfg, &cut->net, st->to_move);
            return (cfg->partnerships ? st->to_move % 2 : st->to_move) == side ? v : -v;
        }
        if (try_solver && st->stage == 2 && st->phase == PH_PLAY) {
            double v;
            long used = 0;
            int rc = solve_stage2_value(st, cfg, cfg->pol_rank, cfg->pol_per_trick, side, max_nodes, &v, &used);
            *nodes += used;
            if (rc == 0) {
                *solved = 1;
                return state_utility(st, cfg, side) + v;
            }
            try_solver = 0; /* too big (or no memory): the policy plays it out */
        }
        int n = st_moves(st, cfg, buf, MAXMOVES);
        if (n <= 0) return NAN;
        int mover = cfg->partnerships ? st->to_move % 2 : st->to_move;
        int pick = style >= 2 ? smart_pick(st, cfg, buf, n, rng, explore, 1, mover == side ? sp : sp_other)
                              : heuristic_pick(st, cfg, buf, n, rng, explore, 1, style);
        couple_draw(st, cfg, pl, &buf[pick]);
        st_apply(st, cfg, &buf[pick]);
    }
    return state_utility(st, cfg, side);
}

/* The rollout of ismcts.c: no coupled draws; style 0 plain, 1 'meld', 2 'smart'. */
double search_rollout(State *st, const Config *cfg, int side, Rng *rng, double explore, long max_nodes, int style,
                      int *solved, long *nodes) {
    Piles off;
    off.on = 0;
    off.n0 = st->nstock;
    return rollout(st, cfg, side, rng, explore, max_nodes, style, SMART_DEFAULT, SMART_DEFAULT, &off, solved, nodes,
                   NULL);
}

/* rollout(side, seed[, params, max_nodes, seat]): the margin for side of one playout from this
   state (with seat >= 0, from a world dealt again for seat as determinize does, from the same
   seed) as the search players make theirs (this state left as it is): the 'smart' policy with params
   (None: the heuristic player's rules of thumb) for every seat, no uniform move, the exact
   stage-2 solver from the first trick of stage 2 while it needs at most max_nodes nodes (0:
   never) -- a target for a value model of the search's own playouts. */
PyObject *search_methods_rollout(PyObject *self, PyObject *args) {
    int side;
    unsigned long long seed;
    PyObject *params = NULL;
    long max_nodes = 20000;
    int seat = -1;
    double sp[SMART_NPARAM];
    if (!PyArg_ParseTuple(args, "iK|Oli", &side, &seed, &params, &max_nodes, &seat)) return NULL;
    if (smart_params(params, sp) < 0) return NULL;
    const Config *cfg = core_config(self);
    if (side < 0 || side >= cfg->sides) return PyErr_Format(PyExc_ValueError, "no side %d", side);
    if (!cfg->pol_ready) return PyErr_Format(PyExc_RuntimeError, "the default policy is not set up");
    if (max_nodes < 0) return PyErr_Format(PyExc_ValueError, "max_nodes must be at least 0");
    if (seat >= cfg->players) return PyErr_Format(PyExc_ValueError, "no seat %d", seat);
    State *st = malloc(sizeof(State));
    if (!st) return PyErr_NoMemory();
    memcpy(st, core_state(self), sizeof(State));
    st->views = 0; /* a scratch state: only points count */
    Rng rng;
    rng_seed(&rng, seed);
    if (seat >= 0) determinize_state(st, cfg, seat, &rng);
    Piles off;
    off.on = 0;
    off.n0 = st->nstock;
    int solved = 0;
    long nodes = 0;
    double v = rollout(st, cfg, side, &rng, 0.0, max_nodes, 2, sp, sp, &off, &solved, &nodes, NULL);
    free(st);
    if (isnan(v)) return PyErr_Format(PyExc_RuntimeError, "too many legal actions for the compiled engine");
    return PyFloat_FromDouble(v);
}

/* World `index` of a pimc call: root with the cards seat has not seen dealt again from the
   call's seed and the index; rng is left where the world's playout seed is drawn. */
static void pimc_world(State *world, const State *root, const Config *cfg, int seat, uint64_t seed, int index,
                       Rng *rng, const double *bias) {
    rng_seed(rng, seed * 0x9e3779b97f4a7c15ULL + (uint64_t)index * 0xbf58476d1ce4e5b9ULL);
    memcpy(world, root, sizeof(State));
    world->views = 0; /* the rollouts read points only */
    determinize_biased(world, cfg, seat, rng, bias);
}

/* pimc_hidden(seat, first, worlds, seed[, bias]): for each of those worlds of a pimc call with this seed,
   per seat the concealed cards that seat does not know and nobody has been shown (sorted codes;
   none for seat itself): the guess a weighting of the worlds reads. */
PyObject *search_methods_pimc_hidden(PyObject *self, PyObject *args) {
    int seat, first, worlds, use;
    unsigned long long seed;
    PyObject *bseq = NULL;
    double bias[NK];
    if (!PyArg_ParseTuple(args, "iiiK|O", &seat, &first, &worlds, &seed, &bseq)) return NULL;
    if (bias_weights(bseq, bias, &use) < 0) return NULL;
    const State *root = core_state(self);
    const Config *cfg = core_config(self);
    if (seat < 0 || seat >= cfg->players) return PyErr_Format(PyExc_ValueError, "no seat %d", seat);
    if (worlds < 0 || first < 0) return PyErr_Format(PyExc_ValueError, "worlds and first must be at least 0");
    State *world = malloc(sizeof(State));
    PyObject *out = PyList_New(worlds);
    if (!world || !out) {
        free(world);
        Py_XDECREF(out);
        return PyErr_NoMemory();
    }
    for (int w = 0; w < worlds && out; w++) {
        Rng rng;
        pimc_world(world, root, cfg, seat, seed, first + w, &rng, use ? bias : NULL);
        PyObject *seats = PyList_New(cfg->players);
        if (!seats) {
            Py_CLEAR(out);
            break;
        }
        PyList_SET_ITEM(out, w, seats);
        for (int s = 0; s < cfg->players && out; s++) {
            uint16_t ids[MAXH];
            int n = 0;
            for (int i = 0; s != seat && i < world->hn[s]; i++) {
                int c = world->hand[s][i];
                if (!(world->mask[c].lo | world->mask[c].hi) && !world->known[c]) ids[n++] = (uint16_t)c;
            }
            PyObject *codes = codes_list(cfg, ids, n);
            if (!codes) {
                Py_CLEAR(out);
                break;
            }
            PyList_SET_ITEM(seats, s, codes);
        }
    }
    free(world);
    return out;
}

/* The thread's CPU time in seconds (the clock a search budget is counted on: what this thread
   has used, whatever else the machine runs). */
double thread_cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* What one pimc call works on, read under the GIL; pimc_run works without it. */
typedef struct {
    const Config *cfg;
    State *root, *world, *st;
    Piles *piles;
    const double *sp, *so, *bias;
    const Cut *cut;
    const int *idx;
    int seat, side, first, worlds, nlegal, policy, couple, tail;
    Py_ssize_t m;
    uint64_t seed;
    double explore, deadline;
    long max_nodes;
    double *values; /* worlds * m */
} PimcJob;

/* The worlds of a pimc call, in order, until `worlds` are done or the thread's CPU clock passes
   the deadline (0: none; checked after each rollout, at least one world always done, a world
   left part-way dropped).  Returns the worlds done (-1: a world changed the legal actions);
   adds to *solved and *nodes. */
static int pimc_run(const PimcJob *j, long *solved, long *nodes) {
    static _Thread_local Move buf[MAXMOVES];
    const Config *cfg = j->cfg;
    for (int w = 0; w < j->worlds; w++) {
        Rng rng;
        pimc_world(j->world, j->root, cfg, j->seat, j->seed, j->first + w, &rng, j->bias);
        /* the root seat's own cards are the same in every world, so are its legal actions */
        Move mv[MAXMOVES];
        int n = st_moves(j->world, cfg, buf, MAXMOVES);
        if (n != j->nlegal) return -1;
        for (Py_ssize_t i = 0; i < j->m; i++) mv[i] = buf[j->idx[i]];
        uint64_t pseed = rng_next(&rng);
        piles_of(j->world, cfg, j->piles, j->couple);
        long world_solved = 0;
        for (Py_ssize_t i = 0; i < j->m; i++) {
            if (w > 0 && j->deadline > 0.0 && thread_cpu_seconds() >= j->deadline) return w;
            State *st = j->st;
            memcpy(st, j->world, sizeof(State));
            couple_draw(st, cfg, j->piles, &mv[i]);
            st_apply(st, cfg, &mv[i]);
            Rng prng;
            rng_seed(&prng, pseed); /* common random numbers: the same luck for every action */
            int done = 0;
            double v;
            if (j->tail && st->stage == 1 && st->nstock <= j->tail && j->max_nodes > 0 &&
                endgame_value(st, cfg, j->side, j->max_nodes, ENDGAME_POSITIONS, &v, nodes) == 0)
                done = 1;
            else
                v = rollout(st, cfg, j->side, &prng, j->explore, j->max_nodes, j->policy, j->sp, j->so, j->piles,
                            &done, nodes, j->cut);
            world_solved += done;
            j->values[(Py_ssize_t)w * j->m + i] = v;
        }
        *solved += world_solved;
        if (j->deadline > 0.0 && thread_cpu_seconds() >= j->deadline) return w + 1;
    }
    return j->worlds;
}

/* pimc(seat, side, moves, first, worlds, seed, explore, max_nodes[, style, params, bias,
   other_params, cut, deadline]): for worlds first .. first+worlds-1 (each a determinization for
   seat, from seed and its number, weighed by bias as determinize_biased; the other sides'
   playout moves by other_params, None: as side's), the margin for side after each legal-action
   index in moves, played out from the same random numbers in a world; cut (None: none) is
   (tricks, stock, packed value model): the playouts stop where that many more tricks are
   complete while the stock holds more than that many cards, and the model scores them (Cut).
   deadline (0: none): the thread CPU time (thread_cpu_seconds, Python's time.thread_time) past
   which no further world is begun (pimc_run).  Runs without the GIL.  Returns (values as a flat
   list, world by world, for the worlds done; rollouts the solver finished; solver nodes). */
PyObject *search_methods_pimc(PyObject *self, PyObject *args) {
    int seat, side, first, worlds;
    unsigned long long seed;
    double explore, deadline = 0.0;
    long max_nodes;
    PyObject *moves;
    int style = 0;
    PyObject *params = NULL, *bseq = NULL, *oparams = NULL, *cutobj = NULL;
    double sp[SMART_NPARAM], so[SMART_NPARAM], bias[NK];
    int use;
    if (!PyArg_ParseTuple(args, "iiO!iiKdl|iOOOOd", &seat, &side, &PyList_Type, &moves, &first, &worlds, &seed,
                          &explore, &max_nodes, &style, &params, &bseq, &oparams, &cutobj, &deadline))
        return NULL;
    if (smart_params(params, sp) < 0) return NULL;
    if (oparams == NULL || oparams == Py_None)
        memcpy(so, sp, sizeof(sp)); /* the other sides play as side does */
    else if (smart_params(oparams, so) < 0)
        return NULL;
    if (bias_weights(bseq, bias, &use) < 0) return NULL;
    const State *root = core_state(self);
    const Config *cfg = core_config(self);
    if (seat < 0 || seat >= cfg->players) return PyErr_Format(PyExc_ValueError, "no seat %d", seat);
    if (side < 0 || side >= cfg->sides) return PyErr_Format(PyExc_ValueError, "no side %d", side);
    if (root->phase == PH_OVER) return PyErr_Format(PyExc_ValueError, "the deal is over");
    if (!cfg->pol_ready) return PyErr_Format(PyExc_RuntimeError, "the default policy is not set up");
    if (worlds < 0 || first < 0) return PyErr_Format(PyExc_ValueError, "worlds and first must be at least 0");
    if (!(deadline >= 0.0)) return PyErr_Format(PyExc_ValueError, "deadline must be 0 (none) or more");
    static _Thread_local Move buf[MAXMOVES];
    int nlegal = st_moves(root, cfg, buf, MAXMOVES);
    Py_ssize_t m = PyList_GET_SIZE(moves);
    int idx[MAXMOVES];
    if (m > MAXMOVES) return PyErr_Format(PyExc_ValueError, "too many moves");
    for (Py_ssize_t i = 0; i < m; i++) {
        long k = PyLong_AsLong(PyList_GET_ITEM(moves, i));
        if (k == -1 && PyErr_Occurred()) return NULL;
        if (k < 0 || k >= nlegal) return PyErr_Format(PyExc_ValueError, "no legal action %ld", k);
        idx[i] = (int)k;
    }
    Cut cut, *cutp = NULL;
    if (cutobj && cutobj != Py_None) {
        const char *data;
        Py_ssize_t len;
        if (!PyArg_ParseTuple(cutobj, "iiy#", &cut.tricks, &cut.stock, &data, &len)) return NULL;
        if (cfg->sides != 2 || !value_supported(cfg))
            return PyErr_Format(PyExc_ValueError, "the value model scores two-sided rules with brisques only");
        if (cut.tricks < 0) return PyErr_Format(PyExc_ValueError, "cut tricks must be at least 0");
        if (value_net_of(data, len, &cut.net) < 0) return NULL;
        cut.tricks += root->ntricks;
        cutp = &cut;
    }
    /* style: policy | 4 (coupled draws) | 16 * the stock at or below which the end is solved
       exactly in each world (endgame.c; 0: never) */
    PimcJob j = {.cfg = cfg, .sp = sp, .so = so, .bias = use ? bias : NULL, .cut = cutp, .idx = idx,
                 .seat = seat, .side = side, .first = first, .worlds = worlds, .nlegal = nlegal,
                 .policy = style & 3, .couple = (style & 4) != 0, .tail = style >> 4, .m = m, .seed = seed,
                 .explore = explore, .deadline = deadline, .max_nodes = max_nodes};
    /* the root copied: the Core object may change once the GIL is let go */
    j.root = malloc(sizeof(State));
    j.world = malloc(sizeof(State));
    j.st = malloc(sizeof(State));
    j.piles = malloc(sizeof(Piles));
    j.values = malloc(sizeof(double) * (size_t)(worlds > 0 ? worlds : 1) * (size_t)(m > 0 ? m : 1));
    PyObject *out = NULL;
    long solved = 0, nodes = 0;
    int done = -2;
    if (j.root && j.world && j.st && j.piles && j.values) {
        memcpy(j.root, root, sizeof(State));
        Py_BEGIN_ALLOW_THREADS
        done = pimc_run(&j, &solved, &nodes);
        Py_END_ALLOW_THREADS
    }
    if (done == -2)
        PyErr_NoMemory();
    else if (done < 0)
        PyErr_SetString(PyExc_RuntimeError, "a world changed the legal actions");
    else if ((out = PyList_New((Py_ssize_t)done * m)) != NULL) {
        for (Py_ssize_t i = 0; i < (Py_ssize_t)done * m; i++) PyList_SET_ITEM(out, i, PyFloat_FromDouble(j.values[i]));
    }
    free(j.root);
    free(j.world);
    free(j.st);
    free(j.piles);
    free(j.values);
    if (cutp) free(cut.net.w);
    if (!out) return NULL;
    return Py_BuildValue("(Nll)", out, solved, nodes);
}
