/*
 * chicago.bots._solver: the C accelerator of chicago.bots.solver and chicago.bots.model.
 *
 * The same searches as the pure-Python modules, node for node, so that every answer is the
 * same (the tests compare the two on random positions of every table size, mid-trick ones,
 * Chicago declarers and the deuce goal included):
 *
 * - the exact AND/OR search of chicago.bots.solver (paranoid: one target seat against all
 *   the others) for three yes/no goals: win the last trick, win it with a deuce (V-DEUCE),
 *   win every trick (a Chicago declarer, R-CHI-4); a transposition table at trick
 *   boundaries, runs of equivalent cards searched once, the "top cards on lead" and
 *   "every suit guarded" shortcuts, the Chicago declarer's forced plays;
 * - the search of chicago.bots.model: one seat plays its best, seeing every card, against
 *   the others playing the rules of thumb of model_card.
 *
 * Cards are ids 0-51 (rank_index * 4 + suit), hands 52-bit masks in uint64, so within a
 * suit a higher card is a larger bit. Nothing here allocates Python objects during a search;
 * the transposition tables are plain open-addressing arrays freed at the end of each call.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t u64;

#define MAX_SEATS 6
#define FULL_DECK ((1ULL << 52) - 1)
#define DEUCE_BITS 0xFULL
#define TOP_DEUCE_BIT 8ULL

enum { GOAL_LAST = 0, GOAL_DEUCE = 1, GOAL_CHICAGO = 2, GOAL_DEUCE_CHICAGO = 3 };

/* Every trick (a Chicago), and the last one with a deuce (V-DEUCE), as solver.py's goals. */
#define IS_CHICAGO(goal) ((goal) == GOAL_CHICAGO || (goal) == GOAL_DEUCE_CHICAGO)
#define IS_DEUCE(goal) ((goal) == GOAL_DEUCE || (goal) == GOAL_DEUCE_CHICAGO)

static u64 SUIT[4];

static inline int low_index(u64 x) { return __builtin_ctzll(x); }
static inline int bit_length(u64 x) { return x ? 64 - __builtin_clzll(x) : 0; }
static inline int count(u64 x) { return __builtin_popcountll(x); }
static inline u64 suit_of_bit(u64 bit) { return SUIT[low_index(bit) & 3]; }
/* Bits strictly above the highest bit of x (x nonzero). */
static inline u64 above_of(u64 x) { return ~((1ULL << bit_length(x)) - 1); }

/* ------------------------------------------------------------------ transposition table */

typedef struct {
    u64 hands[MAX_SEATS];
    int8_t leader; /* -1: empty slot */
    int8_t value;
} Slot;

typedef struct {
    Slot *slots;
    size_t mask; /* capacity - 1 (a power of two) */
    size_t used;
    int n;
} Table;

static int table_init(Table *t, int n)
{
    size_t capacity = 256;
    t->slots = malloc(capacity * sizeof(Slot));
    if (t->slots == NULL) return -1;
    for (size_t i = 0; i < capacity; i++) t->slots[i].leader = -1;
    t->mask = capacity - 1;
    t->used = 0;
    t->n = n;
    return 0;
}

static void table_free(Table *t)
{
    free(t->slots);
    t->slots = NULL;
}

static inline size_t table_hash(const u64 *hands, int n, int leader)
{
    u64 h = 0x9E3779B97F4A7C15ULL * (u64)(leader + 1);
    for (int s = 0; s < n; s++) {
        h ^= hands[s] + 0x632BE59BD9B4E019ULL + (h << 6) + (h >> 2);
        h *= 0xBF58476D1CE4E5B9ULL;
    }
    h ^= h >> 31;
    return (size_t)h;
}

static inline int slot_matches(const Slot *slot, const u64 *hands, int n, int leader)
{
    if (slot->leader != leader) return 0;
    for (int s = 0; s < n; s++)
        if (slot->hands[s] != hands[s]) return 0;
    return 1;
}

