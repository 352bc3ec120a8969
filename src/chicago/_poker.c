/*
 * chicago._poker: the C accelerator of chicago.poker and chicago.odds.
 *
 * Cards are ids 0-51 (rank_index * 4 + suit_index, rank index 0 = two ... 12 = ace).
 *
 * A hand's value is the integer of chicago.poker.rank_value(category, ranks) with the royal
 * flush as its own category (ROYAL_FLUSH = 9): category << 20, then up to five 4-bit rank
 * values (2 ... 14) in comparison order. So values compare exactly like poker, one number
 * serves everywhere, and `value >> 20` is the category.
 *
 * Evaluation: the five ranks are sorted by a 9-comparator network, the sorted multiset is
 * turned into its index among the C(17, 5) = 6188 multisets of five ranks (combinatorial
 * number system), and that index reads a table: one for flushes, one for everything else,
 * each with the wheel straight (R-HAND-3) on and off. The four tables hold 6188 int32 each
 * (97 KB together) and are built when the module is imported (well under a millisecond).
 *
 * Exact draw odds: for each of the 32 ways to keep cards, the draws are counted by dynamic
 * programming over the ranks (state: cards left to draw and the rank pattern so far,
 * weighted by the number of ways to pick the cards from the unseen ones); straights,
 * flushes and straight flushes are counted combinatorially. The result is exact integer
 * counts, never a sample (see count_hold).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

enum {
    HIGH_CARD, PAIR, TWO_PAIR, THREE_OF_A_KIND, STRAIGHT, FLUSH, FULL_HOUSE,
    FOUR_OF_A_KIND, STRAIGHT_FLUSH, ROYAL_FLUSH, NCAT
};

#define NMULTI 6188 /* C(17, 5): multisets of 5 ranks out of 13 */
#define ROYAL_MASK 0x1F00u
#define WHEEL_MASK 0x100Fu
#define ROYAL_KEY (ROYAL_FLUSH << 20) /* every royal flush: the royal is its own value */
#define ACE_HIGH_STRAIGHT_FLUSH ((STRAIGHT_FLUSH << 20) | (14 << 16))

/* The docstring of chicago.poker.evaluate (the pure-Python one says the same). */
#define EVALUATE_DOC \
"Evaluate five cards, or the best five of six.\n\n" \
"``cards`` are :class:`Card` objects, ids 0-51, tokens like ``\"As\"`` or one text like\n" \
"``\"As Kd Tc 9h 2s\"``. Options come from ``rules`` (``wheel_straight``,\n" \
"``royal_separate``, ``suit_order``) and can be overridden one by one: ``wheel``\n" \
"(A-2-3-4-5 is a straight, R-HAND-3, default on), ``royal`` (an ace-high straight flush\n" \
"is ROYAL_FLUSH, not STRAIGHT_FLUSH; V-ROYAL, default on), ``suit_order`` (V-TIE-SUIT:\n" \
"suit letters highest first, e.g. ``\"hdsc\"``; default none, so exactly equal hands stay\n" \
"equal). Of six cards, the first best five in :func:`itertools.combinations` order make\n" \
"the value; cards of equal rank keep their given order (best suit first under a suit\n" \
"order).\n\n" \
"Only the value's ``key`` is computed here (the table lookup of :func:`rank`), in one C\n" \
"call when the accelerator is built; the rest of the :class:`HandValue` is read from the\n" \
"key, or from the hand when asked for."

static int32_t NF[2][NMULTI]; /* non-flush values by rank multiset, [wheel] */
static int32_t FL[2][NMULTI]; /* flush values by rank multiset (distinct ranks), [wheel] */
static uint16_t T4[13], T3[13], T2[13], T1[13]; /* combinatorial-number-system terms */
static uint8_t STRAIGHT_TOP[2][8192]; /* rank value of a straight's top card by rank mask */
static int64_t BINOM[53][6]; /* C(n, k) for k <= 5 */
static PyObject *VALUE_OBJECTS[2][2][NMULTI]; /* int objects of NF/FL values: [wheel][flush] */

/* ------------------------------------------------------------------ tables */

static int64_t binom(int n, int k)
{
    if (k < 0 || n < k) return 0;
    int64_t r = 1;
    for (int i = 1; i <= k; i++) r = r * (n - k + i) / i;
    return r;
}

static int32_t pack(int category, const int *values, int n)
{
    int32_t v = category;
    for (int i = 0; i < 5; i++) v = v * 16 + (i < n ? values[i] : 0);
    return v;
}

/* The value of five rank indices sorted high to low. */
static int32_t value_of_sorted(const int *r, int flush, int wheel)
{
    int count[13] = {0};
    for (int i = 0; i < 5; i++) count[r[i]]++;
    int groups[5], values[5], ng = 0;
    for (int c = 4; c >= 1; c--)
        for (int rank = 12; rank >= 0; rank--)
            if (count[rank] == c) groups[ng++] = rank;
    for (int i = 0; i < ng; i++) values[i] = groups[i] + 2;
    if (ng == 5) {
        int top = -1;
        if (groups[0] - groups[4] == 4)
            top = groups[0];
        else if (wheel && groups[0] == 12 && groups[1] == 3 && groups[4] == 0)
            top = 3;
        if (top >= 0) {
            int category = flush ? (top == 12 ? ROYAL_FLUSH : STRAIGHT_FLUSH) : STRAIGHT;
            int v = top + 2;
            return pack(category, &v, 1);
        }
        return pack(flush ? FLUSH : HIGH_CARD, values, 5);
    }
    int category;
    if (count[groups[0]] == 4)
        category = FOUR_OF_A_KIND;
    else if (count[groups[0]] == 3)
        category = ng == 2 ? FULL_HOUSE : THREE_OF_A_KIND;
    else
        category = ng == 3 ? TWO_PAIR : PAIR;
    return pack(category, values, ng);
}

static void build_tables(void)
{
    for (int n = 0; n <= 52; n++)
        for (int k = 0; k <= 5; k++) BINOM[n][k] = binom(n, k);
    for (int x = 0; x < 13; x++) {
        T4[x] = (uint16_t)binom(x + 4, 5);
        T3[x] = (uint16_t)binom(x + 3, 4);
        T2[x] = (uint16_t)binom(x + 2, 3);
        T1[x] = (uint16_t)binom(x + 1, 2);
    }
    int r[5];
    for (r[0] = 0; r[0] < 13; r[0]++)
    for (r[1] = 0; r[1] <= r[0]; r[1]++)
    for (r[2] = 0; r[2] <= r[1]; r[2]++)
    for (r[3] = 0; r[3] <= r[2]; r[3]++)
    for (r[4] = 0; r[4] <= r[3]; r[4]++) {
        int index = T4[r[0]] + T3[r[1]] + T2[r[2]] + T1[r[3]] + r[4];
        int distinct = r[0] > r[1] && r[1] > r[2] && r[2] > r[3] && r[3] > r[4];
        for (int w = 0; w < 2; w++) {
            if (r[0] == r[4]) { /* five of one rank: no such hand */
                NF[w][index] = FL[w][index] = -1;
                continue;
            }
            NF[w][index] = value_of_sorted(r, 0, w);
            FL[w][index] = distinct ? value_of_sorted(r, 1, w) : NF[w][index];
        }
    }
    memset(STRAIGHT_TOP, 0, sizeof STRAIGHT_TOP);
    for (int top = 4; top <= 12; top++) {
        STRAIGHT_TOP[0][0x1Fu << (top - 4)] = (uint8_t)(top + 2);
        STRAIGHT_TOP[1][0x1Fu << (top - 4)] = (uint8_t)(top + 2);
    }
    STRAIGHT_TOP[1][WHEEL_MASK] = 5;
}

/* ------------------------------------------------------------------ evaluation */

