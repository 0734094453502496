/* Single-observer IS-MCTS with the heuristic as a PUCT prior (FastDeal.ismcts).
 *
 * One tree over the actions of every seat as the searching seat sees them.  Each iteration
 * deals a world consistent with the seat's observation (determinize_state: the cards it has not
 * seen dealt again among the places it cannot see), walks down the tree choosing among the
 * actions legal *in that world* by PUCT, adds one node, finishes the deal with the playout policy
 * (the stage-2 solver from the first trick of stage 2, as the PIMC rollouts do) and credits each
 * node on the path with the value of the side whose move led to it.  With two sides the tree
 * stops at stage 2: a walk that reaches it below the root ends there with the solver's exact
 * value of that world (the tree only covers the stock, where the information is hidden).
 *
 * A node is an action as the observer sees it (its key): the type, the meld, and for each card
 * its kind and meld marks, never which copy of a kind it is, so the same concealed play in two
 * worlds is one node.  The key is a 64-bit hash of those; two sibling actions would have to
 * hash alike to be confused.
 *
 * The prior is not a veto: the heuristic's action gets prior_weight, the other legal actions
 * share the rest evenly.  At the root the heuristic is the Python heuristic player's choice
 * (given as an index); deeper down, the playout policy's own choice in that world.  With
 * prior_weight 1 the others get no prior and are never tried.
 *
 * Values are margins squashed to [-1, 1] with tanh(margin / scale): PUCT's constant then means
 * what it means in the literature (a bonus in the units of a won or lost game), where raw point
 * margins of hundreds would make the search greedy (the outside baseline's uct_c=2 was).
 * tanh keeps the order of margins and is nearly linear below scale. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <math.h>
#include <string.h>
#include <time.h>

#include "search.h"

State *core_state(PyObject *o);
const Config *core_config(PyObject *o);

typedef struct {
    uint64_t key;
    int32_t child, sibling; /* first child, next sibling; -1: none */
    int32_t visits;
    int8_t side; /* the side whose action led here (values are summed for it) */
    double total, raw; /* sums of squashed values and of margins in points, for side */
} Node;

#define MAXPATH 1024

/* The key of an action as the observer sees it (see the header comment). */
static uint64_t move_key(const State *st, const Config *cfg, const Move *mv) {
    uint64_t d[MAXMC][3];
    int n = mv->n < MAXMC ? mv->n : MAXMC;
    for (int i = 0; i < n; i++) {
        int c = mv->ids[i];
        uint64_t row[3] = {cfg->kind_of[c], st->mask[c].lo, st->mask[c].hi};
        int j = i; /* insertion sort: the order of the ids in a move is not the observer's */
        while (j > 0 && (d[j - 1][0] > row[0] || (d[j - 1][0] == row[0] && (d[j - 1][1] > row[1] ||
                                                   (d[j - 1][1] == row[1] && d[j - 1][2] > row[2]))))) {
            memcpy(d[j], d[j - 1], sizeof(row));
            j--;
        }
        memcpy(d[j], row, sizeof(row));
    }
    uint64_t h = 1469598103934665603ULL;
#define MIX(x) h = (h ^ (uint64_t)(x)) * 1099511628211ULL, h ^= h >> 29
    MIX(mv->type);
    MIX(mv->meld);
    MIX(n);
    for (int i = 0; i < n; i++) {
        MIX(d[i][0]);
        MIX(d[i][1]);
        MIX(d[i][2]);
    }
#undef MIX
    return h;
}

static int side_of_seat(const Config *cfg, int seat) { return cfg->partnerships ? seat % 2 : seat; }

typedef struct {
    int iterations, prior, style, stop_early;
    double weight, c_puct, scale, fpu, explore, seconds, deadline;
    long solver_nodes, cap;
} Params;

/* The search itself; the root's visits, squashed and raw sums per legal index go to the out
   arrays (n entries).  Returns the iterations done, -1 on an engine error, -2 without memory. */