/* The stored value (0 or 1) of a boundary, or -1 when it is not stored. */
static int table_get(const Table *t, const u64 *hands, int leader)
{
    size_t i = table_hash(hands, t->n, leader) & t->mask;
    for (;;) {
        const Slot *slot = &t->slots[i];
        if (slot->leader < 0) return -1;
        if (slot_matches(slot, hands, t->n, leader)) return slot->value;
        i = (i + 1) & t->mask;
    }
}

static void table_insert(Slot *slots, size_t mask, const u64 *hands, int n, int leader,
                         int value)
{
    size_t i = table_hash(hands, n, leader) & mask;
    while (slots[i].leader >= 0 && !slot_matches(&slots[i], hands, n, leader))
        i = (i + 1) & mask;
    memcpy(slots[i].hands, hands, (size_t)n * sizeof(u64));
    slots[i].leader = (int8_t)leader;
    slots[i].value = (int8_t)value;
}

/* Store a boundary's value; when memory runs out the value is simply not kept (the
 * search stays exact, only slower). */
static void table_put(Table *t, const u64 *hands, int leader, int value)
{
    if ((t->used + 1) * 2 > t->mask + 1) {
        size_t capacity = (t->mask + 1) * 2;
        Slot *bigger = malloc(capacity * sizeof(Slot));
        if (bigger == NULL) return;
        for (size_t i = 0; i < capacity; i++) bigger[i].leader = -1;
        for (size_t i = 0; i <= t->mask; i++)
            if (t->slots[i].leader >= 0)
                table_insert(bigger, capacity - 1, t->slots[i].hands, t->n,
                             t->slots[i].leader, t->slots[i].value);
        free(t->slots);
        t->slots = bigger;
        t->mask = capacity - 1;
    }
    table_insert(t->slots, t->mask, hands, t->n, leader, value);
    t->used++;
}

/* ------------------------------------------------------------------ the exact solver */

typedef struct {
    int n, target, goal;
    u64 hands[MAX_SEATS];
    Table table;
} Search;

static int play(Search *s, int seat, int i, u64 led, u64 best, int best_seat, int left,
                u64 live);

static int distinct_guards(const u64 *candidates, int k, u64 used)
{
    if (k == 0) return 1;
    u64 free_seats = candidates[0] & ~used;
    while (free_seats) {
        u64 seat = free_seats & (~free_seats + 1);
        free_seats ^= seat;
        if (distinct_guards(candidates + 1, k - 1, used | seat)) return 1;
    }
    return 0;
}

/* Whether the others surely stop the target from winning the last trick: every suit it
 * holds guarded by a different opponent (a higher card and at least as many cards). */
static int guarded(const Search *s, u64 mine)
{
    u64 candidates[4];
    int k = 0;
    for (int suit = 0; suit < 4; suit++) {
        u64 cards = mine & SUIT[suit];
        if (!cards) continue;
        int held = count(cards);
        u64 above = above_of(cards);
        u64 seats = 0;
        for (int seat = 0; seat < s->n; seat++) {
            u64 theirs = s->hands[seat] & SUIT[suit];
            if ((theirs & above) && count(theirs) >= held && seat != s->target)
                seats |= 1ULL << seat;
        }
        if (!seats) return 0;
        candidates[k++] = seats;
    }
    return distinct_guards(candidates, k, 0);
}