/* Order two values high first without branches the compiler cannot turn into moves. */
#define CS(a, b) do { unsigned hi_ = (a) > (b) ? (a) : (b); unsigned lo_ = (a) > (b) ? (b) : (a); \
    (a) = hi_; (b) = lo_; } while (0)

/* The table slot of five cards: index * 2 + flush, into VALUE_OBJECTS[wheel]. */
static inline unsigned slot5(unsigned c0, unsigned c1, unsigned c2, unsigned c3, unsigned c4)
{
    unsigned r0 = c0 >> 2, r1 = c1 >> 2, r2 = c2 >> 2, r3 = c3 >> 2, r4 = c4 >> 2;
    unsigned flush = (((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3u) == 0;
    CS(r0, r1); CS(r3, r4); CS(r2, r4); CS(r2, r3); CS(r0, r3);
    CS(r0, r2); CS(r1, r4); CS(r1, r3); CS(r1, r2);
    return (T4[r0] + T3[r1] + T2[r2] + T1[r3] + r4) * 2 + flush;
}

static inline int32_t eval5(unsigned c0, unsigned c1, unsigned c2, unsigned c3, unsigned c4,
                            int wheel)
{
    unsigned r0 = c0 >> 2, r1 = c1 >> 2, r2 = c2 >> 2, r3 = c3 >> 2, r4 = c4 >> 2;
    int flush = (((c0 ^ c1) | (c0 ^ c2) | (c0 ^ c3) | (c0 ^ c4)) & 3u) == 0;
    /* Knuth's 9-comparator sorting network for five elements, high to low */
    CS(r0, r1); CS(r3, r4); CS(r2, r4); CS(r2, r3); CS(r0, r3);
    CS(r0, r2); CS(r1, r4); CS(r1, r3); CS(r1, r2);
    unsigned index = T4[r0] + T3[r1] + T2[r2] + T1[r3] + r4;
    return flush ? FL[wheel][index] : NF[wheel][index];
}

static inline int32_t eval6(const unsigned *c, int wheel)
{
    int32_t best = eval5(c[0], c[1], c[2], c[3], c[4], wheel), v;
    v = eval5(c[0], c[1], c[2], c[3], c[5], wheel); if (v > best) best = v;
    v = eval5(c[0], c[1], c[2], c[4], c[5], wheel); if (v > best) best = v;
    v = eval5(c[0], c[1], c[3], c[4], c[5], wheel); if (v > best) best = v;
    v = eval5(c[0], c[2], c[3], c[4], c[5], wheel); if (v > best) best = v;
    v = eval5(c[1], c[2], c[3], c[4], c[5], wheel); if (v > best) best = v;
    return best;
}

/* ------------------------------------------------------------------ argument parsing */

/* Read 5 or 6 distinct card ids from a list or tuple. Returns the count, -1 on an error, or
 * -2 (no error set) when ``tokens`` is set and an item is a str (a token like "As"). */
static Py_ssize_t read_ids(PyObject *seq, unsigned *ids, int tokens)
{
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n != 5 && n != 6) {
        PyErr_Format(PyExc_ValueError, "a poker hand has 5 cards (or 6 to choose from), not %zd",
                     n);
        return -1;
    }
    PyObject **items = PySequence_Fast_ITEMS(seq);
    uint64_t seen = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = items[i];
        long v;
        if (PyLong_Check(item) && !PyBool_Check(item)) {
            v = PyLong_AsLong(item);
        } else if (PyUnicode_Check(item) && tokens) {
            return -2;
        } else if (!PyBool_Check(item) && !PyUnicode_Check(item) && PyIndex_Check(item)) {
            PyObject *index = PyNumber_Index(item); /* a numpy integer, say */
            v = index ? PyLong_AsLong(index) : -1;
            Py_XDECREF(index);
        } else {
            PyErr_Format(PyExc_TypeError, "a card is an int 0-51 (or a Card), not %R", item);
            return -1;
        }
        if (v == -1 && PyErr_Occurred()) return -1;
        if (v < 0 || v > 51) {
            PyErr_Format(PyExc_ValueError, "%ld is not a card id (0-51)", v);
            return -1;
        }
        uint64_t bit = (uint64_t)1 << v;
        if (seen & bit) {
            PyErr_SetString(PyExc_ValueError, "a hand cannot hold the same card twice");
            return -1;
        }
        seen |= bit;
        ids[i] = (unsigned)v;
    }
    return n;
}

/* Read 5 or 6 distinct card ids from any sequence of ints; returns the count or -1. */
static Py_ssize_t read_cards(PyObject *obj, unsigned *ids)
{
    PyObject *seq = PySequence_Fast(obj, "cards must be a sequence of card ids");
    if (seq == NULL) return -1;
    Py_ssize_t n = read_ids(seq, ids, 0);
    Py_DECREF(seq);
    return n;
}

static inline int32_t eval_ids(const unsigned *ids, Py_ssize_t n, int wheel)
{
    return n == 5 ? eval5(ids[0], ids[1], ids[2], ids[3], ids[4], wheel) : eval6(ids, wheel);
}

/* ------------------------------------------------------------------ rank() */

PyDoc_STRVAR(rank_doc,
"rank(cards, wheel=True) -> int\n--\n\n"
"The value of 5 cards (or the best 5 of 6) as one comparable int.\n\n"
"``cards`` is a sequence of card ids (``Card`` or int 0-51). The value equals\n"
"``rank_value(category, ranks)`` with the royal flush as its own category, so higher\n"
"beats lower, equal means exactly equal, and ``value >> 20`` is the category.\n"
"``wheel`` makes A-2-3-4-5 a straight (R-HAND-3).");

static PyObject *py_rank(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                         PyObject *kwnames)
{
    (void)self;
    Py_ssize_t nkw = kwnames ? PyTuple_GET_SIZE(kwnames) : 0;
    if (nargs < 1 || nargs + nkw > 2) {
        PyErr_SetString(PyExc_TypeError, "rank(cards, wheel=True) takes 1 or 2 arguments");
        return NULL;
    }
    int wheel = 1;
    PyObject *wheel_obj = nargs == 2 ? args[1] : NULL;
    if (nkw == 1) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, 0);
        if (!PyUnicode_Check(name) || PyUnicode_CompareWithASCIIString(name, "wheel") != 0) {
            PyErr_Format(PyExc_TypeError, "rank() got an unexpected keyword argument %R", name);
            return NULL;
        }
        wheel_obj = args[nargs];
    }
    if (wheel_obj != NULL && (wheel = PyObject_IsTrue(wheel_obj)) < 0) return NULL;
    unsigned ids[6];
    Py_ssize_t n = read_cards(args[0], ids);
    if (n < 0) return NULL;
    if (n == 5) {
        unsigned slot = slot5(ids[0], ids[1], ids[2], ids[3], ids[4]);
        return Py_NewRef(VALUE_OBJECTS[wheel][slot & 1][slot >> 1]);
    }
    return PyLong_FromLong(eval_ids(ids, n, wheel));
}

/* ------------------------------------------------------------------ rank_batch() */

PyDoc_STRVAR(rank_batch_doc,
"rank_batch(cards, width, out, wheel) -> None\n--\n\n"
"Evaluate rows of ``width`` (5 or 6) uint8 card ids from the C-contiguous buffer\n"
"``cards`` into the int32 buffer ``out``. Raises ValueError naming the first bad row.");