static int search(const State *root, const Config *cfg, int seat, const Params *p, uint64_t seed, int n,
                  int *visits, double *sum, double *raw, long *solved_out, long *nodes_out, long *used_out) {
    static _Thread_local Move buf[MAXMOVES];
    static _Thread_local uint64_t keys[MAXMOVES];
    static _Thread_local int32_t kid[MAXMOVES];
    long cap = p->cap < (long)p->iterations + 1 ? p->cap : (long)p->iterations + 1;
    Node *pool = malloc(sizeof(Node) * (size_t)cap);
    State *st = malloc(sizeof(State));
    if (!pool || !st) {
        free(pool);
        free(st);
        return -2;
    }
    long used = 1, solved = 0, nodes = 0;
    pool[0] = (Node){0, -1, -1, 0, (int8_t)side_of_seat(cfg, seat), 0.0, 0.0};
    int root_kid[MAXMOVES];
    int32_t path[MAXPATH];
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    int it = 0, exact_leaves = cfg->sides == 2 && p->solver_nodes > 0;
    for (; it < p->iterations; it++) {
        Rng rng;
        rng_seed(&rng, seed * 0x9e3779b97f4a7c15ULL + (uint64_t)it * 0xbf58476d1ce4e5b9ULL);
        memcpy(st, root, sizeof(State));
        st->views = 0;
        determinize_state(st, cfg, seat, &rng);
        int depth = 0, node = 0, first_index = -1, grow = 1;
        while (st->phase != PH_OVER && depth < MAXPATH) {
            /* stage 2 of two sides below the root: the solver's exact value of the world is the
               leaf (a tree there would average the exploring moves of both sides into it) */
            if (exact_leaves && node != 0 && st->stage == 2 && st->phase == PH_PLAY) break;
            int m = st_moves(st, cfg, buf, MAXMOVES);
            if (m <= 0 || (node == 0 && m != n)) goto engine_error;
            int h = node == 0 ? p->prior : policy_choice(st, cfg, buf, m, p->style);
            int mover = side_of_seat(cfg, st->to_move);
            /* the children legal in this world, and the visits among them (the availability
               count that stands for the parent's visits: a node's children differ by world) */
            long avail = 0, vsum = 0;
            double tsum = 0.0;
            for (int i = 0; i < m; i++) {
                keys[i] = move_key(st, cfg, &buf[i]);
                kid[i] = -1;
                for (int32_t c = pool[node].child; c >= 0; c = pool[c].sibling)
                    if (pool[c].key == keys[i]) {
                        kid[i] = c;
                        avail += pool[c].visits;
                        if (pool[c].visits) {
                            vsum += pool[c].visits;
                            tsum += pool[c].total;
                        }
                        break;
                    }
            }
            /* first-play urgency: an untried action is taken to be worth the mean of those tried
               here, less fpu (0 where none was tried) */
            double fpu_q = vsum ? tsum / (double)vsum - p->fpu : 0.0, root_n = sqrt(avail > 1 ? (double)avail : 1.0);
            double rest = m > 1 ? (1.0 - p->weight) / (m - 1) : 1.0;
            /* out of pool: only the actions with a node stay in the running (an untried one
               would stay untried, and its bonus would grow for ever) */
            int known_only = used >= cap && vsum > 0;
            int best = -1;
            double best_s = -INFINITY, best_p = -1.0;
            for (int i = 0; i < m; i++) {
                double prior = m == 1 ? 1.0 : i == h ? p->weight : rest;
                if (prior <= 0.0) continue; /* weight 1: the heuristic's action only */
                int c = kid[i];
                if (known_only && (c < 0 || !pool[c].visits)) continue;
                int nv = c >= 0 ? pool[c].visits : 0;
                double q = nv ? pool[c].total / nv : fpu_q;
                double s = q + p->c_puct * prior * root_n / (1.0 + nv);
                if (s > best_s || (s == best_s && prior > best_p)) {
                    best_s = s;
                    best_p = prior;
                    best = i;
                }
            }
            if (node == 0) first_index = best;
            int c = kid[best];
            if (c < 0 && grow && used < cap) { /* expand: one new node an iteration */
                c = (int32_t)used++;
                pool[c] = (Node){keys[best], -1, pool[node].child, 0, (int8_t)mover, 0.0, 0.0};
                pool[node].child = c;
                grow = 0;
            }
            st_apply(st, cfg, &buf[best]);
            if (c < 0) break; /* out of pool: no node, the playout goes on from here */
            path[depth++] = c;
            node = c;
            if (!grow) break; /* the new node: play out from it */
        }
        double u[MAXP];
        if (st->phase == PH_OVER) {
            for (int s = 0; s < cfg->sides; s++) u[s] = state_utility(st, cfg, s);
        } else if (cfg->sides == 2) { /* the solver's values hold for two sides only */
            int done = 0;
            int me = side_of_seat(cfg, seat);
            double v = search_rollout(st, cfg, me, &rng, p->explore, p->solver_nodes, p->style, &done, &nodes);
            if (isnan(v)) goto engine_error;
            solved += done;
            u[me] = v;
            u[1 - me] = -v; /* two sides: each one's margin is the other's loss */
        } else {
            int done = 0;
            if (isnan(search_rollout(st, cfg, 0, &rng, p->explore, 0, p->style, &done, &nodes))) goto engine_error;
            for (int s = 0; s < cfg->sides; s++) u[s] = state_utility(st, cfg, s);
        }
        for (int d = 0; d < depth; d++) {
            Node *x = &pool[path[d]];
            x->visits++;
            x->total += tanh(u[x->side] / p->scale);
            x->raw += u[x->side];
        }
        if (first_index >= 0 && depth == 0) { /* the root's child was not stored (no pool) */
            visits[first_index]++;
            sum[first_index] += tanh(u[pool[0].side] / p->scale);
            raw[first_index] += u[pool[0].side];
        }
        if (p->stop_early && (it & 15) == 15) {
            /* stop once no other root action could catch up with the most visited one */
            int a = 0, b = 0;
            for (int32_t k = pool[0].child; k >= 0; k = pool[k].sibling) {
                int v = pool[k].visits;
                if (v > a) {
                    b = a;
                    a = v;
                } else if (v > b)
                    b = v;
            }
            if (a - b > p->iterations - it - 1) {
                it++;
                break;
            }
        }
        if (p->deadline > 0.0 && thread_cpu_seconds() >= p->deadline) { /* the CPU budget */
            it++;
            break;
        }
        if (p->seconds > 0.0 && (it & 7) == 7) {
            clock_gettime(CLOCK_MONOTONIC, &t1);
            if ((double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec) >= p->seconds) {
                it++;
                break;
            }
        }
    }
    /* the root's children, by the key of each legal action in the root state */
    {
        int m = st_moves(root, cfg, buf, MAXMOVES);
        if (m != n) goto engine_error_done;
        for (int i = 0; i < n; i++) {
            uint64_t k = move_key(root, cfg, &buf[i]);
            root_kid[i] = -1;
            for (int32_t c = pool[0].child; c >= 0; c = pool[c].sibling)
                if (pool[c].key == k) root_kid[i] = c;
            for (int j = 0; j < i && root_kid[i] >= 0; j++) /* two listings of one action: once */
                if (root_kid[j] == root_kid[i]) root_kid[i] = -1;
            if (root_kid[i] >= 0) {
                visits[i] += pool[root_kid[i]].visits;
                sum[i] += pool[root_kid[i]].total;
                raw[i] += pool[root_kid[i]].raw;
            }
        }
    }
    free(pool);
    free(st);
    *solved_out = solved;
    *nodes_out = nodes;
    *used_out = used;
    return it;
engine_error:
engine_error_done:
    free(pool);
    free(st);
    return -1;
}