static int start(Search *s, int leader, int left)
{
    const int chicago = IS_CHICAGO(s->goal), deuce = IS_DEUCE(s->goal);
    u64 *hands = s->hands;
    if (deuce && !(hands[s->target] & DEUCE_BITS)) return 0;
    u64 live = 0;
    for (int seat = 0; seat < s->n; seat++) live |= hands[seat];
    if (left == 1) {
        u64 lead = 1ULL << (bit_length(hands[leader]) - 1);
        u64 top = live & suit_of_bit(lead);
        u64 top_bit = 1ULL << (bit_length(top) - 1);
        if (!(hands[s->target] & top_bit)) return 0;
        return !deuce || top_bit <= TOP_DEUCE_BIT;
    }
    int result = table_get(&s->table, hands, leader);
    if (result >= 0) return result;
    u64 mine = hands[s->target];
    if (leader == s->target && !deuce) {
        u64 others = live ^ mine;
        result = 1;
        for (int suit = 0; suit < 4; suit++) {
            u64 cards = mine & SUIT[suit];
            if (cards && (others & SUIT[suit]) > (cards & (~cards + 1))) {
                result = -1;
                break;
            }
        }
    }
    if (result < 0 && !chicago && guarded(s, mine)) result = 0;
    if (result < 0) result = play(s, leader, 0, 0, 0, leader, left, live);
    table_put(&s->table, hands, leader, result);
    return result;
}

static int play(Search *s, int seat, int i, u64 led, u64 best, int best_seat, int left,
                u64 live)
{
    const int n = s->n, target = s->target;
    const int chicago = IS_CHICAGO(s->goal), deuce = IS_DEUCE(s->goal);
    u64 *hands = s->hands;
    u64 hand = hands[seat];
    u64 legal = i == 0 ? hand : ((hand & led) ? (hand & led) : hand);
    if (chicago) {
        if (seat == target) {
            if (i == 0) {
                /* leading anything but a top card lets a defender win the trick */
                u64 others = live ^ hand;
                legal = 0;
                for (int suit = 0; suit < 4; suit++)
                    legal |= hand & SUIT[suit] & above_of(others & SUIT[suit]);
            } else {
                legal = hand & led & ~((best << 1) - 1);
            }
            if (!legal) return 0;
        } else if (i) {
            u64 above = ~((best << 1) - 1);
            if (best_seat == target) {
                if (hand & led & above) return 0; /* this defender can win the trick */
            } else if (!(hands[target] & led & above)) {
                return 0; /* the declarer, still to play, cannot win the trick */
            }
        }
    }
    /* one card per run of equivalent cards: the highest of each run */
    u64 cards[13];
    int k = 0;
    for (u64 x = legal; x;) {
        u64 low = x & (~x + 1);
        x ^= low;
        u64 higher = live & suit_of_bit(low) & ~((low << 1) - 1);
        if (!(higher & (~higher + 1) & hand)) cards[k++] = low;
    }
    const int maximise = seat == target;
    const int next = seat + 1 < n ? seat + 1 : 0;
    const int last = i == n - 1;
    for (int j = 0; j < k; j++) {
        u64 bit = i == 0 ? cards[k - 1 - j] : cards[j]; /* leads highest first */
        int value;
        hands[seat] = hand ^ bit;
        if (i == 0) {
            value = play(s, next, 1, suit_of_bit(bit), bit, seat, left, live);
        } else {
            u64 b = best;
            int b_seat = best_seat;
            if ((bit & led) && bit > best) {
                b = bit;
                b_seat = seat;
            }
            if (!last)
                value = play(s, next, i + 1, led, b, b_seat, left, live);
            else if (left == 1)
                value = b_seat == target && !(deuce && b > TOP_DEUCE_BIT);
            else if (chicago && b_seat != target)
                value = 0;
            else
                value = start(s, b_seat, left - 1);
        }
        hands[seat] = hand;
        if (maximise) {
            if (value) return 1;
        } else if (!value) {
            return 0;
        }
    }
    return !maximise;
}