static PyObject *py_rank_batch(PyObject *self, PyObject *args)
{
    (void)self;
    Py_buffer in, out;
    int width, wheel;
    if (!PyArg_ParseTuple(args, "y*iw*p", &in, &width, &out, &wheel)) return NULL;
    PyObject *result = NULL;
    if (width != 5 && width != 6) {
        PyErr_SetString(PyExc_ValueError, "rows must hold 5 or 6 cards");
        goto done;
    }
    Py_ssize_t n = in.len / width;
    if (in.len % width != 0 || out.len != n * (Py_ssize_t)sizeof(int32_t)) {
        PyErr_SetString(PyExc_ValueError, "buffer sizes do not match");
        goto done;
    }
    const uint8_t *src = (const uint8_t *)in.buf;
    int32_t *dst = (int32_t *)out.buf;
    Py_ssize_t bad = -1;
    Py_BEGIN_ALLOW_THREADS
    if (width == 5) {
        for (Py_ssize_t i = 0; i < n; i++, src += 5) {
            unsigned c0 = src[0], c1 = src[1], c2 = src[2], c3 = src[3], c4 = src[4];
            uint64_t m = ((uint64_t)1 << (c0 & 63)) | ((uint64_t)1 << (c1 & 63))
                       | ((uint64_t)1 << (c2 & 63)) | ((uint64_t)1 << (c3 & 63))
                       | ((uint64_t)1 << (c4 & 63));
            if ((c0 | c1 | c2 | c3 | c4) > 63 || (m >> 52) || __builtin_popcountll(m) != 5) {
                bad = i;
                break;
            }
            dst[i] = eval5(c0, c1, c2, c3, c4, wheel);
        }
    } else {
        unsigned c[6];
        for (Py_ssize_t i = 0; i < n; i++, src += 6) {
            uint64_t m = 0;
            unsigned any = 0;
            for (int j = 0; j < 6; j++) {
                c[j] = src[j];
                any |= c[j];
                m |= (uint64_t)1 << (c[j] & 63);
            }
            if (any > 63 || (m >> 52) || __builtin_popcountll(m) != 6) {
                bad = i;
                break;
            }
            dst[i] = eval6(c, wheel);
        }
    }
    Py_END_ALLOW_THREADS
    if (bad >= 0) {
        PyErr_Format(PyExc_ValueError,
                     "row %zd is not a hand of %d distinct card ids 0-51", bad, width);
        goto done;
    }
    result = Py_NewRef(Py_None);
done:
    PyBuffer_Release(&in);
    PyBuffer_Release(&out);
    return result;
}

/* ------------------------------------------------------------------ Python objects */

static PyObject *g_deck;       /* tuple of the 52 Card objects */
static PyObject *g_categories; /* tuple of the 10 Category members */
static PyObject *g_as_cards;   /* chicago.poker._as_cards: texts and tokens to Card objects */
static PyObject *g_suit_ranks; /* chicago.poker._suit_ranks: a suit order to 4 suit ranks */
static PyObject *g_restore;    /* chicago.poker._restore: unpickles a HandValue */
static PyObject *g_empty;

PyDoc_STRVAR(setup_doc,
"setup(deck, categories, as_cards, suit_ranks, restore) -> None\n--\n\n"
"Register the Python objects the accelerator uses (called once by chicago.poker): the 52\n"
"cards, the 10 categories, and the functions that turn texts and tokens into cards, a\n"
"suit order into suit ranks, and a pickled HandValue back into one.");

static PyObject *py_setup(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *deck, *categories, *as_cards, *suit_ranks, *restore;
    if (!PyArg_ParseTuple(args, "O!O!OOO", &PyTuple_Type, &deck, &PyTuple_Type, &categories,
                          &as_cards, &suit_ranks, &restore))
        return NULL;
    if (PyTuple_GET_SIZE(deck) != 52 || PyTuple_GET_SIZE(categories) != NCAT) {
        PyErr_SetString(PyExc_ValueError, "setup() needs 52 cards and 10 categories");
        return NULL;
    }
    if (!PyCallable_Check(as_cards) || !PyCallable_Check(suit_ranks)
        || !PyCallable_Check(restore)) {
        PyErr_SetString(PyExc_TypeError, "setup() needs three callables");
        return NULL;
    }
    Py_XSETREF(g_deck, Py_NewRef(deck));
    Py_XSETREF(g_categories, Py_NewRef(categories));
    Py_XSETREF(g_as_cards, Py_NewRef(as_cards));
    Py_XSETREF(g_suit_ranks, Py_NewRef(suit_ranks));
    Py_XSETREF(g_restore, Py_NewRef(restore));
    Py_RETURN_NONE;
}

static int ready(void)
{
    if (g_deck == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "chicago._poker.setup() has not been called");
        return 0;
    }
    return 1;
}

/* ------------------------------------------------------------------ category() */

PyDoc_STRVAR(category_doc,
"category(cards, wheel, royal) -> Category\n--\n\n"
"The category of 5 cards (or the best 5 of 6); with ``royal`` false an ace-high\n"
"straight flush is a STRAIGHT_FLUSH.");

static PyObject *py_category(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "category(cards, wheel, royal) takes 3 arguments");
        return NULL;
    }
    if (!ready()) return NULL;
    int wheel = PyObject_IsTrue(args[1]), royal = PyObject_IsTrue(args[2]);
    if (wheel < 0 || royal < 0) return NULL;
    unsigned ids[6];
    Py_ssize_t n = read_cards(args[0], ids);
    if (n < 0) return NULL;
    int category = eval_ids(ids, n, wheel) >> 20;
    if (category == ROYAL_FLUSH && !royal) category = STRAIGHT_FLUSH;
    return Py_NewRef(PyTuple_GET_ITEM(g_categories, category));
}

/* ------------------------------------------------------------------ full descriptions */

typedef struct {
    int category;
    int nranks;
    int ranks[5];   /* rank values 2..14 in comparison order */
    unsigned cards[5]; /* card ids, most significant first */
    int suit_rank;  /* -1 without a suit order */
    int32_t key;
} Described;

/* The full description of five cards, exactly as the reference evaluator gives it: cards of
 * equal rank keep their input order (or go best suit first under a suit order). */
static void describe5(const unsigned *c, int wheel, int royal, const int *suit_rank,
                      Described *d)
{
    unsigned by_rank[5];
    int key_of[5];
    /* stable sort, high (rank, suit rank) first */
    for (int i = 0; i < 5; i++) {
        int k = (int)(c[i] >> 2) * 4 + (suit_rank ? suit_rank[c[i] & 3] : 0);
        int j = i;
        while (j > 0 && key_of[j - 1] < k) {
            key_of[j] = key_of[j - 1];
            by_rank[j] = by_rank[j - 1];
            j--;
        }
        key_of[j] = k;
        by_rank[j] = c[i];
    }
    int count[13] = {0};
    for (int i = 0; i < 5; i++) count[c[i] >> 2]++;
    int groups[5], ng = 0, position[13];
    for (int n = 4; n >= 1; n--)
        for (int r = 12; r >= 0; r--)
            if (count[r] == n) {
                position[r] = ng;
                groups[ng++] = r;
            }
    int flush = (((c[0] ^ c[1]) | (c[0] ^ c[2]) | (c[0] ^ c[3]) | (c[0] ^ c[4])) & 3u) == 0;
    int top = -1;
    if (ng == 5) {
        if (groups[0] - groups[4] == 4)
            top = groups[0];
        else if (wheel && groups[0] == 12 && groups[1] == 3 && groups[4] == 0)
            top = 3;
    }
    if (top >= 0) {
        if (flush)
            d->category = (royal && top == 12) ? ROYAL_FLUSH : STRAIGHT_FLUSH;
        else
            d->category = STRAIGHT;
        d->nranks = 1;
        d->ranks[0] = top + 2;
        if (top == 3) { /* the ace plays low */
            for (int i = 0; i < 4; i++) d->cards[i] = by_rank[i + 1];
            d->cards[4] = by_rank[0];
        } else {
            memcpy(d->cards, by_rank, sizeof by_rank);
        }
    } else {
        if (flush)
            d->category = FLUSH;
        else if (count[groups[0]] == 4)
            d->category = FOUR_OF_A_KIND;
        else if (count[groups[0]] == 3)
            d->category = ng == 2 ? FULL_HOUSE : THREE_OF_A_KIND;
        else if (count[groups[0]] == 2)
            d->category = ng == 3 ? TWO_PAIR : PAIR;
        else
            d->category = HIGH_CARD;
        d->nranks = ng;
        for (int i = 0; i < ng; i++) d->ranks[i] = groups[i] + 2;
        int out = 0;
        for (int g = 0; g < ng; g++)
            for (int i = 0; i < 5; i++)
                if (position[by_rank[i] >> 2] == g) d->cards[out++] = by_rank[i];
    }
    d->key = pack(d->category, d->ranks, d->nranks);
    d->suit_rank = -1;
    if (suit_rank) {
        unsigned highest = top == 3 ? d->cards[0] : by_rank[0];
        d->suit_rank = suit_rank[highest & 3];
        d->key = d->key * 4 + d->suit_rank;
    }
}