/* ismcts(seat, prior, iterations, seed, prior_weight, c_puct, scale, fpu, explore, solver_nodes,
   style, max_tree_nodes, stop_early, seconds[, deadline]): see bezique.fast.search.ismcts;
   deadline (0: none) is the thread CPU time (thread_cpu_seconds) at which the search stops after
   at least one iteration.  Runs without the GIL.  Returns (visits, mean
   squashed values, mean margins: lists over the legal actions, None where unvisited; iterations
   done; rollouts the solver finished; solver nodes; tree nodes used). */
PyObject *search_methods_ismcts(PyObject *self, PyObject *args) {
    Params p;
    int seat;
    unsigned long long seed;
    p.deadline = 0.0;
    if (!PyArg_ParseTuple(args, "iiiKdddddlilpd|d", &seat, &p.prior, &p.iterations, &seed, &p.weight, &p.c_puct,
                          &p.scale, &p.fpu, &p.explore, &p.solver_nodes, &p.style, &p.cap, &p.stop_early, &p.seconds,
                          &p.deadline))
        return NULL;
    if (!(p.deadline >= 0.0)) return PyErr_Format(PyExc_ValueError, "deadline must be 0 (none) or more");
    const State *root = core_state(self);
    const Config *cfg = core_config(self);
    if (seat < 0 || seat >= cfg->players) return PyErr_Format(PyExc_ValueError, "no seat %d", seat);
    if (root->phase == PH_OVER) return PyErr_Format(PyExc_ValueError, "the deal is over");
    if (root->to_move != seat) return PyErr_Format(PyExc_ValueError, "seat %d is not the seat to move", seat);
    if (!cfg->pol_ready) return PyErr_Format(PyExc_RuntimeError, "the default policy is not set up");
    if (p.iterations < 1) return PyErr_Format(PyExc_ValueError, "iterations must be at least 1");
    if (!(p.weight >= 0.0 && p.weight <= 1.0)) return PyErr_Format(PyExc_ValueError, "prior_weight must be in [0, 1]");
    if (!(p.c_puct >= 0.0 && isfinite(p.c_puct))) return PyErr_Format(PyExc_ValueError, "c_puct must be 0 or more");
    if (!(p.scale > 0.0 && isfinite(p.scale))) return PyErr_Format(PyExc_ValueError, "scale must be above 0");
    if (!isfinite(p.fpu)) return PyErr_Format(PyExc_ValueError, "fpu must be a finite number");
    if (!(p.explore >= 0.0 && p.explore <= 1.0)) return PyErr_Format(PyExc_ValueError, "explore must be in [0, 1]");
    if (p.solver_nodes < 0) return PyErr_Format(PyExc_ValueError, "solver_nodes must be 0 or more");
    if (p.style < 0 || p.style > 2) return PyErr_Format(PyExc_ValueError, "no playout style %d", p.style);
    if (p.cap < 1) return PyErr_Format(PyExc_ValueError, "max_tree_nodes must be at least 1");
    if (!(p.seconds >= 0.0)) return PyErr_Format(PyExc_ValueError, "seconds must be 0 (none) or more");
    static _Thread_local Move buf[MAXMOVES];
    int n = st_moves(root, cfg, buf, MAXMOVES);
    if (n <= 0) return PyErr_Format(PyExc_RuntimeError, "no legal action");
    if (p.prior < 0 || p.prior >= n) return PyErr_Format(PyExc_ValueError, "no legal action %d for the prior", p.prior);
    int *visits = calloc((size_t)n, sizeof(int));
    double *sum = calloc((size_t)n, sizeof(double)), *raw = calloc((size_t)n, sizeof(double));
    long solved = 0, nodes = 0, used = 0;
    State *copy = malloc(sizeof(State)); /* the Core object may change once the GIL is let go */
    int done = -2;
    if (visits && sum && raw && copy) {
        memcpy(copy, root, sizeof(State));
        Py_BEGIN_ALLOW_THREADS
        done = search(copy, cfg, seat, &p, seed, n, visits, sum, raw, &solved, &nodes, &used);
        Py_END_ALLOW_THREADS
    }
    free(copy);
    PyObject *out = NULL;
    if (done == -2)
        PyErr_NoMemory();
    else if (done < 0)
        PyErr_SetString(PyExc_RuntimeError, "too many legal actions for the compiled engine, or a world changed them");
    else {
        PyObject *lv = PyList_New(n), *lq = PyList_New(n), *lr = PyList_New(n);
        for (int i = 0; lv && lq && lr && i < n; i++) {
            PyList_SET_ITEM(lv, i, PyLong_FromLong(visits[i]));
            if (visits[i]) {
                PyList_SET_ITEM(lq, i, PyFloat_FromDouble(sum[i] / visits[i]));
                PyList_SET_ITEM(lr, i, PyFloat_FromDouble(raw[i] / visits[i]));
            } else {
                PyList_SET_ITEM(lq, i, Py_NewRef(Py_None));
                PyList_SET_ITEM(lr, i, Py_NewRef(Py_None));
            }
        }
        if (lv && lq && lr)
            out = Py_BuildValue("(NNNilll)", lv, lq, lr, done, solved, nodes, used);
        else {
            Py_XDECREF(lv);
            Py_XDECREF(lq);
            Py_XDECREF(lr);
        }
    }
    free(visits);
    free(sum);
    free(raw);
    return out;
}