static int after(Search *s, int seat, int i, u64 led, u64 best, int best_seat, int left,
                 u64 live, u64 bit)
{
    u64 hand = s->hands[seat];
    int value;
    s->hands[seat] = hand ^ bit;
    if (i == 0) {
        led = suit_of_bit(bit);
        best = bit;
        best_seat = seat;
    } else if ((bit & led) && bit > best) {
        best = bit;
        best_seat = seat;
    }
    if (i < s->n - 1)
        value = play(s, seat + 1 < s->n ? seat + 1 : 0, i + 1, led, best, best_seat, left,
                     live);
    else if (IS_CHICAGO(s->goal) && best_seat != s->target)
        value = 0;
    else if (left == 1)
        value = best_seat == s->target
                && !(IS_DEUCE(s->goal) && best > TOP_DEUCE_BIT);
    else
        value = start(s, best_seat, left - 1);
    s->hands[seat] = hand;
    return value;
}

/* ------------------------------------------------------------------ argument parsing */

static int read_mask(PyObject *obj, u64 *out, const char *what)
{
    if (!PyLong_Check(obj) || PyBool_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be an int card mask", what);
        return -1;
    }
    unsigned long long value = PyLong_AsUnsignedLongLong(obj);
    if (value == (unsigned long long)-1 && PyErr_Occurred()) return -1;
    if (value & ~FULL_DECK) {
        PyErr_Format(PyExc_ValueError, "%s is not a 52-bit card mask", what);
        return -1;
    }
    *out = value;
    return 0;
}

static int read_int(PyObject *obj, long lo, long hi, const char *what, int *out)
{
    long value = PyLong_AsLong(obj);
    if (value == -1 && PyErr_Occurred()) return -1;
    if (value < lo || value > hi) {
        PyErr_Format(PyExc_ValueError, "%s %ld is out of range %ld..%ld", what, value, lo, hi);
        return -1;
    }
    *out = (int)value;
    return 0;
}

/* The hands of a tuple or list of 2..6 masks. */
static int read_hands(PyObject *obj, u64 *hands, int *n)
{
    PyObject *seq = PySequence_Fast(obj, "hands must be a sequence of card masks");
    if (seq == NULL) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    if (size < 2 || size > MAX_SEATS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "a position has 2 to %d seats, not %zd", MAX_SEATS,
                     size);
        return -1;
    }
    for (Py_ssize_t k = 0; k < size; k++)
        if (read_mask(PySequence_Fast_GET_ITEM(seq, k), &hands[k], "a hand") < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    *n = (int)size;
    return 0;
}

/* The card ids of a sequence (at most `limit`). */
static int read_cards(PyObject *obj, int *cards, int limit, int *k)
{
    PyObject *seq = PySequence_Fast(obj, "cards must be a sequence of card ids");
    if (seq == NULL) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(seq);
    if (size > limit) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "at most %d cards, not %zd", limit, size);
        return -1;
    }
    for (Py_ssize_t j = 0; j < size; j++)
        if (read_int(PySequence_Fast_GET_ITEM(seq, j), 0, 51, "card", &cards[j]) < 0) {
            Py_DECREF(seq);
            return -1;
        }
    Py_DECREF(seq);
    *k = (int)size;
    return 0;
}

/* The trick state shared by solve and solve_after:
 * (hands, target, goal, seat, i, led, best, best_seat, left, live). */
typedef struct {
    int seat, i, best_seat, left;
    u64 led, best, live;
} Trick;