/* The description of 5 cards, or of the first best five of 6 in itertools.combinations
 * order (drop card 5, 4, ... 0). */
static void describe(const unsigned *ids, int n, int wheel, int royal, const int *suit_rank,
                     Described *d)
{
    if (n == 5) {
        describe5(ids, wheel, royal, suit_rank, d);
        return;
    }
    Described best;
    unsigned best_five[5] = {0, 0, 0, 0, 0};
    int32_t best_value = -1;
    for (int drop = 5; drop >= 0; drop--) {
        unsigned five[5];
        for (int i = 0, j = 0; i < 6; i++)
            if (i != drop) five[j++] = ids[i];
        if (suit_rank == NULL) {
            /* the cheap value decides; describe only the winner */
            int32_t v = eval5(five[0], five[1], five[2], five[3], five[4], wheel);
            if (v > best_value) {
                best_value = v;
                memcpy(best_five, five, sizeof five);
            }
        } else {
            describe5(five, wheel, royal, suit_rank, d);
            if (d->key > best_value) {
                best_value = d->key;
                best = *d;
            }
        }
    }
    if (suit_rank == NULL)
        describe5(best_five, wheel, royal, NULL, d);
    else
        *d = best;
}

/* ------------------------------------------------------------------ HandValue */

/* A hand's value: its key (the number it compares and hashes by), the hand's card ids and the
 * options it was evaluated with. Everything else (category, ranks, the five cards in order)
 * is worked out from the key or the ids when asked for. It holds no object but its key as an
 * int, so it needs no garbage collector support. */
typedef struct {
    PyObject_HEAD
    PyObject *key_obj; /* the key as an int, made when first asked for (NULL until then) */
    int32_t key;
    uint8_t n, wheel, royal, suited;
    uint8_t ids[6];
    uint8_t suit_rank[4]; /* by suit index, when suited */
} ValueObject;

static PyTypeObject ValueType;

static void value_dealloc(PyObject *self)
{
    Py_XDECREF(((ValueObject *)self)->key_obj);
    PyObject_Free(self);
}

static PyObject *value_richcompare(PyObject *a, PyObject *b, int op)
{
    if (!Py_IS_TYPE(a, &ValueType) || !Py_IS_TYPE(b, &ValueType)) Py_RETURN_NOTIMPLEMENTED;
    int32_t x = ((ValueObject *)a)->key, y = ((ValueObject *)b)->key;
    Py_RETURN_RICHCOMPARE(x, y, op);
}

static Py_hash_t value_hash(PyObject *self)
{
    return ((ValueObject *)self)->key; /* hash(key): a non-negative int below 2**31 */
}

static PyObject *value_key(PyObject *self, void *closure)
{
    (void)closure;
    ValueObject *v = (ValueObject *)self;
    if (v->key_obj == NULL && (v->key_obj = PyLong_FromLong(v->key)) == NULL) return NULL;
    return Py_NewRef(v->key_obj);
}

static PyObject *value_category(PyObject *self, void *closure)
{
    (void)closure;
    ValueObject *v = (ValueObject *)self;
    if (!ready()) return NULL;
    return Py_NewRef(PyTuple_GET_ITEM(g_categories, v->key >> (v->suited ? 22 : 20)));
}

static PyObject *value_ranks(PyObject *self, void *closure)
{
    (void)closure;
    ValueObject *v = (ValueObject *)self;
    int32_t key = v->suited ? v->key >> 2 : v->key;
    int ranks[5], n = 0;
    for (int shift = 16; shift >= 0; shift -= 4)
        if ((key >> shift) & 15) ranks[n++] = (key >> shift) & 15;
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(ranks[i])); /* cached */
    return t;
}

static PyObject *value_reveal_stages(PyObject *self, PyObject *unused)
{
    (void)unused;
    return value_ranks(self, NULL);
}

static PyObject *value_cards(PyObject *self, void *closure)
{
    (void)closure;
    ValueObject *v = (ValueObject *)self;
    if (!ready()) return NULL;
    unsigned ids[6];
    int suit_rank[4];
    for (int i = 0; i < v->n; i++) ids[i] = v->ids[i];
    for (int i = 0; i < 4; i++) suit_rank[i] = v->suit_rank[i];
    Described d;
    describe(ids, v->n, v->wheel, v->royal, v->suited ? suit_rank : NULL, &d);
    PyObject *t = PyTuple_New(5);
    if (t == NULL) return NULL;
    for (int i = 0; i < 5; i++)
        PyTuple_SET_ITEM(t, i, Py_NewRef(PyTuple_GET_ITEM(g_deck, d.cards[i])));
    return t;
}

static PyObject *value_suit_rank(PyObject *self, void *closure)
{
    (void)closure;
    ValueObject *v = (ValueObject *)self;
    if (!v->suited) Py_RETURN_NONE;
    return PyLong_FromLong(v->key & 3);
}

static PyObject *value_hand(PyObject *self, void *closure)
{
    (void)closure;
    ValueObject *v = (ValueObject *)self;
    if (!ready()) return NULL;
    PyObject *t = PyTuple_New(v->n);
    if (t == NULL) return NULL;
    for (int i = 0; i < v->n; i++)
        PyTuple_SET_ITEM(t, i, Py_NewRef(PyTuple_GET_ITEM(g_deck, v->ids[i])));
    return t;
}

static PyObject *value_options(PyObject *self, void *closure)
{
    (void)closure;
    ValueObject *v = (ValueObject *)self;
    PyObject *suit_ranks;
    if (v->suited)
        suit_ranks = PyBytes_FromStringAndSize((const char *)v->suit_rank, 4);
    else
        suit_ranks = Py_NewRef(Py_None);
    if (suit_ranks == NULL) return NULL;
    return Py_BuildValue("(OON)", v->wheel ? Py_True : Py_False, v->royal ? Py_True : Py_False,
                         suit_ranks);
}

static PyObject *value_text(PyObject *self, void *closure)
{
    (void)closure;
    PyObject *category = value_category(self, NULL);
    if (category == NULL) return NULL;
    PyObject *words = PyObject_GetAttrString(category, "text");
    Py_DECREF(category);
    if (words == NULL) return NULL;
    ValueObject *v = (ValueObject *)self;
    int32_t key = v->suited ? v->key >> 2 : v->key;
    char names[10];
    int n = 0;
    for (int shift = 16; shift >= 0; shift -= 4) {
        int r = (key >> shift) & 15;
        if (r == 0) continue;
        if (n) names[n++] = ' ';
        names[n++] = r >= 2 ? "23456789TJQKA"[r - 2] : 'A';
    }
    names[n] = '\0';
    PyObject *text = PyUnicode_FromFormat("%U (%s)", words, names);
    Py_DECREF(words);
    return text;
}

static PyObject *value_repr(PyObject *self)
{
    PyObject *category = value_category(self, NULL);
    PyObject *ranks = value_ranks(self, NULL);
    PyObject *cards = value_cards(self, NULL);
    PyObject *repr = NULL;
    if (category && ranks && cards)
        repr = PyUnicode_FromFormat("HandValue(category=%R, ranks=%R, cards=%R)", category,
                                    ranks, cards);
    Py_XDECREF(category);
    Py_XDECREF(ranks);
    Py_XDECREF(cards);
    return repr;
}