static int read_search(PyObject *const *args, Search *s, Trick *t)
{
    if (read_hands(args[0], s->hands, &s->n) < 0) return -1;
    if (read_int(args[1], 0, s->n - 1, "target", &s->target) < 0
        || read_int(args[2], GOAL_LAST, GOAL_DEUCE_CHICAGO, "goal", &s->goal) < 0
        || read_int(args[3], 0, s->n - 1, "seat", &t->seat) < 0
        || read_int(args[4], 0, s->n - 1, "index in the trick", &t->i) < 0
        || read_mask(args[5], &t->led, "led") < 0 || read_mask(args[6], &t->best, "best") < 0
        || read_int(args[7], 0, s->n - 1, "best_seat", &t->best_seat) < 0
        || read_int(args[8], 1, 13, "tricks left", &t->left) < 0
        || read_mask(args[9], &t->live, "live") < 0)
        return -1;
    if (t->i > 0 && (t->best == 0 || count(t->best) != 1)) {
        PyErr_SetString(PyExc_ValueError, "a trick under way needs its best card as one bit");
        return -1;
    }
    if (table_init(&s->table, s->n) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *py_solve(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError,
                        "solve(hands, target, goal, seat, i, led, best, best_seat, left, live)");
        return NULL;
    }
    Search s;
    Trick t;
    if (read_search(args, &s, &t) < 0) return NULL;
    int value = t.i == 0 ? start(&s, t.seat, t.left)
                         : play(&s, t.seat, t.i, t.led, t.best, t.best_seat, t.left, t.live);
    table_free(&s.table);
    return PyBool_FromLong(value);
}

PyDoc_STRVAR(solve_doc,
"solve(hands, target, goal, seat, i, led, best, best_seat, left, live) -> bool\n\n"
"Whether seat ``target`` reaches ``goal`` (0 last trick, 1 last trick with a deuce,\n"
"2 every trick) against any defence, ``seat`` being to play card ``i`` of the trick\n"
"(the search state of chicago.bots.solver; ``i`` 0 is a trick boundary).");

static PyObject *py_solve_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 11) {
        PyErr_SetString(PyExc_TypeError, "solve_moves(hands, target, goal, seat, i, led, "
                                         "best, best_seat, left, live, among)");
        return NULL;
    }
    Search s;
    Trick t;
    u64 among;
    if (read_mask(args[10], &among, "among") < 0) return NULL;
    if (read_search(args, &s, &t) < 0) return NULL;
    u64 hand = s.hands[t.seat];
    u64 legal = t.i == 0 ? hand : ((hand & t.led) ? (hand & t.led) : hand);
    /* classes of equivalent cards (chicago.bots.solver._move_classes): a card stands for
     * the top of its run within the hand, deuces apart; each class is searched once */
    u64 done = 0, reached = 0, tried = 0;
    for (u64 x = legal & among; x; x &= x - 1) {
        u64 card = x & (~x + 1), bit = card;
        if (bit > TOP_DEUCE_BIT)
            for (;;) {
                u64 higher = t.live & suit_of_bit(bit) & ~((bit << 1) - 1);
                u64 next = higher & (~higher + 1);
                if (!(next & hand)) break;
                bit = next;
            }
        if (!(tried & bit)) {
            tried |= bit;
            if (after(&s, t.seat, t.i, t.led, t.best, t.best_seat, t.left, t.live, bit))
                done |= bit;
        }
        if (done & bit) reached |= card;
    }
    table_free(&s.table);
    return PyLong_FromUnsignedLongLong(reached);
}

PyDoc_STRVAR(solve_moves_doc,
"solve_moves(hands, target, goal, seat, i, led, best, best_seat, left, live, among) -> int\n\n"
"The mask of the legal cards of ``seat`` (the seat to act) that are in ``among`` after\n"
"which solve() is true; equivalent cards are searched once, with one shared\n"
"transposition table.");

/* ------------------------------------------------------------------ the opponent model */

static inline int lowest(u64 x) { return low_index(x); }