static PyObject *value_reduce(PyObject *self, PyObject *unused)
{
    (void)unused;
    if (!ready()) return NULL;
    PyObject *hand = value_hand(self, NULL);
    if (hand == NULL) return NULL;
    PyObject *options = value_options(self, NULL);
    if (options == NULL) {
        Py_DECREF(hand);
        return NULL;
    }
    return Py_BuildValue("(O(NN))", g_restore, hand, options);
}

static PyObject *value_copy(PyObject *self, PyObject *unused)
{
    (void)unused;
    return Py_NewRef(self); /* immutable */
}

static PyGetSetDef value_getset[] = {
    {"key", value_key, NULL,
     "Integer that orders values exactly like poker (with the suit tie-break if enabled).",
     NULL},
    {"category", value_category, NULL, "The hand's category (R-HAND-1).", NULL},
    {"ranks", value_ranks, NULL,
     "Rank values (2 ... 14, a wheel's ace counts as 1 in a straight) in comparison order.",
     NULL},
    {"cards", value_cards, NULL, "The five cards, most significant first.", NULL},
    {"suit_rank", value_suit_rank, NULL,
     "Under V-TIE-SUIT: 3 for the best suit of the order ... 0 for the worst, else None.",
     NULL},
    {"text", value_text, NULL,
     "A description in words: ``pair of nines, K 7 2 kickers`` style, short.", NULL},
    {"_hand", value_hand, NULL, "The cards the value was evaluated from.", NULL},
    {"_options", value_options, NULL,
     "How the hand was evaluated: (wheel straight, royal separate, suit ranks or None).",
     NULL},
    {NULL, NULL, NULL, NULL, NULL},
};

PyDoc_STRVAR(reveal_stages_doc,
"reveal_stages($self, /)\n--\n\n"
"Rank values in the order the staged tie-break reveals them (R-ANN-3).\n\n"
"First the rank that defines the combination, then the next defining rank, then the\n"
"odd cards one by one, highest first. A straight (or straight flush) is defined by its\n"
"top card alone; a flush reveals all five ranks.");

static PyMethodDef value_methods[] = {
    {"reveal_stages", value_reveal_stages, METH_NOARGS, reveal_stages_doc},
    {"__reduce__", value_reduce, METH_NOARGS, NULL},
    {"__copy__", value_copy, METH_NOARGS, NULL},
    {"__deepcopy__", value_copy, METH_O, NULL},
    {NULL, NULL, 0, NULL},
};

PyDoc_STRVAR(value_doc,
"The value of a poker hand: category, defining ranks and the five cards that make it.\n\n"
"Compare values with ``<``, ``==`` ...; ``key`` is the integer they compare by. Values are\n"
"immutable and hashable. Only ``key`` is computed when a hand is evaluated: the category\n"
"and the ranks are read from it, and the five cards in order are worked out from the hand\n"
"when they are asked for. (This is the C accelerator's type; chicago.poker has a\n"
"pure-Python one with the same behaviour.)");

static PyTypeObject ValueType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "chicago.poker.HandValue",
    .tp_basicsize = sizeof(ValueObject),
    .tp_dealloc = value_dealloc,
    .tp_repr = value_repr,
    .tp_hash = value_hash,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = value_doc,
    .tp_richcompare = value_richcompare,
    .tp_methods = value_methods,
    .tp_getset = value_getset,
};

/* ------------------------------------------------------------------ evaluate() */

static PyObject *g_rules_type;      /* chicago.rules.Rules, looked up when first needed */
static PyObject *g_last_rules;      /* the last Rules object seen (frozen), and its options: */
static int g_last_wheel, g_last_royal, g_last_suited;
static uint8_t g_last_suit_rank[4];
static PyObject *g_name_wheel_straight, *g_name_royal_separate, *g_name_suit_order;
static PyObject *g_name_rules_module;
static PyObject *g_kwnames[5]; /* cards, rules, wheel, royal, suit_order */

/* The four suit ranks of a suit order (chicago.poker._suit_ranks checks it). */
static int read_suit_order(PyObject *order, uint8_t *suit_rank)
{
    PyObject *ranks = PyObject_CallOneArg(g_suit_ranks, order);
    if (ranks == NULL) return -1;
    if (!PyBytes_Check(ranks) || PyBytes_GET_SIZE(ranks) != 4) {
        Py_DECREF(ranks);
        PyErr_SetString(PyExc_TypeError, "suit ranks must be 4 bytes");
        return -1;
    }
    memcpy(suit_rank, PyBytes_AS_STRING(ranks), 4);
    Py_DECREF(ranks);
    for (int i = 0; i < 4; i++)
        if (suit_rank[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "suit ranks must be 0-3");
            return -1;
        }
    return 0;
}

/* The options of a rules object (wheel_straight, royal_separate, suit_order). A Rules
 * object is frozen, so the last one's options are remembered. */
static int read_rules(PyObject *rules, int *wheel, int *royal, int *suited, uint8_t *suit_rank)
{
    if (rules == g_last_rules) {
        *wheel = g_last_wheel;
        *royal = g_last_royal;
        *suited = g_last_suited;
        memcpy(suit_rank, g_last_suit_rank, 4);
        return 0;
    }
    PyObject *w = PyObject_GetAttr(rules, g_name_wheel_straight);
    if (w == NULL) return -1;
    *wheel = PyObject_IsTrue(w);
    Py_DECREF(w);
    if (*wheel < 0) return -1;
    PyObject *r = PyObject_GetAttr(rules, g_name_royal_separate);
    if (r == NULL) return -1;
    *royal = PyObject_IsTrue(r);
    Py_DECREF(r);
    if (*royal < 0) return -1;
    PyObject *order = PyObject_GetAttr(rules, g_name_suit_order);
    if (order == NULL) return -1;
    *suited = order != Py_None;
    int bad = *suited && read_suit_order(order, suit_rank) < 0;
    Py_DECREF(order);
    if (bad) return -1;
    if (g_rules_type == NULL) { /* chicago.rules is imported by now if a Rules object exists */
        PyObject *mod = PyImport_GetModule(g_name_rules_module);
        if (mod != NULL) {
            g_rules_type = PyObject_GetAttrString(mod, "Rules");
            Py_DECREF(mod);
        }
        if (g_rules_type != NULL && !PyType_Check(g_rules_type)) Py_CLEAR(g_rules_type);
        PyErr_Clear();
    }
    if (g_rules_type != NULL && Py_IS_TYPE(rules, (PyTypeObject *)g_rules_type)) {
        Py_XSETREF(g_last_rules, Py_NewRef(rules));
        g_last_wheel = *wheel;
        g_last_royal = *royal;
        g_last_suited = *suited;
        memcpy(g_last_suit_rank, suit_rank, 4);
    }
    return 0;
}

/* The card ids of texts and tokens, through chicago.poker._as_cards. */
static Py_ssize_t read_tokens(PyObject *cards, unsigned *ids)
{
    if (!ready()) return -1;
    PyObject *tuple = PyObject_CallOneArg(g_as_cards, cards);
    if (tuple == NULL) return -1;
    Py_ssize_t n;
    if (PyTuple_Check(tuple)) {
        n = read_ids(tuple, ids, 0);
    } else {
        PyErr_SetString(PyExc_TypeError, "_as_cards() must return a tuple");
        n = -1;
    }
    Py_DECREF(tuple);
    return n;
}

/* Read 5 or 6 distinct card ids from a list or tuple of ints (Card objects), from any other
 * iterable of ints (read once), or, through chicago.poker._as_cards, from texts and tokens. */