/* The card a sensible player plays (chicago.bots.model.model_card, same choices). */
static int model_card(u64 hand, const int *table, int nt)
{
    if (count(hand) == 1) return lowest(hand);
    int counts[4] = {0, 0, 0, 0}, tops[4] = {-1, -1, -1, -1};
    for (u64 x = hand; x; x &= x - 1) {
        int c = lowest(x), suit = c & 3;
        counts[suit]++;
        if (c > tops[suit]) tops[suit] = c;
    }
    int keep = -1, keep_count = -1, keep_rank = -1;
    for (int suit = 0; suit < 4; suit++) {
        int top = tops[suit];
        if (top < 0) continue;
        if (counts[suit] > keep_count || (counts[suit] == keep_count && (top >> 2) > keep_rank)) {
            keep = top;
            keep_count = counts[suit];
            keep_rank = top >> 2;
        }
    }
    int led = -1;
    u64 legal = hand;
    if (nt) {
        led = table[0] & 3;
        if (hand & SUIT[led]) legal = hand & SUIT[led];
    }
    if (count(legal) == 1) return lowest(legal);
    u64 others = legal & ~(1ULL << keep);
    if (count(hand) == 2) {
        if (!nt) return lowest(others ? others : legal);
        int best = -1;
        for (int j = 0; j < nt; j++)
            if ((table[j] & 3) == led && table[j] > best) best = table[j];
        u64 winners = others & SUIT[led] & ~((1ULL << (best + 1)) - 1);
        if (winners) return lowest(winners);
        return lowest(others ? others : legal);
    }
    if (!nt) return lowest(others ? others : legal);
    u64 following = others & SUIT[led];
    if (following) return lowest(following);
    if (others) {
        int choice = -1, choice_count = 99, choice_rank = 99;
        for (u64 x = others; x; x &= x - 1) {
            int c = lowest(x);
            if (counts[c & 3] < choice_count
                || (counts[c & 3] == choice_count && (c >> 2) < choice_rank)) {
                choice = c;
                choice_count = counts[c & 3];
                choice_rank = c >> 2;
            }
        }
        return choice;
    }
    return lowest(legal);
}

typedef struct {
    int n, seat;
    u64 hands[MAX_SEATS];
    Table table;
} Model;

static int model_trick(Model *m, int leader, int *played, int np);

static int model_boundary(Model *m, int leader)
{
    int result = table_get(&m->table, m->hands, leader);
    if (result < 0) {
        int played[MAX_SEATS];
        result = model_trick(m, leader, played, 0);
        table_put(&m->table, m->hands, leader, result);
    }
    return result;
}

static int model_after(Model *m, int leader, int *played, int np, int card)
{
    m->hands[m->seat] ^= 1ULL << card;
    played[np] = card;
    int value = model_trick(m, leader, played, np + 1);
    m->hands[m->seat] ^= 1ULL << card;
    return value;
}

static int model_trick(Model *m, int leader, int *played, int np)
{
    const int n = m->n;
    if (np == n) {
        int led = played[0] & 3, best = -1, best_index = 0;
        for (int k = 0; k < n; k++)
            if ((played[k] & 3) == led && played[k] > best) {
                best = played[k];
                best_index = k;
            }
        int winner = (leader + best_index) % n;
        if (!m->hands[winner]) return winner == m->seat;
        return model_boundary(m, winner);
    }
    int to_act = (leader + np) % n;
    if (to_act == m->seat) {
        u64 hand = m->hands[m->seat], legal = hand;
        if (np && (hand & SUIT[played[0] & 3])) legal = hand & SUIT[played[0] & 3];
        for (u64 x = legal; x; x &= x - 1)
            if (model_after(m, leader, played, np, lowest(x))) return 1;
        return 0;
    }
    int card = model_card(m->hands[to_act], played, np);
    m->hands[to_act] ^= 1ULL << card;
    played[np] = card;
    int value = model_trick(m, leader, played, np + 1);
    m->hands[to_act] ^= 1ULL << card;
    return value;
}

/* (hands, seat, leader, played) of the model functions; the played cards in `played`. */
static int read_model(PyObject *const *args, Model *m, int *leader, int *played, int *np)
{
    if (read_hands(args[0], m->hands, &m->n) < 0) return -1;
    if (read_int(args[1], 0, m->n - 1, "seat", &m->seat) < 0
        || read_int(args[2], 0, m->n - 1, "leader", leader) < 0
        || read_cards(args[3], played, m->n - 1, np) < 0)
        return -1;
    if (table_init(&m->table, m->n) < 0) {
        PyErr_NoMemory();
        return -1;
    }
    return 0;
}