static Py_ssize_t read_hand(PyObject *cards, unsigned *ids)
{
    Py_ssize_t n;
    if (PyList_CheckExact(cards) || PyTuple_CheckExact(cards)) {
        n = read_ids(cards, ids, 1);
        return n == -2 ? read_tokens(cards, ids) : n;
    }
    if (PyUnicode_Check(cards)) return read_tokens(cards, ids);
    PyObject *seq = PySequence_Fast(cards, "cards must be an iterable of cards");
    if (seq == NULL) return -1;
    n = read_ids(seq, ids, 1);
    if (n == -2) n = read_tokens(seq, ids);
    Py_DECREF(seq);
    return n;
}

PyDoc_STRVAR(evaluate_doc,
"evaluate(cards, rules=None, wheel=None, royal=None, suit_order=None)\n--\n\n"
EVALUATE_DOC);

static PyObject *py_evaluate(PyObject *self, PyObject *const *args, Py_ssize_t nargs,
                             PyObject *kwnames)
{
    (void)self;
    PyObject *a[5] = {NULL, NULL, NULL, NULL, NULL}; /* cards, rules, wheel, royal, order */
    if (nargs > 5) {
        PyErr_Format(PyExc_TypeError, "evaluate() takes at most 5 arguments (%zd given)",
                     nargs);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nargs; i++) a[i] = args[i];
    if (kwnames != NULL) {
        for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(kwnames); k++) {
            PyObject *name = PyTuple_GET_ITEM(kwnames, k);
            int slot = -1;
            for (int j = 0; j < 5 && slot < 0; j++)
                if (name == g_kwnames[j]) slot = j;
            for (int j = 0; j < 5 && slot < 0; j++) {
                int eq = PyObject_RichCompareBool(name, g_kwnames[j], Py_EQ);
                if (eq < 0) return NULL;
                if (eq) slot = j;
            }
            if (slot < 0) {
                PyErr_Format(PyExc_TypeError,
                             "evaluate() got an unexpected keyword argument %R", name);
                return NULL;
            }
            if (a[slot] != NULL) {
                PyErr_Format(PyExc_TypeError, "evaluate() got multiple values for argument %R",
                             name);
                return NULL;
            }
            a[slot] = args[nargs + k];
        }
    }
    if (a[0] == NULL) {
        PyErr_SetString(PyExc_TypeError, "evaluate() missing required argument 'cards'");
        return NULL;
    }
    int wheel = 1, royal = 1, suited = 0;
    uint8_t suit_rank[4] = {0, 0, 0, 0};
    if (a[1] != NULL && a[1] != Py_None
        && read_rules(a[1], &wheel, &royal, &suited, suit_rank) < 0)
        return NULL;
    if (a[2] != NULL && a[2] != Py_None && (wheel = PyObject_IsTrue(a[2])) < 0) return NULL;
    if (a[3] != NULL && a[3] != Py_None && (royal = PyObject_IsTrue(a[3])) < 0) return NULL;
    if (a[4] != NULL && a[4] != Py_None) {
        if (!ready() || read_suit_order(a[4], suit_rank) < 0) return NULL;
        suited = 1;
    }
    unsigned ids[6];
    Py_ssize_t n = read_hand(a[0], ids);
    if (n < 0) return NULL;

    int32_t key;
    PyObject *key_obj = NULL;
    if (suited) { /* the suit of the highest card is part of the key */
        int ranks_of_suit[4];
        for (int i = 0; i < 4; i++) ranks_of_suit[i] = suit_rank[i];
        Described d;
        describe(ids, (int)n, wheel, royal, ranks_of_suit, &d);
        key = d.key;
    } else if (n == 5) {
        unsigned slot = slot5(ids[0], ids[1], ids[2], ids[3], ids[4]);
        key = (slot & 1 ? FL : NF)[wheel][slot >> 1];
        key_obj = VALUE_OBJECTS[wheel][slot & 1][slot >> 1];
    } else {
        key = eval6(ids, wheel);
    }
    if (!royal && !suited && key >= ROYAL_KEY) {
        key = ACE_HIGH_STRAIGHT_FLUSH;
        key_obj = NULL;
    }
    ValueObject *v = PyObject_New(ValueObject, &ValueType);
    if (v == NULL) return NULL;
    v->key_obj = Py_XNewRef(key_obj);
    v->key = key;
    v->n = (uint8_t)n;
    v->wheel = (uint8_t)wheel;
    v->royal = (uint8_t)royal;
    v->suited = (uint8_t)suited;
    for (int i = 0; i < 6; i++) v->ids[i] = (uint8_t)(i < n ? ids[i] : 0);
    memcpy(v->suit_rank, suit_rank, 4);
    return (PyObject *)v;
}

/* ------------------------------------------------------------------ draw_counts() */

/* The draws of one hold, counted exactly by dynamic programming over the 13 ranks.
 *
 * The state after ranks 0..r-1 is (cards still to draw, how many ranks hold exactly 2, 3
 * and 4 cards of the final hand), weighted by the number of ways to pick the drawn cards
 * from the unseen ones: C(avail, c) for c cards of a rank. Five cards' rank pattern, and so
 * every category but straight and flush, follows from (n2, n3, n4). Straights are counted
 * directly: for each straight that contains the kept ranks, the product over its missing
 * ranks of the unseen cards of that rank. Flushes are then moved out of the straight and
 * high-card counts: every draw of the kept cards' suit (all of one suit) is a flush, a
 * straight flush or a royal flush. */
static void count_hold(const int *avail, const int *kept, unsigned kept_mask, unsigned kept_suits,
                       int n_keep, const unsigned *suit_ranks, const unsigned *straights,
                       int n_straights, int64_t *counts)
{
    int k = 5 - n_keep;
    /* w[left][n2 * 4 + n3 * 2 + n4] */
    int64_t w[6][12], nw[6][12];
    memset(w, 0, sizeof w);
    w[k][0] = 1;
    int most_kept = 0;
    for (int r = 0; r < 13; r++) {
        int a = avail[r], kc = kept[r];
        if (kc > most_kept) most_kept = kc;
        if (a == 0 && kc == 0) continue;
        memset(nw, 0, sizeof nw);
        for (int left = 0; left <= k; left++) {
            int top = a < left ? a : left;
            for (int p = 0; p < 12; p++) {
                int64_t weight = w[left][p];
                if (weight == 0) continue;
                for (int c = 0; c <= top; c++) {
                    int f = kc + c;
                    int q = p + (f == 2 ? 4 : 0) + (f == 3 ? 2 : 0) + (f == 4 ? 1 : 0);
                    nw[left - c][q] += weight * BINOM[a][c];
                }
            }
        }
        memcpy(w, nw, sizeof w);
    }
    int64_t *final = w[0];
    memset(counts, 0, NCAT * sizeof *counts);
    counts[PAIR] = final[4];
    counts[TWO_PAIR] = final[8];
    counts[THREE_OF_A_KIND] = final[2];
    counts[FULL_HOUSE] = final[6];
    counts[FOUR_OF_A_KIND] = final[1];
    int64_t distinct = final[0], straight = 0;
    if (most_kept <= 1) {
        for (int i = 0; i < n_straights; i++) {
            unsigned st = straights[i];
            if (kept_mask & ~st) continue;
            int64_t ways = 1;
            for (unsigned missing = st & ~kept_mask; missing && ways; missing &= missing - 1)
                ways *= avail[__builtin_ctz(missing)];
            straight += ways;
        }
    }
    counts[STRAIGHT] = straight;
    counts[HIGH_CARD] = distinct - straight;
    /* flushes: every card of one suit (so of distinct ranks) */
    if (n_keep == 0 || (kept_suits & (kept_suits - 1)) == 0) {
        for (int s = 0; s < 4; s++) {
            if (n_keep > 0 && !(kept_suits >> s & 1)) continue;
            int64_t suited = BINOM[__builtin_popcount(suit_ranks[s])][k];
            int64_t straight_flushes = 0, royals = 0;
            for (int i = 0; i < n_straights; i++) {
                unsigned st = straights[i];
                if ((kept_mask & ~st) == 0 && ((st & ~kept_mask) & ~suit_ranks[s]) == 0) {
                    if (st == ROYAL_MASK)
                        royals++;
                    else
                        straight_flushes++;
                }
            }
            int64_t plain = suited - straight_flushes - royals;
            counts[FLUSH] += plain;
            counts[HIGH_CARD] -= plain;
            counts[STRAIGHT] -= straight_flushes + royals;
            counts[STRAIGHT_FLUSH] += straight_flushes;
            counts[ROYAL_FLUSH] += royals;
        }
    }
}

PyDoc_STRVAR(draw_counts_doc,
"draw_counts(hand, dead_mask, wheel) -> tuple\n--\n\n"
"Exact outcome counts of the 32 holds of a 5-card hand. ``dead_mask`` is the 52-bit mask\n"
"of the dead cards (not in the hand). Item ``h`` (bit i of h set: keep hand[i]) is a\n"
"tuple ``(draws, count of HIGH_CARD, ..., count of ROYAL_FLUSH)``, where ``draws`` is the\n"
"number of equally likely draws; the counts add up to it.");

static PyObject *py_draw_counts(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *hand_obj;
    unsigned long long dead;
    int wheel;
    if (!PyArg_ParseTuple(args, "OKp", &hand_obj, &dead, &wheel)) return NULL;
    unsigned hand[6];
    Py_ssize_t n = read_cards(hand_obj, hand);
    if (n < 0) return NULL;
    if (n != 5) {
        PyErr_SetString(PyExc_ValueError, "draw odds need a hand of 5 cards");
        return NULL;
    }
    uint64_t hand_mask = 0;
    for (int i = 0; i < 5; i++) hand_mask |= (uint64_t)1 << hand[i];
    if ((dead >> 52) || (dead & hand_mask)) {
        PyErr_SetString(PyExc_ValueError, "dead cards must be card ids not in the hand");
        return NULL;
    }
    uint64_t unseen = ~(hand_mask | dead) & (((uint64_t)1 << 52) - 1);
    int n_unseen = __builtin_popcountll(unseen);

    int avail[13] = {0};
    unsigned suit_ranks[4] = {0, 0, 0, 0}; /* unseen ranks of each suit */
    for (int card = 0; card < 52; card++)
        if (unseen >> card & 1) {
            avail[card >> 2]++;
            suit_ranks[card & 3] |= 1u << (card >> 2);
        }
    unsigned straights[10];
    int n_straights = 0;
    for (int top = 12; top >= 4; top--) straights[n_straights++] = 0x1Fu << (top - 4);
    if (wheel) straights[n_straights++] = WHEEL_MASK;

    PyObject *result = PyTuple_New(32);
    if (result == NULL) return NULL;
    for (int hold = 0; hold < 32; hold++) {
        int n_keep = 0, kept[13] = {0};
        unsigned kept_mask = 0, kept_suits = 0;
        for (int i = 0; i < 5; i++)
            if (hold >> i & 1) {
                kept[hand[i] >> 2]++;
                kept_mask |= 1u << (hand[i] >> 2);
                kept_suits |= 1u << (hand[i] & 3);
                n_keep++;
            }
        int64_t draws = BINOM[n_unseen][5 - n_keep];
        int64_t counts[NCAT] = {0};
        if (draws > 0)
            count_hold(avail, kept, kept_mask, kept_suits, n_keep, suit_ranks, straights,
                       n_straights, counts);
        PyObject *row = PyTuple_New(NCAT + 1);
        if (row == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyTuple_SET_ITEM(result, hold, row);
        for (int c = 0; c <= NCAT; c++) {
            PyObject *v = PyLong_FromLongLong(c == 0 ? draws : counts[c - 1]);
            if (v == NULL) {
                Py_DECREF(result);
                return NULL;
            }
            PyTuple_SET_ITEM(row, c, v);
        }
    }
    return result;
}

/* ------------------------------------------------------------------ draw_odds() */

static PyTypeObject *g_hold_type;  /* chicago.odds.Hold */
static PyObject *g_hold_fields[6]; /* keep, discard, expected_points, probabilities, counts, draws */
static PyObject *g_names;          /* category names, best first */

PyDoc_STRVAR(setup_odds_doc,
"setup_odds(hold_type, field_descriptors, names) -> None\n--\n\n"
"Register chicago.odds.Hold, its six slot descriptors and the category names best first.");

static PyObject *py_setup_odds(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *type, *fields, *names;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyType_Type, &type, &PyTuple_Type, &fields,
                          &PyTuple_Type, &names))
        return NULL;
    if (PyTuple_GET_SIZE(fields) != 6 || PyTuple_GET_SIZE(names) != NCAT) {
        PyErr_SetString(PyExc_ValueError, "setup_odds() needs 6 fields and 10 names");
        return NULL;
    }
    for (int i = 0; i < 6; i++)
        if (Py_TYPE(PyTuple_GET_ITEM(fields, i))->tp_descr_set == NULL) {
            PyErr_SetString(PyExc_TypeError, "field descriptors must be settable");
            return NULL;
        }
    Py_XSETREF(g_hold_type, (PyTypeObject *)Py_NewRef(type));
    for (int i = 0; i < 6; i++)
        Py_XSETREF(g_hold_fields[i], Py_NewRef(PyTuple_GET_ITEM(fields, i)));
    Py_XSETREF(g_names, Py_NewRef(names));
    Py_RETURN_NONE;
}

typedef struct {
    int bits;       /* bit i set: keep hand[i] */
    int n_discard;
    uint64_t keep_mask;
    int64_t draws;
    double expected;
    int64_t counts[NCAT]; /* best first: ROYAL_FLUSH ... HIGH_CARD */
} HoldRow;

static int compare_rows(const void *pa, const void *pb)
{
    const HoldRow *a = pa, *b = pb;
    if (a->expected != b->expected) return a->expected > b->expected ? -1 : 1;
    if (a->n_discard != b->n_discard) return a->n_discard < b->n_discard ? -1 : 1;
    if (a->keep_mask != b->keep_mask) return a->keep_mask > b->keep_mask ? -1 : 1;
    return 0;
}

static PyObject *cards_tuple(const unsigned *hand, int bits, int want)
{
    int n = 0;
    for (int i = 0; i < 5; i++) n += ((bits >> i & 1) == want);
    PyObject *t = PyTuple_New(n);
    if (t == NULL) return NULL;
    for (int i = 0, j = 0; i < 5; i++)
        if ((bits >> i & 1) == want)
            PyTuple_SET_ITEM(t, j++, Py_NewRef(PyTuple_GET_ITEM(g_deck, hand[i])));
    return t;
}

static PyObject *make_hold(const unsigned *hand, const HoldRow *row)
{
    PyObject *values[6] = {NULL, NULL, NULL, NULL, NULL, NULL};
    PyObject *obj = NULL;
    values[0] = cards_tuple(hand, row->bits, 1);
    values[1] = cards_tuple(hand, row->bits, 0);
    values[2] = PyFloat_FromDouble(row->expected);
    values[3] = PyDict_New();
    values[4] = PyDict_New();
    values[5] = PyLong_FromLongLong(row->draws);
    for (int i = 0; i < 6; i++)
        if (values[i] == NULL) goto done;
    for (int c = 0; c < NCAT; c++) {
        PyObject *name = PyTuple_GET_ITEM(g_names, c);
        PyObject *p = PyFloat_FromDouble((double)row->counts[c] / (double)row->draws);
        PyObject *n = PyLong_FromLongLong(row->counts[c]);
        int bad = p == NULL || n == NULL || PyDict_SetItem(values[3], name, p) < 0
                  || PyDict_SetItem(values[4], name, n) < 0;
        Py_XDECREF(p);
        Py_XDECREF(n);
        if (bad) goto done;
    }
    obj = PyBaseObject_Type.tp_new(g_hold_type, g_empty, NULL);
    if (obj == NULL) goto done;
    for (int i = 0; i < 6; i++)
        if (Py_TYPE(g_hold_fields[i])->tp_descr_set(g_hold_fields[i], obj, values[i]) < 0) {
            Py_CLEAR(obj);
            goto done;
        }
done:
    for (int i = 0; i < 6; i++) Py_XDECREF(values[i]);
    return obj;
}