static PyObject *py_model_wins(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "model_wins(hands, seat, leader, played)");
        return NULL;
    }
    Model m;
    int leader, np, played[MAX_SEATS];
    if (read_model(args, &m, &leader, played, &np) < 0) return NULL;
    int value = model_trick(&m, leader, played, np);
    table_free(&m.table);
    return PyBool_FromLong(value);
}

PyDoc_STRVAR(model_wins_doc,
"model_wins(hands, seat, leader, played) -> bool\n\n"
"Whether ``seat`` wins the last trick playing its best against the others' model_card,\n"
"from a trick led by ``leader`` with the card ids ``played`` on the table.");

static PyObject *py_model_after(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "model_after(hands, seat, leader, played, cards)");
        return NULL;
    }
    Model m;
    int leader, np, played[MAX_SEATS], cards[13], k;
    if (read_model(args, &m, &leader, played, &np) < 0) return NULL;
    if ((leader + np) % m.n != m.seat) {
        table_free(&m.table);
        PyErr_SetString(PyExc_ValueError, "model_after: seat is not the seat to act");
        return NULL;
    }
    if (read_cards(args[4], cards, 13, &k) < 0) {
        table_free(&m.table);
        return NULL;
    }
    PyObject *out = PyTuple_New(k);
    for (int j = 0; out != NULL && j < k; j++) {
        if (!(m.hands[m.seat] >> cards[j] & 1)) {
            PyErr_SetString(PyExc_ValueError, "model_after: a card the seat does not hold");
            Py_CLEAR(out);
            break;
        }
        int value = model_after(&m, leader, played, np, cards[j]);
        PyTuple_SET_ITEM(out, j, PyBool_FromLong(value));
    }
    table_free(&m.table);
    return out;
}

PyDoc_STRVAR(model_after_doc,
"model_after(hands, seat, leader, played, cards) -> tuple[bool, ...]\n\n"
"model_wins() after ``seat`` (the seat to act) plays each card id of ``cards``.");

static PyObject *py_model_card(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "model_card(hand, table)");
        return NULL;
    }
    u64 hand;
    int table[MAX_SEATS], nt;
    if (read_mask(args[0], &hand, "hand") < 0 || read_cards(args[1], table, MAX_SEATS - 1, &nt) < 0)
        return NULL;
    if (!hand) {
        PyErr_SetString(PyExc_ValueError, "model_card: an empty hand");
        return NULL;
    }
    return PyLong_FromLong(model_card(hand, table, nt));
}

PyDoc_STRVAR(model_card_doc,
"model_card(hand, table) -> int\n\n"
"The card id chicago.bots.model.model_card plays from the hand mask ``hand`` with the\n"
"card ids ``table`` on the table.");

/* ------------------------------------------------------------------ module */

static PyMethodDef methods[] = {
    {"solve", (PyCFunction)(void (*)(void))py_solve, METH_FASTCALL, solve_doc},
    {"solve_moves", (PyCFunction)(void (*)(void))py_solve_moves, METH_FASTCALL,
     solve_moves_doc},
    {"model_wins", (PyCFunction)(void (*)(void))py_model_wins, METH_FASTCALL, model_wins_doc},
    {"model_after", (PyCFunction)(void (*)(void))py_model_after, METH_FASTCALL,
     model_after_doc},
    {"model_card", (PyCFunction)(void (*)(void))py_model_card, METH_FASTCALL, model_card_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "chicago.bots._solver",
    "C accelerator of chicago.bots.solver and chicago.bots.model (same answers).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__solver(void)
{
    for (int suit = 0; suit < 4; suit++) {
        SUIT[suit] = 0;
        for (int rank = 0; rank < 13; rank++) SUIT[suit] |= 1ULL << (rank * 4 + suit);
    }
    return PyModule_Create(&module);
}