PyDoc_STRVAR(draw_odds_doc,
"draw_odds(hand, dead_mask, wheel, royal, points, max_discard) -> list[Hold]\n--\n\n"
"The sorted holds of chicago.odds.draw_odds (inputs already checked there). ``points`` is\n"
"the points table in Category order.");

static PyObject *py_draw_odds(PyObject *self, PyObject *args)
{
    (void)self;
    PyObject *hand_obj, *points_obj;
    unsigned long long dead;
    int wheel, royal, limit;
    if (!PyArg_ParseTuple(args, "OKppO!i", &hand_obj, &dead, &wheel, &royal, &PyTuple_Type,
                          &points_obj, &limit))
        return NULL;
    if (g_hold_type == NULL || !ready()) {
        PyErr_SetString(PyExc_RuntimeError, "chicago._poker.setup_odds() has not been called");
        return NULL;
    }
    if (PyTuple_GET_SIZE(points_obj) != NCAT) {
        PyErr_SetString(PyExc_ValueError, "points needs one entry per category");
        return NULL;
    }
    int64_t points[NCAT];
    for (int c = 0; c < NCAT; c++) {
        points[c] = PyLong_AsLongLong(PyTuple_GET_ITEM(points_obj, c));
        if (points[c] == -1 && PyErr_Occurred()) return NULL;
    }
    unsigned hand[6];
    Py_ssize_t n = read_cards(hand_obj, hand);
    if (n < 0) return NULL;
    if (n != 5) {
        PyErr_SetString(PyExc_ValueError, "draw odds need a hand of 5 cards");
        return NULL;
    }
    uint64_t hand_mask = 0;
    for (int i = 0; i < 5; i++) hand_mask |= (uint64_t)1 << hand[i];
    if ((dead >> 52) || (dead & hand_mask)) {
        PyErr_SetString(PyExc_ValueError, "dead cards must be card ids not in the hand");
        return NULL;
    }
    uint64_t unseen = ~(hand_mask | dead) & (((uint64_t)1 << 52) - 1);
    int n_unseen = __builtin_popcountll(unseen);
    int avail[13] = {0};
    unsigned suit_ranks[4] = {0, 0, 0, 0};
    for (int card = 0; card < 52; card++)
        if (unseen >> card & 1) {
            avail[card >> 2]++;
            suit_ranks[card & 3] |= 1u << (card >> 2);
        }
    unsigned straights[10];
    int n_straights = 0;
    for (int top = 12; top >= 4; top--) straights[n_straights++] = 0x1Fu << (top - 4);
    if (wheel) straights[n_straights++] = WHEEL_MASK;

    HoldRow rows[32];
    int n_rows = 0;
    for (int bits = 0; bits < 32; bits++) {
        int n_keep = 0, kept[13] = {0};
        unsigned kept_mask = 0, kept_suits = 0;
        uint64_t keep_cards = 0;
        for (int i = 0; i < 5; i++)
            if (bits >> i & 1) {
                kept[hand[i] >> 2]++;
                kept_mask |= 1u << (hand[i] >> 2);
                kept_suits |= 1u << (hand[i] & 3);
                keep_cards |= (uint64_t)1 << hand[i];
                n_keep++;
            }
        int64_t draws = BINOM[n_unseen][5 - n_keep];
        if (5 - n_keep > limit || draws == 0) continue;
        int64_t counts[NCAT];
        count_hold(avail, kept, kept_mask, kept_suits, n_keep, suit_ranks, straights,
                   n_straights, counts);
        if (!royal) {
            counts[STRAIGHT_FLUSH] += counts[ROYAL_FLUSH];
            counts[ROYAL_FLUSH] = 0;
        }
        HoldRow *row = &rows[n_rows++];
        row->bits = bits;
        row->n_discard = 5 - n_keep;
        row->keep_mask = keep_cards;
        row->draws = draws;
        int64_t total = 0;
        for (int c = 0; c < NCAT; c++) {
            total += points[c] * counts[c];
            row->counts[NCAT - 1 - c] = counts[c];
        }
        row->expected = (double)total / (double)draws;
    }
    qsort(rows, (size_t)n_rows, sizeof rows[0], compare_rows);
    PyObject *result = PyList_New(n_rows);
    if (result == NULL) return NULL;
    for (int i = 0; i < n_rows; i++) {
        PyObject *hold = make_hold(hand, &rows[i]);
        if (hold == NULL) {
            Py_DECREF(result);
            return NULL;
        }
        PyList_SET_ITEM(result, i, hold);
    }
    return result;
}

/* ------------------------------------------------------------------ module */

static PyMethodDef methods[] = {
    {"rank", (PyCFunction)(void (*)(void))py_rank, METH_FASTCALL | METH_KEYWORDS, rank_doc},
    {"rank_batch", py_rank_batch, METH_VARARGS, rank_batch_doc},
    {"category", (PyCFunction)(void (*)(void))py_category, METH_FASTCALL, category_doc},
    {"evaluate", (PyCFunction)(void (*)(void))py_evaluate, METH_FASTCALL | METH_KEYWORDS,
     evaluate_doc},
    {"draw_counts", py_draw_counts, METH_VARARGS, draw_counts_doc},
    {"draw_odds", py_draw_odds, METH_VARARGS, draw_odds_doc},
    {"setup_odds", py_setup_odds, METH_VARARGS, setup_odds_doc},
    {"setup", py_setup, METH_VARARGS, setup_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "chicago._poker",
    "C accelerator of chicago.poker and chicago.odds (tables built at import).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__poker(void)
{
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    build_tables();
    clock_gettime(CLOCK_MONOTONIC, &t1);
    long build_ns = (t1.tv_sec - t0.tv_sec) * 1000000000L + (t1.tv_nsec - t0.tv_nsec);
    g_empty = PyTuple_New(0);
    if (g_empty == NULL) return NULL;
    for (int w = 0; w < 2; w++)
        for (int i = 0; i < NMULTI; i++) {
            VALUE_OBJECTS[w][0][i] = PyLong_FromLong(NF[w][i]);
            VALUE_OBJECTS[w][1][i] = PyLong_FromLong(FL[w][i]);
            if (VALUE_OBJECTS[w][0][i] == NULL || VALUE_OBJECTS[w][1][i] == NULL) return NULL;
        }
    static const char *const kwnames[5] = {"cards", "rules", "wheel", "royal", "suit_order"};
    for (int i = 0; i < 5; i++)
        if ((g_kwnames[i] = PyUnicode_InternFromString(kwnames[i])) == NULL) return NULL;
    if ((g_name_wheel_straight = PyUnicode_InternFromString("wheel_straight")) == NULL
        || (g_name_royal_separate = PyUnicode_InternFromString("royal_separate")) == NULL
        || (g_name_suit_order = PyUnicode_InternFromString("suit_order")) == NULL
        || (g_name_rules_module = PyUnicode_InternFromString("chicago.rules")) == NULL)
        return NULL;
    if (PyType_Ready(&ValueType) < 0) return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddObjectRef(m, "HandValue", (PyObject *)&ValueType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "TABLE_ENTRIES", 4 * NMULTI) < 0
        || PyModule_AddIntConstant(m, "TABLE_BYTES", (long)(sizeof NF + sizeof FL
                                   + sizeof STRAIGHT_TOP + sizeof BINOM)) < 0
        || PyModule_AddIntConstant(m, "TABLE_BUILD_NS", build_ns) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
