/*
 * chicago.engine._engine: the C accelerator of chicago.engine.game.Game.
 *
 * The rules engine is pure Python (game.py) and stays complete without this module. When it
 * is built, game.py calls install(), which puts two methods of this module on Game in place
 * of the Python ones: legal_actions() and apply(). They do in C what the Python methods do
 * for the common turns (a card played, an exchange from a plain stock, an announcement or a
 * pass, the legal actions of a play or an exchange turn) and hand everything else to the
 * Python methods, which they call: the rarer turns (a redeal, the quads rounds, a Chicago
 * declared, a card source of another class; one up and a locked player's sixth card until
 * the thirty-sixth pass), the ends of rounds, tricks and deals that the marked blocks below
 * do not do (Game._advance), illegal
 * actions (Game._apply_python raises the error) and text actions. Later passes put more
 * methods on Game (a new deal, a scoring round's result, a trick's and a deal's end: see
 * their blocks before the module's method table), each beside its kept Python method.
 *
 * The state is the Game object's own: the C code reads and writes the same slot attributes
 * the Python code does (found by name at install, through their member descriptors) and
 * builds the same values (the same interned Action objects for plays and one-up requests,
 * kept or recycled Action tuples for discards (see "kept discards" and "recycled
 * discards"), the same event records). tests/test_engine_accelerator.py
 * plays random games of every preset and variation both ways and compares every step.
 *
 * Cards are ids 0-51 (rank_index * 4 + suit_index); a set of cards is a 52-bit mask.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <structmember.h>
#include <stdint.h>
#include <string.h>
#include <limits.h>

/* ------------------------------------------------------------------ installed objects */

static PyTypeObject *GAME;          /* chicago.engine.game.Game */
static PyTypeObject *ACTION;        /* chicago.engine.actions.Action (a tuple subclass) */
static PyTypeObject *CARD_SOURCE;   /* chicago.engine.sources.CardSource (the plain flow) */
static PyObject *PH_PLAY, *PH_EXCHANGE, *PH_ANNOUNCE, *PH_CHICAGO, *PH_ONE_UP;
static PyObject *K_DISCARD, *K_PASS, *K_NO_CHICAGO;
static PyObject *DECK[52];          /* the Card objects */
static PyObject *PLAY[52];          /* Action "play CARD" for each card */
static PyObject *ONE_UP[52];        /* Action "one up CARD" for each card */
static PyObject *CHICAGO_CHOICE;    /* the legal actions of a Chicago turn */
static PyObject *ONE_UP_CHOICE;     /* the legal actions of a one-up answer */
static PyObject *EV_PLAY, *EV_EXCHANGE, *EV_EXCHANGED, *EV_PASS, *EV_ANNOUNCE, *EV_TRICK;
static PyObject *EV_CHICAGO_CALL;
static PyObject *HANDLERS;          /* Game._HANDLERS: phase -> Python handler */
static PyObject *CATEGORY_OF;       /* chicago.poker.category_of */
static PyObject *POKER_CATEGORY;    /* chicago._poker.category, when chicago.poker uses it */
static PyObject *S_WHEEL, *S_ROYAL; /* the names of the Rules attributes it takes */
static PyObject *ANNOUNCE_OR_PASS[10]; /* (pass, announce CATEGORY) by category value, 1-9 */
static PyObject *ONLY_PASS;         /* (pass,) */
static PyObject *PY_APPLY;          /* Game._apply_python */
static PyObject *S_PARSE;           /* "parse" (Action.parse) */
static PyObject *PY_LEGAL_OF;       /* Game._legal_of */
static PyObject *PY_ADVANCE;        /* Game._advance */
static PyObject *S_MAX_DISCARD, *S_ONE_UP, *S_EXCHANGES;  /* attribute names of Rules */
static PyObject *S_MIN_SCORE;                              /* one more of them */
static PyObject *S_RESHUFFLE, *S_SHOW_IF_BREAKING;        /* Game's methods */
static PyObject *SMALL_INTS[8];     /* 0 ... 7 */

static int PATTERNS[32];            /* the 32 discard patterns in game.py's order */
static int PATTERNS_UP_TO[6];       /* how many patterns discard at most k cards */
/* per pattern (bit i: the sorted hand's i-th card), its number of cards, then the positions
   of its first three cards, lowest first (thirty-sixth pass: no popcount call per option) */
static signed char PATTERN_BITS[32][4];

/* Offsets of the Game slots used here. */
static Py_ssize_t O_HANDS, O_PLAYED, O_TRICK, O_TRICK_NUMBER, O_PENDING, O_LEGAL, O_ACTIONS,
    O_ACTION_COUNT, O_ACTIONS_GIVEN, O_PENDING_COUNT, O_PHASE, O_TO_ACT, O_TURN, O_ORDER, O_STOCK, O_DISCARDS, O_OWN_DISCARDS, O_CATEGORIES,
    O_EXCHANGE_COUNTS, O_ROUND, O_LOCKED, O_PROTECTED, O_RULES, O_SOURCE, O_ANNOUNCED,
    O_HIGHEST, O_TRICKS, O_DECLARER, O_PLAYERS, O_DEALER, O_SCORES, O_DEAL_START_SCORES,
    O_DECLARED_CHICAGO, O_MADE_CHICAGO, O_ON_GAME, O_QUADS_CLAIMS, O_WINNERS, O_DEAL_HISTORY,
    O_ACTION_BASE, O_ACTION_OFFSET, O_PENDING_BASE, O_PENDING_OFFSET;

#define SLOT(self, offset) (*(PyObject **)((char *)(self) + (offset)))

/* PyLong_AsLong with a fast path for an int of at most one digit (cards, seats, counts,
   rounds): see "recycled discards" (issue 28, fortieth pass) */
static inline long rd_as_long(PyObject *value);
#define PyLong_AsLong(value) rd_as_long(value)
static inline unsigned long long rd_as_mask(PyObject *value); /* the same for masks */
#define PyLong_AsUnsignedLongLong(value) rd_as_mask(value)

static int installed = 0;

/* "counts kept, options listed directly" (issue 28, forty-third pass), before the table */
static int p43_rules_flags(PyObject *rules, PyObject **wheel, PyObject **royal);
static PyObject *p43_reason(long round);
/* "records and entries shared" (issue 28, forty-sixth pass), before the table */
static PyObject *p46_tuple(Py_ssize_t n, PyObject *const *items);
#define P46(n, ...) p46_tuple((n), (PyObject *const[]){__VA_ARGS__})
static PyObject *p46_points_for(PyObject *rules, PyObject *category);
static int p46_show_on_break(PyObject *rules);
static PyObject *p46_new_options(Py_ssize_t n);
static void p46_keep_options(PyObject *self);
static int p46_deal_rules(PyObject *rules, int *lock_six, PyObject **lock_at);
/* a dict's key hashed once (its private calls, there in these versions) */
#define P46_KNOWN_HASH (PY_VERSION_HEX >= 0x03080000 && PY_VERSION_HEX < 0x030D0000)
static int p46_sorted_cards(PyObject *hand, PyObject **first, PyObject **second);

static PyObject *take(PyObject *config, const char *name);
static int mask_of(PyObject *action, uint64_t *mask);
static int add_action(PyObject *self, PyObject *entry); /* see "shared actions" below */
static PyObject *start_deal(PyObject *self, PyObject *unused); /* see "a new deal" below */
static int install_start_deal(PyObject *game, PyObject *config);
static int install_resolve(PyObject *game, PyObject *config); /* "announcement results" */
static PyObject *resolve_announcements(PyObject *self, PyObject *unused);
static int install_deal_end(PyObject *game, PyObject *config); /* "the deal's end" */
static PyObject *resolve_trick(PyObject *self, PyObject *unused);
static int end_turns(PyObject *self, PyObject *phase);
static int show_if_breaking(PyObject *self, PyObject *seat_object, long seat,
                            uint64_t guarded, uint64_t mask, PyObject *mask_object);
static PyObject *RT_METHOD, *RA_METHOD; /* the C methods as installed on Game */
/* "an enum member's name and value read once" (issue 28, forty-second pass), before the
   method table */
static PyObject *category_name(PyObject *category);
static PyObject *member_value(PyObject *member);
/* "one up and the sixth card" (issue 28, thirty-sixth pass), before the method table */
static int install_one_up(PyObject *config);
static PyObject *legal_sixth(PyObject *self, long seat);
static int one_up_is_legal(PyObject *self, long seat, PyObject *action);
static int one_up_or_sixth(PyObject *self, PyObject *seat_object, long seat, PyObject *phase,
                           PyObject *action);
static PyObject *OU_K_ONE_UP;

static int set_slot(PyObject *self, Py_ssize_t offset, PyObject *value)
{
    /* value: a new reference (stolen); NULL means an error happened making it */
    if (value == NULL) return -1;
    PyObject *old = SLOT(self, offset);
    SLOT(self, offset) = value;
    Py_XDECREF(old);
    return 0;
}

static PyObject *small_int(long value)
{
    if (value >= 0 && value < 8) {
        Py_INCREF(SMALL_INTS[value]);
        return SMALL_INTS[value];
    }
    return PyLong_FromLong(value);
}

/* A slot that must hold a list (NULL, with no error set, if it does not). */
static PyObject *list_slot(PyObject *self, Py_ssize_t offset)
{
    PyObject *value = SLOT(self, offset);
    return (value != NULL && PyList_CheckExact(value)) ? value : NULL;
}

/* The list at ``seat`` of a slot holding a list of lists (borrowed), or NULL with
   TypeError set. */
static PyObject *seat_list(PyObject *self, Py_ssize_t offset, long seat, const char *name)
{
    PyObject *lists = list_slot(self, offset);
    if (lists != NULL && seat >= 0 && seat < PyList_GET_SIZE(lists)) {
        PyObject *item = PyList_GET_ITEM(lists, seat);
        if (PyList_CheckExact(item)) return item;
    }
    PyErr_Format(PyExc_TypeError, "Game.%s has no list for seat %ld", name, seat);
    return NULL;
}

/* ``value`` (a new tuple, or NULL) taken off the garbage collector's watch. The tuples made
   here hold only numbers, cards, enum members and tuples of them: they are never part of a
   reference cycle, and the collector cannot tell so itself (cards are objects it watches),
   so a long game's history would otherwise make every full collection longer. */
static PyObject *plain(PyObject *value)
{
    if (value != NULL && PyObject_GC_IsTracked(value)) PyObject_GC_UnTrack(value);
    return value;
}

/* plain() for a value and the tuples inside it (an event record made in Python). */
static void plain_deep(PyObject *value)
{
    if (!PyTuple_CheckExact(value) || !PyObject_GC_IsTracked(value)) return;
    PyObject_GC_UnTrack(value);
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(value); i++)
        plain_deep(PyTuple_GET_ITEM(value, i));
}

/* The number of event records of ``self`` (to find those added since). */
static Py_ssize_t records(PyObject *self)
{
    PyObject *pending = list_slot(self, O_PENDING);
    return pending == NULL ? 0 : PyList_GET_SIZE(pending);
}

/* Take the records added by Python since there were ``since`` off the collector's watch. */
static void plain_records(PyObject *self, Py_ssize_t since)
{
    PyObject *pending = list_slot(self, O_PENDING);
    if (pending == NULL) return;
    for (Py_ssize_t i = since; i < PyList_GET_SIZE(pending); i++)
        plain_deep(PyList_GET_ITEM(pending, i));
}

/* Take ``value`` and the lists and tuples inside it (``depth`` levels down) off the
   collector's watch if it holds nothing but None, ints (seats, counts, cards, categories)
   and such lists and tuples: then it can never be part of a reference cycle. 1 if it is
   (or was already) off the watch, 0 if it holds anything else (then it stays watched). */
static int plain_container(PyObject *value, int depth)
{
    if (value == Py_None || PyLong_Check(value)) return 1;
    if (!PyTuple_CheckExact(value) && !PyList_CheckExact(value)) return 0;
    if (!PyObject_GC_IsTracked(value)) return 1;
    if (depth == 0) return 0;
    Py_ssize_t size = Py_SIZE(value);
    PyObject **items = PyTuple_CheckExact(value) ? ((PyTupleObject *)value)->ob_item
                                                 : ((PyListObject *)value)->ob_item;
    for (Py_ssize_t i = 0; i < size; i++)
        if (!plain_container(items[i], depth - 1)) return 0;
    PyObject_GC_UnTrack(value);
    return 1;
}

/* The game's lists off the collector's watch (see plain_container), after Python code made
   new ones (a new deal, round or trick, a new game). A game then leaves little for the
   collector to walk: with a thousand games in memory (chicago.env.batch), every full and
   middle collection visited each of their fifty-odd lists, object by object out of the
   cache, a quarter of the time. The history lists (actions and event records, see plain())
   are taken off without reading them: they hold records, never a container of the game. */
static Py_ssize_t *const STATE_LISTS[] = {
    &O_HANDS, &O_PLAYED, &O_TRICK, &O_ORDER, &O_STOCK, &O_DISCARDS, &O_OWN_DISCARDS,
    &O_CATEGORIES, &O_EXCHANGE_COUNTS, &O_LOCKED, &O_PROTECTED, &O_ANNOUNCED, &O_TRICKS,
    &O_SCORES, &O_DEAL_START_SCORES, &O_DECLARED_CHICAGO, &O_MADE_CHICAGO, &O_ON_GAME,
    &O_QUADS_CLAIMS, &O_WINNERS,
};

static void plain_state(PyObject *self)
{
    for (size_t k = 0; k < sizeof STATE_LISTS / sizeof *STATE_LISTS; k++) {
        PyObject *value = SLOT(self, *STATE_LISTS[k]);
        if (value != NULL && PyList_CheckExact(value)) plain_container(value, 4);
    }
    PyObject *history[3] = {SLOT(self, O_ACTIONS), SLOT(self, O_PENDING),
                            SLOT(self, O_ACTIONS_GIVEN)};
    for (int k = 0; k < 3; k++)
        if (history[k] != NULL && PyList_CheckExact(history[k]))
            plain(history[k]);
}

/* chicago.poker.category_of(hand, rules) (a new reference, NULL on an error): what it
   does for a list of cards under a game's rules, calling chicago._poker.category directly
   when chicago.poker uses it (a Python call less on every hand's first look). */
static PyObject *category_of(PyObject *hand, PyObject *rules)
{
    if (POKER_CATEGORY == NULL || !PyList_CheckExact(hand) || rules == NULL || rules == Py_None)
        return PyObject_CallFunctionObjArgs(CATEGORY_OF, hand, rules, NULL);
    PyObject *wheel, *royal; /* read once per Rules object (forty-third pass) */
    if (p43_rules_flags(rules, &wheel, &royal) < 0) return NULL;
    PyObject *result = NULL;
    if (royal != NULL) {
        PyObject *args[3] = {hand, wheel, royal};
        result = PyObject_Vectorcall(POKER_CATEGORY, args, 3, NULL);
        if (result == NULL && PyErr_ExceptionMatches(PyExc_TypeError)) {
            PyErr_Clear(); /* chicago.poker.category_of tries other card forms */
            result = PyObject_CallFunctionObjArgs(CATEGORY_OF, hand, rules, NULL);
        }
    }
    Py_XDECREF(wheel);
    Py_XDECREF(royal);
    return result;
}

static long card_id(PyObject *card)
{
    return PyLong_AsLong(card);
}

/* ------------------------------------------------------------------ legal actions */

/* The cards the seat may play, as a mask: those of the suit led if the hand holds any, else
   the whole hand (Game._playable). 1 if worked out here, 0 (no error) if not handled here,
   -1 on an error. */
static int playable(PyObject *self, long seat, uint64_t *out)
{
    PyObject *hands = list_slot(self, O_HANDS), *trick = list_slot(self, O_TRICK);
    if (hands == NULL || trick == NULL || seat < 0 || seat >= PyList_GET_SIZE(hands)) return 0;
    PyObject *hand = PyList_GET_ITEM(hands, seat);
    if (!PyList_CheckExact(hand) || PyList_GET_SIZE(hand) > 13) return 0;
    uint64_t cards = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand); i++) {
        long c = card_id(PyList_GET_ITEM(hand, i));
        if (c < 0 || c > 51) {
            PyErr_Clear();
            return 0;
        }
        cards |= (uint64_t)1 << c;
    }
    if (PyList_GET_SIZE(trick) > 0) {
        PyObject *first = PyList_GET_ITEM(trick, 0);
        if (!PyTuple_Check(first) || PyTuple_GET_SIZE(first) != 2) return 0;
        long led = card_id(PyTuple_GET_ITEM(first, 1));
        if (led < 0) {
            PyErr_Clear();
            return 0;
        }
        uint64_t suit = 0x1111111111111ULL << (led & 3); /* the 13 cards of the suit led */
        if (cards & suit) cards &= suit;
    }
    *out = cards;
    return 1;
}

/* The legal plays (Game._playable), lowest id first. NULL with no error: not handled here. */
static PyObject *legal_plays(PyObject *self, long seat)
{
    uint64_t cards;
    int handled = playable(self, seat, &cards);
    if (handled <= 0) return NULL;
    PyObject *legal = PyTuple_New(__builtin_popcountll(cards));
    if (legal == NULL) return NULL;
    for (Py_ssize_t i = 0; cards; i++, cards &= cards - 1) {
        PyObject *play = PLAY[__builtin_ctzll(cards)];
        Py_INCREF(play);
        PyTuple_SET_ITEM(legal, i, play);
    }
    return legal;
}

/* Whether ``action`` is one of the legal plays of the seat, without making them: 1 or 0 as
   ``action in legal_plays()``, -1 on an error, 2 if not handled here. */
static int play_is_legal(PyObject *self, long seat, PyObject *action)
{
    uint64_t cards, mask;
    int handled = playable(self, seat, &cards);
    if (handled <= 0) return handled < 0 ? -1 : 2;
    if (mask_of(action, &mask) < 0) {
        PyErr_Clear();
        return 0;
    }
    if (mask == 0 || (mask & (mask - 1)) || !(mask & cards)) return 0;
    PyObject *play = PLAY[__builtin_ctzll(mask)];
    return action == play ? 1 : PyObject_RichCompareBool(action, play, Py_EQ);
}

static PyObject *new_discard(uint64_t mask)
{
    PyObject *value = PyLong_FromUnsignedLongLong(mask);
    if (value == NULL) return NULL;
    PyObject *action = plain(ACTION->tp_alloc(ACTION, 4));
    if (action == NULL) {
        Py_DECREF(value);
        return NULL;
    }
    Py_INCREF(K_DISCARD);
    PyTuple_SET_ITEM(action, 0, K_DISCARD);
    PyTuple_SET_ITEM(action, 1, value);
    Py_INCREF(Py_None);
    PyTuple_SET_ITEM(action, 2, Py_None);
    Py_INCREF(Py_None);
    PyTuple_SET_ITEM(action, 3, Py_None);
    return action;
}

static PyObject **discard_three(const int *cards, int pattern); /* see "kept discards" */
static PyObject *recycled_discard(uint64_t mask); /* see "recycled discards" (fortieth pass) */
/* "counts kept, options listed directly" (forty-third pass) */
static PyObject *p43_count(Py_ssize_t n);
static PyObject *p43_exchanges(const int *cards, int count, int one_up);
/* the lists of a turn changed in place (the same block) */
static void rd_delete(PyObject *list, Py_ssize_t at);
static PyObject *rd_pop(PyObject *list);
static int rd_extend(PyObject *list, PyObject *tuple);
static int rd_keep(PyObject *hand, uint64_t mask);
static PyObject *rd_list(PyObject *tuple);
static PyObject *KEEP_ACTION;          /* discard nothing */
static PyObject *DISCARD_ONE[52];      /* discard one card, made when first needed */
static PyObject *DISCARD_TWO[52 * 52]; /* discard two cards (lower id first), the same */

/* The discard action of ``mask`` (a new reference). Those of at most three cards, 26 of
   the 32 options of a turn, are made once and kept (three cards since the thirty-fourth
   pass); the others come from the table of recycled discards (fortieth pass). */
static PyObject *discard_action(uint64_t mask, const int *cards, int pattern)
{
    PyObject **kept = NULL;
    const signed char *bits = PATTERN_BITS[pattern & 31];
    if (bits[0] == 0)
        kept = &KEEP_ACTION;
    else if (bits[0] == 1)
        kept = &DISCARD_ONE[cards[bits[1]]];
    else if (bits[0] == 2)
        kept = &DISCARD_TWO[cards[bits[1]] * 52 + cards[bits[2]]];
    else if (bits[0] == 3)
        kept = discard_three(cards, pattern);
    if (kept == NULL) return recycled_discard(mask); /* fortieth pass */
    if (*kept == NULL && (*kept = new_discard(mask)) == NULL) return NULL;
    Py_INCREF(*kept);
    return *kept;
}

static int rule_int(PyObject *self, PyObject *name, long *out)
{
    PyObject *rules = SLOT(self, O_RULES);
    if (rules == NULL) return -1;
    PyObject *value = PyObject_GetAttr(rules, name);
    if (value == NULL) return -1;
    *out = PyLong_AsLong(value);
    Py_DECREF(value);
    return (*out == -1 && PyErr_Occurred()) ? -1 : 0;
}

/* The shape of an exchange turn of a five-card hand (Game._exchange_options): the hand
   sorted, the most cards it may discard (``max_discard``, and no more than can be drawn,
   R-EX-2) and whether it may ask for one up (V-ONE-UP). 1 if the turn is of that kind, 0
   if not (a locked player's sixth card, another phase), -1 on an error. */
static int exchange_shape(PyObject *self, long seat, int *cards, long *limit, int *one_up)
{
    PyObject *hands = list_slot(self, O_HANDS), *locked = list_slot(self, O_LOCKED);
    PyObject *stock = list_slot(self, O_STOCK), *discards = list_slot(self, O_DISCARDS);
    if (SLOT(self, O_PHASE) != PH_EXCHANGE || hands == NULL || locked == NULL
        || stock == NULL || discards == NULL || seat >= PyList_GET_SIZE(hands)
        || seat >= PyList_GET_SIZE(locked) || PyList_GET_ITEM(locked, seat) != Py_False)
        return 0;
    PyObject *hand = PyList_GET_ITEM(hands, seat);
    if (!PyList_CheckExact(hand) || PyList_GET_SIZE(hand) != 5) return 0;
    for (int i = 0; i < 5; i++) {
        long c = card_id(PyList_GET_ITEM(hand, i));
        if (c < 0 || c > 51) {
            PyErr_Clear();
            return 0;
        }
        int j = i;
        while (j > 0 && cards[j - 1] > c) {
            cards[j] = cards[j - 1];
            j--;
        }
        cards[j] = (int)c;
    }
    /* the rules' max_discard and one_up, read again only for another Rules object (they
       are frozen; as rt_read_rules, thirty-sixth pass) */
    static PyObject *shape_rules;
    static long max_discard, allowed;
    if (SLOT(self, O_RULES) != shape_rules) {
        Py_CLEAR(shape_rules);
        if (rule_int(self, S_MAX_DISCARD, &max_discard) < 0) return -1;
        if (rule_int(self, S_ONE_UP, &allowed) < 0) return -1;
        shape_rules = Py_NewRef(SLOT(self, O_RULES));
    }
    Py_ssize_t available = PyList_GET_SIZE(stock) + PyList_GET_SIZE(discards);
    *limit = max_discard;
    if (available < *limit) *limit = (long)available;
    if (*limit > 5) *limit = 5;
    if (*limit < 0) *limit = 0;
    *one_up = allowed && *limit >= 1 && available >= 2;
    return 1;
}

/* The exchange options of a five-card hand (Game._exchange_options): every discard of at
   most ``limit`` cards in game.py's pattern order, then the one-up requests. NULL with no
   error: not handled here (a locked player's six cards). */
static PyObject *legal_exchanges(PyObject *self, long seat)
{
    int cards[5], one_up;
    long limit;
    int shape = exchange_shape(self, seat, cards, &limit, &one_up);
    if (shape <= 0) return NULL;
    int count = PATTERNS_UP_TO[limit];
    PyObject *legal = p43_exchanges(cards, count, one_up); /* forty-third pass */
    if (legal != NULL || PyErr_Occurred()) return legal;
    legal = PyTuple_New(count + (one_up ? 5 : 0));
    if (legal == NULL) return NULL;
    uint64_t masks[32]; /* the card mask of every pattern, each from one with a bit less */
    masks[0] = 0;
    for (int pattern = 1; pattern < 32; pattern++)
        masks[pattern] = masks[pattern & (pattern - 1)]
            | (uint64_t)1 << cards[__builtin_ctz(pattern)];
    for (int p = 0; p < count; p++) {
        int pattern = PATTERNS[p];
        PyObject *action = discard_action(masks[pattern], cards, pattern);
        if (action == NULL) {
            Py_DECREF(legal);
            return NULL;
        }
        PyTuple_SET_ITEM(legal, p, action);
    }
    if (one_up)
        for (int i = 0; i < 5; i++) {
            Py_INCREF(ONE_UP[cards[i]]);
            PyTuple_SET_ITEM(legal, count + i, ONE_UP[cards[i]]);
        }
    return legal;
}

/* Is ``action``, a discard, one of the exchange options (legal_exchanges) of ``seat``?
   Worked out from the hand without making them: its cards are the hand's, at most
   ``limit`` of them. 1 yes, 0 no, 2 not a turn of that kind, -1 on an error. */
static int discard_is_legal(PyObject *self, long seat, PyObject *action)
{
    int cards[5], one_up;
    long limit;
    int shape = exchange_shape(self, seat, cards, &limit, &one_up);
    if (shape <= 0) return shape < 0 ? -1 : 2;
    uint64_t mask, hand = 0;
    if (mask_of(action, &mask) < 0) return -1;
    for (int i = 0; i < 5; i++) hand |= (uint64_t)1 << cards[i];
    return (mask & ~hand) == 0 && __builtin_popcountll(mask) <= limit
        && PyTuple_GET_ITEM(action, 2) == Py_None && PyTuple_GET_ITEM(action, 3) == Py_None;
}

/* The legal announcements (Game._legal_of): the hand's category if it is a pair or better
   and not below the highest announced so far, and pass. */
static PyObject *legal_announcements(PyObject *self, long seat)
{
    PyObject *categories = list_slot(self, O_CATEGORIES), *hands = list_slot(self, O_HANDS);
    PyObject *highest = SLOT(self, O_HIGHEST), *rules = SLOT(self, O_RULES);
    if (categories == NULL || hands == NULL || highest == NULL || rules == NULL
        || seat >= PyList_GET_SIZE(categories) || seat >= PyList_GET_SIZE(hands))
        return NULL;
    PyObject *category = PyList_GET_ITEM(categories, seat);
    if (category == Py_None) { /* Game._category: worked out once per hand */
        category = category_of(PyList_GET_ITEM(hands, seat), rules);
        if (category == NULL) return NULL;
        Py_INCREF(category);
        if (PyList_SetItem(categories, seat, category) < 0) {
            Py_DECREF(category);
            return NULL;
        }
        Py_DECREF(category); /* the list holds it */
    }
    long value = PyLong_AsLong(category), top = 0;
    if (value == -1 && PyErr_Occurred()) return NULL;
    if (highest != Py_None) {
        top = PyLong_AsLong(highest);
        if (top == -1 && PyErr_Occurred()) return NULL;
    }
    PyObject *legal = value > 0 && value < 10 && (highest == Py_None || value >= top)
        ? ANNOUNCE_OR_PASS[value] : ONLY_PASS;
    Py_INCREF(legal);
    return legal;
}

/* The legal actions of the seat to act as a tuple (new reference), made here for the
   common turns and by Game._legal_of for the others; NULL on an error. */
static PyObject *legal_of(PyObject *self, PyObject *seat_object, long seat)
{
    PyObject *phase = SLOT(self, O_PHASE), *legal = NULL;
    if (phase == PH_PLAY)
        legal = legal_plays(self, seat);
    else if (phase == PH_EXCHANGE) {
        PyObject *locked = list_slot(self, O_LOCKED);
        if (locked != NULL && seat < PyList_GET_SIZE(locked)
            && PyList_GET_ITEM(locked, seat) == Py_False)
            legal = legal_exchanges(self, seat);
        else if (locked != NULL && seat < PyList_GET_SIZE(locked))
            legal = legal_sixth(self, seat); /* V-LOCK-6 (thirty-sixth pass) */
    }
    else if (phase == PH_ANNOUNCE)
        legal = legal_announcements(self, seat);
    else if (phase == PH_CHICAGO) {
        Py_INCREF(CHICAGO_CHOICE);
        return CHICAGO_CHOICE;
    }
    else if (phase == PH_ONE_UP) {
        Py_INCREF(ONE_UP_CHOICE);
        return ONE_UP_CHOICE;
    }
    if (legal != NULL || PyErr_Occurred()) return legal;
    return PyObject_CallFunctionObjArgs(PY_LEGAL_OF, self, seat_object, NULL);
}

/* The cached legal actions of this turn (borrowed), worked out if not yet. */
static PyObject *cached_legal(PyObject *self, PyObject *seat_object, long seat)
{
    PyObject *legal = SLOT(self, O_LEGAL);
    if (legal != NULL && legal != Py_None) return legal;
    legal = legal_of(self, seat_object, seat);
    if (legal == NULL) return NULL;
    if (!PyTuple_CheckExact(legal)) {
        PyObject *as_tuple = PySequence_Tuple(legal);
        Py_DECREF(legal);
        if (as_tuple == NULL) return NULL;
        legal = as_tuple;
    }
    set_slot(self, O_LEGAL, legal);
    return legal;
}

static PyObject *legal_actions(PyObject *self, PyObject *unused)
{
    PyObject *to_act = SLOT(self, O_TO_ACT);
    if (to_act == NULL || to_act == Py_None) return PyList_New(0);
    PyObject *legal = SLOT(self, O_LEGAL);
    if (legal == NULL || legal == Py_None) {
        long seat = PyLong_AsLong(to_act);
        if (seat == -1 && PyErr_Occurred()) return NULL;
        legal = cached_legal(self, to_act, seat);
        if (legal == NULL) return NULL;
    }
    return rd_list(legal); /* list(legal), fortieth pass */
}

/* ------------------------------------------------------------------ the turns */

static int add_record(PyObject *self, PyObject *record)
{
    if (record == NULL) return -1;
    plain(record);
    PyObject *pending = list_slot(self, O_PENDING);
    int result = pending == NULL ? -1 : PyList_Append(pending, record);
    if (pending == NULL) PyErr_SetString(PyExc_TypeError, "Game._pending is not a list");
    Py_DECREF(record);
    /* the game's records are its list's whole while it takes a turn (add_action) */
    if (result == 0)
        result = set_slot(self, O_PENDING_COUNT, p43_count(PyList_GET_SIZE(pending)));
    return result;
}

static int add_to_turn(PyObject *self)
{
    long turn = PyLong_AsLong(SLOT(self, O_TURN));
    if (turn == -1 && PyErr_Occurred()) return -1;
    return set_slot(self, O_TURN, small_int(turn + 1));
}

static Py_ssize_t find_card(PyObject *list, long card)
{
    Py_ssize_t size = PyList_GET_SIZE(list);
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *item = PyList_GET_ITEM(list, i);
        if (item == DECK[card]) return i;
    }
    for (Py_ssize_t i = 0; i < size; i++) { /* an equal card that is not the Card object */
        long c = card_id(PyList_GET_ITEM(list, i));
        if (c == -1 && PyErr_Occurred()) return -2;
        if (c == card) return i;
    }
    return -1;
}

static int mask_of(PyObject *action, uint64_t *mask)
{
    *mask = PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(action, 1));
    return (*mask == (uint64_t)-1 && PyErr_Occurred()) ? -1 : 0;
}

/* Game._on_play: the card leaves the hand for the trick. */
static int on_play(PyObject *self, PyObject *seat_object, long seat, PyObject *action)
{
    uint64_t mask;
    if (mask_of(action, &mask) < 0) return -1;
    if (mask == 0) {
        PyErr_SetString(PyExc_ValueError, "a play names no card");
        return -1;
    }
    int card = 63 - __builtin_clzll(mask);
    PyObject *hand = seat_list(self, O_HANDS, seat, "hands");
    PyObject *played = seat_list(self, O_PLAYED, seat, "played");
    PyObject *trick = list_slot(self, O_TRICK);
    if (hand == NULL || played == NULL) return -1;
    if (trick == NULL) {
        PyErr_SetString(PyExc_TypeError, "Game.trick is not a list");
        return -1;
    }
    Py_ssize_t at = find_card(hand, card);
    if (at < 0) {
        if (at == -1) PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
        return -1;
    }
    rd_delete(hand, at); /* fortieth pass: del hand[at] */
    if (PyList_Append(played, DECK[card]) < 0) return -1;
    PyObject *pair = P46(2, seat_object, DECK[card]);
    if (pair == NULL) return -1;
    int failed = PyList_Append(trick, pair);
    Py_DECREF(pair);
    if (failed) return -1;
    if (add_record(self, P46(4, EV_PLAY, seat_object, DECK[card],
                                      SLOT(self, O_TRICK_NUMBER))) < 0)
        return -1;
    return add_to_turn(self);
}

/* Can on_exchange do this discard the way Game._on_exchange would? (a plain card source;
   the other sources choose the cards drawn in Python) */
static int exchange_here(PyObject *self, long seat)
{
    PyObject *source = SLOT(self, O_SOURCE), *protected = list_slot(self, O_PROTECTED);
    return source != NULL && Py_TYPE(source) == CARD_SOURCE && list_slot(self, O_STOCK) != NULL
        && protected != NULL && seat < PyList_GET_SIZE(protected)
        && list_slot(self, O_DISCARDS) != NULL && list_slot(self, O_CATEGORIES) != NULL
        && list_slot(self, O_EXCHANGE_COUNTS) != NULL;
}

/* The top card of the stock (a new reference), the discard pile reshuffled into a new
   stock first if it is empty (Game._reshuffle, R-EX-2), as Game._draw takes it. */
static PyObject *draw_card(PyObject *self)
{
    PyObject *stock = list_slot(self, O_STOCK);
    if (stock != NULL && PyList_GET_SIZE(stock) == 0) {
        PyObject *done = PyObject_CallMethodNoArgs(self, S_RESHUFFLE);
        if (done == NULL) return NULL;
        Py_DECREF(done);
        stock = list_slot(self, O_STOCK);
    }
    if (stock == NULL || PyList_GET_SIZE(stock) == 0) {
        PyErr_SetString(PyExc_IndexError, "pop from empty list");
        return NULL;
    }
    return rd_pop(stock); /* fortieth pass: stock.pop() */
}

/* Game._on_exchange for a discard from a plain stock: a broken combination is shown first
   (Game._show_if_breaking), the cards go, as many come from the top of the stock. */
static int on_exchange(PyObject *self, PyObject *seat_object, long seat, PyObject *action)
{
    uint64_t mask;
    if (mask_of(action, &mask) < 0) return -1;
    PyObject *round_object = SLOT(self, O_ROUND);
    long round = PyLong_AsLong(round_object);
    if (round == -1 && PyErr_Occurred()) return -1;
    int count = __builtin_popcountll(mask);
    PyObject *all_counts = SLOT(self, O_EXCHANGE_COUNTS);
    if (round < 0 || round >= PyList_GET_SIZE(all_counts)) {
        PyErr_SetString(PyExc_IndexError, "exchange_counts has no entry for this round");
        return -1;
    }
    PyObject *hand = seat_list(self, O_HANDS, seat, "hands");
    PyObject *own = seat_list(self, O_OWN_DISCARDS, seat, "_own_discards");
    if (hand == NULL || own == NULL) return -1;
    PyObject *number = small_int(round + 1);
    if (number == NULL) return -1;
    if (mask) {
        PyObject *cards = NULL, *drawn = NULL;
        uint64_t guarded = PyLong_AsUnsignedLongLong(
            PyList_GET_ITEM(SLOT(self, O_PROTECTED), seat));
        if (guarded == (uint64_t)-1 && PyErr_Occurred()) goto fail;
        if ((guarded & mask) && show_if_breaking(self, seat_object, seat, guarded, mask,
                                                 PyTuple_GET_ITEM(action, 1)) < 0)
            goto fail;
        cards = plain(PyTuple_New(count));
        if (cards == NULL) goto fail;
        int k = 0; /* the cards lowest first, bit by bit (forty-third pass: was 52 tests) */
        for (uint64_t rest = mask; rest && k < count; rest &= rest - 1) {
            int c = __builtin_ctzll(rest);
            if (c > 51) break;
            PyTuple_SET_ITEM(cards, k++, Py_NewRef(DECK[c]));
        }
        /* (a legal discard holds only cards of the hand, ids 0-51: never reached) */
        for (; k < count; k++) PyTuple_SET_ITEM(cards, k, Py_NewRef(Py_None));
        /* fortieth pass: the kept cards in place (hand[:] = kept) */
        if (rd_keep(hand, mask) < 0) goto fail;
        drawn = plain(PyTuple_New(count));
        if (drawn == NULL) goto fail;
        for (int i = 0; i < count; i++) {
            PyObject *card = draw_card(self);
            if (card == NULL) goto fail;
            PyTuple_SET_ITEM(drawn, i, card);
            if (PyList_Append(hand, card) < 0) goto fail;
        }
        PyObject *discards = SLOT(self, O_DISCARDS);
        if (rd_extend(discards, cards) < 0 || rd_extend(own, cards) < 0) goto fail;
        if (PyList_SetItem(SLOT(self, O_CATEGORIES), seat, Py_NewRef(Py_None)) < 0) goto fail;
        PyObject *size_object = small_int(count);
        if (size_object == NULL) goto fail;
        int failed = add_record(self, P46(5, EV_EXCHANGE, seat_object, number,
                                                   size_object, size_object));
        Py_DECREF(size_object);
        if (failed) goto fail;
        if (add_record(self, PyTuple_Pack(5, EV_EXCHANGED, seat_object, number, cards,
                                          drawn)) < 0)
            goto fail;
        Py_DECREF(cards);
        Py_DECREF(drawn);
        goto counted;
    fail:
        Py_XDECREF(cards);
        Py_XDECREF(drawn);
        Py_DECREF(number);
        return -1;
    }
    if (add_record(self, P46(5, EV_EXCHANGE, seat_object, number, SMALL_INTS[0],
                                      SMALL_INTS[0])) < 0) {
        Py_DECREF(number);
        return -1;
    }
counted:
    Py_DECREF(number);
    PyObject *counts = PyList_GET_ITEM(all_counts, round);
    if (!PyList_Check(counts) || seat >= PyList_GET_SIZE(counts)) {
        PyErr_SetString(PyExc_IndexError, "exchange_counts has no entry for this seat");
        return -1;
    }
    if (PyList_SetItem(counts, seat, small_int(count)) < 0) return -1;
    return add_to_turn(self);
}

/* Game._on_announce: a pass, or the hand's category (the highest so far). */
static int on_announce(PyObject *self, PyObject *seat_object, PyObject *action)
{
    PyObject *announced = list_slot(self, O_ANNOUNCED);
    if (announced == NULL) {
        PyErr_SetString(PyExc_TypeError, "Game._announced is not a list");
        return -1;
    }
    long round = PyLong_AsLong(SLOT(self, O_ROUND));
    if (round == -1 && PyErr_Occurred()) return -1;
    PyObject *number = small_int(round + 1);
    if (number == NULL) return -1;
    int failed;
    if (PyTuple_GET_ITEM(action, 0) == K_PASS) {
        PyObject *entry = P46(2, seat_object, Py_None);
        failed = entry == NULL || PyList_Append(announced, entry) < 0;
        Py_XDECREF(entry);
        if (!failed) failed = add_record(self, P46(3, EV_PASS, seat_object, number));
    }
    else {
        PyObject *category = PyTuple_GET_ITEM(action, 2);
        PyObject *entry = P46(2, seat_object, category);
        failed = entry == NULL || PyList_Append(announced, entry) < 0;
        Py_XDECREF(entry);
        if (!failed) {
            Py_INCREF(category);
            failed = set_slot(self, O_HIGHEST, category) < 0;
        }
        if (!failed)
            failed = add_record(self, P46(4, EV_ANNOUNCE, seat_object, number,
                                                   category));
    }
    Py_DECREF(number);
    if (failed) return -1;
    return add_to_turn(self);
}

/* Game._advance within a round: the next seat that decides is to act. Everyone plays and
   announces; an exchange skips a locked player (noting its Exchange, Game._skip); a Chicago
   is asked of those whose score allows it while nobody has declared. 1 if found, 0 if the
   round is over or Game._advance must work it out, -1 on an error. */
static int next_turn(PyObject *self, PyObject *phase)
{
    PyObject *order = list_slot(self, O_ORDER);
    if (order == NULL) return 0;
    for (;;) {
        long turn = PyLong_AsLong(SLOT(self, O_TURN));
        if (turn == -1 && PyErr_Occurred()) return -1;
        if (turn >= PyList_GET_SIZE(order)) return 0;
        PyObject *seat = PyList_GET_ITEM(order, turn);
        long s = PyLong_AsLong(seat);
        if (s == -1 && PyErr_Occurred()) return -1;
        if (phase == PH_EXCHANGE) {
            PyObject *locked = list_slot(self, O_LOCKED), *hands = list_slot(self, O_HANDS);
            if (locked == NULL || hands == NULL || s >= PyList_GET_SIZE(locked)
                || s >= PyList_GET_SIZE(hands))
                return 0;
            if (PyList_GET_ITEM(locked, s) != Py_False) {
                PyObject *hand = PyList_GET_ITEM(hands, s);
                if (PyList_Check(hand) && PyList_GET_SIZE(hand) == 6
                    && PyList_GET_ITEM(locked, s) == Py_True) {
                    /* V-LOCK-6: the seat throws its sixth card (thirty-sixth pass) */
                    Py_INCREF(seat);
                    return set_slot(self, O_TO_ACT, seat) < 0 ? -1 : 1;
                }
                if (!PyList_Check(hand) || PyList_GET_SIZE(hand) != 5)
                    return 0; /* Game._advance works it out */
                long round = PyLong_AsLong(SLOT(self, O_ROUND));
                if (round == -1 && PyErr_Occurred()) return -1;
                PyObject *all_counts = list_slot(self, O_EXCHANGE_COUNTS);
                if (all_counts == NULL || round < 0 || round >= PyList_GET_SIZE(all_counts))
                    return 0;
                PyObject *counts = PyList_GET_ITEM(all_counts, round);
                if (!PyList_Check(counts) || s >= PyList_GET_SIZE(counts)) return 0;
                if (PyList_SetItem(counts, s, small_int(0)) < 0) return -1;
                if (add_record(self, P46(6, EV_EXCHANGE, seat, SMALL_INTS[round + 1],
                                                  SMALL_INTS[0], SMALL_INTS[0], Py_True)) < 0)
                    return -1;
                if (add_to_turn(self) < 0) return -1;
                continue;
            }
        }
        else if (phase == PH_CHICAGO) {
            if (SLOT(self, O_DECLARER) != Py_None) return 0;
            PyObject *rules = SLOT(self, O_RULES), *scores = list_slot(self, O_SCORES);
            if (rules == NULL || scores == NULL || s >= PyList_GET_SIZE(scores)) return 0;
            PyObject *minimum = PyObject_GetAttr(rules, S_MIN_SCORE);
            if (minimum == NULL) return -1;
            int eligible = 1;
            if (minimum != Py_None) {
                eligible = PyObject_RichCompareBool(PyList_GET_ITEM(scores, s), minimum, Py_GE);
                if (eligible < 0) {
                    Py_DECREF(minimum);
                    return -1;
                }
            }
            Py_DECREF(minimum);
            if (!eligible) {
                if (add_to_turn(self) < 0) return -1;
                continue;
            }
        }
        Py_INCREF(seat);
        return set_slot(self, O_TO_ACT, seat) < 0 ? -1 : 1;
    }
}

/* Game._start_turns: ``phase`` begins, the seats in turn from ``first`` (the dealer's left
   if -1); the first of them is to act (the phases started here ask everyone). */
static int start_turns(PyObject *self, PyObject *phase, long first)
{
    long n = PyLong_AsLong(SLOT(self, O_PLAYERS));
    if (n == -1 && PyErr_Occurred()) return -1;
    if (first < 0) {
        long dealer = PyLong_AsLong(SLOT(self, O_DEALER));
        if (dealer == -1 && PyErr_Occurred()) return -1;
        first = (dealer + 1) % n;
    }
    PyObject *order = plain(PyList_New(n));
    if (order == NULL) return -1;
    for (long i = 0; i < n; i++) {
        PyObject *seat = small_int((first + i) % n);
        if (seat == NULL) {
            Py_DECREF(order);
            return -1;
        }
        PyList_SET_ITEM(order, i, seat);
    }
    Py_INCREF(phase);
    if (set_slot(self, O_PHASE, phase) < 0) {
        Py_DECREF(order);
        return -1;
    }
    PyObject *leader = PyList_GET_ITEM(order, 0);
    Py_INCREF(leader);
    if (set_slot(self, O_ORDER, order) < 0 || set_slot(self, O_TURN, small_int(0)) < 0)
        return -1;
    return set_slot(self, O_TO_ACT, leader);
}

/* Game._end_of_turns after an exchange round that is not the last: a scoring round begins
   (Game._begin_announce). 1 if done, 0 if Game._advance must go on, -1 on an error. */
static int next_round(PyObject *self)
{
    PyObject *order = list_slot(self, O_ORDER), *players = SLOT(self, O_PLAYERS);
    PyObject *dealer = SLOT(self, O_DEALER);
    if (order == NULL || players == NULL || dealer == NULL || !PyLong_CheckExact(players)
        || !PyLong_CheckExact(dealer))
        return 0;
    long turn = PyLong_AsLong(SLOT(self, O_TURN)), round = PyLong_AsLong(SLOT(self, O_ROUND));
    long exchanges;
    if ((turn == -1 || round == -1) && PyErr_Occurred()) return -1;
    if (turn < PyList_GET_SIZE(order)) return 0;
    if (rule_int(self, S_EXCHANGES, &exchanges) < 0) return -1;
    if (round >= exchanges - 1) return 0; /* the last exchange: Game._after_last_exchange */
    PyObject *announced = plain(PyList_New(0));
    if (announced == NULL) return -1;
    if (set_slot(self, O_HIGHEST, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_ANNOUNCED, announced) < 0)
        return -1;
    return start_turns(self, PH_ANNOUNCE, -1) < 0 ? -1 : 1;
}

/* Game._end_of_turns after a Chicago round in which nobody declared: the play begins, the
   dealer's left leading (Game._begin_play). 1 if done, 0 if Game._advance must, -1. */
static int begin_play(PyObject *self)
{
    PyObject *order = list_slot(self, O_ORDER);
    if (order == NULL || SLOT(self, O_DECLARER) != Py_None) return 0;
    long turn = PyLong_AsLong(SLOT(self, O_TURN));
    if (turn == -1 && PyErr_Occurred()) return -1;
    if (turn < PyList_GET_SIZE(order)) return 0;
    PyObject *trick = plain(PyList_New(0));
    if (trick == NULL) return -1;
    if (set_slot(self, O_TRICK_NUMBER, small_int(1)) < 0 || set_slot(self, O_TRICK, trick) < 0)
        return -1;
    return start_turns(self, PH_PLAY, -1) < 0 ? -1 : 1;
}

/* The highest card of the suit led takes a trick (R-TRICK-3): the trick's ``i``-th card
   (its id, 0-51: suit in the low two bits, rank above) folded into the best so far
   (``best`` its index, ``best_card`` its id, ``led`` the suit of the trick's first card). */
static inline void fold_trick_card(Py_ssize_t i, long card, Py_ssize_t *best, long *best_card,
                                   long *led)
{
    if (i == 0) {
        *led = card & 3;
        *best_card = card;
    }
    else if (card > *best_card && (card & 3) == *led) {
        *best = i;
        *best_card = card;
    }
}

/* Game._resolve_trick for a trick that is not the deal's last and breaks no Chicago: the
   highest card of the suit led takes it and leads the next. 1 if done, 0 if Game._advance
   must do it, -1 on an error. */
static int next_trick(PyObject *self)
{
    PyObject *trick = list_slot(self, O_TRICK), *tricks = list_slot(self, O_TRICKS);
    PyObject *declarer = SLOT(self, O_DECLARER), *number = SLOT(self, O_TRICK_NUMBER);
    PyObject *players = SLOT(self, O_PLAYERS);
    if (trick == NULL || tricks == NULL || declarer == NULL || number == NULL
        || players == NULL || PyList_GET_SIZE(trick) == 0)
        return 0;
    long trick_number = PyLong_AsLong(number), n = PyLong_AsLong(players);
    if ((trick_number == -1 || n == -1) && PyErr_Occurred()) return -1;
    if (trick_number >= 5 || n <= 0) return 0;
    Py_ssize_t size = PyList_GET_SIZE(trick), best = 0;
    long best_card = -1, led = -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *pair = PyList_GET_ITEM(trick, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) return 0;
        long card = card_id(PyTuple_GET_ITEM(pair, 1));
        if (card == -1 && PyErr_Occurred()) return -1;
        fold_trick_card(i, card, &best, &best_card, &led);
    }
    PyObject *winning = PyList_GET_ITEM(trick, best);
    PyObject *winner = PyTuple_GET_ITEM(winning, 0), *card = PyTuple_GET_ITEM(winning, 1);
    long leader = PyLong_AsLong(winner);
    if (leader == -1 && PyErr_Occurred()) return -1;
    if (declarer != Py_None) {
        int same = PyObject_RichCompareBool(declarer, winner, Py_EQ);
        if (same <= 0) return same; /* a broken Chicago ends the deal: Game._advance */
    }
    Py_INCREF(winner);
    Py_INCREF(card);
    int status = -1;
    PyObject *taken = plain(PyList_AsTuple(trick)), *entry = NULL, *fresh = NULL;
    if (taken == NULL) goto done;
    entry = plain(PyTuple_Pack(2, winner, taken));
    if (entry == NULL || PyList_Append(tricks, entry) < 0) goto done;
    if (add_record(self, P46(4, EV_TRICK, number, winner, card)) < 0) goto done;
    fresh = plain(PyList_New(0));
    if (fresh == NULL) goto done;
    if (set_slot(self, O_TRICK_NUMBER, small_int(trick_number + 1)) < 0) goto done;
    if (set_slot(self, O_TRICK, fresh) < 0) goto done;
    fresh = NULL;
    if (start_turns(self, PH_PLAY, leader) < 0) goto done;
    status = 1;
done:
    Py_XDECREF(taken);
    Py_XDECREF(entry);
    Py_XDECREF(fresh);
    Py_DECREF(winner);
    Py_DECREF(card);
    return status;
}

static PyObject *apply_python(PyObject *self, PyObject *action)
{
    return PyObject_CallFunctionObjArgs(PY_APPLY, self, action, NULL);
}

static PyObject *apply(PyObject *self, PyObject *action)
{
    if (PyUnicode_CheckExact(action)) {
        /* an action's text (the table server's, a replay's): read as Action.parse reads
           it (cached), then applied as that action, in C when it can be; a text that is not
           an action is left to the Python method, which raises IllegalAction naming why */
        PyObject *parsed = PyObject_CallMethodOneArg((PyObject *)ACTION, S_PARSE, action);
        if (parsed == NULL || Py_TYPE(parsed) != ACTION) {
            Py_XDECREF(parsed);
            PyErr_Clear();
            PyObject *result = apply_python(self, action);
            if (result != NULL) plain_state(self);
            return result;
        }
        PyObject *result = apply(self, parsed);
        Py_DECREF(parsed);
        return result;
    }
    PyObject *to_act = SLOT(self, O_TO_ACT);
    if (Py_TYPE(action) != ACTION || PyTuple_GET_SIZE(action) != 4 || to_act == NULL
        || to_act == Py_None || !PyLong_CheckExact(to_act)) {
        PyObject *result = apply_python(self, action);
        if (result != NULL) plain_state(self);
        return result;
    }
    long seat = PyLong_AsLong(to_act);
    if (seat == -1 && PyErr_Occurred()) return NULL;
    int found = 0;
    PyObject *known = SLOT(self, O_LEGAL);
    if ((known == NULL || known == Py_None) && PyTuple_GET_ITEM(action, 0) == K_DISCARD) {
        found = discard_is_legal(self, seat, action); /* no need to list the options */
        if (found < 0) return NULL;
        if (found == 0) return apply_python(self, action); /* raises IllegalAction */
        found = found == 1;
    }
    else if ((known == NULL || known == Py_None) && PyTuple_GET_ITEM(action, 0) == OU_K_ONE_UP
             && SLOT(self, O_PHASE) == PH_EXCHANGE) {
        found = one_up_is_legal(self, seat, action); /* the same (thirty-sixth pass) */
        if (found < 0) return NULL;
        if (found == 0) return apply_python(self, action); /* raises IllegalAction */
        found = found == 1;
    }
    else if ((known == NULL || known == Py_None) && SLOT(self, O_PHASE) == PH_PLAY) {
        found = play_is_legal(self, seat, action); /* the same: no tuple of plays made */
        if (found < 0) return NULL;
        if (found == 0) return apply_python(self, action); /* raises IllegalAction */
        found = found == 1;
    }
    if (!found) {
        PyObject *legal = cached_legal(self, to_act, seat);
        if (legal == NULL) return NULL;
        Py_ssize_t size = PyTuple_GET_SIZE(legal);
        for (Py_ssize_t i = 0; i < size && !found; i++)
            found = PyTuple_GET_ITEM(legal, i) == action;
        if (!found) {
            found = PySequence_Contains(legal, action);
            if (found < 0) return NULL;
            if (!found) return apply_python(self, action); /* raises IllegalAction */
        }
    }
    plain(action); /* it holds only numbers and enum members */
    Py_INCREF(to_act); /* the seat, held while the slots change */
    PyObject *seat_object = to_act;
    PyObject *phase = SLOT(self, O_PHASE);
    Py_INCREF(phase);
    PyObject *result = NULL;
    PyObject *entry = P46(2, seat_object, action);
    p46_keep_options(self); /* the turn's options' tuple kept for the next (forty-sixth pass) */
    if (set_slot(self, O_LEGAL, Py_NewRef(Py_None)) < 0 || entry == NULL
        || add_action(self, entry) < 0)
        goto done;
    /* the records made from here on, taken off the collector's watch before returning
       (those Python makes too: an exchange may call Game._show_if_breaking, whose Show
       records hold the hand's cards, objects the collector watches, and stayed watched
       as long as the game: a third of what the collector walked in a batch of games) */
    Py_ssize_t since = records(self);
    PyObject *kind = PyTuple_GET_ITEM(action, 0);
    PyObject *after = phase; /* the phase whose next seat is found (borrowed) */
    int handled = 0, status = 0;
    if (phase == PH_PLAY) {
        status = on_play(self, seat_object, seat, action);
        handled = 1;
    }
    else if (phase == PH_EXCHANGE && kind == K_DISCARD) {
        PyObject *locked = list_slot(self, O_LOCKED);
        if (locked != NULL && seat < PyList_GET_SIZE(locked)
            && PyList_GET_ITEM(locked, seat) == Py_False && exchange_here(self, seat)) {
            status = on_exchange(self, seat_object, seat, action);
            handled = 1;
        }
    }
    else if (phase == PH_CHICAGO && kind == K_NO_CHICAGO) {
        status = add_record(self, P46(3, EV_CHICAGO_CALL, seat_object, Py_False));
        if (status == 0) status = add_to_turn(self);
        handled = 1;
    }
    else if (phase == PH_ANNOUNCE) {
        status = on_announce(self, seat_object, action);
        handled = 1;
    }
    if (!handled && (phase == PH_EXCHANGE || phase == PH_ONE_UP)) {
        /* one up and a locked seat's sixth card (thirty-sixth pass) */
        int done = one_up_or_sixth(self, seat_object, seat, phase, action);
        if (done < 0) goto done;
        if (done == 1) { /* a one-up request: the seat answers it (Phase.ONE_UP) */
            plain_records(self, since);
            result = Py_NewRef(Py_None);
            goto done;
        }
        if (done == 2) {
            handled = 1;
            after = PH_EXCHANGE;
        }
    }
    if (status < 0) goto done;
    if (!handled) {
        PyObject *handler = PyDict_GetItemWithError(HANDLERS, phase);
        if (handler == NULL) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "no handler for the phase");
            goto done;
        }
        PyObject *done_handling = PyObject_CallFunctionObjArgs(handler, self, seat_object,
                                                               action, NULL);
        if (done_handling == NULL) goto done;
        Py_DECREF(done_handling);
    }
    else {
        int next = next_turn(self, after);
        if (next == 0 && after == PH_PLAY) next = next_trick(self);
        if (next == 0 && after == PH_EXCHANGE) next = next_round(self);
        if (next == 0 && after == PH_CHICAGO) next = begin_play(self);
        if (next == 0) next = end_turns(self, after); /* the deal's end, a round's */
        if (next < 0) goto done;
        if (next) {
            plain_records(self, since);
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    result = PyObject_CallFunctionObjArgs(PY_ADVANCE, self, NULL);
    if (result != NULL) {
        plain_records(self, since);
        plain_state(self);
    }
done:
    Py_XDECREF(entry);
    Py_DECREF(phase);
    Py_DECREF(seat_object);
    return result;
}

/* ------------------------------------------------------------------ shuffle */

static PyObject *S_GETRANDBITS;
static PyObject *BIT_COUNTS[65]; /* 0 ... 64 as int objects */

/* chicago.engine.sources.shuffle: random.Random.shuffle's loop (each position from the
   last down swapped with one below it, drawn by getrandbits of the bound's bit length until
   it is below the bound), so a seed gives the same order. */
static int shuffle_twister(PyObject *rng, PyObject *cards); /* see "a new deal" below */

static PyObject *shuffle(PyObject *module, PyObject *args)
{
    PyObject *rng, *cards;
    if (!PyArg_ParseTuple(args, "OO!:shuffle", &rng, &PyList_Type, &cards)) return NULL;
    int done = shuffle_twister(rng, cards);
    if (done < 0) return NULL;
    if (done) Py_RETURN_NONE;
    PyObject *getrandbits = PyObject_GetAttr(rng, S_GETRANDBITS);
    if (getrandbits == NULL) return NULL;
    for (Py_ssize_t i = PyList_GET_SIZE(cards) - 1; i > 0; i--) {
        unsigned long long bound = (unsigned long long)i + 1, j;
        int bits = 64 - __builtin_clzll(bound);
        do {
            PyObject *drawn = PyObject_CallOneArg(getrandbits, BIT_COUNTS[bits]);
            if (drawn == NULL) {
                Py_DECREF(getrandbits);
                return NULL;
            }
            j = PyLong_AsUnsignedLongLong(drawn);
            Py_DECREF(drawn);
            if (j == (unsigned long long)-1 && PyErr_Occurred()) {
                Py_DECREF(getrandbits);
                return NULL;
            }
        } while (j >= bound);
        if (i >= PyList_GET_SIZE(cards)) { /* getrandbits changed the list: stop */
            Py_DECREF(getrandbits);
            PyErr_SetString(PyExc_RuntimeError, "the list changed while it was shuffled");
            return NULL;
        }
        PyObject *a = PyList_GET_ITEM(cards, i);
        PyList_SET_ITEM(cards, i, PyList_GET_ITEM(cards, (Py_ssize_t)j));
        PyList_SET_ITEM(cards, (Py_ssize_t)j, a);
    }
    Py_DECREF(getrandbits);
    Py_RETURN_NONE;
}

/* ------------------------------------------------------------------ observe_batch */

/* The facts of chicago.env.batch's observation, one row of int64 per game (the order of
   chicago.env.batch.FIELDS), and the ids of each game's legal actions (chicago.env.actions)
   in the order of its legal actions. chicago.env.batch._facts is the same in Python. */
enum {
    F_HAND, F_DISCARDED, F_TRICK, F_SHOWN, F_ONE_UP, F_SEAT, F_DEALER, F_PHASE, F_ROUND,
    F_TRICK_NUMBER, F_DECLARER, F_CATEGORY, F_PLAYERS, F_SCORES, F_LOCKED = F_SCORES + 6,
    F_EXCHANGED, F_STOCK = F_EXCHANGED + 6, F_PILE, F_COUNT
};

static PyObject *PHASES;            /* the phases in index order (a tuple) */
static PyObject *ID_OF_KIND;        /* ActionKind -> id of an action without cards */
static PyObject *K_PLAY, *K_ONE_UP, *K_ANNOUNCE, *K_RESET;
static long ID_DISCARD, ID_SIXTH, ID_ONE_UP, ID_ANNOUNCE, ID_RESET_SEAT;
static Py_ssize_t O_SHOWN, O_ONE_UP_CARD, O_PENDING_ONE_UP, O_DEAL_NUMBER;

static int mask_of_cards(PyObject *cards, uint64_t *mask)
{
    PyObject *sequence = PySequence_Fast(cards, "cards must be a sequence");
    if (sequence == NULL) return -1;
    Py_ssize_t size = PySequence_Fast_GET_SIZE(sequence);
    PyObject **items = PySequence_Fast_ITEMS(sequence);
    for (Py_ssize_t i = 0; i < size; i++) {
        long c = card_id(items[i]);
        if (c < 0 || c > 51) {
            Py_DECREF(sequence);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "not a card");
            return -1;
        }
        *mask |= (uint64_t)1 << c;
    }
    Py_DECREF(sequence);
    return 0;
}

static long long_of(PyObject *value)
{
    return value == NULL ? (PyErr_SetString(PyExc_TypeError, "a slot is unset"), -1)
                         : PyLong_AsLong(value);
}

/* The id of ``action`` for a seat whose sorted hand is ``cards`` (chicago.env.actions). */
static long id_of(PyObject *action, const int *cards, int size)
{
    PyObject *kind = PyTuple_GET_ITEM(action, 0);
    if (kind == K_PLAY || kind == K_DISCARD || kind == K_ONE_UP) {
        uint64_t mask;
        if (mask_of(action, &mask) < 0) return -1;
        if (kind == K_PLAY) return 63 - __builtin_clzll(mask);
        int pattern = 0;
        for (int i = 0; i < size; i++)
            if (mask >> cards[i] & 1) pattern |= 1 << i;
        if (kind == K_ONE_UP) return ID_ONE_UP + __builtin_ctz(pattern);
        if (pattern == 1 << 5) return ID_SIXTH;
        return ID_DISCARD + pattern;
    }
    if (kind == K_ANNOUNCE) return ID_ANNOUNCE + PyLong_AsLong(PyTuple_GET_ITEM(action, 2)) - 1;
    PyObject *target = PyTuple_GET_ITEM(action, 3);
    if (kind == K_RESET && target != Py_None) return ID_RESET_SEAT + PyLong_AsLong(target);
    PyObject *id = PyDict_GetItemWithError(ID_OF_KIND, kind);
    if (id == NULL) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_KeyError, "an action kind without id");
        return -1;
    }
    return PyLong_AsLong(id);
}

static int observe_one(PyObject *game, int64_t *row, unsigned char *legal_row,
                       Py_ssize_t actions)
{
    PyObject *to_act = SLOT(game, O_TO_ACT);
    if (to_act == NULL || to_act == Py_None) {
        PyErr_SetString(PyExc_ValueError, "a game of the batch has nobody to act");
        return -1;
    }
    long seat = PyLong_AsLong(to_act);
    if (seat == -1 && PyErr_Occurred()) return -1;
    memset(row, 0, F_COUNT * sizeof *row);
    PyObject *hand = seat_list(game, O_HANDS, seat, "hands");
    PyObject *own = seat_list(game, O_OWN_DISCARDS, seat, "_own_discards");
    PyObject *trick = list_slot(game, O_TRICK), *shown = SLOT(game, O_SHOWN);
    if (hand == NULL || own == NULL || trick == NULL || shown == NULL || !PyDict_Check(shown)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a game's state is not set");
        return -1;
    }
    uint64_t mask = 0;
    if (mask_of_cards(hand, &mask) < 0) return -1;
    row[F_HAND] = (int64_t)mask;
    mask = 0;
    if (mask_of_cards(own, &mask) < 0) return -1;
    row[F_DISCARDED] = (int64_t)mask;
    mask = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(trick); i++) {
        PyObject *pair = PyList_GET_ITEM(trick, i);
        long c = PyTuple_Check(pair) && PyTuple_GET_SIZE(pair) == 2
            ? card_id(PyTuple_GET_ITEM(pair, 1)) : -1;
        if (c < 0 || c > 51) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a bad trick");
            return -1;
        }
        mask |= (uint64_t)1 << c;
    }
    row[F_TRICK] = (int64_t)mask;
    mask = 0;
    Py_ssize_t position = 0;
    PyObject *key, *cards;
    while (PyDict_Next(shown, &position, &key, &cards))
        if (mask_of_cards(cards, &mask) < 0) return -1;
    row[F_SHOWN] = (int64_t)mask;
    PyObject *face_up = SLOT(game, O_ONE_UP_CARD);
    if (face_up != NULL && face_up != Py_None) {
        long c = PyTuple_Check(face_up) && PyTuple_GET_SIZE(face_up) == 2
            ? card_id(PyTuple_GET_ITEM(face_up, 1)) : -1;
        if (c < 0 || c > 51) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a bad one-up card");
            return -1;
        }
        row[F_ONE_UP] = (int64_t)((uint64_t)1 << c);
    }
    row[F_SEAT] = seat;
    row[F_DEALER] = long_of(SLOT(game, O_DEALER));
    PyObject *phase = SLOT(game, O_PHASE);
    row[F_PHASE] = -1;
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(PHASES); i++)
        if (PyTuple_GET_ITEM(PHASES, i) == phase) row[F_PHASE] = i;
    long round = long_of(SLOT(game, O_ROUND));
    row[F_ROUND] = round < 4 ? round : 4;
    long trick_number = long_of(SLOT(game, O_TRICK_NUMBER));
    row[F_TRICK_NUMBER] = trick_number < 5 ? trick_number : 5;
    PyObject *declarer = SLOT(game, O_DECLARER);
    row[F_DECLARER] = declarer == NULL || declarer == Py_None ? 6 : long_of(declarer);
    long players = long_of(SLOT(game, O_PLAYERS));
    row[F_PLAYERS] = players;
    if (PyErr_Occurred()) return -1;
    Py_ssize_t size = PyList_GET_SIZE(hand);
    row[F_CATEGORY] = -1;
    if (size == 5) { /* the category, as Game._category finds and keeps it */
        PyObject *categories = list_slot(game, O_CATEGORIES);
        PyObject *category = categories != NULL && seat < PyList_GET_SIZE(categories)
            ? PyList_GET_ITEM(categories, seat) : NULL;
        if (category == NULL) {
            PyErr_SetString(PyExc_TypeError, "Game._categories is not set");
            return -1;
        }
        if (category == Py_None) {
            category = category_of(hand, SLOT(game, O_RULES));
            if (category == NULL) return -1;
            if (PyList_SetItem(categories, seat, category) < 0) return -1;
        }
        row[F_CATEGORY] = PyLong_AsLong(category);
    }
    PyObject *scores = list_slot(game, O_SCORES), *locked = list_slot(game, O_LOCKED);
    if (scores == NULL || locked == NULL) {
        PyErr_SetString(PyExc_TypeError, "scores or locks are not lists");
        return -1;
    }
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(scores) && s < 6; s++)
        row[F_SCORES + s] = PyLong_AsLong(PyList_GET_ITEM(scores, s));
    for (Py_ssize_t s = 0; s < PyList_GET_SIZE(locked) && s < 6; s++)
        if (PyObject_IsTrue(PyList_GET_ITEM(locked, s)) == 1) row[F_LOCKED] |= 1 << s;
    PyObject *counts = list_slot(game, O_EXCHANGE_COUNTS);
    if (phase == PH_EXCHANGE && counts != NULL && PyList_GET_SIZE(counts) > 0) {
        PyObject *last = PyList_GET_ITEM(counts, PyList_GET_SIZE(counts) - 1);
        if (PyList_Check(last))
            for (Py_ssize_t s = 0; s < PyList_GET_SIZE(last) && s < 6; s++)
                row[F_EXCHANGED + s] = PyLong_AsLong(PyList_GET_ITEM(last, s));
    }
    PyObject *stock = list_slot(game, O_STOCK), *pile = list_slot(game, O_DISCARDS);
    PyObject *pending = SLOT(game, O_PENDING_ONE_UP);
    row[F_STOCK] = stock == NULL ? 0 : PyList_GET_SIZE(stock);
    row[F_PILE] = (pile == NULL ? 0 : PyList_GET_SIZE(pile))
        + (pending != NULL && pending != Py_None);
    if (PyErr_Occurred()) return -1;
    /* the legal actions' ids: an exchange's worked out from its shape (no Action made) */
    int shape_cards[5], one_up;
    long limit;
    PyObject *known = SLOT(game, O_LEGAL);
    int shape = known == NULL || known == Py_None
        ? exchange_shape(game, seat, shape_cards, &limit, &one_up) : 0;
    if (shape < 0) return -1;
    memset(legal_row, 0, actions);
    if (shape == 1) {
        int discards = PATTERNS_UP_TO[limit];
        for (int p = 0; p < discards; p++) legal_row[ID_DISCARD + PATTERNS[p]] = 1;
        if (one_up)
            for (int i = 0; i < 5; i++) legal_row[ID_ONE_UP + i] = 1;
        return 0;
    }
    if (phase == PH_PLAY && (known == NULL || known == Py_None)) {
        uint64_t cards; /* a play's id is its card's: no tuple of plays made */
        int handled = playable(game, seat, &cards);
        if (handled < 0) return -1;
        if (handled) {
            for (; cards; cards &= cards - 1) legal_row[__builtin_ctzll(cards)] = 1;
            return 0;
        }
    }
    PyObject *legal = cached_legal(game, to_act, seat);
    if (legal == NULL) return -1;
    int sorted_cards[13], count = 0;
    for (Py_ssize_t i = 0; i < size && i < 13; i++) {
        long c = card_id(PyList_GET_ITEM(hand, i));
        if (c == -1 && PyErr_Occurred()) return -1;
        int j = count++;
        while (j > 0 && sorted_cards[j - 1] > c) {
            sorted_cards[j] = sorted_cards[j - 1];
            j--;
        }
        sorted_cards[j] = (int)c;
    }
    Py_ssize_t options = PyTuple_GET_SIZE(legal);
    for (Py_ssize_t i = 0; i < options; i++) {
        long id = id_of(PyTuple_GET_ITEM(legal, i), sorted_cards, count);
        if (id < 0 || id >= actions) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "an action has no id");
            return -1;
        }
        legal_row[id] = 1;
    }
    return 0;
}

/* Memory that a loop over the games of a batch reads soon, asked for ahead (a hint to the
   CPU: nothing is changed, nothing is read that may be missing). With hundreds of games,
   a game's objects have left the cache since its last turn, and observe_one and step_batch
   waited for them object by object: 0.7 us per game at 16 games, 2 us at 1,024. Three
   stages, each a few games ahead of the next: the game's own slots, the objects they hold,
   the items of the lists among those. */
enum { AHEAD_SLOTS = 12, AHEAD_OBJECTS = 6, AHEAD_ITEMS = 3 };
static Py_ssize_t *const READ_SOON[] = {
    &O_HANDS, &O_OWN_DISCARDS, &O_TRICK, &O_SHOWN, &O_CATEGORIES, &O_SCORES, &O_LOCKED,
    &O_EXCHANGE_COUNTS, &O_STOCK, &O_DISCARDS, &O_LEGAL, &O_ORDER, &O_PLAYED, &O_ACTIONS,
    &O_PENDING,
};
#define READ_SOON_COUNT ((int)(sizeof READ_SOON / sizeof *READ_SOON))

static void read_soon(PyObject *games, Py_ssize_t i)
{
    Py_ssize_t n = PyList_GET_SIZE(games);
    if (i + AHEAD_SLOTS < n) {
        const char *start = (const char *)PyList_GET_ITEM(games, i + AHEAD_SLOTS);
        for (Py_ssize_t k = 0; k < GAME->tp_basicsize; k += 64) __builtin_prefetch(start + k);
    }
    if (i + AHEAD_OBJECTS < n) {
        PyObject *game = PyList_GET_ITEM(games, i + AHEAD_OBJECTS);
        if (PyObject_TypeCheck(game, GAME))
            for (int k = 0; k < READ_SOON_COUNT; k++) {
                PyObject *value = SLOT(game, *READ_SOON[k]);
                if (value != NULL) __builtin_prefetch(value);
            }
    }
    if (i + AHEAD_ITEMS < n) {
        PyObject *game = PyList_GET_ITEM(games, i + AHEAD_ITEMS);
        if (PyObject_TypeCheck(game, GAME))
            for (int k = 0; k < READ_SOON_COUNT; k++) {
                PyObject *value = SLOT(game, *READ_SOON[k]);
                if (value != NULL && PyList_CheckExact(value) && PyList_GET_SIZE(value) > 0)
                    __builtin_prefetch(((PyListObject *)value)->ob_item);
            }
    }
}

/* The batch's own arrays, kept from step to step and opened once, when the batch is made
   (hold_batch): ``facts`` (int64, a row per game: the engine's facts first, then the
   batch's own notes), ``legal`` (bool, the batch's mask, which checks the next step's
   picks) and ``program`` (float64 rows of kind, column, offset, divisor: how an observation
   row is made from a row of facts). Held by a capsule that releases them with the batch. */
/* An instruction of the program, read out of its float64 row once (hold_batch). */
typedef struct {
    int kind, column, offset;
    double divisor;
} Instruction;

typedef struct {
    Py_buffer views[3];
    Py_ssize_t n, facts_width, legal_width, steps, out_width;
    Py_ssize_t played, announced, deals;  /* step_batch's notes: their columns in facts */
    PyObject *make;  /* how step_batch makes a step's arrays (hold_batch's ``make``) */
    Instruction *code;  /* the program (views[2]) as encode_row reads it */
} Held;

static const char HELD[] = "chicago.engine._engine.held";

static void held_free_memory(Held *held)
{
    for (int k = 0; k < 3; k++) PyBuffer_Release(&held->views[k]);
    Py_XDECREF(held->make);
    PyMem_Free(held->code);
    PyMem_Free(held);
}

static void held_free(PyObject *capsule)
{
    Held *held = PyCapsule_GetPointer(capsule, HELD);
    if (held != NULL) held_free_memory(held);
}

static int is_int64(const Py_buffer *view)
{
    return view->itemsize == 8 && view->format != NULL
        && (strcmp(view->format, "l") == 0 || strcmp(view->format, "q") == 0);
}

enum { MAKE_EMPTY, MAKE_OUT_SHAPE, MAKE_LEGAL_SHAPE, MAKE_SEATS_SHAPE, MAKE_FLOAT32,
       MAKE_BOOL, MAKE_INT64, MAKE_NO_REWARDS, MAKE_NOT_DONE, MAKE_EPISODES, MAKE_STEP,
       MAKE_COUNT };

/* hold_batch(facts, legal, program, played, announced, deals, make) -> the capsule
   step_batch and observe_batch take. ``played``, ``announced``, ``deals``: the columns of
   facts where step_batch notes plays, announcements and the deal (see step_batch);
   ``make``: how step_batch makes the arrays of a step (a tuple: numpy.empty, the shapes
   of the observations, the mask and the seats, the dtypes float32, bool and int64, the
   arrays whose copies are a step's rewards, done and episodes, the step's named tuple
   type). */
static PyObject *hold_batch(PyObject *module, PyObject *args)
{
    PyObject *arrays[3], *make;
    Py_ssize_t played, announced, deals;
    if (!PyArg_ParseTuple(args, "OOOnnnO!:hold_batch", &arrays[0], &arrays[1], &arrays[2],
                          &played, &announced, &deals, &PyTuple_Type, &make))
        return NULL;
    if (PyTuple_GET_SIZE(make) != MAKE_COUNT || !PyCallable_Check(PyTuple_GET_ITEM(make, 0))
        || !PyType_Check(PyTuple_GET_ITEM(make, MAKE_STEP))
        || !PyType_IsSubtype((PyTypeObject *)PyTuple_GET_ITEM(make, MAKE_STEP),
                             &PyTuple_Type)) {
        PyErr_Format(PyExc_ValueError, "hold_batch: make must be %d things: numpy.empty, ..., "
                     "a tuple type", MAKE_COUNT);
        return NULL;
    }
    Held *held = PyMem_Calloc(1, sizeof *held);
    if (held == NULL) return PyErr_NoMemory();
    int opened = 0;
    for (; opened < 3; opened++) {
        int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (opened < 2 ? PyBUF_WRITABLE : 0);
        if (PyObject_GetBuffer(arrays[opened], &held->views[opened], flags) < 0) break;
    }
    Py_buffer *v = held->views;
    int ok = opened == 3 && v[0].ndim == 2 && v[0].shape[1] >= F_COUNT && is_int64(&v[0])
        && v[1].ndim == 2 && v[1].shape[0] == v[0].shape[0] && v[1].itemsize == 1
        && strcmp(v[1].format, "?") == 0 && v[1].shape[1] > ID_RESET_SEAT + 5
        && v[2].ndim == 2 && v[2].shape[1] == 4 && strcmp(v[2].format, "d") == 0;
    ok = ok && played >= 0 && played + 6 <= v[0].shape[1] && announced >= 0
        && announced + 24 <= v[0].shape[1] && deals >= 0 && deals < v[0].shape[1];
    if (ok) {
        held->played = played;
        held->announced = announced;
        held->deals = deals;
        held->n = v[0].shape[0];
        held->facts_width = v[0].shape[1];
        held->legal_width = v[1].shape[1];
        held->steps = v[2].shape[0];
    }
    const double *code = ok ? v[2].buf : NULL;
    for (Py_ssize_t k = 0; ok && k < held->steps; k++) { /* every instruction fits a row */
        const double *step = code + 4 * k;
        long kind = (long)step[0], column = (long)step[1], offset = (long)step[2];
        long span = kind == 0 ? 52 : kind == 4 ? 6 : 1;
        ok = kind >= 0 && kind <= 4 && column >= 0 && column < held->facts_width
            && offset >= 0 && step[3] != 0.0;
        if (ok && kind != 1 && offset + span > held->out_width) held->out_width = offset + span;
    }
    if (!ok) {
        for (int k = 0; k < opened; k++) PyBuffer_Release(&held->views[k]);
        PyMem_Free(held);
        if (opened == 3 || !PyErr_Occurred())
            PyErr_Format(PyExc_ValueError, "hold_batch: int64 facts (n, k >= %d), bool legal "
                         "(n, every id), a float64 program (m, 4) that fits facts, the notes' "
                         "columns within facts", F_COUNT);
        return NULL;
    }
    held->code = PyMem_Calloc(held->steps + 1, sizeof *held->code);
    if (held->code == NULL) {
        held_free_memory(held);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t k = 0; k < held->steps; k++) {
        const double *step = code + 4 * k;
        held->code[k] = (Instruction){(int)step[0], (int)step[1], (int)step[2], step[3]};
    }
    held->make = Py_NewRef(make);
    PyObject *capsule = PyCapsule_New(held, HELD, held_free);
    if (capsule == NULL) held_free_memory(held);
    return capsule;
}

/* ------------------------------------------------------------------ arrays */

/* The head of a numpy array: numpy's PyArrayObject_fields, which every extension built on
   numpy's C API reads directly (PyArray_DATA and the other accessors are macros), so numpy
   keeps it as it is. A step's fresh arrays are read through it rather than through the
   buffer protocol, whose format strings and bookkeeping cost about 0.2 us an array: a
   fifth of a one-game step's C time. setup_batch checks the layout on probe arrays; if
   anything differs, every array is opened through the buffer protocol. */
typedef struct {
    PyObject_HEAD
    char *data;
    int nd;
    Py_ssize_t *dimensions;
    Py_ssize_t *strides;
    PyObject *base;
    PyObject *descr;
    int flags;
} ArrayHead;

enum { ARRAY_C_CONTIGUOUS = 0x0001, ARRAY_WRITEABLE = 0x0400 };
enum { EL_OTHER, EL_F32, EL_BOOL, EL_I64, EL_F64, EL_COUNT };  /* the element types used here */
static PyTypeObject *NDARRAY;      /* numpy.ndarray, when its head checked out (setup_batch) */
static PyObject *DTYPES[EL_COUNT];  /* numpy's dtypes of EL_F32 ... EL_F64 */
static const Py_ssize_t ELEMENT_SIZE[EL_COUNT] = {0, 4, 1, 8, 8};

/* numpy's PyArray_NewFromDescr, taken from the table of numpy's C API (the capsule
   numpy's own extensions import it from; entry 94 in numpy 1.x and 2.x, beside ndarray at
   entry 2) when setup_batch found both and the arrays it made checked out; NULL: a step's
   arrays are made by calling numpy.empty. Calling numpy.empty parses its arguments (the
   shape, the dtype) each time: 0.1-0.2 us of the six arrays of every step, the most of a
   one-game step that is not the game's own work. */
typedef PyObject *(*NewFromDescr)(PyTypeObject *, PyObject *, int, const Py_ssize_t *,
                                  const Py_ssize_t *, void *, int, PyObject *);
static NewFromDescr NEW_ARRAY;

/* A new C-contiguous array of ``nd`` dims and element type ``type`` through NEW_ARRAY, its
   memory unset. */
static PyObject *made_array(int type, int nd, const Py_ssize_t *dims)
{
    Py_INCREF(DTYPES[type]); /* PyArray_NewFromDescr takes this reference */
    return NEW_ARRAY(NDARRAY, DTYPES[type], nd, dims, NULL, NULL, 0, NULL);
}

/* An array opened for a call: its memory, element type and shape (one or two dimensions,
   C order); ``view`` is set and released by array_close when it was opened through the
   buffer protocol. */
typedef struct {
    char *data;
    int ndim, type, buffered;
    Py_ssize_t rows, columns;  /* columns: 1 for one dimension */
    Py_buffer view;
} Array;

static int type_of_format(const Py_buffer *view)
{
    const char *format = view->format == NULL ? "B" : view->format;
    if (strcmp(format, "f") == 0) return EL_F32;
    if (strcmp(format, "?") == 0) return EL_BOOL;
    if (strcmp(format, "d") == 0) return EL_F64;
    if (is_int64(view)) return EL_I64;
    return EL_OTHER;
}

/* Open ``object`` (C-contiguous, one or two dimensions; writable if asked): -1 with an
   error if it is not such an array. */
static int array_open(PyObject *object, int writable, Array *array)
{
    array->buffered = 0;
    if (NDARRAY != NULL && Py_TYPE(object) == NDARRAY) {
        const ArrayHead *head = (const ArrayHead *)object;
        int need = ARRAY_C_CONTIGUOUS | (writable ? ARRAY_WRITEABLE : 0);
        int type = EL_OTHER;
        for (int t = EL_F32; t < EL_COUNT; t++)
            if (head->descr == DTYPES[t]) type = t;
        if ((head->flags & need) == need && head->nd >= 1 && head->nd <= 2
            && type != EL_OTHER) {
            array->data = head->data;
            array->ndim = head->nd;
            array->type = type;
            array->rows = head->dimensions[0];
            array->columns = head->nd == 2 ? head->dimensions[1] : 1;
            return 0;
        }
    }
    int flags = PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | (writable ? PyBUF_WRITABLE : 0);
    if (PyObject_GetBuffer(object, &array->view, flags) < 0) return -1;
    array->buffered = 1;
    if (array->view.ndim < 1 || array->view.ndim > 2) {
        PyBuffer_Release(&array->view);
        array->buffered = 0;
        PyErr_SetString(PyExc_ValueError, "an array of one or two dimensions is needed");
        return -1;
    }
    array->data = array->view.buf;
    array->ndim = array->view.ndim;
    array->type = type_of_format(&array->view);
    array->rows = array->view.shape[0];
    array->columns = array->ndim == 2 ? array->view.shape[1] : 1;
    return 0;
}

static void array_close(Array *array)
{
    if (array->buffered) PyBuffer_Release(&array->view);
    array->buffered = 0;
}

/* Does ``probe`` (an array of dtypes[t]) read the same through its head as through the
   buffer protocol? */
static int head_agrees(PyObject *probe, int type, int writable, int contiguous)
{
    if (Py_TYPE(probe) != NDARRAY) return 0;
    const ArrayHead *head = (const ArrayHead *)probe;
    Py_buffer view;
    if (PyObject_GetBuffer(probe, &view, PyBUF_STRIDES | PyBUF_FORMAT) < 0) {
        PyErr_Clear();
        return 0;
    }
    int agrees = view.buf == (void *)head->data && view.ndim == head->nd && head->nd == 2
        && view.shape[0] == head->dimensions[0] && view.shape[1] == head->dimensions[1]
        && view.strides[1] == head->strides[1] && head->descr == DTYPES[type]
        && type_of_format(&view) == type && view.readonly == !writable
        && !(head->flags & ARRAY_WRITEABLE) == !writable
        && !(head->flags & ARRAY_C_CONTIGUOUS) == !contiguous;
    PyBuffer_Release(&view);
    return agrees;
}

/* Does an array of ``type`` that NEW_ARRAY makes have the head numpy.empty's would? */
static int made_agrees(int type)
{
    const Py_ssize_t dims[2] = {3, 5};
    PyObject *made = made_array(type, 2, dims);
    if (made == NULL) {
        PyErr_Clear();
        return 0;
    }
    const ArrayHead *head = (const ArrayHead *)made;
    int agrees = Py_TYPE(made) == NDARRAY && head->nd == 2 && head->dimensions[0] == 3
        && head->dimensions[1] == 5 && head->descr == DTYPES[type]
        && head->strides[1] == ELEMENT_SIZE[type]
        && head->strides[0] == 5 * ELEMENT_SIZE[type] && head->data != NULL
        && (head->flags & (ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE))
            == (ARRAY_C_CONTIGUOUS | ARRAY_WRITEABLE);
    Py_DECREF(made);
    return agrees;
}

/* setup_batch's check of ArrayHead: ``ndarray``, the four dtypes, and ``probes``: for each
   dtype a writable C-contiguous array of two dimensions, then a float32 array that is not
   C-contiguous and one that is read-only. NDARRAY stays NULL unless every probe agrees. */
static int setup_arrays(PyObject *config)
{
    NDARRAY = NULL;
    NEW_ARRAY = NULL;
    PyObject *ndarray = PyDict_GetItemString(config, "ndarray");
    PyObject *dtypes = PyDict_GetItemString(config, "dtypes");
    PyObject *probes = PyDict_GetItemString(config, "probes");
    if (ndarray == NULL || dtypes == NULL || probes == NULL)
        return 0; /* the buffer protocol only */
    if (!PyType_Check(ndarray) || !PyTuple_Check(dtypes) || PyTuple_GET_SIZE(dtypes) != 4
        || !PyTuple_Check(probes) || PyTuple_GET_SIZE(probes) != 6) {
        PyErr_SetString(PyExc_TypeError, "setup_batch: ndarray, 4 dtypes and 6 probes");
        return -1;
    }
    for (int t = EL_F32; t < EL_COUNT; t++)
        Py_XSETREF(DTYPES[t], Py_NewRef(PyTuple_GET_ITEM(dtypes, t - 1)));
    NDARRAY = (PyTypeObject *)ndarray;
    int agrees = 1;
    for (int t = EL_F32; t < EL_COUNT; t++)
        agrees = agrees && head_agrees(PyTuple_GET_ITEM(probes, t - 1), t, 1, 1);
    agrees = agrees && head_agrees(PyTuple_GET_ITEM(probes, 4), EL_F32, 1, 0)
        && head_agrees(PyTuple_GET_ITEM(probes, 5), EL_F32, 0, 1);
    if (agrees) Py_INCREF(ndarray);
    else NDARRAY = NULL;
    PyObject *api_capsule = PyDict_GetItemString(config, "array_api");
    if (agrees && api_capsule != NULL && PyCapsule_CheckExact(api_capsule)) {
        void **api = PyCapsule_GetPointer(api_capsule, PyCapsule_GetName(api_capsule));
        if (api == NULL) PyErr_Clear();
        else if (api[2] == (void *)ndarray) NEW_ARRAY = (NewFromDescr)api[94];
        for (int t = EL_F32; NEW_ARRAY != NULL && t < EL_COUNT; t++)
            if (!made_agrees(t)) NEW_ARRAY = NULL;
    }
    return 0;
}

/* What a batch step writes: the batch's held arrays, and what the step returns, new each
   step and opened for it: ``out`` (float32, the observations), ``legal_out`` (bool, a copy
   of the mask) and ``seats`` (int64, the seat to act). Each game's rows are written while
   its objects are in the cache, in one pass. */
typedef struct {
    Array arrays[3];
    int opened;
    Py_ssize_t n;
    int64_t *facts;
    Py_ssize_t facts_width;
    unsigned char *legal, *legal_out;
    Py_ssize_t legal_width;
    const Instruction *code;
    Py_ssize_t steps;
    float *out;
    Py_ssize_t out_width;
    int64_t *seats;
} Sink;

static void sink_close(Sink *sink)
{
    for (int k = 0; k < sink->opened; k++) array_close(&sink->arrays[k]);
    sink->opened = 0;
}

/* Open the step's three arrays for the ``n`` games of the batch whose arrays ``capsule``
   holds; -1 with ValueError (nothing left open) if they do not fit one another. */
static int sink_open(Sink *sink, Py_ssize_t n, PyObject *capsule, PyObject *out,
                     PyObject *legal_out, PyObject *seats)
{
    Held *held = PyCapsule_GetPointer(capsule, HELD);
    if (held == NULL) return -1;
    PyObject *objects[3] = {out, legal_out, seats};
    sink->opened = 0;
    sink->n = n;
    for (int k = 0; k < 3; k++) {
        if (array_open(objects[k], 1, &sink->arrays[k]) < 0) {
            sink_close(sink);
            return -1;
        }
        sink->opened++;
    }
    Array *v = sink->arrays;
    int ok = held->n == n
        && v[0].ndim == 2 && v[0].rows == n && v[0].type == EL_F32
        && v[0].columns >= held->out_width
        && v[1].ndim == 2 && v[1].rows == n && v[1].columns == held->legal_width
        && v[1].type == EL_BOOL
        && v[2].ndim == 1 && v[2].rows == n && v[2].type == EL_I64;
    if (!ok) {
        sink_close(sink);
        PyErr_Format(PyExc_ValueError, "a step's arrays for %zd games: float32 out (n, width "
                     "the program fits), bool legal_out as wide as the mask, int64 seats (n,)",
                     n);
        return -1;
    }
    sink->facts = held->views[0].buf;
    sink->facts_width = held->facts_width;
    sink->legal = held->views[1].buf;
    sink->legal_width = held->legal_width;
    sink->code = held->code;
    sink->steps = held->steps;
    sink->out = (float *)v[0].data;
    sink->out_width = v[0].columns;
    sink->legal_out = (unsigned char *)v[1].data;
    sink->seats = (int64_t *)v[2].data;
    return 0;
}

/* Row ``i`` of the observations made from row ``i`` of the facts by the program (kinds:
   0 the 52 bits of a card mask, 1 a one-hot of the value (none if negative or past the
   row), 2 the value divided, 3 the same clipped to [-2, 2], 4 the 6 bits of a seat mask),
   as chicago.env.batch.encode does with numpy. */
static void encode_row(const Sink *sink, Py_ssize_t i)
{
    const int64_t *fact = sink->facts + i * sink->facts_width;
    float *row = sink->out + i * sink->out_width;
    Py_ssize_t width = sink->out_width;
    memset(row, 0, width * sizeof *row);
    for (Py_ssize_t k = 0; k < sink->steps; k++) {
        const Instruction *step = sink->code + k;
        long kind = step->kind, offset = step->offset;
        int64_t value = fact[step->column];
        if (kind == 0) {
            uint64_t bits = (uint64_t)value;
            while (bits) {
                row[offset + __builtin_ctzll(bits)] = 1.0f;
                bits &= bits - 1;
            }
        }
        else if (kind == 1) {
            if (value >= 0 && offset + value < width) row[offset + value] = 1.0f;
        }
        else if (kind == 4) {
            for (int s = 0; s < 6; s++)
                if (value >> s & 1) row[offset + s] = 1.0f;
        }
        else {
            double x = (double)value / step->divisor;
            if (kind == 3) x = x < -2.0 ? -2.0 : x > 2.0 ? 2.0 : x;
            row[offset] = (float)x;
        }
    }
}

/* Game ``i``'s rows: its facts and mask (observe_one), the copy of the mask, the seat, the
   observation. */
static int observe_into(const Sink *sink, PyObject *game, Py_ssize_t i)
{
    if (!PyObject_TypeCheck(game, GAME)) {
        PyErr_SetString(PyExc_TypeError, "games must be chicago.Game objects");
        return -1;
    }
    int64_t *row = sink->facts + i * sink->facts_width;
    unsigned char *legal_row = sink->legal + i * sink->legal_width;
    if (observe_one(game, row, legal_row, sink->legal_width) < 0) return -1;
    memcpy(sink->legal_out + i * sink->legal_width, legal_row, sink->legal_width);
    sink->seats[i] = row[F_SEAT];
    encode_row(sink, i);
    return 0;
}

/* observe_batch(games, slots, held, out, legal_out, seats): the rows of the games at
   ``slots`` (a list of ints; None: every game) written as observe_into does (``held``:
   hold_batch's capsule of the batch's facts, legal and program). */
static PyObject *observe_batch(PyObject *module, PyObject *args)
{
    PyObject *games, *slots, *held, *out, *legal_out, *seats;
    if (!installed) {
        PyErr_SetString(PyExc_RuntimeError, "the engine accelerator is not installed");
        return NULL;
    }
    if (!PyArg_ParseTuple(args, "O!OOOOO:observe_batch", &PyList_Type, &games, &slots,
                          &held, &out, &legal_out, &seats))
        return NULL;
    if (slots != Py_None && !PyList_Check(slots)) {
        PyErr_SetString(PyExc_TypeError, "observe_batch: slots must be a list or None");
        return NULL;
    }
    Py_ssize_t n = PyList_GET_SIZE(games);
    Sink sink;
    if (sink_open(&sink, n, held, out, legal_out, seats) < 0) return NULL;
    Py_ssize_t count = slots == Py_None ? n : PyList_GET_SIZE(slots);
    for (Py_ssize_t k = 0; k < count; k++) {
        Py_ssize_t i = k;
        if (slots != Py_None) {
            i = PyLong_AsSsize_t(PyList_GET_ITEM(slots, k));
            if (i < 0 || i >= n) {
                if (!PyErr_Occurred())
                    PyErr_Format(PyExc_IndexError, "observe_batch: no game %zd", i);
                sink_close(&sink);
                return NULL;
            }
        }
        else
            read_soon(games, i);
        PyObject *game = PyList_GET_ITEM(games, i);
        if (PyObject_TypeCheck(game, GAME)) { /* a new game's lists and first records */
            plain_state(game);
            plain_records(game, 0);
        }
        if (observe_into(&sink, game, i) < 0) {
            sink_close(&sink);
            return NULL;
        }
    }
    sink_close(&sink);
    Py_RETURN_NONE;
}

/* The action of id ``id`` for the seat to act (chicago.env.actions), which its ids list
   holds: a play or a discard made from the id and the hand, any other found among the
   legal actions. A new reference; NULL with an error. */
static PyObject *action_of_id(PyObject *game, PyObject *to_act, long seat, long id)
{
    if (id >= 0 && id < 52) {
        Py_INCREF(PLAY[id]);
        return PLAY[id];
    }
    int cards[5], one_up;
    long limit;
    if (id >= ID_DISCARD && id < ID_DISCARD + 32) {
        int shape = exchange_shape(game, seat, cards, &limit, &one_up);
        if (shape < 0) return NULL;
        if (shape == 1) {
            int pattern = (int)(id - ID_DISCARD);
            uint64_t mask = 0;
            for (int i = 0; i < 5; i++)
                if (pattern >> i & 1) mask |= (uint64_t)1 << cards[i];
            return discard_action(mask, cards, pattern);
        }
    }
    PyObject *legal = cached_legal(game, to_act, seat);
    if (legal == NULL) return NULL;
    PyObject *hand = seat_list(game, O_HANDS, seat, "hands");
    if (hand == NULL) return NULL;
    int sorted_cards[13], count = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(hand) && i < 13; i++) {
        long c = card_id(PyList_GET_ITEM(hand, i));
        if (c == -1 && PyErr_Occurred()) return NULL;
        int j = count++;
        while (j > 0 && sorted_cards[j - 1] > c) {
            sorted_cards[j] = sorted_cards[j - 1];
            j--;
        }
        sorted_cards[j] = (int)c;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(legal); i++) {
        PyObject *action = PyTuple_GET_ITEM(legal, i);
        long found = id_of(action, sorted_cards, count);
        if (found == -1 && PyErr_Occurred()) return NULL;
        if (found == id) {
            Py_INCREF(action);
            return action;
        }
    }
    PyErr_Format(PyExc_ValueError, "action id %ld is not legal", id);
    return NULL;
}

/* A new array: numpy.empty(shape, dtype), as held->make gives them. */
static PyObject *new_array(PyObject *make, int shape, int dtype)
{
    PyObject *dims = PyTuple_GET_ITEM(make, shape);
    int type = dtype == MAKE_FLOAT32 ? EL_F32 : dtype == MAKE_BOOL ? EL_BOOL : EL_I64;
    Py_ssize_t nd = PyTuple_Check(dims) ? PyTuple_GET_SIZE(dims) : 0;
    if (NEW_ARRAY != NULL && (nd == 1 || nd == 2)
        && PyTuple_GET_ITEM(make, dtype) == DTYPES[type]) {
        Py_ssize_t sizes[2];
        for (Py_ssize_t k = 0; k < nd; k++)
            if ((sizes[k] = PyLong_AsSsize_t(PyTuple_GET_ITEM(dims, k))) < 0) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a negative size");
                return NULL;
            }
        return made_array(type, (int)nd, sizes);
    }
    PyObject *args[2] = {dims, PyTuple_GET_ITEM(make, dtype)};
    return PyObject_Vectorcall(PyTuple_GET_ITEM(make, MAKE_EMPTY), args, 2, NULL);
}

static PyObject *S_COPY;  /* "copy" */

/* A copy of the array ``template`` (as its copy() makes it). */
static PyObject *array_copy(PyObject *template)
{
    if (NEW_ARRAY != NULL && Py_TYPE(template) == NDARRAY) {
        const ArrayHead *head = (const ArrayHead *)template;
        int type = EL_OTHER;
        for (int t = EL_F32; t < EL_COUNT; t++)
            if (head->descr == DTYPES[t]) type = t;
        if (type != EL_OTHER && (head->nd == 1 || head->nd == 2)
            && head->flags & ARRAY_C_CONTIGUOUS) {
            PyObject *copy = made_array(type, head->nd, head->dimensions);
            if (copy == NULL) return NULL;
            Py_ssize_t size = ELEMENT_SIZE[type];
            for (int k = 0; k < head->nd; k++) size *= head->dimensions[k];
            memcpy(((ArrayHead *)copy)->data, head->data, size);
            return copy;
        }
    }
    return PyObject_CallMethodNoArgs(template, S_COPY);
}
static PyObject *step_games(PyObject *games, PyObject *picks, PyObject *capsule,
                            Held *held_arrays);
static PyObject *finished_steps(PyObject *games, PyObject *picks_object, PyObject *held,
                                Py_ssize_t played, Py_ssize_t announced, Py_ssize_t deals,
                                PyObject *out, PyObject *legal_out, PyObject *seats);

/* step_batch(games, picks, held, checked=False) -> (step, finished): apply action id
   picks[i] (legal[i, picks[i]] true) to each game and return the step's named tuple
   (hold_batch's ``make``: observations, mask, seats to act, rewards, done, episodes) and
   the list of slots whose game ended; NotImplemented, nothing done, unless ``picks`` is a
   C-contiguous numpy int64 array of one id per game or ``checked`` is given (the caller
   checks and converts the picks, and calls again with checked). Python's cycle collector
   is paused while the games move. Each play is noted in facts[i, played + seat]
   and each announcement or pass of scoring round r in facts[i, announced + r * 6 + seat]
   (r < 4), those notes starting again (0, -1) when a new deal begins (facts[i, deals] is
   the game's deal number); then, in the same pass, the game's rows are written as
   observe_batch does. The rows of a game that ended, its rewards and done, and the
   episodes are left for the caller (it starts the slot's next game and observes it).
   Every pick is checked against ``legal`` before any game changes (ValueError naming the
   game). chicago.env.batch's pure-Python step does the same. */
static PyObject *step_batch(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!installed) {
        PyErr_SetString(PyExc_RuntimeError, "the engine accelerator is not installed");
        return NULL;
    }
    if ((nargs != 3 && nargs != 4) || !PyList_Check(args[0])) {
        PyErr_SetString(PyExc_TypeError, "step_batch(games: list, picks, held, checked=False)");
        return NULL;
    }
    PyObject *games = args[0];
    Held *held_arrays = PyCapsule_GetPointer(args[2], HELD);
    if (held_arrays == NULL) return NULL;
    if (nargs == 3) { /* the caller checks and converts anything else, and calls again */
        const ArrayHead *head = (const ArrayHead *)args[1];
        if (NDARRAY == NULL || Py_TYPE(args[1]) != NDARRAY || head->nd != 1
            || head->dimensions[0] != PyList_GET_SIZE(games)
            || head->descr != DTYPES[EL_I64] || !(head->flags & ARRAY_C_CONTIGUOUS))
            Py_RETURN_NOTIMPLEMENTED;
    }
    int collecting = PyGC_Disable(); /* see chicago.env.batch's _collector_paused */
    PyObject *result = step_games(games, args[1], args[2], held_arrays);
    if (collecting) PyGC_Enable();
    return result;
}

/* step_batch once its arguments are checked. */
static PyObject *step_games(PyObject *games, PyObject *picks, PyObject *capsule,
                            Held *held_arrays)
{
    Py_ssize_t played = held_arrays->played, announced = held_arrays->announced;
    Py_ssize_t deals = held_arrays->deals;
    PyObject *make = held_arrays->make;
    PyObject *made[6] = {
        new_array(make, MAKE_OUT_SHAPE, MAKE_FLOAT32),
        new_array(make, MAKE_LEGAL_SHAPE, MAKE_BOOL),
        new_array(make, MAKE_SEATS_SHAPE, MAKE_INT64),
        array_copy(PyTuple_GET_ITEM(make, MAKE_NO_REWARDS)),
        array_copy(PyTuple_GET_ITEM(make, MAKE_NOT_DONE)),
        array_copy(PyTuple_GET_ITEM(make, MAKE_EPISODES)),
    };
    for (int k = 0; k < 6; k++)
        if (made[k] == NULL) goto failed;
    /* the named tuple made as tuple's own __new__ makes an instance of a subclass that adds
       nothing to a tuple (a named tuple's __slots__ are empty), without a tuple of the
       fields made first and copied */
    PyTypeObject *type = (PyTypeObject *)PyTuple_GET_ITEM(make, MAKE_STEP);
    PyObject *step = NULL;
    if (type->tp_basicsize == PyTuple_Type.tp_basicsize
        && type->tp_itemsize == PyTuple_Type.tp_itemsize) {
        step = type->tp_alloc(type, 6);
        if (step == NULL) goto failed;
        for (int k = 0; k < 6; k++) PyTuple_SET_ITEM(step, k, made[k]);
    }
    else {
        PyObject *fields = PyTuple_New(6);
        if (fields == NULL) goto failed;
        for (int k = 0; k < 6; k++) PyTuple_SET_ITEM(fields, k, made[k]);
        PyObject *packed = PyTuple_Pack(1, fields);
        Py_DECREF(fields);
        step = packed == NULL ? NULL : PyTuple_Type.tp_new(type, packed, NULL);
        Py_XDECREF(packed);
        if (step == NULL) return NULL;
    }
    PyObject *finished = finished_steps(games, picks, capsule, played, announced, deals,
                                        made[0], made[1], made[2]);
    if (finished == NULL) {
        Py_DECREF(step);
        return NULL;
    }
    PyObject *result = PyTuple_Pack(2, step, finished);
    Py_XDECREF(step);
    Py_DECREF(finished);
    return result;
failed:
    for (int k = 0; k < 6; k++) Py_XDECREF(made[k]);
    return NULL;
}

/* step_batch's pass over the games, writing into out, legal_out and seats: the list of
   slots whose game ended. */
static PyObject *finished_steps(PyObject *games, PyObject *picks_object, PyObject *held,
                                Py_ssize_t played, Py_ssize_t announced, Py_ssize_t deals,
                                PyObject *out, PyObject *legal_out, PyObject *seats)
{
    Py_ssize_t n = PyList_GET_SIZE(games);
    Array picks;
    if (array_open(picks_object, 0, &picks) < 0) return NULL;
    Sink sink;
    if (sink_open(&sink, n, held, out, legal_out, seats) < 0) {
        array_close(&picks);
        return NULL;
    }
    Py_ssize_t width = sink.facts_width;
    int ok = picks.type == EL_I64 && picks.ndim == 1 && picks.rows == n && played >= 0
        && played + 6 <= width && announced >= 0 && announced + 24 <= width && deals >= 0
        && deals < width;
    PyObject *finished = ok ? PyList_New(0) : NULL;
    if (!ok) PyErr_SetString(PyExc_ValueError, "step_batch: mismatched arrays");
    const int64_t *pick = (const int64_t *)picks.data;
    const unsigned char *legal_rows = sink.legal;
    Py_ssize_t legal_width = sink.legal_width;
    for (Py_ssize_t i = 0; finished != NULL && i < n; i++) /* every pick is legal */
        if (pick[i] < 0 || pick[i] >= legal_width || !legal_rows[i * legal_width + pick[i]]) {
            PyErr_Format(PyExc_ValueError, "action id %lld is not legal in game %zd",
                         (long long)pick[i], i);
            Py_CLEAR(finished);
        }
    for (Py_ssize_t i = 0; finished != NULL && i < n; i++) {
        read_soon(games, i);
        PyObject *game = PyList_GET_ITEM(games, i);
        int64_t *row = sink.facts + i * width;
        PyObject *to_act = PyObject_TypeCheck(game, GAME) ? SLOT(game, O_TO_ACT) : NULL;
        long seat = to_act == NULL || to_act == Py_None ? -1 : PyLong_AsLong(to_act);
        PyObject *action = seat < 0 || seat >= 6 ? NULL
            : action_of_id(game, to_act, seat, (long)pick[i]);
        if (action == NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_ValueError, "game %zd has nobody to act", i);
            Py_CLEAR(finished);
            break;
        }
        PyObject *kind = PyTuple_GET_ITEM(action, 0), *phase = SLOT(game, O_PHASE);
        if (kind == K_PLAY)
            row[played + seat] |= (int64_t)1 << (63 - __builtin_clzll(
                PyLong_AsUnsignedLongLong(PyTuple_GET_ITEM(action, 1))));
        else if (phase == PH_ANNOUNCE) {
            long round = PyLong_AsLong(SLOT(game, O_ROUND));
            PyObject *category = PyTuple_GET_ITEM(action, 2);
            if (round >= 0 && round < 4)
                row[announced + round * 6 + seat] =
                    category == Py_None ? 0 : PyLong_AsLong(category);
        }
        PyObject *done = PyErr_Occurred() ? NULL : apply(game, action);
        Py_DECREF(action);
        if (done == NULL) {
            Py_CLEAR(finished);
            break;
        }
        Py_DECREF(done);
        long deal = PyLong_AsLong(SLOT(game, O_DEAL_NUMBER));
        if (SLOT(game, O_TO_ACT) == Py_None) {
            PyObject *slot = PyLong_FromSsize_t(i);
            if (slot == NULL || PyList_Append(finished, slot) < 0) {
                Py_XDECREF(slot);
                Py_CLEAR(finished);
                break;
            }
            Py_DECREF(slot);
            continue;
        }
        if (deal != row[deals]) {
            row[deals] = deal;
            for (int s = 0; s < 6; s++) row[played + s] = 0;
            for (int k = 0; k < 24; k++) row[announced + k] = -1;
        }
        if (observe_into(&sink, game, i) < 0) {
            Py_CLEAR(finished);
            break;
        }
    }
    array_close(&picks);
    sink_close(&sink);
    return finished;
}

/* pick_legal(legal, uniforms, out): for each row of the bool array ``legal``, the column of
   its k-th true entry, k = floor(uniforms[i] * count of true entries) (a uniform pick), in
   the int64 array ``out``; -1 for a row with none. With ``out`` None (only where it makes
   arrays itself: ARRAYS_MADE), the picks in a new array, returned. chicago.env.batch does it
   with numpy without the accelerator. */
static PyObject *pick_legal(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "pick_legal(legal, uniforms, out)");
        return NULL;
    }
    Array mask, uniforms, out;
    if (array_open(args[0], 0, &mask) < 0) return NULL;
    if (array_open(args[1], 0, &uniforms) < 0) {
        array_close(&mask);
        return NULL;
    }
    PyObject *made = NULL; /* out None: a new int64 array of the picks, returned */
    if (args[2] == Py_None && NEW_ARRAY != NULL && uniforms.ndim == 1) {
        made = made_array(EL_I64, 1, &uniforms.rows);
        if (made == NULL) {
            array_close(&mask);
            array_close(&uniforms);
            return NULL;
        }
    }
    if (array_open(made != NULL ? made : args[2], 1, &out) < 0) {
        Py_XDECREF(made);
        array_close(&mask);
        array_close(&uniforms);
        return NULL;
    }
    Py_ssize_t n = uniforms.rows;
    if (mask.type != EL_BOOL || mask.ndim != 2 || mask.rows != n || uniforms.type != EL_F64
        || uniforms.ndim != 1 || out.type != EL_I64 || out.ndim != 1 || out.rows != n) {
        array_close(&mask);
        array_close(&uniforms);
        array_close(&out);
        Py_XDECREF(made);
        PyErr_SetString(PyExc_ValueError, "pick_legal: a bool legal (n, m), float64 uniforms "
                        "(n,), int64 out (n,)");
        return NULL;
    }
    const double *u = (const double *)uniforms.data;
    const unsigned char *rows = (const unsigned char *)mask.data;
    int64_t *picks = (int64_t *)out.data;
    Py_ssize_t width = mask.columns;
    for (Py_ssize_t i = 0; i < n; i++) {
        const unsigned char *row = rows + i * width;
        Py_ssize_t count = 0;
        for (Py_ssize_t j = 0; j < width; j++) count += row[j] != 0;
        Py_ssize_t k = (Py_ssize_t)(u[i] * (double)count);
        if (k >= count) k = count - 1;
        picks[i] = -1;
        for (Py_ssize_t j = 0; j < width && count; j++)
            if (row[j] && k-- == 0) {
                picks[i] = j;
                break;
            }
    }
    array_close(&mask);
    array_close(&uniforms);
    array_close(&out);
    if (made != NULL) return made;
    Py_RETURN_NONE;
}

static PyObject *setup_batch(PyObject *module, PyObject *config)
{
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "setup_batch needs a dict");
        return NULL;
    }
    if (!installed) {
        PyErr_SetString(PyExc_RuntimeError, "the engine accelerator is not installed");
        return NULL;
    }
    PyObject *numbers = take(config, "ids");
    if (numbers == NULL) return NULL;
    long *targets[] = {&ID_DISCARD, &ID_SIXTH, &ID_ONE_UP, &ID_ANNOUNCE, &ID_RESET_SEAT};
    const char *names[] = {"discard", "sixth", "one_up", "announce", "reset_seat"};
    for (int i = 0; i < 5; i++) {
        PyObject *value = PyDict_GetItemString(numbers, names[i]);
        if (value == NULL || (*targets[i] = PyLong_AsLong(value)) < 0) {
            Py_DECREF(numbers);
            if (!PyErr_Occurred()) PyErr_Format(PyExc_KeyError, "setup_batch: ids[%s]", names[i]);
            return NULL;
        }
    }
    Py_DECREF(numbers);
    Py_XSETREF(PHASES, take(config, "phases"));
    Py_XSETREF(ID_OF_KIND, take(config, "kinds"));
    Py_XSETREF(K_PLAY, take(config, "K_PLAY"));
    Py_XSETREF(K_ONE_UP, take(config, "K_ONE_UP"));
    Py_XSETREF(K_ANNOUNCE, take(config, "K_ANNOUNCE"));
    Py_XSETREF(K_RESET, take(config, "K_RESET"));
    if (PHASES == NULL || ID_OF_KIND == NULL || K_PLAY == NULL || K_ONE_UP == NULL
        || K_ANNOUNCE == NULL || K_RESET == NULL)
        return NULL;
    if (!PyTuple_Check(PHASES) || !PyDict_Check(ID_OF_KIND)) {
        PyErr_SetString(PyExc_TypeError, "setup_batch: phases a tuple, kinds a dict");
        return NULL;
    }
    if (setup_arrays(config) < 0) return NULL;
    return Py_BuildValue("(iOO)", F_COUNT, NDARRAY != NULL ? Py_True : Py_False,
                         NEW_ARRAY != NULL ? Py_True : Py_False);
}

/* ------------------------------------------------------------------ copy_random */

/* The layout of CPython's _random.Random (Modules/_randommodule.c): the Mersenne Twister's
   state after the object header. copy_random copies it only when the type's size is this
   struct's, and otherwise goes through getstate()/setstate(). */
typedef struct {
    PyObject_HEAD
    int index;
    uint32_t state[624];
} TwisterObject;

static PyTypeObject *TWISTER;  /* _random.Random, if its layout is the one above */
static PyObject *S_GETSTATE, *S_SETSTATE, *S_DICT;

/* A generator in the same state as ``rng`` that shares nothing with it (the game's
   generator when a copy of the game first draws from it, Game._random). */
static PyObject *copy_random(PyObject *module, PyObject *rng)
{
    PyTypeObject *type = Py_TYPE(rng);
    if (TWISTER == NULL || !PyType_IsSubtype(type, TWISTER)
        || type->tp_basicsize < (Py_ssize_t)sizeof(TwisterObject)) {
        PyObject *state = PyObject_CallMethodNoArgs(rng, S_GETSTATE);
        if (state == NULL) return NULL;
        PyObject *copy = PyObject_CallMethod((PyObject *)type, "__new__", "O", type);
        if (copy == NULL) {
            Py_DECREF(state);
            return NULL;
        }
        PyObject *done = PyObject_CallMethodOneArg(copy, S_SETSTATE, state);
        Py_DECREF(state);
        if (done == NULL) {
            Py_DECREF(copy);
            return NULL;
        }
        Py_DECREF(done);
        return copy;
    }
    PyObject *copy = type->tp_alloc(type, 0);
    if (copy == NULL) return NULL;
    TwisterObject *to = (TwisterObject *)copy, *from = (TwisterObject *)rng;
    to->index = from->index;
    memcpy(to->state, from->state, sizeof from->state);
    if (type->tp_dictoffset != 0) { /* random.Random keeps gauss_next in its __dict__ */
        PyObject *attributes = PyObject_GetAttr(rng, S_DICT);
        if (attributes == NULL) {
            Py_DECREF(copy);
            return NULL;
        }
        PyObject *own = PyDict_Copy(attributes);
        Py_DECREF(attributes);
        if (own == NULL || PyObject_SetAttr(copy, S_DICT, own) < 0) {
            Py_XDECREF(own);
            Py_DECREF(copy);
            return NULL;
        }
        Py_DECREF(own);
    }
    return copy;
}

/* ------------------------------------------------------------------ install */

static int offset_of(PyObject *cls, const char *name, Py_ssize_t *offset)
{
    PyObject *descriptor = PyObject_GetAttrString(cls, name);
    if (descriptor == NULL) return -1;
    if (Py_TYPE(descriptor) != &PyMemberDescr_Type) {
        Py_DECREF(descriptor);
        PyErr_Format(PyExc_TypeError, "%s.%s is not a slot", ((PyTypeObject *)cls)->tp_name,
                     name);
        return -1;
    }
    PyMemberDef *member = ((PyMemberDescrObject *)descriptor)->d_member;
    if (member->type != T_OBJECT_EX) {
        Py_DECREF(descriptor);
        PyErr_Format(PyExc_TypeError, "%s.%s is not an object slot",
                     ((PyTypeObject *)cls)->tp_name, name);
        return -1;
    }
    *offset = member->offset;
    Py_DECREF(descriptor);
    return 0;
}

static PyObject *take(PyObject *config, const char *name)
{
    PyObject *value = PyDict_GetItemString(config, name);
    if (value == NULL) {
        PyErr_Format(PyExc_KeyError, "install() needs %s", name);
        return NULL;
    }
    Py_INCREF(value);
    return value;
}

static int take_cards(PyObject *config, const char *name, PyObject **out)
{
    PyObject *values = take(config, name);
    if (values == NULL) return -1;
    if (!PyTuple_Check(values) || PyTuple_GET_SIZE(values) != 52) {
        Py_DECREF(values);
        PyErr_Format(PyExc_TypeError, "install(): %s must be a tuple of 52", name);
        return -1;
    }
    for (int i = 0; i < 52; i++) {
        out[i] = PyTuple_GET_ITEM(values, i);
        Py_INCREF(out[i]);
    }
    Py_DECREF(values);
    return 0;
}

#define LEGAL_DOC \
"legal_actions($self, /)\n--\n\n" \
"Every legal action of the seat to act, and nothing else ([] when the game is over).\n\n" \
"They are worked out once per turn; a new list is returned on every call."

#define APPLY_DOC \
"apply($self, action, /)\n--\n\n" \
"Apply the seat-to-act's action (an :class:`Action` or its text).\n\n" \
"An action is legal when it is one of :meth:`legal_actions` (so one taken from that\n" \
"list is not checked again). Raises :class:`IllegalAction` with the reason, leaving\n" \
"the game exactly as before."

static PyMethodDef GAME_METHODS[] = {
    {"legal_actions", legal_actions, METH_NOARGS, LEGAL_DOC},
    {"apply", apply, METH_O, APPLY_DOC},
    {"_start_deal", start_deal, METH_NOARGS,
     "_start_deal($self, /)\n--\n\nDeal the next deal (Game._start_deal_python in C)."},
    {"_resolve_announcements", resolve_announcements, METH_NOARGS,
     "_resolve_announcements($self, /)\n--\n\nEnd a scoring round "
     "(Game._resolve_announcements_python in C)."},
    {"_resolve_trick", resolve_trick, METH_NOARGS,
     "_resolve_trick($self, /)\n--\n\nEnd a trick, and after the last one the deal "
     "(Game._resolve_trick_python in C)."},
    {NULL, NULL, 0, NULL},
};

static PyObject *install(PyObject *module, PyObject *args)
{
    PyObject *game, *config;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &game, &PyDict_Type, &config))
        return NULL;
    if (installed) {
        PyErr_SetString(PyExc_RuntimeError, "the engine accelerator is installed already");
        return NULL;
    }
    struct { const char *name; Py_ssize_t *offset; } slots[] = {
        {"hands", &O_HANDS}, {"played", &O_PLAYED}, {"trick", &O_TRICK},
        {"trick_number", &O_TRICK_NUMBER}, {"_pending", &O_PENDING}, {"_legal", &O_LEGAL},
        {"_pending_count", &O_PENDING_COUNT},
        {"_action_log", &O_ACTIONS}, {"_action_count", &O_ACTION_COUNT},
        {"_action_base", &O_ACTION_BASE}, {"_action_offset", &O_ACTION_OFFSET},
        {"_pending_base", &O_PENDING_BASE}, {"_pending_offset", &O_PENDING_OFFSET},
        {"_actions_given", &O_ACTIONS_GIVEN}, {"phase", &O_PHASE}, {"to_act", &O_TO_ACT},
        {"_turn", &O_TURN}, {"_order", &O_ORDER}, {"_stock", &O_STOCK},
        {"_discards", &O_DISCARDS}, {"_own_discards", &O_OWN_DISCARDS},
        {"_categories", &O_CATEGORIES}, {"exchange_counts", &O_EXCHANGE_COUNTS},
        {"round", &O_ROUND}, {"locked", &O_LOCKED}, {"_protected", &O_PROTECTED},
        {"rules", &O_RULES}, {"_source", &O_SOURCE}, {"_announced", &O_ANNOUNCED},
        {"_highest", &O_HIGHEST}, {"tricks", &O_TRICKS}, {"declarer", &O_DECLARER},
        {"players", &O_PLAYERS}, {"dealer", &O_DEALER}, {"scores", &O_SCORES},
        {"shown", &O_SHOWN}, {"one_up_card", &O_ONE_UP_CARD},
        {"_pending_one_up", &O_PENDING_ONE_UP}, {"deal_number", &O_DEAL_NUMBER},
        {"_deal_start_scores", &O_DEAL_START_SCORES},
        {"_declared_chicago", &O_DECLARED_CHICAGO}, {"_made_chicago", &O_MADE_CHICAGO},
        {"_on_game", &O_ON_GAME}, {"_quads_claims", &O_QUADS_CLAIMS}, {"winners", &O_WINNERS},
        {"_deal_history", &O_DEAL_HISTORY},
    };
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        if (offset_of(game, slots[i].name, slots[i].offset) < 0) return NULL;
    PyObject *action = take(config, "Action"), *source = take(config, "CardSource");
    if (action == NULL || source == NULL) return NULL;
    if (!PyType_Check(action) || !PyType_IsSubtype((PyTypeObject *)action, &PyTuple_Type)
        || !PyType_Check(source)) {
        PyErr_SetString(PyExc_TypeError, "install(): Action must be a tuple type");
        return NULL;
    }
    ACTION = (PyTypeObject *)action;
    CARD_SOURCE = (PyTypeObject *)source;
    if (S_PARSE == NULL && (S_PARSE = PyUnicode_InternFromString("parse")) == NULL)
        return NULL;
    if (!(PH_PLAY = take(config, "PLAY")) || !(PH_EXCHANGE = take(config, "EXCHANGE"))
        || !(PH_ANNOUNCE = take(config, "ANNOUNCE")) || !(PH_CHICAGO = take(config, "CHICAGO"))
        || !(PH_ONE_UP = take(config, "ONE_UP")) || !(K_DISCARD = take(config, "K_DISCARD"))
        || !(K_PASS = take(config, "K_PASS"))
        || !(K_NO_CHICAGO = take(config, "K_NO_CHICAGO"))
        || !(EV_CHICAGO_CALL = take(config, "ChicagoCall"))
        || !(CHICAGO_CHOICE = take(config, "CHICAGO_CHOICE"))
        || !(ONE_UP_CHOICE = take(config, "ONE_UP_CHOICE"))
        || !(EV_PLAY = take(config, "Play")) || !(EV_EXCHANGE = take(config, "Exchange"))
        || !(EV_EXCHANGED = take(config, "Exchanged")) || !(EV_PASS = take(config, "Pass"))
        || !(EV_ANNOUNCE = take(config, "Announce")) || !(EV_TRICK = take(config, "Trick"))
        || !(HANDLERS = take(config, "handlers")) || !(PY_APPLY = take(config, "apply"))
        || !(PY_LEGAL_OF = take(config, "legal_of"))
        || !(PY_ADVANCE = take(config, "advance"))
        || !(CATEGORY_OF = take(config, "category_of"))
        || !(ONLY_PASS = take(config, "ONLY_PASS")))
        return NULL;
    PyObject *poker = PyImport_ImportModule("chicago.poker");
    PyObject *accelerated = poker == NULL ? NULL : PyObject_GetAttrString(poker, "_poker");
    Py_XDECREF(poker);
    if (accelerated == NULL) return NULL;
    if (accelerated != Py_None) {
        POKER_CATEGORY = PyObject_GetAttrString(accelerated, "category");
        S_WHEEL = PyUnicode_InternFromString("wheel_straight");
        S_ROYAL = PyUnicode_InternFromString("royal_separate");
        if (POKER_CATEGORY == NULL || S_WHEEL == NULL || S_ROYAL == NULL) {
            Py_DECREF(accelerated);
            return NULL;
        }
    }
    Py_DECREF(accelerated);
    PyObject *announcements = take(config, "ANNOUNCE_OR_PASS");
    if (announcements == NULL) return NULL;
    if (!PyTuple_Check(announcements) || PyTuple_GET_SIZE(announcements) != 10) {
        Py_DECREF(announcements);
        PyErr_SetString(PyExc_TypeError, "install(): ANNOUNCE_OR_PASS must have 10 entries");
        return NULL;
    }
    for (int i = 0; i < 10; i++) {
        ANNOUNCE_OR_PASS[i] = PyTuple_GET_ITEM(announcements, i);
        Py_INCREF(ANNOUNCE_OR_PASS[i]);
    }
    Py_DECREF(announcements);
    if (!PyDict_Check(HANDLERS) || !PyTuple_CheckExact(CHICAGO_CHOICE)
        || !PyTuple_CheckExact(ONE_UP_CHOICE)) {
        PyErr_SetString(PyExc_TypeError, "install(): handlers must be a dict, choices tuples");
        return NULL;
    }
    if (take_cards(config, "DECK", DECK) < 0 || take_cards(config, "PLAY_ACTIONS", PLAY) < 0
        || take_cards(config, "ONE_UP_ACTIONS", ONE_UP) < 0)
        return NULL;
    PyObject *patterns = take(config, "PATTERNS");
    if (patterns == NULL) return NULL;
    if (!PyTuple_Check(patterns) || PyTuple_GET_SIZE(patterns) != 32) {
        Py_DECREF(patterns);
        PyErr_SetString(PyExc_TypeError, "install(): PATTERNS must be the 32 patterns");
        return NULL;
    }
    for (int i = 0; i < 32; i++) {
        long p = PyLong_AsLong(PyTuple_GET_ITEM(patterns, i));
        if (p < 0 || p > 31) {
            Py_DECREF(patterns);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bad pattern");
            return NULL;
        }
        PATTERNS[i] = (int)p;
        if (i && __builtin_popcount(PATTERNS[i]) < __builtin_popcount(PATTERNS[i - 1])) {
            Py_DECREF(patterns);
            PyErr_SetString(PyExc_ValueError, "patterns must come fewest cards first");
            return NULL;
        }
    }
    Py_DECREF(patterns);
    for (int k = 0; k <= 5; k++) {
        int count = 0;
        for (int i = 0; i < 32; i++) count += __builtin_popcount(PATTERNS[i]) <= k;
        PATTERNS_UP_TO[k] = count;
    }
    for (int pattern = 0; pattern < 32; pattern++) {
        int k = 0;
        for (int i = 0; i < 5; i++)
            if (pattern >> i & 1) {
                if (k < 3) PATTERN_BITS[pattern][1 + k] = (signed char)i;
                k++;
            }
        PATTERN_BITS[pattern][0] = (signed char)k;
    }
    for (long i = 0; i < 8; i++)
        if ((SMALL_INTS[i] = PyLong_FromLong(i)) == NULL) return NULL;
    S_MAX_DISCARD = PyUnicode_InternFromString("max_discard");
    S_ONE_UP = PyUnicode_InternFromString("one_up");
    S_EXCHANGES = PyUnicode_InternFromString("exchanges");
    S_MIN_SCORE = PyUnicode_InternFromString("chicago_min_score");
    S_RESHUFFLE = PyUnicode_InternFromString("_reshuffle");
    S_SHOW_IF_BREAKING = PyUnicode_InternFromString("_show_if_breaking");
    if (S_MAX_DISCARD == NULL || S_ONE_UP == NULL || S_EXCHANGES == NULL || S_MIN_SCORE == NULL
        || S_RESHUFFLE == NULL || S_SHOW_IF_BREAKING == NULL)
        return NULL;
    if (install_start_deal(game, config) < 0 || install_resolve(game, config) < 0
        || install_deal_end(game, config) < 0 || install_one_up(config) < 0)
        return NULL;
    for (PyMethodDef *def = GAME_METHODS; def->ml_name != NULL; def++) {
        PyObject *descriptor = PyDescr_NewMethod((PyTypeObject *)game, def);
        if (descriptor == NULL) return NULL;
        int failed = PyObject_SetAttrString(game, def->ml_name, descriptor);
        if (def->ml_meth == (PyCFunction)resolve_trick) RT_METHOD = Py_NewRef(descriptor);
        if (def->ml_meth == (PyCFunction)resolve_announcements)
            RA_METHOD = Py_NewRef(descriptor);
        Py_DECREF(descriptor);
        if (failed) return NULL;
    }
    Py_INCREF(game);
    GAME = (PyTypeObject *)game;
    installed = 1;
    Py_RETURN_NONE;
}

/*
 * knowledge_of(view, walk, places): chicago.engine.knowledge's Knowledge of a seat's view,
 * made as knowledge._assemble_python makes it (issue 28: the bots' replies). The walk over
 * the seat's events and the card places are folded in Python and carried in the seat's log
 * (chicago.engine.carried); this is the part made anew for every view: an Opponent per
 * other seat (its copies of what the walk holds, the view's public counts, the voids and
 * played cards of the tricks), the dead and unseen cards, the Knowledge itself. The objects
 * are the dataclasses of knowledge.py, their slots written directly (found by name at
 * install_knowledge(), every slot of Opponent and Knowledge written). Anything this does not
 * expect (a view or walk of another type, a card or seat out of range, a missing entry)
 * goes to the Python function, which gives the result or the error.
 * tests/test_accelerated_bot_path.py compares the two on random games.
 */

static PyTypeObject *KV_VIEW, *KV_PLAYED_CARD, *KV_WALK, *KV_KNOWLEDGE, *KV_OPPONENT;
static PyTypeObject *KV_TAKEN, *KV_FACE_UP;
static PyObject *KV_DECK[52];
static PyObject *KV_PYTHON;          /* knowledge._assemble_python */
static PyObject *KV_S_EXCHANGES;
static int knowledge_installed = 0;

static Py_ssize_t V_SEAT, V_PLAYERS, V_RULES, V_PHASE, V_ROUND, V_DEALER, V_SCORES, V_LOCKED,
    V_EXCHANGES, V_HAND, V_DISCARDED, V_STOCK, V_DISCARD_PILE, V_CHICAGO, V_TRICK, V_TRICKS,
    V_TRICK_NUMBER, V_ONE_UP, V_DECLARED, V_MADE, V_PLAYED, V_HAND_SIZES;
static Py_ssize_t PC_SEAT, PC_CARD, TT_WINNER, TT_CARDS, FU_SEAT, FU_CARD;
static Py_ssize_t W_OPPONENTS, W_CLAIMS, W_KEPT, W_ACCEPTED, W_RESHUFFLED, W_REJECTED,
    W_OWN_DISCARDS;

/* Opponent's fields, in the order they are written. */
enum { OP_SEAT, OP_LOCKED, OP_SCORE, OP_EXCHANGES, OP_ANNOUNCEMENTS, OP_STAGES, OP_CLAIM,
       OP_KEPT, OP_KNOWN, OP_SHOWN, OP_SHOWN_ROUND, OP_KEPT_FROM_SHOWN, OP_VOIDS, OP_PLAYED,
       OP_HOLDING, OP_DRAWN_TOTAL, OP_DRAWN_LAST, OP_FIELDS };
static const char *OP_NAMES[OP_FIELDS] = {
    "seat", "locked", "score", "exchanges", "announcements", "stages", "claim", "kept",
    "known", "shown", "shown_round", "kept_from_shown", "voids", "played", "holding",
    "drawn_total", "drawn_last"};
static Py_ssize_t OP_OFFSET[OP_FIELDS];

/* Knowledge's fields, in the order they are written. */
enum { KN_SEAT, KN_PLAYERS, KN_RULES, KN_PHASE, KN_ROUND, KN_DEALER, KN_SCORES, KN_LOCKED,
       KN_HAND, KN_DISCARDED, KN_DEAD, KN_UNSEEN, KN_OPPONENTS, KN_STOCK, KN_DISCARD_PILE,
       KN_DECLARER, KN_TRICK, KN_TRICKS, KN_TRICK_NUMBER, KN_EXCHANGES_TOTAL, KN_RESHUFFLED,
       KN_ONE_UP, KN_CHICAGO_DECLARED, KN_CHICAGO_MADE, KN_PLACES, KN_FIELDS };
static const char *KN_NAMES[KN_FIELDS] = {
    "seat", "players", "rules", "phase", "round", "dealer", "scores", "locked", "hand",
    "discarded", "dead", "unseen", "opponents", "stock", "discard_pile", "declarer", "trick",
    "tricks", "trick_number", "exchanges_total", "reshuffled", "one_up", "chicago_declared",
    "chicago_made", "places"};
static Py_ssize_t KN_OFFSET[KN_FIELDS];

/* A small int in 0..limit-1 (a card, a seat), or -1 for anything else (no error set). */
static int id_below(PyObject *value, long limit)
{
    if (!PyLong_Check(value)) return -1;
    long v = PyLong_AsLong(value);
    if (v == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    return v < 0 || v >= limit ? -1 : (int)v;
}

/* A non-negative int below 2**64 into *out: 0, or -1 for anything else (no error set). */
static int mask_value(PyObject *value, uint64_t *out)
{
    if (!PyLong_Check(value)) return -1;
    unsigned long long v = PyLong_AsUnsignedLongLong(value);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

/* The view's sequence field as a list or tuple (a new reference), or NULL (no error set). */
static PyObject *fast_sequence(PyObject *value)
{
    PyObject *seq = PySequence_Fast(value, "a sequence");
    if (seq == NULL) PyErr_Clear();
    return seq;
}

/* seq[index] (a new reference) or NULL (no error set) when it is out of range. */
static PyObject *item_at(PyObject *seq, int index)
{
    PyObject *item = PySequence_GetItem(seq, index);
    if (item == NULL) PyErr_Clear();
    return item;
}

/* The plays of a trick as a list of (seat, card) tuples, their cards added to *played and the
   suits not followed to voids[] of the seats in `opponents` (a bit per seat). Returns NULL
   with no error set for a play this does not expect. */
static PyObject *trick_plays(PyObject *plays, uint64_t *played, uint64_t opponents,
                             uint64_t *voids)
{
    PyObject *seq = fast_sequence(plays);
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    PyObject **items = PySequence_Fast_ITEMS(seq);
    PyObject *list = PyList_New(n);
    if (list == NULL) goto fail;
    int led = -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *play = items[i];
        if (Py_TYPE(play) != KV_PLAYED_CARD) goto unexpected;
        PyObject *who = SLOT(play, PC_SEAT), *card = SLOT(play, PC_CARD);
        if (who == NULL || card == NULL) goto unexpected;
        int c = id_below(card, 52), s = id_below(who, 64);
        if (c < 0 || s < 0) goto unexpected;
        if (led < 0) led = c & 3;
        *played |= (uint64_t)1 << c;
        if ((opponents >> s & 1) && (c & 3) != led) voids[s] |= (uint64_t)1 << led;
        PyObject *pair = PyTuple_Pack(2, who, card);
        if (pair == NULL) goto fail;
        PyList_SET_ITEM(list, i, pair);
    }
    Py_DECREF(seq);
    return list;
unexpected:
    PyErr_Clear();
fail:
    Py_XDECREF(list);
    Py_DECREF(seq);
    return NULL;
}

/* An Opponent with every slot written from values[] (stolen, none NULL), or NULL. */
static PyObject *new_filled(PyTypeObject *type, const Py_ssize_t *offsets, PyObject **values,
                            int count)
{
    PyObject *object = type->tp_alloc(type, 0);
    if (object == NULL) {
        for (int i = 0; i < count; i++) Py_DECREF(values[i]);
        return NULL;
    }
    for (int i = 0; i < count; i++) SLOT(object, offsets[i]) = values[i];
    return object;
}

/* The knowledge, or NULL: with an error set for a failure, without one for the Python path. */
static PyObject *knowledge_core(PyObject *view, PyObject *walk, PyObject *places)
{
    PyObject *hand = NULL, *trick = NULL, *tricks = NULL, *tricks_seq = NULL;
    PyObject *opponents = NULL, *exchanges_seq = NULL, *unseen = NULL;
    PyObject *values[KN_FIELDS] = {NULL};
    PyObject *field[V_HAND_SIZES + 1];
    static const Py_ssize_t *wanted[] = {
        &V_SEAT, &V_PLAYERS, &V_RULES, &V_PHASE, &V_ROUND, &V_DEALER, &V_SCORES, &V_LOCKED,
        &V_EXCHANGES, &V_HAND, &V_DISCARDED, &V_STOCK, &V_DISCARD_PILE, &V_CHICAGO, &V_TRICK,
        &V_TRICKS, &V_TRICK_NUMBER, &V_ONE_UP, &V_DECLARED, &V_MADE, &V_PLAYED,
        &V_HAND_SIZES};
    enum { F_SEAT, F_PLAYERS, F_RULES, F_PHASE, F_ROUND, F_DEALER, F_SCORES, F_LOCKED,
           F_EXCHANGES, F_HAND, F_DISCARDED, F_STOCK, F_DISCARD_PILE, F_CHICAGO, F_TRICK,
           F_TRICKS, F_TRICK_NUMBER, F_ONE_UP, F_DECLARED, F_MADE, F_PLAYED, F_HAND_SIZES,
           F_COUNT };
    for (int i = 0; i < F_COUNT; i++)
        if ((field[i] = SLOT(view, *wanted[i])) == NULL) return NULL;
    PyObject *w_opponents = SLOT(walk, W_OPPONENTS), *claims = SLOT(walk, W_CLAIMS);
    PyObject *kept = SLOT(walk, W_KEPT), *accepted = SLOT(walk, W_ACCEPTED);
    PyObject *reshuffled = SLOT(walk, W_RESHUFFLED);
    uint64_t rejected, own_discards;
    if (w_opponents == NULL || !PyDict_CheckExact(w_opponents) || claims == NULL
        || !PyDict_CheckExact(claims) || kept == NULL || !PyDict_CheckExact(kept)
        || accepted == NULL || !PyDict_CheckExact(accepted) || reshuffled == NULL || SLOT(walk, W_REJECTED) == NULL
        || mask_value(SLOT(walk, W_REJECTED), &rejected) < 0
        || SLOT(walk, W_OWN_DISCARDS) == NULL
        || mask_value(SLOT(walk, W_OWN_DISCARDS), &own_discards) < 0)
        return NULL;
    if (id_below(field[F_SEAT], 64) < 0) return NULL;

    /* the other seats, by the walk's opponents */
    uint64_t others = 0;
    Py_ssize_t pos = 0;
    PyObject *key, *value;
    while (PyDict_Next(w_opponents, &pos, &key, &value)) {
        int s = id_below(key, 64);
        if (s < 0 || Py_TYPE(value) != KV_OPPONENT) return NULL;
        others |= (uint64_t)1 << s;
    }

    /* the tricks: their plays, the cards played, the suits not followed */
    uint64_t played = 0, voids[64] = {0};
    if ((tricks_seq = fast_sequence(field[F_TRICKS])) == NULL) goto python;
    Py_ssize_t taken = PySequence_Fast_GET_SIZE(tricks_seq);
    if ((tricks = PyList_New(taken)) == NULL) goto fail;
    for (Py_ssize_t i = 0; i < taken; i++) {
        PyObject *one = PySequence_Fast_GET_ITEM(tricks_seq, i);
        if (Py_TYPE(one) != KV_TAKEN || SLOT(one, TT_WINNER) == NULL
            || SLOT(one, TT_CARDS) == NULL)
            goto python;
        PyObject *plays = trick_plays(SLOT(one, TT_CARDS), &played, others, voids);
        if (plays == NULL) goto check;
        PyObject *pair = PyTuple_Pack(2, SLOT(one, TT_WINNER), plays);
        Py_DECREF(plays);
        if (pair == NULL) goto fail;
        PyList_SET_ITEM(tricks, i, pair);
    }
    if ((trick = trick_plays(field[F_TRICK], &played, others, voids)) == NULL) goto check;

    /* the seat's hand, the dead cards and the unseen ones */
    if ((hand = fast_sequence(field[F_HAND])) == NULL) goto python;
    uint64_t hand_mask = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(hand); i++) {
        int c = id_below(PySequence_Fast_GET_ITEM(hand, i), 52);
        if (c < 0) goto python;
        hand_mask |= (uint64_t)1 << c;
    }
    uint64_t dead = played | own_discards | rejected;
    uint64_t unknown = ~(hand_mask | dead) & (((uint64_t)1 << 52) - 1);
    if ((unseen = PyTuple_New(__builtin_popcountll(unknown))) == NULL) goto fail;
    for (Py_ssize_t k = 0; unknown; k++) {
        int c = __builtin_ctzll(unknown);
        unknown &= unknown - 1;
        PyTuple_SET_ITEM(unseen, k, Py_NewRef(KV_DECK[c]));
    }

    /* an Opponent per other seat */
    if ((exchanges_seq = fast_sequence(field[F_EXCHANGES])) == NULL) goto python;
    if ((opponents = PyDict_New()) == NULL) goto fail;
    pos = 0;
    while (PyDict_Next(w_opponents, &pos, &key, &value)) {
        int s = id_below(key, 64);
        PyObject *own[OP_FIELDS] = {NULL};
        PyObject *kept_list, *known_object;
        uint64_t known;
        if (SLOT(value, OP_OFFSET[OP_ANNOUNCEMENTS]) == NULL
            || !PyDict_CheckExact(SLOT(value, OP_OFFSET[OP_ANNOUNCEMENTS]))
            || SLOT(value, OP_OFFSET[OP_STAGES]) == NULL
            || !PyDict_CheckExact(SLOT(value, OP_OFFSET[OP_STAGES])))
            goto python;
        own[OP_SEAT] = Py_NewRef(key);
        if ((own[OP_LOCKED] = item_at(field[F_LOCKED], s)) == NULL
            || (own[OP_SCORE] = item_at(field[F_SCORES], s)) == NULL
            || (own[OP_PLAYED] = item_at(field[F_PLAYED], s)) == NULL
            || (own[OP_HOLDING] = item_at(field[F_HAND_SIZES], s)) == NULL)
            goto python_own;
        Py_ssize_t rounds = PySequence_Fast_GET_SIZE(exchanges_seq);
        if ((own[OP_EXCHANGES] = PyList_New(rounds)) == NULL) goto fail_own;
        for (Py_ssize_t r = 0; r < rounds; r++) {
            PyObject *count = item_at(PySequence_Fast_GET_ITEM(exchanges_seq, r), s);
            if (count == NULL) goto python_own;
            PyList_SET_ITEM(own[OP_EXCHANGES], r, count);
        }
        if ((own[OP_ANNOUNCEMENTS] = PyDict_Copy(SLOT(value, OP_OFFSET[OP_ANNOUNCEMENTS])))
                == NULL
            || (own[OP_STAGES] = PyDict_Copy(SLOT(value, OP_OFFSET[OP_STAGES]))) == NULL)
            goto fail_own;
        if ((own[OP_CLAIM] = PyDict_GetItemWithError(claims, key)) == NULL) goto check_own;
        Py_INCREF(own[OP_CLAIM]);
        if ((kept_list = PyDict_GetItemWithError(kept, key)) == NULL) goto check_own;
        if ((own[OP_KEPT] = PySequence_Tuple(kept_list)) == NULL) goto python_own;
        if ((known_object = PyDict_GetItemWithError(accepted, key)) == NULL) goto check_own;
        if (mask_value(known_object, &known) < 0) goto python_own;
        if ((own[OP_KNOWN] = PyLong_FromUnsignedLongLong(known & ~played)) == NULL
            || (own[OP_VOIDS] = PyLong_FromUnsignedLongLong(voids[s])) == NULL)
            goto fail_own;
        static const int copied[] = {OP_SHOWN, OP_SHOWN_ROUND, OP_KEPT_FROM_SHOWN,
                                     OP_DRAWN_TOTAL, OP_DRAWN_LAST};
        for (size_t i = 0; i < sizeof copied / sizeof copied[0]; i++) {
            PyObject *held = SLOT(value, OP_OFFSET[copied[i]]);
            if (held == NULL) goto python_own;
            own[copied[i]] = Py_NewRef(held);
        }
        PyObject *opponent = new_filled(KV_OPPONENT, OP_OFFSET, own, OP_FIELDS);
        if (opponent == NULL) goto fail;
        int failed = PyDict_SetItem(opponents, key, opponent);
        Py_DECREF(opponent);
        if (failed) goto fail;
        continue;
    check_own:
        for (int i = 0; i < OP_FIELDS; i++) Py_XDECREF(own[i]);
        goto check;
    python_own:
        for (int i = 0; i < OP_FIELDS; i++) Py_XDECREF(own[i]);
        goto python;
    fail_own:
        for (int i = 0; i < OP_FIELDS; i++) Py_XDECREF(own[i]);
        goto fail;
    }

    /* the Knowledge */
    PyObject *one_up = field[F_ONE_UP];
    if (one_up == Py_None)
        values[KN_ONE_UP] = Py_NewRef(Py_None);
    else if (Py_TYPE(one_up) == KV_FACE_UP && SLOT(one_up, FU_SEAT) != NULL
             && SLOT(one_up, FU_CARD) != NULL) {
        if ((values[KN_ONE_UP] = PyTuple_Pack(2, SLOT(one_up, FU_SEAT), SLOT(one_up, FU_CARD)))
            == NULL)
            goto fail;
    } else
        goto python;
    if ((values[KN_EXCHANGES_TOTAL] = PyObject_GetAttr(field[F_RULES], KV_S_EXCHANGES)) == NULL)
        goto fail;
    if ((values[KN_SCORES] = PySequence_List(field[F_SCORES])) == NULL
        || (values[KN_LOCKED] = PySequence_List(field[F_LOCKED])) == NULL
        || (values[KN_CHICAGO_DECLARED] = PySequence_List(field[F_DECLARED])) == NULL
        || (values[KN_CHICAGO_MADE] = PySequence_List(field[F_MADE])) == NULL
        || (values[KN_DEAD] = PyLong_FromUnsignedLongLong(dead)) == NULL)
        goto fail;
    values[KN_SEAT] = Py_NewRef(field[F_SEAT]);
    values[KN_PLAYERS] = Py_NewRef(field[F_PLAYERS]);
    values[KN_RULES] = Py_NewRef(field[F_RULES]);
    values[KN_PHASE] = Py_NewRef(field[F_PHASE]);
    values[KN_ROUND] = Py_NewRef(field[F_ROUND]);
    values[KN_DEALER] = Py_NewRef(field[F_DEALER]);
    values[KN_HAND] = Py_NewRef(field[F_HAND]);
    values[KN_DISCARDED] = Py_NewRef(field[F_DISCARDED]);
    values[KN_STOCK] = Py_NewRef(field[F_STOCK]);
    values[KN_DISCARD_PILE] = Py_NewRef(field[F_DISCARD_PILE]);
    values[KN_DECLARER] = Py_NewRef(field[F_CHICAGO]);
    values[KN_TRICK_NUMBER] = Py_NewRef(field[F_TRICK_NUMBER]);
    values[KN_RESHUFFLED] = Py_NewRef(reshuffled);
    values[KN_PLACES] = Py_NewRef(places);
    values[KN_UNSEEN] = unseen;
    values[KN_OPPONENTS] = opponents;
    values[KN_TRICK] = trick;
    values[KN_TRICKS] = tricks;
    unseen = opponents = trick = tricks = NULL;
    Py_DECREF(tricks_seq);
    Py_DECREF(hand);
    Py_DECREF(exchanges_seq);
    return new_filled(KV_KNOWLEDGE, KN_OFFSET, values, KN_FIELDS);

check:
    if (PyErr_Occurred()) goto fail;
python:
    PyErr_Clear();
fail:
    for (int i = 0; i < KN_FIELDS; i++) Py_XDECREF(values[i]);
    Py_XDECREF(hand);
    Py_XDECREF(trick);
    Py_XDECREF(tricks);
    Py_XDECREF(tricks_seq);
    Py_XDECREF(opponents);
    Py_XDECREF(exchanges_seq);
    Py_XDECREF(unseen);
    return NULL;
}

static PyObject *knowledge_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "knowledge_of() takes a view, a walk and places");
        return NULL;
    }
    if (!knowledge_installed) {
        PyErr_SetString(PyExc_RuntimeError, "install_knowledge() has not run");
        return NULL;
    }
    if (Py_TYPE(args[0]) == KV_VIEW && Py_TYPE(args[1]) == KV_WALK) {
        PyObject *made = knowledge_core(args[0], args[1], args[2]);
        if (made != NULL || PyErr_Occurred()) return made;
    }
    return PyObject_Vectorcall(KV_PYTHON, args, 3, NULL);
}

/* The type config[name] (a new reference), checked to have exactly `fields` slots when
   `fields` is positive (so that every slot of a type this makes is written). */
static PyTypeObject *take_type(PyObject *config, const char *name, Py_ssize_t fields)
{
    PyObject *type = take(config, name);
    if (type == NULL) return NULL;
    if (!PyType_Check(type)) {
        Py_DECREF(type);
        PyErr_Format(PyExc_TypeError, "install_knowledge(): %s must be a class", name);
        return NULL;
    }
    if (fields > 0) {
        PyObject *slots = PyObject_GetAttrString(type, "__slots__");
        Py_ssize_t count = slots == NULL ? -1 : PyObject_Length(slots);
        Py_XDECREF(slots);
        if (count != fields) {
            Py_DECREF(type);
            PyErr_Clear();
            PyErr_Format(PyExc_TypeError, "install_knowledge(): %s must have %zd slots", name,
                         fields);
            return NULL;
        }
    }
    return (PyTypeObject *)type;
}

static PyObject *install_knowledge(PyObject *module, PyObject *config)
{
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "install_knowledge() takes a dict");
        return NULL;
    }
    if (knowledge_installed) Py_RETURN_NONE;  /* the types are a module's: the same again */
    if (!(KV_VIEW = take_type(config, "SeatView", 0))
        || !(KV_PLAYED_CARD = take_type(config, "PlayedCard", 0))
        || !(KV_TAKEN = take_type(config, "TakenTrick", 0))
        || !(KV_FACE_UP = take_type(config, "FaceUpCard", 0))
        || !(KV_WALK = take_type(config, "Walk", 0))
        || !(KV_OPPONENT = take_type(config, "Opponent", OP_FIELDS))
        || !(KV_KNOWLEDGE = take_type(config, "Knowledge", KN_FIELDS))
        || !(KV_PYTHON = take(config, "python")))
        return NULL;
    PyObject *view = (PyObject *)KV_VIEW, *walk = (PyObject *)KV_WALK;
    struct { PyObject *cls; const char *name; Py_ssize_t *offset; } slots[] = {
        {view, "seat", &V_SEAT}, {view, "players", &V_PLAYERS}, {view, "rules", &V_RULES},
        {view, "phase", &V_PHASE}, {view, "round", &V_ROUND}, {view, "dealer", &V_DEALER},
        {view, "scores", &V_SCORES}, {view, "locked", &V_LOCKED},
        {view, "exchanges", &V_EXCHANGES}, {view, "hand", &V_HAND},
        {view, "discarded", &V_DISCARDED}, {view, "stock", &V_STOCK},
        {view, "discard_pile", &V_DISCARD_PILE}, {view, "chicago", &V_CHICAGO},
        {view, "trick", &V_TRICK}, {view, "tricks", &V_TRICKS},
        {view, "trick_number", &V_TRICK_NUMBER}, {view, "one_up", &V_ONE_UP},
        {view, "chicago_declared", &V_DECLARED}, {view, "chicago_made", &V_MADE},
        {view, "played", &V_PLAYED}, {view, "hand_sizes", &V_HAND_SIZES},
        {(PyObject *)KV_PLAYED_CARD, "seat", &PC_SEAT},
        {(PyObject *)KV_PLAYED_CARD, "card", &PC_CARD},
        {(PyObject *)KV_TAKEN, "winner", &TT_WINNER}, {(PyObject *)KV_TAKEN, "cards", &TT_CARDS},
        {(PyObject *)KV_FACE_UP, "seat", &FU_SEAT}, {(PyObject *)KV_FACE_UP, "card", &FU_CARD},
        {walk, "opponents", &W_OPPONENTS}, {walk, "claims", &W_CLAIMS}, {walk, "kept", &W_KEPT},
        {walk, "accepted", &W_ACCEPTED}, {walk, "reshuffled", &W_RESHUFFLED},
        {walk, "rejected", &W_REJECTED}, {walk, "own_discards", &W_OWN_DISCARDS},
    };
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        if (offset_of(slots[i].cls, slots[i].name, slots[i].offset) < 0) return NULL;
    for (int i = 0; i < OP_FIELDS; i++)
        if (offset_of((PyObject *)KV_OPPONENT, OP_NAMES[i], &OP_OFFSET[i]) < 0) return NULL;
    for (int i = 0; i < KN_FIELDS; i++)
        if (offset_of((PyObject *)KV_KNOWLEDGE, KN_NAMES[i], &KN_OFFSET[i]) < 0) return NULL;
    if (take_cards(config, "DECK", KV_DECK) < 0) return NULL;
    if ((KV_S_EXCHANGES = PyUnicode_InternFromString("exchanges")) == NULL) return NULL;
    knowledge_installed = 1;
    Py_RETURN_NONE;
}

/*
 * new_view(**fields) and view_with_own(public, seat, hand, ...): chicago.engine.views' two
 * makers of a SeatView (a view is made for every state of a server's table, and one for
 * each bot to act), their slots written directly as views._slot_writers' Python makers
 * write them. install_view() takes the SeatView class, the names of every field (its
 * slots, in order) and those of the seat's own fields, in view_with_own's order.
 * tests/test_accelerated_bot_path.py compares the views made both ways.
 */

#define VIEW_FIELDS_MAX 64
static PyTypeObject *VW_TYPE;
static PyObject *VW_NAMES[VIEW_FIELDS_MAX];     /* interned field names */
static Py_ssize_t VW_OFFSET[VIEW_FIELDS_MAX];
static int VW_COUNT = 0, VW_OWN_COUNT = 0;
static int VW_OWN[VIEW_FIELDS_MAX];             /* the own fields' indices, in order */
static int view_installed = 0;

static PyObject *new_view(PyObject *module, PyObject *const *args, Py_ssize_t nargs,
                          PyObject *kwnames)
{
    Py_ssize_t given = kwnames == NULL ? 0 : PyTuple_GET_SIZE(kwnames);
    if (!view_installed || nargs != 0 || given != VW_COUNT) {
        PyErr_Format(PyExc_TypeError, "new_view() takes the %d fields of a view by keyword",
                     VW_COUNT);
        return NULL;
    }
    PyObject *values[VIEW_FIELDS_MAX] = {NULL};
    for (Py_ssize_t k = 0; k < given; k++) {
        PyObject *name = PyTuple_GET_ITEM(kwnames, k);
        int found = -1;
        /* a call site's names are interned and come in the fields' order: k first */
        if (k < VW_COUNT && VW_NAMES[k] == name) found = (int)k;
        for (int i = 0; found < 0 && i < VW_COUNT; i++)
            if (VW_NAMES[i] == name || PyUnicode_Compare(VW_NAMES[i], name) == 0) found = i;
        if (found < 0 || values[found] != NULL) {
            if (!PyErr_Occurred())
                PyErr_Format(PyExc_TypeError, "new_view(): unexpected or repeated field %R",
                             name);
            return NULL;
        }
        values[found] = args[k];
    }
    PyObject *view = VW_TYPE->tp_alloc(VW_TYPE, 0);
    if (view == NULL) return NULL;
    for (int i = 0; i < VW_COUNT; i++) SLOT(view, VW_OFFSET[i]) = Py_NewRef(values[i]);
    return view;
}

static PyObject *view_with_own(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (!view_installed || nargs != 1 + VW_OWN_COUNT || Py_TYPE(args[0]) != VW_TYPE) {
        PyErr_Format(PyExc_TypeError, "view_with_own() takes a view and its %d own fields",
                     VW_OWN_COUNT);
        return NULL;
    }
    PyObject *public = args[0];
    for (int i = 0; i < VW_COUNT; i++)
        if (SLOT(public, VW_OFFSET[i]) == NULL) {
            PyErr_SetString(PyExc_AttributeError, "view_with_own(): a field of the view is unset");
            return NULL;
        }
    PyObject *view = VW_TYPE->tp_alloc(VW_TYPE, 0);
    if (view == NULL) return NULL;
    for (int i = 0; i < VW_COUNT; i++)
        SLOT(view, VW_OFFSET[i]) = Py_NewRef(SLOT(public, VW_OFFSET[i]));
    for (int j = 0; j < VW_OWN_COUNT; j++) {
        PyObject **slot = &SLOT(view, VW_OFFSET[VW_OWN[j]]);
        Py_SETREF(*slot, Py_NewRef(args[1 + j]));
    }
    return view;
}

/*
 * public_view_of(game, announcements, reveals, round_results, scoring_round): the public
 * view of a Game (chicago.engine.views.public_view) read from the game's slots and written
 * to the view's, as views._public_python makes it from the game's public API (which, for a Game
 * itself, reads the same slots); the scoring rounds are folded in Python and given. For a
 * subclass of Game (whose properties may differ), an unset slot or anything of another
 * shape than a game makes (a trick's play that is no (seat, card) pair of ints in range,
 * a list that is not a list ...) it returns NotImplemented and the Python code makes the
 * view (or raises its error). install_public() takes what the view is made of.
 * tests/test_accelerated_bot_path.py compares the views made both ways.
 */

enum {
    PV_PLAYERS, PV_DEAL, PV_DEALER, PV_PHASE, PV_ROUND, PV_TO_ACT, PV_SCORES, PV_LOCKED,
    PV_STOCK, PV_DISCARD_PILE, PV_EXCHANGES, PV_ANNOUNCEMENTS, PV_REVEALS, PV_ROUND_RESULTS,
    PV_SHOWN, PV_ONE_UP, PV_CHICAGO, PV_TRICK_NUMBER, PV_TRICK, PV_TRICKS, PV_PLAYED, PV_OVER,
    PV_WINNERS, PV_CHICAGO_DECLARED, PV_CHICAGO_MADE, PV_SETTLEMENT, PV_HAND_SIZES,
    PV_SCORING_ROUND, PV_CHICAGO_POINTS, PV_LOCK_AT, PV_EXCHANGE_ROUNDS, PV_SEAT, PV_HAND,
    PV_HAND_CATEGORY, PV_DISCARDED, PV_LEGAL_ACTIONS, PV_KNOWN_OUT, PV_RULES, PV_EVENTS,
    PV_HISTORY, PV_COUNT
};
static const char *const PV_NAMES[PV_COUNT] = {
    "players", "deal", "dealer", "phase", "round", "to_act", "scores", "locked",
    "stock", "discard_pile", "exchanges", "announcements", "reveals", "round_results",
    "shown", "one_up", "chicago", "trick_number", "trick", "tricks", "played", "over",
    "winners", "chicago_declared", "chicago_made", "settlement", "hand_sizes",
    "scoring_round", "chicago_points", "lock_at", "exchange_rounds", "seat", "hand",
    "hand_category", "discarded", "legal_actions", "known_out", "rules", "events",
    "history",
};
static int PV_INDEX[PV_COUNT];        /* each value's index among the view's fields */
static PyObject *PV_PLAYED_CARDS;     /* views._PLAYED: [seat][card] -> PlayedCard */
static PyObject *PV_TAKEN_MEMO;       /* views._TAKEN: (winner, plays) -> TakenTrick */
static PyObject *PV_TAKEN;            /* views._taken, for a trick not in the memo */
static PyObject *PV_FACE_UP;          /* viewtypes.FaceUpCard */
static PyObject *PV_OVER_PHASE;       /* Phase.OVER */
static PyObject *PV_S_SETTLEMENT, *PV_S_CHICAGO_POINTS, *PV_S_LOCK_AT, *PV_S_EXCHANGES;
static PyObject *PV_ONE;
static int public_installed = 0;

/* tuple(map(tuple, rows)) of a list ``rows`` (NotImplemented for another type) */
static PyObject *rows_tuple(PyObject *rows)
{
    if (!PyList_CheckExact(rows)) return Py_NewRef(Py_NotImplemented);
    Py_ssize_t n = PyList_GET_SIZE(rows);
    PyObject *made = PyTuple_New(n);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n && i < PyList_GET_SIZE(rows); i++) {
        PyObject *row = PySequence_Tuple(PyList_GET_ITEM(rows, i));
        if (row == NULL) {
            Py_DECREF(made);
            return NULL;
        }
        PyTuple_SET_ITEM(made, i, row);
    }
    return made;
}

/* the PlayedCard of a (seat, card) pair, borrowed; NULL when it is no such pair in range */
static PyObject *played_card(PyObject *play)
{
    if (!PyTuple_CheckExact(play) || PyTuple_GET_SIZE(play) != 2) return NULL;
    PyObject *seat = PyTuple_GET_ITEM(play, 0), *card = PyTuple_GET_ITEM(play, 1);
    if (!PyLong_Check(seat) || !PyLong_Check(card)) return NULL;
    long s = PyLong_AsLong(seat), c = PyLong_AsLong(card);
    if (PyErr_Occurred()) {
        PyErr_Clear();
        return NULL;
    }
    if (s < 0 || s >= PyTuple_GET_SIZE(PV_PLAYED_CARDS)) return NULL;
    PyObject *row = PyTuple_GET_ITEM(PV_PLAYED_CARDS, s);
    if (c < 0 || c >= PyTuple_GET_SIZE(row)) return NULL;
    return PyTuple_GET_ITEM(row, c);
}

/* the view's trick: tuple(_PLAYED[s][c] for s, c in trick) */
static PyObject *trick_tuple(PyObject *trick)
{
    if (!PyList_CheckExact(trick)) return Py_NewRef(Py_NotImplemented);
    Py_ssize_t n = PyList_GET_SIZE(trick);
    PyObject *made = PyTuple_New(n);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *card = played_card(PyList_GET_ITEM(trick, i));
        if (card == NULL) {
            Py_DECREF(made);
            return Py_NewRef(Py_NotImplemented);
        }
        PyTuple_SET_ITEM(made, i, Py_NewRef(card));
    }
    return made;
}

/* the view's taken tricks: tuple(map(_taken, tricks)), the memo read here */
static PyObject *tricks_tuple(PyObject *tricks)
{
    if (!PyList_CheckExact(tricks)) return Py_NewRef(Py_NotImplemented);
    Py_ssize_t n = PyList_GET_SIZE(tricks);
    PyObject *made = PyTuple_New(n);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n && i < PyList_GET_SIZE(tricks); i++) {
        PyObject *trick = PyList_GET_ITEM(tricks, i), *taken;
        if (!PyTuple_CheckExact(trick)) {  /* a list is unhashable: Python's error */
            Py_DECREF(made);
            return Py_NewRef(Py_NotImplemented);
        }
        Py_INCREF(trick);
        taken = PyDict_GetItemWithError(PV_TAKEN_MEMO, trick);
        if (taken != NULL)
            Py_INCREF(taken);
        else if (!PyErr_Occurred())
            taken = PyObject_CallOneArg(PV_TAKEN, trick);
        Py_DECREF(trick);
        if (taken == NULL) {
            Py_DECREF(made);
            return NULL;
        }
        PyTuple_SET_ITEM(made, i, taken);
    }
    return made;
}

/* tuple(map(len, hands)) of a list of hands */
static PyObject *sizes_tuple(PyObject *hands)
{
    if (!PyList_CheckExact(hands)) return Py_NewRef(Py_NotImplemented);
    Py_ssize_t n = PyList_GET_SIZE(hands);
    PyObject *made = PyTuple_New(n);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n && i < PyList_GET_SIZE(hands); i++) {
        Py_ssize_t size = PyObject_Length(PyList_GET_ITEM(hands, i));
        PyObject *value = size < 0 ? NULL : PyLong_FromSsize_t(size);
        if (value == NULL) {
            Py_DECREF(made);
            return NULL;
        }
        PyTuple_SET_ITEM(made, i, value);
    }
    return made;
}

static PyObject *public_view_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "public_view_of() takes a game and its four "
                        "scoring parts");
        return NULL;
    }
    PyObject *game = args[0];
    if (!public_installed || !view_installed || !installed || Py_TYPE(game) != GAME)
        Py_RETURN_NOTIMPLEMENTED;
    const Py_ssize_t read[] = {
        O_PLAYERS, O_DEAL_NUMBER, O_DEALER, O_PHASE, O_ROUND, O_TO_ACT, O_SCORES, O_LOCKED,
        O_STOCK, O_DISCARDS, O_PENDING_ONE_UP, O_EXCHANGE_COUNTS, O_SHOWN, O_ONE_UP_CARD,
        O_DECLARER, O_TRICK_NUMBER, O_TRICK, O_TRICKS, O_PLAYED, O_WINNERS,
        O_DECLARED_CHICAGO, O_MADE_CHICAGO, O_HANDS, O_RULES, O_DEAL_HISTORY,
    };
    for (size_t i = 0; i < sizeof read / sizeof read[0]; i++)
        if (SLOT(game, read[i]) == NULL) Py_RETURN_NOTIMPLEMENTED;  /* Python's error */
    PyObject *v[PV_COUNT] = {NULL};
    PyObject *phase = SLOT(game, O_PHASE), *rules = SLOT(game, O_RULES);
    int over = phase == PV_OVER_PHASE;
    Py_ssize_t stock = PyObject_Length(SLOT(game, O_STOCK));
    Py_ssize_t pile = PyObject_Length(SLOT(game, O_DISCARDS));
    PyObject *one_up = SLOT(game, O_ONE_UP_CARD), *shown = SLOT(game, O_SHOWN);
    if (stock < 0 || pile < 0) goto failed;
    if (!PyDict_CheckExact(shown)
        || (one_up != Py_None && (!PyTuple_CheckExact(one_up) || PyTuple_GET_SIZE(one_up) != 2)))
        goto other;
    v[PV_PLAYERS] = Py_NewRef(SLOT(game, O_PLAYERS));
    v[PV_DEAL] = Py_NewRef(SLOT(game, O_DEAL_NUMBER));
    v[PV_DEALER] = Py_NewRef(SLOT(game, O_DEALER));
    v[PV_PHASE] = Py_NewRef(phase);
    v[PV_TO_ACT] = Py_NewRef(SLOT(game, O_TO_ACT));
    v[PV_ANNOUNCEMENTS] = Py_NewRef(args[1]);
    v[PV_REVEALS] = Py_NewRef(args[2]);
    v[PV_ROUND_RESULTS] = Py_NewRef(args[3]);
    v[PV_SCORING_ROUND] = Py_NewRef(args[4]);
    v[PV_CHICAGO] = Py_NewRef(SLOT(game, O_DECLARER));
    v[PV_TRICK_NUMBER] = Py_NewRef(SLOT(game, O_TRICK_NUMBER));
    v[PV_OVER] = Py_NewRef(over ? Py_True : Py_False);
    v[PV_RULES] = Py_NewRef(rules);
    v[PV_SEAT] = Py_NewRef(Py_None);
    v[PV_HAND_CATEGORY] = Py_NewRef(Py_None);
    if ((v[PV_ROUND] = PyNumber_Add(SLOT(game, O_ROUND), PV_ONE)) == NULL
        || (v[PV_SCORES] = PySequence_Tuple(SLOT(game, O_SCORES))) == NULL
        || (v[PV_LOCKED] = PySequence_Tuple(SLOT(game, O_LOCKED))) == NULL
        || (v[PV_STOCK] = PyLong_FromSsize_t(stock)) == NULL
        || (v[PV_DISCARD_PILE] = PyLong_FromSsize_t(
                pile + (SLOT(game, O_PENDING_ONE_UP) != Py_None))) == NULL
        || (v[PV_EXCHANGES] = rows_tuple(SLOT(game, O_EXCHANGE_COUNTS))) == NULL
        || (v[PV_SHOWN] = PyDict_Copy(shown)) == NULL
        || (v[PV_ONE_UP] = one_up == Py_None ? Py_NewRef(Py_None)
            : PyObject_CallFunctionObjArgs(PV_FACE_UP, PyTuple_GET_ITEM(one_up, 0),
                                           PyTuple_GET_ITEM(one_up, 1), NULL)) == NULL
        || (v[PV_TRICK] = trick_tuple(SLOT(game, O_TRICK))) == NULL
        || (v[PV_TRICKS] = tricks_tuple(SLOT(game, O_TRICKS))) == NULL
        || (v[PV_PLAYED] = rows_tuple(SLOT(game, O_PLAYED))) == NULL
        || (v[PV_WINNERS] = PySequence_Tuple(SLOT(game, O_WINNERS))) == NULL
        || (v[PV_CHICAGO_DECLARED] = PySequence_Tuple(SLOT(game, O_DECLARED_CHICAGO))) == NULL
        || (v[PV_CHICAGO_MADE] = PySequence_Tuple(SLOT(game, O_MADE_CHICAGO))) == NULL
        || (v[PV_HAND_SIZES] = sizes_tuple(SLOT(game, O_HANDS))) == NULL
        || (v[PV_CHICAGO_POINTS] = PyObject_GetAttr(rules, PV_S_CHICAGO_POINTS)) == NULL
        || (v[PV_LOCK_AT] = PyObject_GetAttr(rules, PV_S_LOCK_AT)) == NULL
        || (v[PV_EXCHANGE_ROUNDS] = PyObject_GetAttr(rules, PV_S_EXCHANGES)) == NULL
        || (v[PV_HAND] = PyTuple_New(0)) == NULL
        || (v[PV_DISCARDED] = PyTuple_New(0)) == NULL
        || (v[PV_LEGAL_ACTIONS] = PyTuple_New(0)) == NULL
        || (v[PV_KNOWN_OUT] = PyTuple_New(0)) == NULL
        || (v[PV_EVENTS] = PyTuple_New(0)) == NULL
        || (v[PV_HISTORY] = PySequence_Tuple(SLOT(game, O_DEAL_HISTORY))) == NULL)
        goto failed;
    if (v[PV_EXCHANGES] == Py_NotImplemented || v[PV_TRICK] == Py_NotImplemented
        || v[PV_TRICKS] == Py_NotImplemented || v[PV_PLAYED] == Py_NotImplemented
        || v[PV_HAND_SIZES] == Py_NotImplemented)
        goto other;
    if (over) {
        PyObject *money = PyObject_CallMethodNoArgs(game, PV_S_SETTLEMENT);
        v[PV_SETTLEMENT] = money == NULL ? NULL : PySequence_Tuple(money);
        Py_XDECREF(money);
        if (v[PV_SETTLEMENT] == NULL) goto failed;
    } else {
        v[PV_SETTLEMENT] = Py_NewRef(Py_None);
    }
    PyObject *view = VW_TYPE->tp_alloc(VW_TYPE, 0);
    if (view == NULL) goto failed;
    for (int i = 0; i < PV_COUNT; i++) SLOT(view, VW_OFFSET[PV_INDEX[i]]) = v[i];  /* taken */
    return view;
other:
    for (int i = 0; i < PV_COUNT; i++) Py_XDECREF(v[i]);
    Py_RETURN_NOTIMPLEMENTED;
failed:
    for (int i = 0; i < PV_COUNT; i++) Py_XDECREF(v[i]);
    return NULL;
}

static PyObject *install_public(PyObject *module, PyObject *config)
{
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "install_public() takes a dict");
        return NULL;
    }
    if (!view_installed || VW_COUNT != PV_COUNT) {
        PyErr_SetString(PyExc_TypeError, "install_public(): the view's fields are not the "
                        "ones public_view_of writes (install_view first)");
        return NULL;
    }
    if (public_installed) Py_RETURN_NONE;
    for (int i = 0; i < PV_COUNT; i++) {
        int found = -1;
        for (int j = 0; found < 0 && j < VW_COUNT; j++)
            if (PyUnicode_CompareWithASCIIString(VW_NAMES[j], PV_NAMES[i]) == 0) found = j;
        for (int k = 0; found >= 0 && k < i; k++)
            if (PV_INDEX[k] == found) found = -1;
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "install_public(): the view has no field %s",
                         PV_NAMES[i]);
            return NULL;
        }
        PV_INDEX[i] = found;
    }
    if (!(PV_PLAYED_CARDS = take(config, "PLAYED")) || !(PV_TAKEN_MEMO = take(config, "TAKEN"))
        || !(PV_TAKEN = take(config, "taken")) || !(PV_FACE_UP = take(config, "FaceUpCard"))
        || !(PV_OVER_PHASE = take(config, "OVER")))
        return NULL;
    if (!PyTuple_CheckExact(PV_PLAYED_CARDS) || !PyDict_CheckExact(PV_TAKEN_MEMO)) {
        PyErr_SetString(PyExc_TypeError, "install_public(): PLAYED is a tuple, TAKEN a dict");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(PV_PLAYED_CARDS); i++)
        if (!PyTuple_CheckExact(PyTuple_GET_ITEM(PV_PLAYED_CARDS, i))) {
            PyErr_SetString(PyExc_TypeError, "install_public(): PLAYED holds tuples");
            return NULL;
        }
    if (!(PV_S_SETTLEMENT = PyUnicode_InternFromString("settlement"))
        || !(PV_S_CHICAGO_POINTS = PyUnicode_InternFromString("chicago_points"))
        || !(PV_S_LOCK_AT = PyUnicode_InternFromString("lock_at"))
        || !(PV_S_EXCHANGES = PyUnicode_InternFromString("exchanges"))
        || !(PV_ONE = PyLong_FromLong(1)))
        return NULL;
    public_installed = 1;
    Py_RETURN_NONE;
}

/* a seat's own slots of a Game, as own_view_of and own_json_of read them (borrowed) */
struct own_slots {
    PyObject *held;       /* its hand, a list */
    PyObject *discarded;  /* its discards this deal */
    PyObject *rules;
    PyObject *to_act;
};
static int own_slots_of(PyObject *game, PyObject *seat_object, struct own_slots *slots);

/*
 * own_view_of(public, game, seat, visible, out): a seat's view of a Game made from the
 * public one (chicago.engine.views.seat_view_from), the seat's own fields read from the
 * game's slots: its hand sorted, the hand's category (of five cards), its discards, its
 * legal actions when it is to act, the cards known out of the stock (``out``, the set the
 * seat's log folded, less its hand) sorted, and ``visible``, its events. For a subclass
 * of Game, a spectator, or anything of another shape it returns NotImplemented and the
 * Python code makes the view. tests/test_accelerated_bot_path.py compares both ways.
 */

/* a sorted tuple of the items of ``items`` (an iterable), NULL on an error */
static PyObject *sorted_tuple(PyObject *items)
{
    PyObject *list = PySequence_List(items);
    if (list == NULL) return NULL;
    if (PyList_Sort(list) < 0) {
        Py_DECREF(list);
        return NULL;
    }
    PyObject *made = PyList_AsTuple(list);
    Py_DECREF(list);
    return made;
}

static PyObject *own_view_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "own_view_of() takes a public view, a game, a seat, "
                        "its events and the cards known out");
        return NULL;
    }
    PyObject *public = args[0], *game = args[1], *seat_object = args[2], *visible = args[3];
    PyObject *out = args[4];
    if (!view_installed || !installed || VW_OWN_COUNT != 7 || Py_TYPE(game) != GAME
        || Py_TYPE(public) != VW_TYPE || !PyLong_CheckExact(seat_object)
        || !PySet_CheckExact(out))
        Py_RETURN_NOTIMPLEMENTED;
    for (int i = 0; i < VW_COUNT; i++)
        if (SLOT(public, VW_OFFSET[i]) == NULL) Py_RETURN_NOTIMPLEMENTED;
    struct own_slots slots;
    if (!own_slots_of(game, seat_object, &slots)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *held = slots.held, *rules = slots.rules, *to_act = slots.to_act;
    Py_INCREF(held);
    /* in view_with_own's order: seat, hand, hand_category, discarded, legal_actions,
       known_out, events */
    PyObject *own[7] = {Py_NewRef(seat_object), NULL, NULL, NULL, NULL, NULL,
                        Py_NewRef(visible)};
    PyObject *rest = NULL, *view = NULL;
    int acts = PyObject_RichCompareBool(to_act, seat_object, Py_EQ);
    if (acts < 0) goto done;
    if ((own[1] = sorted_tuple(held)) == NULL) goto done;
    own[2] = PyList_GET_SIZE(held) == 5 ? category_of(held, rules) : Py_NewRef(Py_None);
    if (own[2] == NULL) goto done;
    if ((own[3] = PySequence_Tuple(slots.discarded)) == NULL) goto done;
    if (acts) {
        PyObject *legal = legal_actions(game, NULL);
        own[4] = legal == NULL ? NULL : PyList_AsTuple(legal);
        Py_XDECREF(legal);
    } else {
        own[4] = PyTuple_New(0);
    }
    if (own[4] == NULL) goto done;
    if ((rest = PySet_New(out)) == NULL) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(held); i++)
        if (PySet_Discard(rest, PyList_GET_ITEM(held, i)) < 0) goto done;
    if ((own[5] = sorted_tuple(rest)) == NULL) goto done;
    view = VW_TYPE->tp_alloc(VW_TYPE, 0);
    if (view == NULL) goto done;
    for (int i = 0; i < VW_COUNT; i++)
        SLOT(view, VW_OFFSET[i]) = Py_NewRef(SLOT(public, VW_OFFSET[i]));
    for (int j = 0; j < 7; j++) {
        PyObject **slot = &SLOT(view, VW_OFFSET[VW_OWN[j]]);
        Py_SETREF(*slot, own[j]);
        own[j] = NULL;  /* taken */
    }
done:
    for (int j = 0; j < 7; j++) Py_XDECREF(own[j]);
    Py_XDECREF(rest);
    Py_DECREF(held);
    return view;
}

/*
 * own_json_of(game, seat, out, texts): the JSON object of a seat's own fields of a Game
 * (chicago.engine.viewjson.own_json of the seat's own part, own_part) made in one step from
 * the game's slots, as own_view_of reads them: "seat", "hand" (sorted), "hand_category"
 * (the category's name, of five cards), "discarded", "legal_actions" (their texts, when
 * the seat is to act) and "known_out" (``out`` less the hand, sorted), cards written as
 * ``texts`` (the 52 card texts by id). For a subclass of Game, a spectator, or anything of
 * another shape it returns NotImplemented and the Python code makes it.
 * tests/test_accelerated_bot_path.py compares both ways.
 */
static PyObject *OJ_KEYS[6];  /* "seat", "hand", "hand_category", "discarded",
                                 "legal_actions", "known_out" */
static PyObject *OJ_S_NAME;   /* "name" */

/* a list of the texts of ``cards`` (a sequence of cards), NULL with no error set when a
   card is no card id (the Python code then makes it), NULL with an error on an error */
static PyObject *card_text_list(PyObject *cards, PyObject *texts)
{
    PyObject *seq = PySequence_Fast(cards, "cards are a sequence");
    if (seq == NULL) return NULL;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seq);
    PyObject *made = PyList_New(count);
    if (made == NULL) {
        Py_DECREF(seq);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *card = PySequence_Fast_GET_ITEM(seq, i);
        long id = PyLong_Check(card) ? PyLong_AsLong(card) : -1;
        if (id == -1 && PyErr_Occurred()) PyErr_Clear();
        if (id < 0 || id >= 52) {
            Py_DECREF(made);
            Py_DECREF(seq);
            return NULL;  /* another shape */
        }
        PyList_SET_ITEM(made, i, Py_NewRef(PyTuple_GET_ITEM(texts, id)));
    }
    Py_DECREF(seq);
    return made;
}

/* the text of a legal action (str(action), which Action.__str__ keeps in a bounded cache
   that a server's many new discards keep missing): a discard's or a play's written here
   from its mask and the cards' ``texts``, any other's by str() */
static PyObject *action_text(PyObject *action, PyObject *texts)
{
    if (PLAY[0] == NULL || Py_TYPE(action) != Py_TYPE(PLAY[0])
        || PyTuple_GET_SIZE(action) != 4)
        return PyObject_Str(action);
    PyObject *play_kind = PyTuple_GET_ITEM(PLAY[0], 0);  /* the play kind */
    PyObject *kind = PyTuple_GET_ITEM(action, 0), *mask_object = PyTuple_GET_ITEM(action, 1);
    if ((kind != K_DISCARD && kind != play_kind) || !PyLong_CheckExact(mask_object))
        return PyObject_Str(action);
    uint64_t mask = PyLong_AsUnsignedLongLong(mask_object);
    if (mask == (uint64_t)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        return PyObject_Str(action);
    }
    if (mask >> 52) return PyObject_Str(action);
    if (kind == K_DISCARD && mask == 0) return PyUnicode_FromString("keep");
    if (kind == play_kind && (mask & (mask - 1)) != 0) return PyObject_Str(action);
    char buffer[8 + 52 * 8];
    Py_ssize_t length = 0;
    const char *word = kind == K_DISCARD ? "discard" : "play";
    length = (Py_ssize_t)strlen(word);
    memcpy(buffer, word, (size_t)length);
    for (int card = 0; card < 52; card++) {
        if (!(mask >> card & 1)) continue;
        Py_ssize_t size;
        const char *text = PyUnicode_AsUTF8AndSize(PyTuple_GET_ITEM(texts, card), &size);
        if (text == NULL) return NULL;
        if (size > 7) return PyObject_Str(action);
        buffer[length++] = ' ';
        memcpy(buffer + length, text, (size_t)size);
        length += size;
    }
    return PyUnicode_DecodeUTF8(buffer, length, NULL);
}

static PyObject *own_json_of(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "own_json_of() takes a game, a seat, the cards "
                        "known out and the cards' texts");
        return NULL;
    }
    PyObject *game = args[0], *seat_object = args[1], *out = args[2], *texts = args[3];
    if (!installed || Py_TYPE(game) != GAME || !PyLong_CheckExact(seat_object)
        || !PySet_CheckExact(out) || !PyTuple_CheckExact(texts) || PyTuple_GET_SIZE(texts) != 52)
        Py_RETURN_NOTIMPLEMENTED;
    struct own_slots slots;
    if (!own_slots_of(game, seat_object, &slots)) Py_RETURN_NOTIMPLEMENTED;
    PyObject *held = slots.held, *rules = slots.rules, *to_act = slots.to_act;
    if (OJ_S_NAME == NULL) {
        static const char *names[6] = {"seat", "hand", "hand_category", "discarded",
                                       "legal_actions", "known_out"};
        for (int j = 0; j < 6; j++)
            if ((OJ_KEYS[j] = PyUnicode_InternFromString(names[j])) == NULL) return NULL;
        if ((OJ_S_NAME = PyUnicode_InternFromString("name")) == NULL) return NULL;
    }
    Py_INCREF(held);
    PyObject *values[6] = {Py_NewRef(seat_object), NULL, NULL, NULL, NULL, NULL};
    PyObject *sorted = NULL, *category = NULL, *legal = NULL, *rest = NULL, *made = NULL;
    int other = 0;  /* another shape: NotImplemented */
    int acts = PyObject_RichCompareBool(to_act, seat_object, Py_EQ);
    if (acts < 0) goto done;
    if ((sorted = PySequence_List(held)) == NULL || PyList_Sort(sorted) < 0) goto done;
    if ((values[1] = card_text_list(sorted, texts)) == NULL) {
        other = !PyErr_Occurred();
        goto done;
    }
    if (PyList_GET_SIZE(held) == 5) {
        if ((category = category_of(held, rules)) == NULL) goto done;
        values[2] = category == Py_None ? Py_NewRef(Py_None)
                                        : category_name(category);
        if (values[2] == NULL) goto done;
    } else {
        values[2] = Py_NewRef(Py_None);
    }
    if ((values[3] = card_text_list(slots.discarded, texts)) == NULL) {
        other = !PyErr_Occurred();
        goto done;
    }
    if (acts) {
        if ((legal = legal_actions(game, NULL)) == NULL) goto done;
        Py_ssize_t count = PyList_GET_SIZE(legal);
        if ((values[4] = PyList_New(count)) == NULL) goto done;
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *text = action_text(PyList_GET_ITEM(legal, i), texts);
            if (text == NULL) goto done;
            PyList_SET_ITEM(values[4], i, text);
        }
    } else if ((values[4] = PyList_New(0)) == NULL) {
        goto done;
    }
    if ((rest = PySet_New(out)) == NULL) goto done;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(held); i++)
        if (PySet_Discard(rest, PyList_GET_ITEM(held, i)) < 0) goto done;
    Py_SETREF(sorted, PySequence_List(rest));
    if (sorted == NULL || PyList_Sort(sorted) < 0) goto done;
    if ((values[5] = card_text_list(sorted, texts)) == NULL) {
        other = !PyErr_Occurred();
        goto done;
    }
    if ((made = PyDict_New()) == NULL) goto done;
    for (int j = 0; j < 6; j++)
        if (PyDict_SetItem(made, OJ_KEYS[j], values[j]) < 0) {
            Py_CLEAR(made);
            goto done;
        }
done:
    for (int j = 0; j < 6; j++) Py_XDECREF(values[j]);
    Py_XDECREF(sorted);
    Py_XDECREF(category);
    Py_XDECREF(legal);
    Py_XDECREF(rest);
    Py_DECREF(held);
    if (other) Py_RETURN_NOTIMPLEMENTED;
    return made;
}

static PyObject *install_view(PyObject *module, PyObject *args)
{
    PyObject *type, *names, *own;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyType_Type, &type, &PyTuple_Type, &names,
                          &PyTuple_Type, &own))
        return NULL;
    if (view_installed) Py_RETURN_NONE;  /* the same module's class again */
    Py_ssize_t count = PyTuple_GET_SIZE(names), owned = PyTuple_GET_SIZE(own);
    PyObject *slots = PyObject_GetAttrString(type, "__slots__");
    Py_ssize_t slot_count = slots == NULL ? -1 : PyObject_Length(slots);
    Py_XDECREF(slots);
    if (slot_count != count || count > VIEW_FIELDS_MAX || owned > count) {
        PyErr_Clear();
        PyErr_SetString(PyExc_TypeError, "install_view(): the names must be the class's slots");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        if (!PyUnicode_CheckExact(name)
            || offset_of(type, PyUnicode_AsUTF8(name), &VW_OFFSET[i]) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a field name is text");
            return NULL;
        }
        Py_INCREF(name);
        PyUnicode_InternInPlace(&name);
        VW_NAMES[i] = name;
    }
    for (Py_ssize_t j = 0; j < owned; j++) {
        PyObject *name = PyTuple_GET_ITEM(own, j);
        int found = -1;
        for (Py_ssize_t i = 0; found < 0 && i < count; i++) {
            int equal = PyObject_RichCompareBool(VW_NAMES[i], name, Py_EQ);
            if (equal < 0) return NULL;
            if (equal) found = (int)i;
        }
        if (found < 0) {
            PyErr_Format(PyExc_TypeError, "install_view(): %R is no field", name);
            return NULL;
        }
        VW_OWN[j] = found;
    }
    Py_INCREF(type);
    VW_TYPE = (PyTypeObject *)type;
    VW_COUNT = (int)count;
    VW_OWN_COUNT = (int)owned;
    view_installed = 1;
    Py_RETURN_NONE;
}

/*
 * copier(cls, names, kinds, extra): chicago.engine.state's copier of a class that declares
 * its attributes as slots (Game), in C. The plan is state._plan's: per slot how the copy takes it (0 the
 * same value, 1 a new list, 2 a new list of new lists, 3 a new dict, 4 its copy(), 5 None:
 * a value its owner alone holds, such as the list Game.actions gave out); the
 * returned function copies an object of exactly that class as the Python copier made from
 * the same plan does (state._build_copier_python): slot by slot, in order.
 * tests/test_accelerated_bot_path.py compares the two copies slot by slot.
 */

typedef struct {
    PyTypeObject *type;
    Py_ssize_t count;
    PyObject *names;        /* the slots' names (for an unset slot's error) */
    PyObject *extra;        /* extra(other, attributes): for a class with a __dict__ too */
    Py_ssize_t *offsets;
    unsigned char *kinds;
} CopyPlan;

#define COPY_PLAN "chicago.engine._engine.copy_plan"

static void copy_plan_free(PyObject *capsule)
{
    CopyPlan *plan = PyCapsule_GetPointer(capsule, COPY_PLAN);
    if (plan == NULL) return;
    Py_XDECREF(plan->type);
    Py_XDECREF(plan->names);
    Py_XDECREF(plan->extra);
    PyMem_Free(plan->offsets);
    PyMem_Free(plan->kinds);
    PyMem_Free(plan);
}

/* A new list of the items of ``value``, off the collector's watch when ``value`` is a list
   that is off it (the engine took it off: it holds nothing that can be part of a reference
   cycle, see plain_container and plain(); the copy holds the same items and is changed by
   the same code). Before, every list of a copy was watched until a turn taken in Python
   took it off again, and a game played on in C (apply) kept them watched: about forty lists
   a copy, which the table server makes for every action, each walked by the next young and
   middle collections (docs/SERVER.md, issue 28's seventeenth pass). */
static PyObject *list_like(PyObject *value)
{
    /* a list's items taken at once (list_slice: the exact size, no resize) rather than
       through PySequence_List's extend of an empty list (issue 28, forty-eighth pass) */
    PyObject *copy = PyList_CheckExact(value)
        ? PyList_GetSlice(value, 0, PyList_GET_SIZE(value)) : PySequence_List(value);
    if (copy != NULL && PyList_CheckExact(value) && !PyObject_GC_IsTracked(value))
        PyObject_GC_UnTrack(copy);
    return copy;
}

static PyObject *copy_value(PyObject *value, int kind)
{
    switch (kind) {
    case 0:
        return Py_NewRef(value);
    case 1:
        return list_like(value);
    case 2: {
        PyObject *outer = PySequence_Fast(value, "a list of lists");
        if (outer == NULL) return NULL;
        Py_ssize_t n = PySequence_Fast_GET_SIZE(outer);
        PyObject *copy = PyList_New(n);
        for (Py_ssize_t i = 0; copy != NULL && i < n; i++) {
            PyObject *inner = list_like(PySequence_Fast_GET_ITEM(outer, i));
            if (inner == NULL) Py_CLEAR(copy);
            else PyList_SET_ITEM(copy, i, inner);
        }
        Py_DECREF(outer);
        if (copy != NULL && PyList_CheckExact(value) && !PyObject_GC_IsTracked(value))
            PyObject_GC_UnTrack(copy);
        return copy;
    }
    case 3:
        return PyDict_CheckExact(value) ? PyDict_Copy(value)
                                        : PyObject_CallOneArg((PyObject *)&PyDict_Type, value);
    case 5:
        return Py_NewRef(Py_None);
    default:
        return PyObject_CallMethodNoArgs(value, S_COPY);
    }
}

static PyObject *copy_planned(PyObject *capsule, PyObject *self)
{
    CopyPlan *plan = PyCapsule_GetPointer(capsule, COPY_PLAN);
    if (plan == NULL) return NULL;
    if (Py_TYPE(self) != plan->type) {
        PyErr_Format(PyExc_TypeError, "this copier copies a %s, not a %s", plan->type->tp_name,
                     Py_TYPE(self)->tp_name);
        return NULL;
    }
    PyObject *other = plan->type->tp_alloc(plan->type, 0);
    if (other == NULL) return NULL;
    for (Py_ssize_t i = 0; i < plan->count; i++) {
        PyObject *value = SLOT(self, plan->offsets[i]);
        if (value == NULL) {
            PyErr_Format(PyExc_AttributeError, "'%s' object has no attribute '%U'",
                         plan->type->tp_name, PyTuple_GET_ITEM(plan->names, i));
            Py_DECREF(other);
            return NULL;
        }
        PyObject *copy = copy_value(value, plan->kinds[i]);
        if (copy == NULL) {
            Py_DECREF(other);
            return NULL;
        }
        Py_XSETREF(SLOT(other, plan->offsets[i]), copy);
    }
    if (plan->extra != NULL) {
        /* as the Python copier: the instance's own attributes, if any, copied by extra() */
        PyObject *attributes = PyObject_GenericGetDict(self, NULL);
        if (attributes == NULL) {
            Py_DECREF(other);
            return NULL;
        }
        if (PyDict_Check(attributes) && PyDict_GET_SIZE(attributes)) {
            PyObject *done = PyObject_CallFunctionObjArgs(plan->extra, other, attributes, NULL);
            if (done == NULL) Py_CLEAR(other);
            Py_XDECREF(done);
        }
        Py_DECREF(attributes);
    }
    return other;
}

static PyMethodDef COPY_PLANNED = {
    "copy", copy_planned, METH_O,
    "copy(obj)\n--\n\nA copy of ``obj`` made by its class's plan (chicago.engine.state)."};

static PyObject *copier(PyObject *module, PyObject *args)
{
    PyObject *type, *names, *kinds, *extra;
    if (!PyArg_ParseTuple(args, "O!O!O!O", &PyType_Type, &type, &PyTuple_Type, &names,
                          &PyTuple_Type, &kinds, &extra))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    if (PyTuple_GET_SIZE(kinds) != count) {
        PyErr_SetString(PyExc_ValueError, "copier(): a kind for each name");
        return NULL;
    }
    if (((PyTypeObject *)type)->tp_dictoffset != 0 && !PyCallable_Check(extra)) {
        PyErr_SetString(PyExc_TypeError, "copier(): a class with a __dict__ needs extra()");
        return NULL;
    }
    CopyPlan *plan = PyMem_Calloc(1, sizeof(CopyPlan));
    if (plan == NULL) return PyErr_NoMemory();
    PyObject *capsule = PyCapsule_New(plan, COPY_PLAN, copy_plan_free);
    if (capsule == NULL) {
        PyMem_Free(plan);
        return NULL;
    }
    plan->offsets = PyMem_Calloc(count ? count : 1, sizeof(Py_ssize_t));
    plan->kinds = PyMem_Calloc(count ? count : 1, 1);
    if (plan->offsets == NULL || plan->kinds == NULL) {
        Py_DECREF(capsule);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        long kind = PyLong_AsLong(PyTuple_GET_ITEM(kinds, i));
        if (kind < 0 || kind > 5) {
            Py_DECREF(capsule);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "copier(): kinds are 0-5");
            return NULL;
        }
        const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (text == NULL || offset_of(type, text, &plan->offsets[i]) < 0) {
            Py_DECREF(capsule);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "copier(): names are text");
            return NULL;
        }
        plan->kinds[i] = (unsigned char)kind;
    }
    plan->type = (PyTypeObject *)Py_NewRef(type);
    plan->names = Py_NewRef(names);
    plan->extra = ((PyTypeObject *)type)->tp_dictoffset != 0 ? Py_NewRef(extra) : NULL;
    plan->count = count;
    PyObject *function = PyCFunction_New(&COPY_PLANNED, capsule);
    Py_DECREF(capsule);
    return function;
}

/* bot views (issue 28, twentieth pass) */

/* Fill ``slots`` with the own slots of ``seat_object`` (an int) in ``game`` (a Game
   itself): 1, or 0 with no error set when they are of another shape (no hands or discards
   lists, a seat out of range, a hand that is no list), for which the callers give
   NotImplemented and the Python code makes what they make. */
static int own_slots_of(PyObject *game, PyObject *seat_object, struct own_slots *slots)
{
    PyObject *hands = SLOT(game, O_HANDS), *discards = SLOT(game, O_OWN_DISCARDS);
    slots->rules = SLOT(game, O_RULES);
    slots->to_act = SLOT(game, O_TO_ACT);
    if (hands == NULL || discards == NULL || slots->rules == NULL || slots->to_act == NULL
        || !PyList_CheckExact(hands) || !PyList_CheckExact(discards))
        return 0;
    long seat = PyLong_AsLong(seat_object);
    if (seat == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    if (seat < 0 || seat >= PyList_GET_SIZE(hands) || seat >= PyList_GET_SIZE(discards))
        return 0;
    slots->held = PyList_GET_ITEM(hands, seat);
    slots->discarded = PyList_GET_ITEM(discards, seat);
    return PyList_CheckExact(slots->held);
}

/* end of bot views (issue 28, twentieth pass) */

/* public JSON (issue 28, twenty-first pass)
 *
 * public_json_text(view, texts, other): the compact JSON text (separators "," and ":", ASCII)
 * of the public fields of a SeatView, as chicago.engine.viewjson.public_json makes them
 * and the stdlib's encoder writes them, in one step: no dicts and lists made and encoded
 * again. Cards are written as ``texts`` (the 52 card texts by id); the reveals and round
 * results as their events' to_json(), written here; ``scoring_round`` and ``settlement``
 * (floats) by ``other(name, value)`` (the Python encoder's text) when not None. Anything of another shape (a value that is not an int, a tuple or a dict where
 * one is declared, a text that needs escaping) gives NotImplemented and the Python code
 * writes it. tests/test_public_json_text.py compares both ways.
 */
typedef struct {
    char *data;
    Py_ssize_t size, capacity;
    char local[4096];
} PJText;

enum { PJ_OK = 0, PJ_ERROR = -1, PJ_OTHER = 1 };

/* An empty text, written in its own local buffer first. */
static void pj_open(PJText *out)
{
    out->data = out->local;
    out->size = 0;
    out->capacity = (Py_ssize_t)sizeof out->local;
}

/* The text written (ASCII) when ``status`` is PJ_OK, NotImplemented when it is PJ_OTHER
   (the Python code writes it), NULL with the error set when PJ_ERROR; the buffer freed. */
static PyObject *pj_close(PJText *out, int status)
{
    PyObject *made = NULL;
    if (status == PJ_OK && (made = PyUnicode_New(out->size, 127)) != NULL)
        memcpy(PyUnicode_DATA(made), out->data, (size_t)out->size);
    if (out->data != out->local) PyMem_Free(out->data);
    if (status == PJ_OTHER) Py_RETURN_NOTIMPLEMENTED;
    return made;
}

#define PJ_FIELDS 31
static PyObject *PJ_NAMES[PJ_FIELDS];
static PyObject *PJ_KEYS[PJ_FIELDS];  /* '{"players":', ',"deal":' … */
static PyObject *PJ_S_TO_JSON;
static PyObject *PJ_S_VALUE, *PJ_S_NAME, *PJ_S_ROUND, *PJ_S_SEAT, *PJ_S_CATEGORY,
                *PJ_S_CARD, *PJ_S_WINNER, *PJ_S_CARDS;
static const char *PJ_FIELD_NAMES[PJ_FIELDS] = {
    "players", "deal", "dealer", "phase", "round", "to_act", "scores", "locked", "stock",
    "discard_pile", "exchanges", "announcements", "reveals", "round_results", "shown",
    "one_up", "chicago", "trick_number", "trick", "tricks", "played", "over", "winners",
    "chicago_declared", "chicago_made", "settlement", "hand_sizes", "scoring_round",
    "chicago_points", "lock_at", "exchange_rounds",
};

/* the buffer grown to take ``size`` more bytes (pj_put's slow path, kept out of line) */
static int pj_grow(PJText *out, Py_ssize_t size)
{
    Py_ssize_t capacity = out->capacity * 2;
    while (capacity < out->size + size) capacity *= 2;
    char *grown;
    if (out->data == out->local) {
        grown = PyMem_Malloc((size_t)capacity);
        if (grown != NULL) memcpy(grown, out->data, (size_t)out->size);
    } else {
        grown = PyMem_Realloc(out->data, (size_t)capacity);
    }
    if (grown == NULL) {
        PyErr_NoMemory();
        return PJ_ERROR;
    }
    out->data = grown;
    out->capacity = capacity;
    return PJ_OK;
}

/* ``size`` bytes of ``text`` added; inline, the short pieces (most of them: a comma, a key,
   a card) copied byte by byte rather than by a call of memcpy (issue 28, thirty-eighth
   pass) */
static inline int pj_put(PJText *out, const char *text, Py_ssize_t size)
{
    if (out->size + size > out->capacity && pj_grow(out, size) < 0) return PJ_ERROR;
    char *at = out->data + out->size;
    if (size <= 16) {
        for (Py_ssize_t i = 0; i < size; i++) at[i] = text[i];
    } else {
        memcpy(at, text, (size_t)size);
    }
    out->size += size;
    return PJ_OK;
}

#define PJ_LITERAL(out, text) pj_put((out), (text), (Py_ssize_t)(sizeof(text) - 1))

/* a str as a JSON string, when it needs no escape (printable ASCII without '"' or '\\');
   PJ_OTHER otherwise. Written in one pass (issue 28, forty-fifth pass): the quotes and the text are copied into
   the buffer as they are checked, eight bytes at a time where there are eight, and the
   buffer's size moves on only when no byte needed an escape, so a PJ_OTHER leaves the text
   written so far as it was. ``text`` is ASCII (checked), so each byte is below 0x80 and the
   word tests below are exact: a byte below 0x20, a byte equal to '"', '\\' or 0x7f. */
#define PJ_ONES 0x0101010101010101ULL
#define PJ_HIGH 0x8080808080808080ULL
static inline uint64_t pj_zero_bytes(uint64_t word)
{
    return (word - PJ_ONES) & ~word & PJ_HIGH;
}

static int pj_string(PJText *out, PyObject *text)
{
    if (!PyUnicode_Check(text) || !PyUnicode_IS_ASCII(text)) return PJ_OTHER;
    Py_ssize_t size = PyUnicode_GET_LENGTH(text);
    const unsigned char *data = (const unsigned char *)PyUnicode_DATA(text);
    if (out->size + size + 2 > out->capacity && pj_grow(out, size + 2) < 0) return PJ_ERROR;
    unsigned char *at = (unsigned char *)out->data + out->size;
    *at++ = '"';
    Py_ssize_t i = 0;
    uint64_t bad = 0;
    for (; i + 8 <= size; i += 8) {
        uint64_t word;
        memcpy(&word, data + i, 8);
        memcpy(at + i, &word, 8);
        bad |= ((word - 0x2020202020202020ULL) & ~word & PJ_HIGH)
               | pj_zero_bytes(word ^ (PJ_ONES * '"'))
               | pj_zero_bytes(word ^ (PJ_ONES * '\\'))
               | pj_zero_bytes(word ^ (PJ_ONES * 0x7f));
    }
    int other = 0;
    for (; i < size; i++) {
        unsigned char c = data[i];
        at[i] = c;
        other |= (c < 0x20) | (c == 0x7f) | (c == '"') | (c == '\\');
    }
    if (bad || other) return PJ_OTHER;
    at[size] = '"';
    out->size += size + 2;
    return PJ_OK;
}

/* None, a bool or an int as the stdlib's encoder writes it; PJ_OTHER for anything else */
static int pj_scalar(PJText *out, PyObject *value)
{
    if (value == Py_None) return PJ_LITERAL(out, "null");
    if (value == Py_True) return PJ_LITERAL(out, "true");
    if (value == Py_False) return PJ_LITERAL(out, "false");
    if (!PyLong_Check(value)) return PJ_OTHER;
    int overflow;
    long long number = PyLong_AsLongLongAndOverflow(value, &overflow);
    if (number == -1 && PyErr_Occurred()) return PJ_ERROR;
    if (overflow) return PJ_OTHER;
    char digits[24];
    int at = (int)sizeof digits;
    unsigned long long magnitude = number < 0 ? 0ULL - (unsigned long long)number
                                              : (unsigned long long)number;
    do {
        digits[--at] = (char)('0' + magnitude % 10);
        magnitude /= 10;
    } while (magnitude);
    if (number < 0) digits[--at] = '-';
    return pj_put(out, digits + at, (Py_ssize_t)sizeof digits - at);
}

static int pj_card(PJText *out, PyObject *card, PyObject *texts)
{
    if (!PyLong_Check(card)) return PJ_OTHER;
    long id = PyLong_AsLong(card);
    if (id == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return PJ_OTHER;
    }
    if (id < 0 || id >= 52) return PJ_OTHER;
    return pj_string(out, PyTuple_GET_ITEM(texts, id));
}

/* a tuple or list written as an array, each item by ``write`` */
typedef int (*PJItem)(PJText *out, PyObject *item, PyObject *texts);

static int pj_array(PJText *out, PyObject *items, PJItem write, PyObject *texts)
{
    if (!PyTuple_Check(items) && !PyList_Check(items)) return PJ_OTHER;
    int status = PJ_LITERAL(out, "[");
    for (Py_ssize_t i = 0; status == PJ_OK && i < PySequence_Fast_GET_SIZE(items); i++) {
        if (i > 0 && PJ_LITERAL(out, ",") < 0) return PJ_ERROR;
        status = write(out, PySequence_Fast_GET_ITEM(items, i), texts);
    }
    return status != PJ_OK ? status : PJ_LITERAL(out, "]");
}

static int pj_scalar_item(PJText *out, PyObject *item, PyObject *texts)
{
    (void)texts;
    return pj_scalar(out, item);
}

static int pj_scalars(PJText *out, PyObject *item, PyObject *texts)
{
    return pj_array(out, item, pj_scalar_item, texts);
}

static int pj_cards(PJText *out, PyObject *item, PyObject *texts)
{
    return pj_array(out, item, pj_card, texts);
}

/* an attribute of an object written by ``write`` after its key (``key``: '"name":') */
static int pj_attribute(PJText *out, const char *key, PyObject *value, PyObject *name,
                        PJItem write, PyObject *texts)
{
    PyObject *item = PyObject_GetAttr(value, name);
    if (item == NULL) return PJ_ERROR;
    int status = pj_put(out, key, (Py_ssize_t)strlen(key));
    if (status == PJ_OK) status = write(out, item, texts);
    Py_DECREF(item);
    return status;
}

static int pj_category(PJText *out, PyObject *category, PyObject *texts)
{
    (void)texts;
    if (category == Py_None) return PJ_LITERAL(out, "null");
    PyObject *name = category_name(category);
    if (name == NULL) return PJ_ERROR;
    int status = pj_string(out, name);
    Py_DECREF(name);
    return status;
}

static int pj_word(PJText *out, PyObject *word, PyObject *texts)
{
    int status = pj_attribute(out, "{\"round\":", word, PJ_S_ROUND, pj_scalar_item, texts);
    if (status == PJ_OK)
        status = pj_attribute(out, ",\"seat\":", word, PJ_S_SEAT, pj_scalar_item, texts);
    if (status == PJ_OK)
        status = pj_attribute(out, ",\"category\":", word, PJ_S_CATEGORY, pj_category, texts);
    return status != PJ_OK ? status : PJ_LITERAL(out, "}");
}

/* a played card (or the face-up card): {"seat":…,"card":…} */
static int pj_play(PJText *out, PyObject *play, PyObject *texts)
{
    int status = pj_attribute(out, "{\"seat\":", play, PJ_S_SEAT, pj_scalar_item, texts);
    if (status == PJ_OK)
        status = pj_attribute(out, ",\"card\":", play, PJ_S_CARD, pj_card, texts);
    return status != PJ_OK ? status : PJ_LITERAL(out, "}");
}

static int pj_plays(PJText *out, PyObject *item, PyObject *texts)
{
    return pj_array(out, item, pj_play, texts);
}

static int pj_trick(PJText *out, PyObject *trick, PyObject *texts)
{
    int status = pj_attribute(out, "{\"winner\":", trick, PJ_S_WINNER, pj_scalar_item, texts);
    if (status == PJ_OK)
        status = pj_attribute(out, ",\"cards\":", trick, PJ_S_CARDS, pj_plays, texts);
    return status != PJ_OK ? status : PJ_LITERAL(out, "}");
}

static int pj_shown(PJText *out, PyObject *shown, PyObject *texts)
{
    if (!PyDict_CheckExact(shown)) return PJ_OTHER;
    Py_ssize_t position = 0, index = 0;
    PyObject *seat, *cards;
    if (PJ_LITERAL(out, "{") < 0) return PJ_ERROR;
    while (PyDict_Next(shown, &position, &seat, &cards)) {
        if (!PyLong_CheckExact(seat)) return PJ_OTHER;  /* str() of it may differ */
        if (index++ > 0 && PJ_LITERAL(out, ",") < 0) return PJ_ERROR;
        long number = PyLong_AsLong(seat);
        if (number == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return PJ_OTHER;
        }
        char key[32];
        int size = snprintf(key, sizeof key, "\"%ld\":", number);
        if (pj_put(out, key, size) < 0) return PJ_ERROR;
        int status = pj_cards(out, cards, texts);
        if (status != PJ_OK) return status;
    }
    return PJ_LITERAL(out, "}");
}

/* a field written by the Python encoder (``other(name, value)``) unless None */
static int pj_other(PJText *out, PyObject *other, PyObject *name, PyObject *value)
{
    if (value == Py_None) return PJ_LITERAL(out, "null");
    PyObject *text = PyObject_CallFunctionObjArgs(other, name, value, NULL);
    if (text == NULL) return PJ_ERROR;
    int status = PJ_OTHER;
    if (PyUnicode_Check(text) && PyUnicode_IS_ASCII(text))
        status = pj_put(out, (const char *)PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text));
    Py_DECREF(text);
    return status;
}

/* a JSON value made of dicts (text keys), lists, tuples, texts, ints, bools and None, as
   the stdlib's encoder writes it; PJ_OTHER for anything else (a float, a text to escape) */
static int pj_value(PJText *out, PyObject *value, PyObject *texts)
{
    if (PyUnicode_Check(value)) return pj_string(out, value);
    if (PyDict_CheckExact(value)) {
        Py_ssize_t position = 0, index = 0;
        PyObject *key, *item;
        if (PJ_LITERAL(out, "{") < 0) return PJ_ERROR;
        while (PyDict_Next(value, &position, &key, &item)) {
            if (!PyUnicode_CheckExact(key)) return PJ_OTHER;
            if (index++ > 0 && PJ_LITERAL(out, ",") < 0) return PJ_ERROR;
            int status = pj_string(out, key);
            if (status == PJ_OK) status = PJ_LITERAL(out, ":");
            if (status == PJ_OK) status = pj_value(out, item, texts);
            if (status != PJ_OK) return status;
        }
        return PJ_LITERAL(out, "}");
    }
    if (PyList_Check(value) || PyTuple_Check(value)) return pj_array(out, value, pj_value, texts);
    return pj_scalar(out, value);
}

/* events (reveals, round results) written as their to_json() */
static int pj_event(PJText *out, PyObject *event, PyObject *texts)
{
    PyObject *made = PyObject_CallMethodNoArgs(event, PJ_S_TO_JSON);
    if (made == NULL) return PJ_ERROR;
    int status = pj_value(out, made, texts);
    Py_DECREF(made);
    return status;
}

/* the text of a public part written once and kept for the very object (see "views made
   cheaper (issue 28, thirty-eighth pass)" below) */
static int vc_memo(PJText *out, int kind, PyObject *value, PyObject *texts, PJItem write,
                   int array);
static int vc_trick(PJText *out, PyObject *trick, PyObject *texts);

static int pj_field(PJText *out, int field, PyObject *value, PyObject *texts,
                    PyObject *other)
{
    switch (field) {
    case 3: {  /* phase: its value */
        PyObject *text = member_value(value);
        if (text == NULL) return PJ_ERROR;
        int status = pj_string(out, text);
        Py_DECREF(text);
        return status;
    }
    case 6: case 7: case 22: case 23: case 24: case 26:  /* tuples of ints and bools */
        return pj_scalars(out, value, texts);
    case 10: return pj_array(out, value, pj_scalars, texts);      /* exchanges */
    case 11: return vc_memo(out, 11, value, texts, pj_word, 1);   /* announcements */
    case 12: case 13: return vc_memo(out, field, value, texts, pj_event, 1);  /* reveals, results */
    case 14: return pj_shown(out, value, texts);
    case 15: return value == Py_None ? PJ_LITERAL(out, "null") : pj_play(out, value, texts);
    case 18: return pj_plays(out, value, texts);                  /* trick */
    case 19: return pj_array(out, value, vc_trick, texts);       /* tricks */
    case 20: return pj_array(out, value, pj_cards, texts);        /* played */
    case 25: case 27: return pj_other(out, other, PJ_NAMES[field], value);
    default: return pj_scalar(out, value);
    }
}

static PyObject *public_json_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "public_json_text() takes a view, the cards' texts "
                        "and the encoder of the other fields");
        return NULL;
    }
    PyObject *view = args[0], *texts = args[1], *other = args[2];
    if (!PyTuple_CheckExact(texts) || PyTuple_GET_SIZE(texts) != 52)
        Py_RETURN_NOTIMPLEMENTED;
    if (PJ_KEYS[PJ_FIELDS - 1] == NULL) {
        for (int j = 0; j < PJ_FIELDS; j++)
            if ((PJ_NAMES[j] = PyUnicode_InternFromString(PJ_FIELD_NAMES[j])) == NULL)
                return NULL;
        if ((PJ_S_VALUE = PyUnicode_InternFromString("value")) == NULL
            || (PJ_S_NAME = PyUnicode_InternFromString("name")) == NULL
            || (PJ_S_ROUND = PyUnicode_InternFromString("round")) == NULL
            || (PJ_S_SEAT = PyUnicode_InternFromString("seat")) == NULL
            || (PJ_S_CATEGORY = PyUnicode_InternFromString("category")) == NULL
            || (PJ_S_CARD = PyUnicode_InternFromString("card")) == NULL
            || (PJ_S_WINNER = PyUnicode_InternFromString("winner")) == NULL
            || (PJ_S_TO_JSON = PyUnicode_InternFromString("to_json")) == NULL
            || (PJ_S_CARDS = PyUnicode_InternFromString("cards")) == NULL)
            return NULL;
        for (int j = 0; j < PJ_FIELDS; j++)
            if ((PJ_KEYS[j] = PyUnicode_FromFormat("%s\"%s\":", j == 0 ? "{" : ",",
                                                    PJ_FIELD_NAMES[j])) == NULL)
                return NULL;
    }
    PJText out;
    pj_open(&out);
    int status = PJ_OK;
    for (int field = 0; status == PJ_OK && field < PJ_FIELDS; field++) {
        PyObject *key = PJ_KEYS[field];
        if (pj_put(&out, (const char *)PyUnicode_DATA(key), PyUnicode_GET_LENGTH(key)) < 0) {
            status = PJ_ERROR;
            break;
        }
        PyObject *value = PyObject_GetAttr(view, PJ_NAMES[field]);
        if (value == NULL) {
            status = PJ_ERROR;
            break;
        }
        status = pj_field(&out, field, value, texts, other);
        Py_DECREF(value);
    }
    if (status == PJ_OK) status = PJ_LITERAL(&out, "}");
    return pj_close(&out, status);
}

/* state_json_text(public, own): an update's state as compact JSON text, ``public`` (the text
 * of public_json_text, an object) with the fields of ``own`` (own_json_of's object: texts,
 * ints, None and lists of them) written after its own, in one buffer; NotImplemented for
 * anything of another shape (a text to escape, a float), which the Python code writes */
static PyObject *state_json_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 2) {
        PyErr_SetString(PyExc_TypeError, "state_json_text() takes the public text and the "
                        "seat's own fields");
        return NULL;
    }
    PyObject *public = args[0], *own = args[1];
    if (!PyUnicode_CheckExact(public) || !PyUnicode_IS_ASCII(public)
        || PyUnicode_GET_LENGTH(public) < 2 || !PyDict_CheckExact(own))
        Py_RETURN_NOTIMPLEMENTED;
    const char *head = (const char *)PyUnicode_DATA(public);
    Py_ssize_t length = PyUnicode_GET_LENGTH(public);
    if (head[0] != '{' || head[length - 1] != '}') Py_RETURN_NOTIMPLEMENTED;
    PJText out;
    pj_open(&out);
    int status = pj_put(&out, head, length - 1);
    Py_ssize_t position = 0;
    PyObject *key, *item;
    int first = length == 2;  /* "{}": no field before the own ones */
    while (status == PJ_OK && PyDict_Next(own, &position, &key, &item)) {
        if (!PyUnicode_CheckExact(key)) {
            status = PJ_OTHER;
            break;
        }
        if (!first && PJ_LITERAL(&out, ",") < 0) {
            status = PJ_ERROR;
            break;
        }
        first = 0;
        status = pj_string(&out, key);
        if (status == PJ_OK) status = PJ_LITERAL(&out, ":");
        if (status == PJ_OK) status = pj_value(&out, item, NULL);
    }
    if (status == PJ_OK) status = PJ_LITERAL(&out, "}");
    return pj_close(&out, status);
}

/* ------------------------------------------------------------------ shared actions
 * (issue 28, twenty-third pass). A game shares its list of actions and its event records
 * not made yet with its copies, as it shares its log of events (docs/SERVER.md):
 * Game._action_log and Game._pending, of which the game's own are the first
 * Game._action_count and Game._pending_count, so a copy takes the lists and their counts,
 * not their items (the copier's kind 0), and costs the same at a game's start and end.
 */

/* As chicago.engine.segments (twenty-sixth pass): a game whose current list holds items
   past its own (a copy added them) keeps that list as a finished segment of its log, shared,
   and goes on in a new empty list, unless its own part is short (at most SEGMENT_SMALL
   items: copied) or the log has SEGMENT_DEPTH segments already (all joined into one list). */
#define SEGMENT_SMALL 32
#define SEGMENT_DEPTH 8

/* The list in slot ``offset`` of which the game's own items are the first (the int in
   slot ``counted``), made ready for the game to add to in place (segments.fork) if it
   holds more; ``based`` and ``placed`` are the slots of the finished segments (a tuple)
   and of the number of items in them. The list (borrowed), its count in ``count``; NULL
   with an error set. */
static PyObject *own_log(PyObject *self, Py_ssize_t offset, Py_ssize_t counted,
                         Py_ssize_t based, Py_ssize_t placed, Py_ssize_t *count)
{
    PyObject *log = list_slot(self, offset), *number = SLOT(self, counted);
    if (log == NULL || number == NULL || !PyLong_CheckExact(number)) {
        PyErr_SetString(PyExc_TypeError, "a game's shared log is not a list with its count");
        return NULL;
    }
    *count = PyLong_AsSsize_t(number);
    if (*count < 0 || *count > PyList_GET_SIZE(log)) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "a log's count is out of it");
        return NULL;
    }
    if (PyList_GET_SIZE(log) == *count) return log;
    PyObject *base = SLOT(self, based), *before = SLOT(self, placed);
    if (base == NULL || !PyTuple_CheckExact(base) || PyTuple_GET_SIZE(base) % 2
        || before == NULL || !PyLong_CheckExact(before)) {
        PyErr_SetString(PyExc_TypeError, "a game's log segments are not a tuple with a count");
        return NULL;
    }
    Py_ssize_t depth = PyTuple_GET_SIZE(base), items = PyLong_AsSsize_t(before);
    if (items == -1 && PyErr_Occurred()) return NULL;
    PyObject *own, *new_base, *new_items;
    Py_ssize_t own_count;
    if (*count <= SEGMENT_SMALL) { /* a short own part: copied */
        own = PyList_GetSlice(log, 0, *count);
        own_count = *count;
        new_base = Py_NewRef(base);
        new_items = Py_NewRef(before);
    }
    else if (depth >= 2 * SEGMENT_DEPTH) { /* too many segments: joined into one list */
        own = PyList_New(0);
        for (Py_ssize_t i = 0; own != NULL && i <= depth; i += 2) {
            PyObject *segment = i < depth ? PyTuple_GET_ITEM(base, i) : log;
            Py_ssize_t size = i < depth ? PyLong_AsSsize_t(PyTuple_GET_ITEM(base, i + 1))
                                        : *count;
            PyObject *part = NULL;
            if (!PyList_CheckExact(segment) || size < 0 || size > PyList_GET_SIZE(segment)) {
                if (!PyErr_Occurred())
                    PyErr_SetString(PyExc_ValueError, "a log segment is not a list with its count");
            }
            else part = PyList_GetSlice(segment, 0, size);
            if (part == NULL || PyList_SetSlice(own, PyList_GET_SIZE(own),
                                                PyList_GET_SIZE(own), part) < 0)
                Py_CLEAR(own);
            Py_XDECREF(part);
        }
        own_count = own == NULL ? 0 : PyList_GET_SIZE(own);
        new_base = PyTuple_New(0);
        new_items = PyLong_FromLong(0);
    }
    else { /* the shared list kept as a segment, a new list to go on in */
        own = PyList_New(0);
        own_count = 0;
        new_base = PyTuple_New(depth + 2);
        if (new_base != NULL) {
            for (Py_ssize_t i = 0; i < depth; i++)
                PyTuple_SET_ITEM(new_base, i, Py_NewRef(PyTuple_GET_ITEM(base, i)));
            PyTuple_SET_ITEM(new_base, depth, Py_NewRef(log));
            PyTuple_SET_ITEM(new_base, depth + 1, Py_NewRef(number));
            if (!PyObject_GC_IsTracked(log)) PyObject_GC_UnTrack(new_base); /* as plain() */
        }
        new_items = PyLong_FromSsize_t(items + *count);
    }
    if (own == NULL || new_base == NULL || new_items == NULL) {
        Py_XDECREF(own);
        Py_XDECREF(new_base);
        Py_XDECREF(new_items);
        return NULL;
    }
    if (!PyObject_GC_IsTracked(log)) PyObject_GC_UnTrack(own); /* as list_like */
    PyObject *own_number = PyLong_FromSsize_t(own_count);
    if (set_slot(self, based, new_base) < 0 || set_slot(self, placed, new_items) < 0
        || set_slot(self, offset, own) < 0 || set_slot(self, counted, own_number) < 0)
        return NULL;
    *count = own_count;
    return own;
}

/* Add ``entry`` (borrowed) to the game's actions, as Game._add_action does: in place while
   the shared list holds no more than this game's actions, else (a copy went on first) to a
   list of its own taken from it, once; and to the list Game.actions gave out, if any. The
   event records that the turn is about to add likewise: a list of the game's own first if
   a copy added past its records. 0, or -1 with an error set. */
static int add_action(PyObject *self, PyObject *entry)
{
    Py_ssize_t count;
    if (own_log(self, O_PENDING, O_PENDING_COUNT, O_PENDING_BASE, O_PENDING_OFFSET,
                &count) == NULL)
        return -1;
    PyObject *actions = own_log(self, O_ACTIONS, O_ACTION_COUNT, O_ACTION_BASE,
                                O_ACTION_OFFSET, &count);
    if (actions == NULL || PyList_Append(actions, entry) < 0
        || set_slot(self, O_ACTION_COUNT, p43_count(count + 1)) < 0)
        return -1;
    PyObject *given = SLOT(self, O_ACTIONS_GIVEN);
    return given != NULL && PyList_CheckExact(given) ? PyList_Append(given, entry) : 0;
}

/* ------------------------------------------------------------------ a new deal
 * (issue 28, twenty-sixth pass). Game._start_deal in C for the plain flow (a CardSource of
 * its own class past its stacked decks; no win-again, no low-hand redeal; V-LOCK-6's sixth
 * card since the thirty-fourth pass):
 * the same state, the same shuffle of the game's generator, the same records, as
 * Game._start_deal_python (with _reset_deal_state and _begin_exchange(0)), which does any
 * other deal. It was a tenth of a random deal's time in Python.
 */

static Py_ssize_t D_HIGHEST, D_QUADS_CHOICE, D_LAST_TRICK_WINNER, D_DEAL_START_EVENT, D_MEMO,
    D_EVENTS, D_EVENT_COUNT, D_RNG, D_RNG_SHARED;
static PyObject *D_PYTHON;       /* Game._start_deal_python */
static PyObject *D_R_DEAL, *D_R_DEALT, *D_OFF; /* the records' kinds; "off" */
static PyObject *D_S_LOCK_SIX, *D_S_LOCK_AT, *D_S_WIN_AGAIN, *D_S_REDEAL_LOW, *D_S_DECKS;

static int install_start_deal(PyObject *game, PyObject *config)
{
    struct { const char *name; Py_ssize_t *offset; } slots[] = {
        {"_highest", &D_HIGHEST}, {"_quads_choice", &D_QUADS_CHOICE},
        {"_last_trick_winner", &D_LAST_TRICK_WINNER}, {"_deal_start_event", &D_DEAL_START_EVENT},
        {"_memo", &D_MEMO}, {"_events", &D_EVENTS}, {"_event_count", &D_EVENT_COUNT},
        {"_rng", &D_RNG}, {"_rng_shared", &D_RNG_SHARED},
    };
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        if (offset_of(game, slots[i].name, slots[i].offset) < 0) return -1;
    if (!(D_PYTHON = take(config, "start_deal")) || !(D_R_DEAL = take(config, "Deal"))
        || !(D_R_DEALT = take(config, "Dealt"))
        || !(D_OFF = PyUnicode_InternFromString("off"))
        || !(D_S_LOCK_SIX = PyUnicode_InternFromString("lock_six"))
        || !(D_S_LOCK_AT = PyUnicode_InternFromString("lock_at"))
        || !(D_S_WIN_AGAIN = PyUnicode_InternFromString("win_again"))
        || !(D_S_REDEAL_LOW = PyUnicode_InternFromString("redeal_low"))
        || !(D_S_DECKS = PyUnicode_InternFromString("_decks")))
        return -1;
    return 0;
}

/* 1 if the rules' attribute ``name`` is true (``truth``) or None (``!truth``), 0 if not,
   -1 on an error. */
static int rule_is(PyObject *rules, PyObject *name, int truth)
{
    PyObject *value = PyObject_GetAttr(rules, name);
    if (value == NULL) return -1;
    int found = truth ? PyObject_IsTrue(value) : value == Py_None;
    Py_DECREF(value);
    return found;
}

/* 1 if the next deal is one start_deal makes (see above), 0 if Python's, -1 on an error;
   with 1, the rules' lock_at in ``lock_at`` (a new reference). */
static int plain_deal(PyObject *self, long deal_index, PyObject **lock_at, int *lock_six)
{
    PyObject *rules = SLOT(self, O_RULES), *source = SLOT(self, O_SOURCE);
    if (rules == NULL || source == NULL || Py_TYPE(source) != CARD_SOURCE) return 0;
    int found;
    /* V-LOCK-6 (issue 28, thirty-fourth pass): a locked seat's sixth card dealt here too */
    /* the rules' four reads kept per Rules object (forty-sixth pass) */
    PyObject *kept_lock_at;
    if ((found = p46_deal_rules(rules, lock_six, &kept_lock_at)) != 1) return found;
    PyObject *decks = PyObject_GetAttr(source, D_S_DECKS);
    if (decks == NULL) return -1;
    Py_ssize_t stacked = PyTuple_Check(decks) ? PyTuple_GET_SIZE(decks) : PY_SSIZE_T_MAX;
    Py_DECREF(decks);
    if (deal_index < stacked) return 0;
    *lock_at = Py_NewRef(kept_lock_at);
    if (*lock_at != Py_None && !PyLong_CheckExact(*lock_at)) {
        Py_CLEAR(*lock_at);
        return 0;
    }
    return 1;
}

/* A new list of ``n`` items ``item`` (borrowed), or of ``n`` new empty lists if NULL. */
static PyObject *list_of(Py_ssize_t n, PyObject *item)
{
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list != NULL && i < n; i++) {
        PyObject *value = item != NULL ? Py_NewRef(item) : PyList_New(0);
        if (value == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, value);
    }
    return list;
}

/* The shuffle without a Python call per card (twenty-sixth pass): for a generator of
   CPython's _random.Random layout whose getrandbits is _random.Random's, each draw of k <= 32
   bits is the next 32-bit output of the Mersenne Twister shifted right by 32 - k, exactly
   as _random.Random.getrandbits makes it (Modules/_randommodule.c, genrand_uint32), so the
   cards and the generator's state end as random.Random.shuffle leaves them. 1 if done, 0
   if the generator is another (then shuffle draws through getrandbits), -1 on an error. */
static PyObject *TWISTER_GETRANDBITS; /* _random.Random.getrandbits, found on first use */

static uint32_t twister_next(TwisterObject *self)
{
    enum { N = 624, M = 397 };
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y, *mt = self->state;
    if (self->index >= N) {
        int kk;
        for (kk = 0; kk < N - M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (M - N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[N - 1] = mt[M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        self->index = 0;
    }
    y = mt[self->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

static int shuffle_twister(PyObject *rng, PyObject *cards)
{
    PyTypeObject *type = Py_TYPE(rng);
    if (TWISTER == NULL || !PyType_IsSubtype(type, TWISTER)
        || type->tp_basicsize < (Py_ssize_t)sizeof(TwisterObject)
        || PyList_GET_SIZE(cards) > ((Py_ssize_t)1 << 31))
        return 0;
    if (TWISTER_GETRANDBITS == NULL
        && (TWISTER_GETRANDBITS = PyObject_GetAttr((PyObject *)TWISTER, S_GETRANDBITS)) == NULL)
        return -1;
    PyObject *own = PyObject_GetAttr((PyObject *)type, S_GETRANDBITS);
    if (own == NULL) return -1;
    Py_DECREF(own);
    if (own != TWISTER_GETRANDBITS) return 0; /* a subclass draws its own way */
    TwisterObject *twister = (TwisterObject *)rng;
    PyObject **items = ((PyListObject *)cards)->ob_item;
    for (Py_ssize_t i = PyList_GET_SIZE(cards) - 1; i > 0; i--) {
        uint32_t bound = (uint32_t)i + 1, j;
        int bits = 32 - __builtin_clz(bound);
        do j = twister_next(twister) >> (32 - bits); while (j >= bound);
        PyObject *a = items[i];
        items[i] = items[j];
        items[j] = a;
    }
    return 1;
}

static PyObject *start_plain_deal(PyObject *self, long n, long deal_number, long dealer,
                                  PyObject *lock_at, int lock_six);

static PyObject *start_deal(PyObject *self, PyObject *unused)
{
    (void)unused;
    long n = PyLong_AsLong(SLOT(self, O_PLAYERS));
    long deal_number = PyLong_AsLong(SLOT(self, O_DEAL_NUMBER));
    long dealer = PyLong_AsLong(SLOT(self, O_DEALER));
    if (PyErr_Occurred()) return NULL;
    PyObject *lock_at = NULL;
    int lock_six = 0;
    int plain_flow = n < 2 || n > 6 ? 0 : plain_deal(self, deal_number, &lock_at, &lock_six);
    if (plain_flow < 0) return NULL;
    if (!plain_flow) return PyObject_CallOneArg(D_PYTHON, self);
    PyObject *result = start_plain_deal(self, n, deal_number, dealer, lock_at, lock_six);
    Py_DECREF(lock_at);
    return result;
}

/* start_deal's plain flow; ``lock_at``: the rules' (None or an int); ``lock_six``: the
   rules' V-LOCK-6 (a locked seat is dealt a sixth card, in turn order after the five
   rounds, as Game._start_deal_python takes them from the top of the stock). */
static PyObject *start_plain_deal(PyObject *self, long n, long deal_number, long dealer,
                                  PyObject *lock_at, int lock_six)
{
    PyObject *scores = list_slot(self, O_SCORES), *events = list_slot(self, D_EVENTS);
    PyObject *event_count = SLOT(self, D_EVENT_COUNT), *pending = list_slot(self, O_PENDING);
    PyObject *pending_count = SLOT(self, O_PENDING_COUNT);
    PyObject *pending_offset = SLOT(self, O_PENDING_OFFSET);
    if (scores == NULL || events == NULL || pending == NULL || event_count == NULL
        || pending_count == NULL || pending_offset == NULL) {
        PyErr_SetString(PyExc_TypeError, "a game's lists are not lists");
        return NULL;
    }
    /* the generator: the game's own, copied first if a copy still shares it (Game._random) */
    PyObject *rng = SLOT(self, D_RNG);
    if (rng == NULL) {
        PyErr_SetString(PyExc_AttributeError, "the game has no generator");
        return NULL;
    }
    if (SLOT(self, D_RNG_SHARED) == Py_True) {
        if (set_slot(self, D_RNG, copy_random(NULL, rng)) < 0
            || set_slot(self, D_RNG_SHARED, Py_NewRef(Py_False)) < 0)
            return NULL;
        rng = SLOT(self, D_RNG);
    }
    Py_ssize_t known = PyLong_AsSsize_t(event_count);
    if (known > PyList_GET_SIZE(events)) known = PyList_GET_SIZE(events);
    Py_ssize_t start_event = known + PyLong_AsSsize_t(pending_offset)
                             + PyLong_AsSsize_t(pending_count);
    if (PyErr_Occurred()) return NULL;
    deal_number += 1;
    dealer = (dealer + 1) % n;
    /* _reset_deal_state */
    PyObject *zeros = small_int(0);
    int failed = set_slot(self, O_DEAL_NUMBER, PyLong_FromLong(deal_number)) < 0
        || set_slot(self, O_DEALER, small_int(dealer)) < 0
        || set_slot(self, O_DISCARDS, PyList_New(0)) < 0
        || set_slot(self, O_OWN_DISCARDS, list_of(n, NULL)) < 0
        || set_slot(self, O_LOCKED, list_of(n, Py_False)) < 0
        || set_slot(self, D_HIGHEST, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_ANNOUNCED, PyList_New(0)) < 0
        || set_slot(self, O_PROTECTED, list_of(n, zeros)) < 0
        || set_slot(self, O_CATEGORIES, list_of(n, Py_None)) < 0
        || set_slot(self, O_PENDING_ONE_UP, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_QUADS_CLAIMS, PyList_New(0)) < 0
        || set_slot(self, D_QUADS_CHOICE, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_DECLARER, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_TRICK, PyList_New(0)) < 0
        || set_slot(self, O_TRICK_NUMBER, small_int(0)) < 0
        || set_slot(self, O_TRICKS, PyList_New(0)) < 0
        || set_slot(self, O_PLAYED, list_of(n, NULL)) < 0
        || set_slot(self, O_ON_GAME, list_of(n, Py_False)) < 0
        || set_slot(self, D_LAST_TRICK_WINNER, Py_NewRef(Py_None)) < 0
        || set_slot(self, D_DEAL_START_EVENT, PyLong_FromSsize_t(start_event)) < 0
        || set_slot(self, O_DEAL_START_SCORES, PyList_GetSlice(scores, 0, PY_SSIZE_T_MAX)) < 0
        || set_slot(self, D_MEMO, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_SHOWN, PyDict_New()) < 0
        || set_slot(self, O_ONE_UP_CARD, Py_NewRef(Py_None)) < 0;
    Py_DECREF(zeros);
    if (failed) return NULL;
    if (lock_at != Py_None) { /* V-LOCK: a seat at lock_at or more sits the deal out */
        PyObject *locked = list_slot(self, O_LOCKED);
        for (Py_ssize_t i = 0; i < n && i < PyList_GET_SIZE(scores); i++) {
            int at = PyObject_RichCompareBool(PyList_GET_ITEM(scores, i), lock_at, Py_GE);
            if (at < 0) return NULL;
            Py_SETREF(((PyListObject *)locked)->ob_item[i], Py_NewRef(at ? Py_True : Py_False));
        }
    }
    /* the deck, shuffled as CardSource.deck shuffles it; dealt as the plain flow deals */
    PyObject *deck = PyList_New(52);
    if (deck == NULL) return NULL;
    for (int c = 0; c < 52; c++) PyList_SET_ITEM(deck, c, Py_NewRef(DECK[c]));
    PyObject *args = PyTuple_Pack(2, rng, deck);
    PyObject *done = args == NULL ? NULL : shuffle(NULL, args);
    Py_XDECREF(args);
    if (done == NULL) {
        Py_DECREF(deck);
        return NULL;
    }
    Py_DECREF(done);
    /* V-LOCK-6: the seats dealt a sixth card (locked ones, only when lock_at is set) */
    long sixth = 0;
    PyObject *locked_now = list_slot(self, O_LOCKED);
    if (lock_six && lock_at != Py_None && locked_now != NULL)
        for (long i = 0; i < n && i < PyList_GET_SIZE(locked_now); i++)
            sixth += PyList_GET_ITEM(locked_now, i) == Py_True;
    PyObject *hands = PyList_New(n), *order = PyList_New(n);
    PyObject *stock = PyList_New(52 - 5 * n - sixth);
    if (hands == NULL || order == NULL || stock == NULL) goto fail;
    long next_card = 5 * n;
    for (long i = 0; i < n; i++) {
        long seat = (dealer + 1 + i) % n;
        PyObject *hand = PyList_New(5);
        if (hand == NULL) goto fail;
        for (long k = 0; k < 5; k++)
            PyList_SET_ITEM(hand, k, Py_NewRef(PyList_GET_ITEM(deck, i + k * n)));
        PyList_SET_ITEM(hands, seat, hand);
        PyList_SET_ITEM(order, i, small_int(seat));
    }
    for (long i = 0; sixth && i < n; i++) { /* after the five rounds, in turn order */
        long seat = (dealer + 1 + i) % n;
        if (seat < PyList_GET_SIZE(locked_now) && PyList_GET_ITEM(locked_now, seat) == Py_True
            && PyList_Append(PyList_GET_ITEM(hands, seat),
                             PyList_GET_ITEM(deck, next_card++)) < 0)
            goto fail;
    }
    for (Py_ssize_t k = 0; k < 52 - next_card; k++) /* the stock: next card last */
        PyList_SET_ITEM(stock, k, Py_NewRef(PyList_GET_ITEM(deck, 51 - k)));
    Py_CLEAR(deck);
    /* the records: the deal, then each seat's hand in turn order */
    PyObject *score_tuple = PyList_AsTuple(scores);
    PyObject *locked = list_slot(self, O_LOCKED);
    PyObject *locked_tuple = locked == NULL ? NULL : PyList_AsTuple(locked);
    PyObject *number = PyLong_FromLong(deal_number), *dealer_object = small_int(dealer);
    PyObject *record = score_tuple == NULL || locked_tuple == NULL || number == NULL
        ? NULL : PyTuple_Pack(5, D_R_DEAL, number, dealer_object, score_tuple, locked_tuple);
    Py_XDECREF(score_tuple);
    Py_XDECREF(locked_tuple);
    Py_XDECREF(number);
    Py_DECREF(dealer_object);
    if (record == NULL) goto fail;
    plain_deep(record);
    failed = PyList_Append(pending, record);
    Py_DECREF(record);
    for (long i = 0; !failed && i < n; i++) {
        PyObject *seat = PyList_GET_ITEM(order, i);
        PyObject *cards = PyList_AsTuple(PyList_GET_ITEM(hands, PyLong_AsLong(seat)));
        record = cards == NULL ? NULL : PyTuple_Pack(3, D_R_DEALT, seat, cards);
        Py_XDECREF(cards);
        if (record == NULL) goto fail;
        plain_deep(record);
        failed = PyList_Append(pending, record);
        Py_DECREF(record);
    }
    if (failed) goto fail;
    long counted = PyLong_AsLong(pending_count); /* (the slot is still the one read above) */
    if (counted == -1 && PyErr_Occurred()) goto fail;
    if (set_slot(self, O_PENDING_COUNT, p43_count(counted + 1 + n)) < 0
        || set_slot(self, O_HANDS, hands) < 0) {
        hands = NULL;
        goto fail;
    }
    hands = NULL;
    if (set_slot(self, O_STOCK, stock) < 0) {
        stock = NULL;
        goto fail;
    }
    stock = NULL;
    /* _begin_exchange(0): round 0, its counts, the turns from the dealer's left */
    if (set_slot(self, O_ROUND, small_int(0)) < 0
        || set_slot(self, O_EXCHANGE_COUNTS, list_of(1, NULL)) < 0)
        goto fail;
    PyObject *counts = list_of(n, SMALL_INTS[0]);
    if (counts == NULL) goto fail;
    if (PyList_SetItem(SLOT(self, O_EXCHANGE_COUNTS), 0, counts) < 0) goto fail;
    if (set_slot(self, O_PHASE, Py_NewRef(PH_EXCHANGE)) < 0
        || set_slot(self, O_ORDER, order) < 0) {
        order = NULL;
        goto fail;
    }
    if (set_slot(self, O_TURN, small_int(0)) < 0) return NULL;
    Py_RETURN_NONE;
fail:
    Py_XDECREF(deck);
    Py_XDECREF(hands);
    Py_XDECREF(order);
    Py_XDECREF(stock);
    return NULL;
}

/* ------------------------------------------------------------------ taken tricks
 * (issue 28, twenty-sixth pass). views._taken in C: the view of a taken trick ``(winner,
 * plays)``, from views._TAKEN if it is there, else made (a TakenTrick of views._PLAYED's
 * PlayedCards, its slots set as its dataclass __init__ sets them) and kept there, the memo
 * emptied when it holds 4,096, as views._taken_python does. Game._end_deal makes a deal's
 * record with its five taken tricks, which a random playout never saw before: the making
 * was a third of the deal's end in Python.
 */
static PyTypeObject *TK_TYPE;     /* viewtypes.TakenTrick */
static PyObject *TK_PLAYED, *TK_MEMO, *TK_PYTHON; /* views._PLAYED, _TAKEN, _taken_python */
static Py_ssize_t TK_WINNER, TK_CARDS;

static PyObject *install_taken(PyObject *module, PyObject *config)
{
    PyObject *type;
    if (!PyDict_Check(config) || !(type = take(config, "TakenTrick"))
        || !(TK_PLAYED = take(config, "PLAYED")) || !(TK_MEMO = take(config, "TAKEN"))
        || !(TK_PYTHON = take(config, "taken")))
        return NULL;
    if (!PyType_Check(type) || !PyTuple_CheckExact(TK_PLAYED) || !PyDict_CheckExact(TK_MEMO)
        || offset_of(type, "winner", &TK_WINNER) < 0 || offset_of(type, "cards", &TK_CARDS) < 0
        || ((PyTypeObject *)type)->tp_init == NULL) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "install_taken(): not views' tables");
        return NULL;
    }
    TK_TYPE = (PyTypeObject *)type;
    Py_RETURN_NONE;
}

static PyObject *taken_trick(PyObject *module, PyObject *trick)
{
    if (TK_TYPE == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "install_taken() first");
        return NULL;
    }
    if (!PyTuple_CheckExact(trick) || PyTuple_GET_SIZE(trick) != 2
        || !PyTuple_CheckExact(PyTuple_GET_ITEM(trick, 1)))
        return PyObject_CallOneArg(TK_PYTHON, trick);
#if P46_KNOWN_HASH /* the key hashed once for the look-up and the store (forty-sixth pass) */
    Py_hash_t hash = PyObject_Hash(trick);
    if (hash == -1) return NULL;
    PyObject *found = _PyDict_GetItem_KnownHash(TK_MEMO, trick, hash);
#else
    PyObject *found = PyDict_GetItemWithError(TK_MEMO, trick);
#endif
    if (found != NULL) return Py_NewRef(found);
    if (PyErr_Occurred()) return NULL;
    PyObject *winner = PyTuple_GET_ITEM(trick, 0), *plays = PyTuple_GET_ITEM(trick, 1);
    Py_ssize_t n = PyTuple_GET_SIZE(plays);
    PyObject *cards = PyTuple_New(n);
    if (cards == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *play = PyTuple_GET_ITEM(plays, i);
        long seat = -1, card = -1;
        if (PyTuple_CheckExact(play) && PyTuple_GET_SIZE(play) == 2
            && PyLong_Check(PyTuple_GET_ITEM(play, 0)) && PyLong_Check(PyTuple_GET_ITEM(play, 1))) {
            seat = PyLong_AsLong(PyTuple_GET_ITEM(play, 0));
            card = PyLong_AsLong(PyTuple_GET_ITEM(play, 1));
        }
        if (seat < 0 || seat >= PyTuple_GET_SIZE(TK_PLAYED) || card < 0
            || card >= PyTuple_GET_SIZE(PyTuple_GET_ITEM(TK_PLAYED, seat))) {
            Py_DECREF(cards); /* anything else: Python's answer (or its error) */
            PyErr_Clear();
            return PyObject_CallOneArg(TK_PYTHON, trick);
        }
        PyTuple_SET_ITEM(cards, i,
                         Py_NewRef(PyTuple_GET_ITEM(PyTuple_GET_ITEM(TK_PLAYED, seat), card)));
    }
    PyObject *made = TK_TYPE->tp_alloc(TK_TYPE, 0);
    if (made == NULL) {
        Py_DECREF(cards);
        return NULL;
    }
    SLOT(made, TK_WINNER) = Py_NewRef(winner);
    SLOT(made, TK_CARDS) = cards;
    if (PyDict_GET_SIZE(TK_MEMO) >= 4096) PyDict_Clear(TK_MEMO);
#if P46_KNOWN_HASH
    if (_PyDict_SetItem_KnownHash(TK_MEMO, trick, made, hash) < 0) {
#else
    if (PyDict_SetItem(TK_MEMO, trick, made) < 0) {
#endif
        Py_DECREF(made);
        return NULL;
    }
    return made;
}

/* ------------------------------------------------------------------ announcement results
 * (issue 28, twenty-eighth pass). Game._resolve_announcements in C: the end of a scoring
 * round (R-ANN-1 ... R-ANN-3), the largest of the Python steps between turns in a random
 * pagat deal (twice a deal). It does the rounds of rules without V-QUADS-* (reset, end of
 * deal, to target), instant wins (V-SF-WIN, V-ROYAL), a suit order for ties or V-CHI-REQ3:
 * everyone passed, a tie by category or by the staged reveals, a best hand scored, the
 * combinations shown protected (show_on_break), then the next exchange round; the same
 * state and the same records as Game._resolve_announcements_python, which does any other
 * round, and any round whose hands do not fit the announcements (its WorldError).
 */
static PyObject *RA_PYTHON, *RA_EVALUATE, *RA_SIZES; /* the Python method, evaluate, sizes */
static PyObject *RA_R_ROUND_RESULT, *RA_R_SCORE, *RA_R_REVEAL; /* the records' kinds */
static PyObject *RA_S_CATEGORY, *RA_S_CARDS, *RA_S_REVEAL_STAGES, *RA_S_POINTS_FOR;
static PyObject *RA_PASSED, *RA_TIE, *RA_BEST; /* the round results' words */
static Py_ssize_t RA_MADE_REQUIRED;
/* the rules last read (a strong reference) and what they say here */
static PyObject *RA_RULES;
static int RA_COVERED, RA_BY_CATEGORY, RA_SHOW_ON_BREAK, RA_NEGATIVE;

static int install_resolve(PyObject *game, PyObject *config)
{
    if (offset_of(game, "_made_required", &RA_MADE_REQUIRED) < 0
        || !(RA_PYTHON = take(config, "resolve_announcements"))
        || !(RA_EVALUATE = take(config, "evaluate"))
        || !(RA_SIZES = take(config, "COMBINATION_SIZE"))
        || !(RA_R_ROUND_RESULT = take(config, "RoundResult"))
        || !(RA_R_SCORE = take(config, "Score")) || !(RA_R_REVEAL = take(config, "Reveal"))
        || !(RA_S_CATEGORY = PyUnicode_InternFromString("category"))
        || !(RA_S_CARDS = PyUnicode_InternFromString("cards"))
        || !(RA_S_REVEAL_STAGES = PyUnicode_InternFromString("reveal_stages"))
        || !(RA_S_POINTS_FOR = PyUnicode_InternFromString("points_for"))
        || !(RA_PASSED = PyUnicode_InternFromString("everyone passed"))
        || !(RA_TIE = PyUnicode_InternFromString("tie"))
        || !(RA_BEST = PyUnicode_InternFromString("best hand")))
        return -1;
    if (!PyDict_Check(RA_SIZES)) {
        PyErr_SetString(PyExc_TypeError, "COMBINATION_SIZE must be a dict");
        return -1;
    }
    return 0;
}

/* Read what the rules say of a round into RA_* (once for each rules object). 0, or -1. */
static int ra_read_rules(PyObject *rules)
{
    if (rules == RA_RULES) return 0;
    static const char *off[] = {"quads_reset", "quads_end_deal", "quads_to_target",
                                "straight_flush_wins", "royal_wins"};
    int covered = 1, found;
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        PyObject *value = PyObject_GetAttrString(rules, off[i]);
        if (value == NULL) return -1;
        found = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (found < 0) return -1;
        if (found) covered = 0;
    }
    PyObject *suit_order = PyObject_GetAttrString(rules, "suit_order");
    if (suit_order == NULL) return -1;
    if (suit_order != Py_None) covered = 0;
    Py_DECREF(suit_order);
    PyObject *tie_mode = PyObject_GetAttrString(rules, "tie_mode");
    if (tie_mode == NULL) return -1;
    int by_category = PyUnicode_Check(tie_mode)
        && PyUnicode_CompareWithASCIIString(tie_mode, "category") == 0;
    Py_DECREF(tie_mode);
    PyObject *show = PyObject_GetAttrString(rules, "show_on_break");
    int show_on_break = show == NULL ? -1 : PyObject_IsTrue(show);
    Py_XDECREF(show);
    PyObject *negative = PyObject_GetAttrString(rules, "negative_scores");
    int negative_scores = negative == NULL ? -1 : PyObject_IsTrue(negative);
    Py_XDECREF(negative);
    if (show_on_break < 0 || negative_scores < 0) return -1;
    Py_XSETREF(RA_RULES, Py_NewRef(rules));
    RA_COVERED = covered;
    RA_BY_CATEGORY = by_category;
    RA_SHOW_ON_BREAK = show_on_break;
    RA_NEGATIVE = negative_scores;
    return 0;
}

/* Note a record (a new tuple, stolen) as Game._emit does. 0, or -1. */
static int ra_emit(PyObject *self, PyObject *record)
{
    if (record == NULL) return -1;
    plain(record);
    PyObject *pending = list_slot(self, O_PENDING);
    int failed = pending == NULL ? -1 : PyList_Append(pending, record);
    if (pending == NULL) PyErr_SetString(PyExc_TypeError, "Game._pending is not a list");
    Py_DECREF(record);
    if (failed) return -1;
    long count = PyLong_AsLong(SLOT(self, O_PENDING_COUNT));
    if (count == -1 && PyErr_Occurred()) return -1;
    return set_slot(self, O_PENDING_COUNT, p43_count(count + 1));
}

/* Game._begin_exchange(round_index): its counts, the turns from the dealer's left (to_act
   left as it was, as Game._start_turns leaves it). 0, or -1. */
static int ra_begin_exchange(PyObject *self, long round_index, long n)
{
    PyObject *counts = list_slot(self, O_EXCHANGE_COUNTS);
    if (counts == NULL) {
        PyErr_SetString(PyExc_TypeError, "Game.exchange_counts is not a list");
        return -1;
    }
    if (set_slot(self, O_ROUND, PyLong_FromLong(round_index)) < 0) return -1;
    PyObject *zeros = list_of(n, SMALL_INTS[0]);
    if (zeros == NULL) return -1;
    int failed = PyList_Append(counts, zeros);
    Py_DECREF(zeros);
    if (failed) return -1;
    PyObject *to_act = Py_NewRef(SLOT(self, O_TO_ACT));
    if (start_turns(self, PH_EXCHANGE, -1) < 0) {
        Py_DECREF(to_act);
        return -1;
    }
    return set_slot(self, O_TO_ACT, to_act);
}

#define RA_MAX 8

static PyObject *resolve_announcements(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *rules = SLOT(self, O_RULES), *announced = list_slot(self, O_ANNOUNCED);
    PyObject *hands = list_slot(self, O_HANDS), *scores = list_slot(self, O_SCORES);
    PyObject *protected = list_slot(self, O_PROTECTED);
    if (rules == NULL || announced == NULL || hands == NULL || scores == NULL
        || protected == NULL || SLOT(self, RA_MADE_REQUIRED) != Py_False)
        return PyObject_CallOneArg(RA_PYTHON, self);
    if (ra_read_rules(rules) < 0) return NULL;
    long n = PyLong_AsLong(SLOT(self, O_PLAYERS)), round = PyLong_AsLong(SLOT(self, O_ROUND));
    if (PyErr_Occurred()) return NULL;
    if (!RA_COVERED || n < 2 || n > RA_MAX || PyList_GET_SIZE(hands) != n
        || PyList_GET_SIZE(scores) != n || PyList_GET_SIZE(protected) != n)
        return PyObject_CallOneArg(RA_PYTHON, self);
    /* the claims: the highest category and the seats that claimed it, in turn order */
    PyObject *top = NULL, *tied_seat[RA_MAX];
    long tied[RA_MAX];
    int count = 0;
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(announced); i++) {
        PyObject *item = PyList_GET_ITEM(announced, i);
        if (!PyTuple_CheckExact(item) || PyTuple_GET_SIZE(item) != 2
            || !PyLong_CheckExact(PyTuple_GET_ITEM(item, 0)))
            return PyObject_CallOneArg(RA_PYTHON, self);
        PyObject *claim = PyTuple_GET_ITEM(item, 1);
        if (claim == Py_None) continue;
        long seat = PyLong_AsLong(PyTuple_GET_ITEM(item, 0));
        if (seat < 0 || seat >= n || count >= RA_MAX) {
            PyErr_Clear();
            return PyObject_CallOneArg(RA_PYTHON, self);
        }
        int higher = top == NULL ? 1 : PyObject_RichCompareBool(claim, top, Py_GT);
        if (higher < 0) return NULL;
        if (higher) {
            top = claim;
            count = 0;
        } else {
            int same = PyObject_RichCompareBool(claim, top, Py_EQ);
            if (same < 0) return NULL;
            if (!same) continue;
        }
        tied_seat[count] = PyTuple_GET_ITEM(item, 0);
        tied[count++] = seat;
    }
    PyObject *round_number = PyLong_FromLong(round + 1);
    if (round_number == NULL) return NULL;
    if (top == NULL) { /* everyone passed */
        PyObject *record = P46(6, RA_R_ROUND_RESULT, round_number, Py_None, Py_None,
                                        SMALL_INTS[0], RA_PASSED);
        Py_DECREF(round_number);
        if (ra_emit(self, record) < 0 || ra_begin_exchange(self, round + 1, n) < 0)
            return NULL;
        Py_RETURN_NONE;
    }
    /* the tied hands' values (all read before anything changes: any surprise is Python's) */
    PyObject *values[RA_MAX] = {NULL}, *stages[RA_MAX] = {NULL};
    PyObject *result = NULL, *reason = NULL, *points = NULL;
    uint64_t masks[RA_MAX] = {0};
    int python = 0, staged = count > 1 && !RA_BY_CATEGORY;
    Py_ssize_t depth = 0;
    long size = 0;
    if (RA_SHOW_ON_BREAK) {
        PyObject *size_object = PyDict_GetItemWithError(RA_SIZES, top);
        if (size_object == NULL) {
            if (PyErr_Occurred()) goto done;
            python = 1;
            goto done;
        }
        size = PyLong_AsLong(size_object);
        if (size == -1 && PyErr_Occurred()) goto done;
    }
    for (int i = 0; i < count; i++) {
        values[i] = PyObject_CallFunctionObjArgs(RA_EVALUATE, PyList_GET_ITEM(hands, tied[i]),
                                                 rules, NULL);
        if (values[i] == NULL) goto done;
        PyObject *category = PyObject_GetAttr(values[i], RA_S_CATEGORY);
        if (category == NULL) goto done;
        Py_DECREF(category);
        if (category != top) { /* these hands do not fit: Python's WorldError */
            python = 1;
            goto done;
        }
        if (RA_SHOW_ON_BREAK) {
            PyObject *cards = PyObject_GetAttr(values[i], RA_S_CARDS);
            if (cards == NULL) goto done;
            int fits = PyTuple_CheckExact(cards) && PyTuple_GET_SIZE(cards) >= size;
            for (long k = 0; fits && k < size; k++) {
                long card = PyLong_AsLong(PyTuple_GET_ITEM(cards, k));
                if (card < 0 || card > 63) fits = 0;
                else masks[i] |= (uint64_t)1 << card;
            }
            Py_DECREF(cards);
            if (PyErr_Occurred()) goto done;
            if (!fits) {
                python = 1;
                goto done;
            }
        }
        if (staged) {
            stages[i] = PyObject_CallMethodNoArgs(values[i], RA_S_REVEAL_STAGES);
            if (stages[i] == NULL) goto done;
            if (!PyTuple_CheckExact(stages[i])
                || (i > 0 && PyTuple_GET_SIZE(stages[i]) != depth)) {
                python = 1;
                goto done;
            }
            depth = PyTuple_GET_SIZE(stages[i]);
            for (Py_ssize_t k = 0; k < depth; k++)
                if (!PyLong_CheckExact(PyTuple_GET_ITEM(stages[i], k))) {
                    python = 1;
                    goto done;
                }
        }
    }
    /* show_on_break: the tied combinations are protected */
    for (int i = 0; RA_SHOW_ON_BREAK && i < count; i++) {
        PyObject *old = PyList_GET_ITEM(protected, tied[i]);
        PyObject *mask = PyLong_FromUnsignedLongLong(masks[i]);
        PyObject *new = mask == NULL ? NULL : PyNumber_Or(old, mask);
        Py_XDECREF(mask);
        if (new == NULL || PyList_SetItem(protected, tied[i], new) < 0) goto done;
    }
    /* the tie-break (R-ANN-3): the only claimer, or the staged reveals among the tied */
    int winner = count == 1 ? 0 : -1;
    if (staged) {
        int remaining[RA_MAX], left = count;
        for (int i = 0; i < count; i++) remaining[i] = i;
        for (Py_ssize_t index = 0; index < depth && winner < 0; index++) {
            PyObject *stage = PyLong_FromSsize_t(index + 1);
            if (stage == NULL) goto done;
            long best = LONG_MIN;
            for (int r = 0; r < left; r++) {
                int i = remaining[r];
                PyObject *rank = PyTuple_GET_ITEM(stages[i], index);
                long value = PyLong_AsLong(rank);
                if (value == -1 && PyErr_Occurred()) break;
                if (value > best) best = value;
                if (ra_emit(self, PyTuple_Pack(4, RA_R_REVEAL, tied_seat[i], stage, rank)) < 0)
                    break;
            }
            Py_DECREF(stage);
            if (PyErr_Occurred()) goto done;
            int kept = 0;
            for (int r = 0; r < left; r++)
                if (PyLong_AsLong(PyTuple_GET_ITEM(stages[remaining[r]], index)) == best)
                    remaining[kept++] = remaining[r];
            left = kept;
            if (left == 1) winner = remaining[0];
        }
    }
    if (winner < 0) { /* a tie: nobody scores */
        if (ra_emit(self, P46(6, RA_R_ROUND_RESULT, round_number, Py_None, top,
                                       SMALL_INTS[0], RA_TIE)) < 0
            || ra_begin_exchange(self, round + 1, n) < 0)
            goto done;
        result = Py_NewRef(Py_None);
        goto done;
    }
    /* the best hand scores (Game._score_hand, _add_score; no instant win here) */
    points = p46_points_for(rules, top);
    if (points == NULL) goto done;
    PyObject *seat = tied_seat[winner];
    if (ra_emit(self, P46(6, RA_R_ROUND_RESULT, round_number, seat, top, points,
                                   RA_BEST)) < 0)
        goto done;
    PyObject *total = PyNumber_Add(PyList_GET_ITEM(scores, tied[winner]), points);
    if (total == NULL) goto done;
    if (!RA_NEGATIVE) {
        int below = PyObject_RichCompareBool(total, SMALL_INTS[0], Py_LT);
        if (below < 0) {
            Py_DECREF(total);
            goto done;
        }
        if (below) Py_SETREF(total, Py_NewRef(SMALL_INTS[0]));
    }
    if (PyList_SetItem(scores, tied[winner], Py_NewRef(total)) < 0) {
        Py_DECREF(total);
        goto done;
    }
    reason = p43_reason(round + 1); /* kept (forty-third pass) */
    if (reason == NULL) {
        Py_DECREF(total);
        goto done;
    }
    PyObject *record = P46(5, RA_R_SCORE, seat, points, reason, total);
    Py_DECREF(total);
    if (ra_emit(self, record) < 0 || ra_begin_exchange(self, round + 1, n) < 0) goto done;
    result = Py_NewRef(Py_None);
done:
    Py_DECREF(round_number);
    Py_XDECREF(points);
    Py_XDECREF(reason);
    for (int i = 0; i < count; i++) {
        Py_XDECREF(values[i]);
        Py_XDECREF(stages[i]);
    }
    if (python && result == NULL && !PyErr_Occurred())
        return PyObject_CallOneArg(RA_PYTHON, self);
    return result;
}

/* ------------------------------------------------------------------ the deal's end
 * (issue 28, thirtieth pass). Game._resolve_trick in C with what follows a deal's last
 * trick: a broken Chicago (R-CHI-*), a made one, the last trick's points, the final
 * showdown (R-FIN-1, Game._final_showdown) and the end of the deal (Game._end_deal: its
 * DealRecord, the game's winners and settlement, or the next deal). It does the rules
 * without V-CHI-REQ3 (made), instant wins (V-SF-WIN, V-ROYAL), V-QUADS-52 or win-again, in
 * a game with no instant winner, and tricks of the deck's Card objects: the same state and
 * the same records as Game._resolve_trick_python, which does anything else. The next deal
 * is Game._start_deal (C or Python, as the class has it). The show of a hand whose discard
 * breaks a protected combination (Game._show_if_breaking, R-EX-4) is here too: after the
 * deal's end it was the largest step of a random deal left in Python.
 *
 * apply() calls it (and the C _resolve_announcements) directly at the end of a trick or a
 * scoring round when the game's class has the C method, and then finds the next seat to act
 * in C (end_turns below); the end of the last exchange round opens the Chicago round or the
 * play in C too. Anything else goes to Game._advance as before.
 */
static PyObject *RT_PYTHON, *RT_SETTLE, *RT_TAKEN_TRICKS, *RT_PH_OVER;
static PyObject *RT_SHOW_PYTHON, *RT_R_SHOW, *RT_BREAKS; /* _show_if_breaking's */
static PyObject *RT_R_CHICAGO_RESULT, *RT_R_SHOWDOWN, *RT_R_DEAL_END, *RT_R_GAME_END;
static PyObject *RT_FAILED, *RT_BROKE, *RT_CHICAGO, *RT_LAST, *RT_FINAL; /* Score reasons */
static PyObject *RT_S_START_DEAL, *RT_S_RESOLVE_TRICK, *RT_S_RESOLVE_ANNOUNCEMENTS;
static PyTypeObject *RT_DEAL_RECORD;
static Py_ssize_t RT_INSTANT_WINNER, RT_DR_DEAL, RT_DR_DEALER, RT_DR_POINTS, RT_DR_SCORES,
    RT_DR_TRICKS, RT_DR_CHICAGO;
/* the rules last read (a strong reference) and what they say here */
static PyObject *RT_RULES, *RT_MAX_DEALS;
static int RT_COVERED, RT_NEGATIVE, RT_BY_CATEGORY, RT_DEUCE, RT_FINAL_SHOWDOWN, RT_DECLARED,
    RT_QUADS_RESET, RT_CHICAGO_ENABLED;
static long RT_CHICAGO_POINTS, RT_BREAKER, RT_DEUCE_CHICAGO, RT_LAST_POINTS, RT_TARGET,
    RT_EXCHANGES;

static int install_deal_end(PyObject *game, PyObject *config)
{
    PyObject *record;
    if (offset_of(game, "_instant_winner", &RT_INSTANT_WINNER) < 0
        || !(RT_PYTHON = take(config, "resolve_trick")) || !(RT_SETTLE = take(config, "settle"))
        || !(RT_TAKEN_TRICKS = take(config, "taken_tricks"))
        || !(RT_PH_OVER = take(config, "OVER"))
        || !(RT_R_CHICAGO_RESULT = take(config, "ChicagoResult"))
        || !(RT_R_SHOWDOWN = take(config, "Showdown"))
        || !(RT_R_DEAL_END = take(config, "DealEnd"))
        || !(RT_R_GAME_END = take(config, "GameEnd"))
        || !(RT_SHOW_PYTHON = take(config, "show_if_breaking"))
        || !(RT_R_SHOW = take(config, "Show"))
        || !(RT_BREAKS = PyUnicode_InternFromString(
                 "breaks a combination announced as highest"))
        || !(record = take(config, "DealRecord")))
        return -1;
    if (!PyType_Check(record) || offset_of(record, "deal", &RT_DR_DEAL) < 0
        || offset_of(record, "dealer", &RT_DR_DEALER) < 0
        || offset_of(record, "points", &RT_DR_POINTS) < 0
        || offset_of(record, "scores", &RT_DR_SCORES) < 0
        || offset_of(record, "tricks", &RT_DR_TRICKS) < 0
        || offset_of(record, "chicago", &RT_DR_CHICAGO) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "DealRecord must be a class");
        return -1;
    }
    RT_DEAL_RECORD = (PyTypeObject *)record;
    if (!(RT_FAILED = PyUnicode_InternFromString("Chicago failed"))
        || !(RT_BROKE = PyUnicode_InternFromString("broke the Chicago"))
        || !(RT_CHICAGO = PyUnicode_InternFromString("Chicago"))
        || !(RT_LAST = PyUnicode_InternFromString("last trick"))
        || !(RT_FINAL = PyUnicode_InternFromString("final showdown"))
        || !(RT_S_START_DEAL = PyUnicode_InternFromString("_start_deal"))
        || !(RT_S_RESOLVE_TRICK = PyUnicode_InternFromString("_resolve_trick"))
        || !(RT_S_RESOLVE_ANNOUNCEMENTS = PyUnicode_InternFromString("_resolve_announcements")))
        return -1;
    return 0;
}

/* A rule as a C long (an int rule), 0 or -1. */
static int rt_long(PyObject *rules, const char *name, long *out)
{
    PyObject *value = PyObject_GetAttrString(rules, name);
    if (value == NULL) return -1;
    *out = PyLong_Check(value) ? PyLong_AsLong(value) : -1;
    int failed = (*out == -1 && PyErr_Occurred()) || !PyLong_Check(value);
    if (!PyLong_Check(value)) RT_COVERED = 0; /* not an int: Python's arithmetic */
    Py_DECREF(value);
    return failed && PyErr_Occurred() ? -1 : 0;
}

/* A rule's truth (``equal``: or whether it is that text), 0/1, or -1. */
static int rt_flag(PyObject *rules, const char *name, const char *equal)
{
    PyObject *value = PyObject_GetAttrString(rules, name);
    if (value == NULL) return -1;
    int found = equal == NULL ? PyObject_IsTrue(value)
        : PyUnicode_Check(value) && PyUnicode_CompareWithASCIIString(value, equal) == 0;
    Py_DECREF(value);
    return found;
}

/* Read what the rules say of a deal's end into RT_* (once for each rules object). */
static int rt_read_rules(PyObject *rules)
{
    if (rules == RT_RULES) return 0;
    Py_CLEAR(RT_RULES);
    RT_COVERED = 1;
    static const char *off[] = {"straight_flush_wins", "royal_wins", "quads_to_target",
                                "win_again"};
    for (size_t i = 0; i < sizeof off / sizeof off[0]; i++) {
        int found = rt_flag(rules, off[i], NULL);
        if (found < 0) return -1;
        if (found) RT_COVERED = 0;
    }
    int made = rt_flag(rules, "chicago_required", "made");
    if ((RT_NEGATIVE = rt_flag(rules, "negative_scores", NULL)) < 0
        || (RT_BY_CATEGORY = rt_flag(rules, "tie_mode", "category")) < 0
        || (RT_DEUCE = rt_flag(rules, "deuce_bonus", NULL)) < 0
        || (RT_FINAL_SHOWDOWN = rt_flag(rules, "chicago_final_showdown", NULL)) < 0
        || (RT_DECLARED = rt_flag(rules, "chicago_required", "declared")) < 0
        || (RT_QUADS_RESET = rt_flag(rules, "quads_reset", NULL)) < 0
        || (RT_CHICAGO_ENABLED = rt_flag(rules, "chicago_enabled", NULL)) < 0 || made < 0
        || rt_long(rules, "chicago_points", &RT_CHICAGO_POINTS) < 0
        || rt_long(rules, "chicago_breaker_points", &RT_BREAKER) < 0
        || rt_long(rules, "deuce_chicago_points", &RT_DEUCE_CHICAGO) < 0
        || rt_long(rules, "last_trick_points", &RT_LAST_POINTS) < 0
        || rt_long(rules, "target", &RT_TARGET) < 0
        || rt_long(rules, "exchanges", &RT_EXCHANGES) < 0)
        return -1;
    if (made) RT_COVERED = 0; /* (Game._made_required is checked as well) */
    PyObject *max_deals = PyObject_GetAttrString(rules, "max_deals");
    if (max_deals == NULL) return -1;
    if (max_deals != Py_None && !PyLong_CheckExact(max_deals)) RT_COVERED = 0;
    Py_XSETREF(RT_MAX_DEALS, max_deals);
    RT_RULES = Py_NewRef(rules);
    return 0;
}

/* Game._add_score without V-CHI-REQ3 (not done here): the total raised to 0 unless
   negative scores are allowed, its Score record. 0, or -1. */
static int rt_add_score(PyObject *self, long seat, long points, PyObject *reason)
{
    PyObject *scores = list_slot(self, O_SCORES);
    if (scores == NULL || seat < 0 || seat >= PyList_GET_SIZE(scores)) {
        PyErr_SetString(PyExc_IndexError, "Game.scores has no entry for the seat");
        return -1;
    }
    long score = PyLong_AsLong(PyList_GET_ITEM(scores, seat));
    if (score == -1 && PyErr_Occurred()) return -1;
    long total = score + points;
    if (total < 0 && !RT_NEGATIVE) total = 0;
    PyObject *total_object = PyLong_FromLong(total);
    if (total_object == NULL) return -1;
    if (PyList_SetItem(scores, seat, Py_NewRef(total_object)) < 0) {
        Py_DECREF(total_object);
        return -1;
    }
    PyObject *seat_object = PyLong_FromLong(seat), *points_object = PyLong_FromLong(points);
    PyObject *record = seat_object == NULL || points_object == NULL ? NULL
        : P46(5, RA_R_SCORE, seat_object, points_object, reason, total_object);
    Py_XDECREF(seat_object);
    Py_XDECREF(points_object);
    Py_DECREF(total_object);
    return ra_emit(self, record);
}

/* A tuple of a list of ints (plain), or NULL. */
static PyObject *rt_tuple(PyObject *list)
{
    return plain(PyList_AsTuple(list));
}

/* Game._game_winners for the rules covered: a new list (empty: nobody won yet), or NULL. */
static PyObject *rt_winners(PyObject *self, long n, long deal_number)
{
    PyObject *scores = SLOT(self, O_SCORES), *declared = list_slot(self, O_DECLARED_CHICAGO);
    long eligible[16], count = 0, best = LONG_MIN;
    for (long s = 0; s < n; s++) {
        long score = PyLong_AsLong(PyList_GET_ITEM(scores, s));
        if (score == -1 && PyErr_Occurred()) return NULL;
        if (score < RT_TARGET) continue;
        if (RT_DECLARED) {
            if (declared == NULL || s >= PyList_GET_SIZE(declared)) {
                PyErr_SetString(PyExc_IndexError, "Game._declared_chicago has no such seat");
                return NULL;
            }
            int truth = PyObject_IsTrue(PyList_GET_ITEM(declared, s));
            if (truth < 0) return NULL;
            if (!truth) continue;
        }
        eligible[count++] = s;
    }
    if (count == 0 && RT_MAX_DEALS != Py_None) {
        long max_deals = PyLong_AsLong(RT_MAX_DEALS);
        if (max_deals == -1 && PyErr_Occurred()) return NULL;
        if (deal_number >= max_deals)
            for (long s = 0; s < n; s++) eligible[count++] = s;
    }
    for (long i = 0; i < count; i++) {
        long score = PyLong_AsLong(PyList_GET_ITEM(scores, eligible[i]));
        if (score > best) best = score;
    }
    PyObject *winners = PyList_New(0);
    for (long i = 0; winners != NULL && i < count; i++) {
        if (PyLong_AsLong(PyList_GET_ITEM(scores, eligible[i])) != best) continue;
        PyObject *seat = small_int(eligible[i]);
        if (seat == NULL || PyList_Append(winners, seat) < 0) Py_CLEAR(winners);
        Py_XDECREF(seat);
    }
    return winners;
}

/* Game._end_deal: the deal's record and DealEnd, then the game's end (its winners, GameEnd
   with the settlement) or the next deal. 0, or -1. */
static int rt_end_deal(PyObject *self, long n)
{
    PyObject *scores = SLOT(self, O_SCORES), *start = list_slot(self, O_DEAL_START_SCORES);
    PyObject *tricks = list_slot(self, O_TRICKS), *history = list_slot(self, O_DEAL_HISTORY);
    PyObject *deal = SLOT(self, O_DEAL_NUMBER), *dealer = SLOT(self, O_DEALER);
    if (start == NULL || tricks == NULL || history == NULL || PyList_GET_SIZE(start) != n) {
        PyErr_SetString(PyExc_TypeError, "Game's deal lists are not as expected");
        return -1;
    }
    long deal_number = PyLong_AsLong(deal);
    if (deal_number == -1 && PyErr_Occurred()) return -1;
    int status = -1;
    PyObject *gained = plain(PyTuple_New(n)), *totals = NULL, *taken = NULL, *summary = NULL;
    PyObject *winners = NULL;
    if (gained == NULL) goto done;
    for (long s = 0; s < n; s++) {
        PyObject *point = PyNumber_Subtract(PyList_GET_ITEM(scores, s),
                                            PyList_GET_ITEM(start, s));
        if (point == NULL) goto done;
        PyTuple_SET_ITEM(gained, s, point);
    }
    if ((totals = rt_tuple(scores)) == NULL) goto done;
    if (TK_TYPE != NULL) {
        Py_ssize_t count = PyList_GET_SIZE(tricks);
        if ((taken = PyTuple_New(count)) == NULL) goto done;
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *view = taken_trick(NULL, PyList_GET_ITEM(tricks, i));
            if (view == NULL) goto done;
            PyTuple_SET_ITEM(taken, i, view);
        }
    }
    else if ((taken = PyObject_CallOneArg(RT_TAKEN_TRICKS, tricks)) == NULL)
        goto done;
    /* the DealRecord, its slots set as its dataclass __init__ sets them */
    if ((summary = RT_DEAL_RECORD->tp_alloc(RT_DEAL_RECORD, 0)) == NULL) goto done;
    SLOT(summary, RT_DR_DEAL) = Py_NewRef(deal);
    SLOT(summary, RT_DR_DEALER) = Py_NewRef(dealer);
    SLOT(summary, RT_DR_POINTS) = Py_NewRef(gained);
    SLOT(summary, RT_DR_SCORES) = Py_NewRef(totals);
    SLOT(summary, RT_DR_TRICKS) = Py_NewRef(taken);
    SLOT(summary, RT_DR_CHICAGO) = Py_NewRef(SLOT(self, O_DECLARER));
    if (PyList_Append(history, summary) < 0) goto done;
    if (ra_emit(self, PyTuple_Pack(5, RT_R_DEAL_END, deal, dealer, gained, totals)) < 0)
        goto done;
    if ((winners = rt_winners(self, n, deal_number)) == NULL) goto done;
    if (PyList_GET_SIZE(winners) > 0) {
        if (set_slot(self, O_WINNERS, Py_NewRef(winners)) < 0
            || set_slot(self, O_PHASE, Py_NewRef(RT_PH_OVER)) < 0
            || set_slot(self, O_TO_ACT, Py_NewRef(Py_None)) < 0)
            goto done;
        PyObject *money = PyObject_CallFunctionObjArgs(RT_SETTLE, SLOT(self, O_SCORES),
                                                       SLOT(self, O_RULES), winners, NULL);
        PyObject *settled = money == NULL ? NULL : PySequence_Tuple(money);
        Py_XDECREF(money);
        PyObject *who = settled == NULL ? NULL : rt_tuple(winners);
        PyObject *end_scores = who == NULL ? NULL : rt_tuple(SLOT(self, O_SCORES));
        PyObject *record = end_scores == NULL ? NULL
            : PyTuple_Pack(4, RT_R_GAME_END, who, end_scores, settled);
        Py_XDECREF(settled);
        Py_XDECREF(who);
        Py_XDECREF(end_scores);
        if (ra_emit(self, record) < 0) goto done;
        status = 0;
        goto done;
    }
    PyObject *dealt = PyObject_CallMethodNoArgs(self, RT_S_START_DEAL);
    if (dealt == NULL) goto done;
    Py_DECREF(dealt);
    status = 0;
done:
    Py_XDECREF(gained);
    Py_XDECREF(totals);
    Py_XDECREF(taken);
    Py_XDECREF(summary);
    Py_XDECREF(winners);
    return status;
}

/* Game._final_showdown (R-FIN-1) for the rules covered: every seat's played cards are
   evaluated, the best hand scores (exact ties, or ties of category under tie_mode
   "category", score nothing), then the deal ends. 0, or -1. */
static int rt_showdown(PyObject *self, long n)
{
    PyObject *rules = SLOT(self, O_RULES), *played = list_slot(self, O_PLAYED);
    if (played == NULL || PyList_GET_SIZE(played) != n) {
        PyErr_SetString(PyExc_TypeError, "Game.played has no list for every seat");
        return -1;
    }
    PyObject *values[16] = {NULL}, *categories[16] = {NULL};
    PyObject *hands = NULL, *points = NULL, *winner_object = NULL;
    int status = -1;
    long top = 0, winner = -1, leaders = 0;
    for (long s = 0; s < n; s++) {
        values[s] = PyObject_CallFunctionObjArgs(RA_EVALUATE, PyList_GET_ITEM(played, s),
                                                 rules, NULL);
        if (values[s] == NULL) goto done;
        if ((categories[s] = PyObject_GetAttr(values[s], RA_S_CATEGORY)) == NULL) goto done;
        if (s > 0) { /* max(): the first of the greatest */
            int greater = PyObject_RichCompareBool(values[s], values[top], Py_GT);
            if (greater < 0) goto done;
            if (greater) top = s;
        }
    }
    for (long s = 0; s < n; s++) {
        int same = RT_BY_CATEGORY
            ? PyObject_RichCompareBool(categories[s], categories[top], Py_EQ)
            : PyObject_RichCompareBool(values[s], values[top], Py_EQ);
        if (same < 0) goto done;
        if (same && leaders++ == 0) winner = s;
    }
    if (leaders != 1) winner = -1;
    PyObject *category = categories[top];
    if (winner >= 0) points = p46_points_for(rules, category);
    else points = Py_NewRef(SMALL_INTS[0]);
    if (points == NULL) goto done;
    if ((hands = plain(PyTuple_New(n))) == NULL) goto done;
    for (long s = 0; s < n; s++) {
        PyObject *cards = PyObject_GetAttr(values[s], RA_S_CARDS);
        PyObject *held = cards == NULL ? NULL : plain(PySequence_Tuple(cards));
        Py_XDECREF(cards);
        if (held == NULL) goto done;
        PyTuple_SET_ITEM(hands, s, held);
    }
    winner_object = winner >= 0 ? small_int(winner) : Py_NewRef(Py_None);
    if (winner_object == NULL) goto done;
    if (ra_emit(self, PyTuple_Pack(5, RT_R_SHOWDOWN, winner_object, category, points,
                                   hands)) < 0)
        goto done;
    if (winner >= 0) {
        int positive = PyObject_RichCompareBool(points, SMALL_INTS[0], Py_GT);
        if (positive < 0) goto done;
        if (positive) {
            long amount = PyLong_AsLong(points);
            if (amount == -1 && PyErr_Occurred()) goto done;
            if (rt_add_score(self, winner, amount, RT_FINAL) < 0) goto done;
        }
    }
    status = rt_end_deal(self, n);
done:
    for (long s = 0; s < n; s++) {
        Py_XDECREF(values[s]);
        Py_XDECREF(categories[s]);
    }
    Py_XDECREF(hands);
    Py_XDECREF(points);
    Py_XDECREF(winner_object);
    return status;
}

static PyObject *resolve_trick(PyObject *self, PyObject *unused)
{
    (void)unused;
    PyObject *rules = SLOT(self, O_RULES), *trick = list_slot(self, O_TRICK);
    PyObject *tricks = list_slot(self, O_TRICKS), *declarer = SLOT(self, O_DECLARER);
    PyObject *scores = list_slot(self, O_SCORES), *made = list_slot(self, O_MADE_CHICAGO);
    PyObject *number = SLOT(self, O_TRICK_NUMBER), *players = SLOT(self, O_PLAYERS);
    if (rules == NULL || trick == NULL || tricks == NULL || declarer == NULL || scores == NULL
        || made == NULL || number == NULL || players == NULL || PyList_GET_SIZE(trick) == 0
        || !PyLong_CheckExact(number) || !PyLong_CheckExact(players)
        || (declarer != Py_None && !PyLong_CheckExact(declarer))
        || SLOT(self, RA_MADE_REQUIRED) != Py_False
        || SLOT(self, RT_INSTANT_WINNER) != Py_None || rt_read_rules(rules) < 0
        || !RT_COVERED)
        goto python;
    long n = PyLong_AsLong(players), trick_number = PyLong_AsLong(number);
    if (n < 2 || n > 16 || PyList_GET_SIZE(scores) != n || PyList_GET_SIZE(made) != n)
        goto python;
    for (long s = 0; s < n; s++)
        if (!PyLong_CheckExact(PyList_GET_ITEM(scores, s))) goto python;
    /* the trick: pairs (seat, card) of the deck's cards; the highest of the suit led wins */
    Py_ssize_t size = PyList_GET_SIZE(trick), best = 0;
    long best_card = -1, led = -1;
    for (Py_ssize_t i = 0; i < size; i++) {
        PyObject *pair = PyList_GET_ITEM(trick, i);
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2
            || !PyLong_CheckExact(PyTuple_GET_ITEM(pair, 0)))
            goto python;
        PyObject *card_object = PyTuple_GET_ITEM(pair, 1);
        long card = PyLong_Check(card_object) ? card_id(card_object) : -1;
        if (card < 0 || card > 51 || DECK[card] != card_object) {
            PyErr_Clear();
            goto python;
        }
        fold_trick_card(i, card, &best, &best_card, &led);
    }
    PyObject *winning = PyList_GET_ITEM(trick, best);
    PyObject *winner = PyTuple_GET_ITEM(winning, 0);
    long w = PyLong_AsLong(winner), d = -1;
    if (w < 0 || w >= n) {
        PyErr_Clear();
        goto python;
    }
    if (declarer != Py_None) {
        d = PyLong_AsLong(declarer);
        if (d < 0 || d >= n) {
            PyErr_Clear();
            goto python;
        }
    }
    if (trick_number < 5 && (d < 0 || d == w)) {
        /* not the last trick (as apply's next_trick does it; to_act left as it was) */
        PyObject *to_act = Py_NewRef(SLOT(self, O_TO_ACT));
        int done = next_trick(self);
        if (done <= 0) {
            Py_DECREF(to_act);
            if (done < 0) return NULL;
            goto python;
        }
        if (set_slot(self, O_TO_ACT, to_act) < 0) return NULL;
        Py_RETURN_NONE;
    }
    /* from here the state changes: the trick is taken */
    Py_INCREF(winner);
    PyObject *card = DECK[best_card], *result = NULL;
    PyObject *taken = plain(PyList_AsTuple(trick)), *entry = NULL;
    if (taken == NULL) goto done;
    entry = plain(PyTuple_Pack(2, winner, taken));
    if (entry == NULL || PyList_Append(tricks, entry) < 0) goto done;
    if (ra_emit(self, P46(4, EV_TRICK, number, winner, card)) < 0) goto done;
    if (d >= 0 && d != w) { /* a broken Chicago ends the deal */
        if (ra_emit(self, P46(4, RT_R_CHICAGO_RESULT, declarer, Py_False, winner)) < 0
            || rt_add_score(self, d, -RT_CHICAGO_POINTS, RT_FAILED) < 0
            || (RT_BREAKER && rt_add_score(self, w, RT_BREAKER, RT_BROKE) < 0)
            || rt_end_deal(self, n) < 0)
            goto done;
        result = Py_NewRef(Py_None);
        goto done;
    }
    int deuce = RT_DEUCE && best_card < 4; /* a two (rank index 0) took the last trick */
    if (set_slot(self, D_LAST_TRICK_WINNER, Py_NewRef(winner)) < 0) goto done;
    if (d >= 0) { /* the Chicago is made */
        if (PyList_SetItem(made, d, Py_NewRef(Py_True)) < 0
            || ra_emit(self, P46(4, RT_R_CHICAGO_RESULT, declarer, Py_True,
                                          Py_None)) < 0
            || rt_add_score(self, d, deuce ? RT_DEUCE_CHICAGO : RT_CHICAGO_POINTS,
                            RT_CHICAGO) < 0)
            goto done;
        if (!RT_FINAL_SHOWDOWN) {
            if (rt_end_deal(self, n) < 0) goto done;
            result = Py_NewRef(Py_None);
            goto done;
        }
    }
    else if (rt_add_score(self, w, deuce ? 2 * RT_LAST_POINTS : RT_LAST_POINTS, RT_LAST) < 0)
        goto done;
    if (rt_showdown(self, n) < 0) goto done;
    result = Py_NewRef(Py_None);
done:
    Py_XDECREF(taken);
    Py_XDECREF(entry);
    Py_DECREF(winner);
    return result;
python:
    if (PyErr_Occurred()) return NULL;
    return PyObject_CallOneArg(RT_PYTHON, self);
}

/* Game._show_if_breaking (R-EX-4) for a discard from a plain stock (on_exchange), when
   the game's class has Game's own Python method (its Python method otherwise): under
   show-on-break a discard that breaks a protected combination shows the whole hand, sorted,
   first, and the combination is no longer protected. 0, or -1. */
static int show_if_breaking(PyObject *self, PyObject *seat_object, long seat,
                            uint64_t guarded, uint64_t mask, PyObject *mask_object)
{
    if (_PyType_Lookup(Py_TYPE(self), S_SHOW_IF_BREAKING) != RT_SHOW_PYTHON) {
        PyObject *done = PyObject_CallMethodObjArgs(self, S_SHOW_IF_BREAKING, seat_object,
                                                    mask_object, NULL);
        Py_XDECREF(done);
        return done == NULL ? -1 : 0;
    }
    PyObject *rules = SLOT(self, O_RULES), *protected = list_slot(self, O_PROTECTED);
    PyObject *shown = SLOT(self, O_SHOWN);
    PyObject *hand = seat_list(self, O_HANDS, seat, "hands");
    if (hand == NULL) return -1;
    if (rules == NULL || protected == NULL || shown == NULL || !PyDict_Check(shown)) {
        PyErr_SetString(PyExc_TypeError, "Game's shown cards are not as expected");
        return -1;
    }
    int on = p46_show_on_break(rules); /* kept per Rules object (forty-sixth pass) */
    if (on <= 0) return on;
    if (PyList_SetItem(protected, seat, PyLong_FromUnsignedLongLong(guarded & ~mask)) < 0)
        return -1;
    PyObject *cards, *shown_cards;
    if (p46_sorted_cards(hand, &cards, &shown_cards) < 0) { /* forty-sixth pass */
        PyObject *sorted = PySequence_List(hand);
        if (sorted == NULL || PyList_Sort(sorted) < 0) {
            Py_XDECREF(sorted);
            return -1;
        }
        cards = plain(PyList_AsTuple(sorted));
        shown_cards = cards == NULL ? NULL : plain(PyList_AsTuple(sorted));
        Py_DECREF(sorted);
    }
    int failed = shown_cards == NULL || PyDict_SetItem(shown, seat_object, shown_cards) < 0;
    Py_XDECREF(shown_cards);
    if (failed) {
        Py_XDECREF(cards);
        return -1;
    }
    PyObject *record = PyTuple_Pack(4, RT_R_SHOW, seat_object, cards, RT_BREAKS);
    Py_DECREF(cards);
    return add_record(self, record);
}

/* Does the game's class have the C method ``method`` (installed as ``name``)? */
static int has_c_method(PyObject *self, PyObject *name, PyObject *method)
{
    return method != NULL && _PyType_Lookup(Py_TYPE(self), name) == method;
}

/* Game._advance's end of a round of turns, in C where it can be: a trick's end, a scoring
   round's, the last exchange round's (the Chicago round or the play opened), then the next
   seat to decide found in C. 1 if done, 0 if Game._advance must do it (or go on), -1. */
static int end_turns(PyObject *self, PyObject *phase)
{
    PyObject *order = list_slot(self, O_ORDER);
    if (order == NULL) return 0;
    long turn = PyLong_AsLong(SLOT(self, O_TURN));
    if (turn == -1 && PyErr_Occurred()) return -1;
    if (turn < PyList_GET_SIZE(order)) return 0;
    if (phase == PH_PLAY || phase == PH_ANNOUNCE) {
        int own = phase == PH_PLAY ? has_c_method(self, RT_S_RESOLVE_TRICK, RT_METHOD)
                                   : has_c_method(self, RT_S_RESOLVE_ANNOUNCEMENTS, RA_METHOD);
        if (!own) return 0;
        PyObject *done = phase == PH_PLAY ? resolve_trick(self, NULL)
                                          : resolve_announcements(self, NULL);
        if (done == NULL) return -1;
        Py_DECREF(done);
    }
    else if (phase == PH_EXCHANGE) {
        /* the last exchange round (next_round did the others): Game._after_last_exchange */
        PyObject *rules = SLOT(self, O_RULES);
        long round = PyLong_AsLong(SLOT(self, O_ROUND));
        if (round == -1 && PyErr_Occurred()) return -1;
        if (rules == NULL || rt_read_rules(rules) < 0) return -1;
        if (RT_QUADS_RESET || round != RT_EXCHANGES - 1) return 0;
        if (!RT_CHICAGO_ENABLED) return begin_play(self);
        if (start_turns(self, PH_CHICAGO, -1) < 0) return -1;
    }
    else return 0;
    plain_state(self);
    /* Game._advance: the next seat to decide */
    phase = SLOT(self, O_PHASE);
    if (phase == RT_PH_OVER) return set_slot(self, O_TO_ACT, Py_NewRef(Py_None)) < 0 ? -1 : 1;
    if (phase != PH_EXCHANGE && phase != PH_CHICAGO && phase != PH_PLAY && phase != PH_ANNOUNCE)
        return 0;
    Py_INCREF(phase);
    int next = next_turn(self, phase);
    if (next == 0 && phase == PH_CHICAGO) next = begin_play(self);
    Py_DECREF(phase);
    return next;
}

/* events and frames as JSON text (issue 28, thirty-second pass)
 *
 * events_json_text(events, audience, texts): the compact JSON text (separators "," and ":",
 * ASCII) of the list [e.to_json() for e in events if e.visible_to(audience)], as the
 * stdlib's encoder writes it, read from the events' slots: no dicts made and encoded
 * again. Each kind is written by the plan chicago.engine.eventtext installs
 * (install_events): its head ('{"type":"play"'), whether it is private (seen by its first
 * field, the seat, only; its "to" written last), and per field its key (',"seat":'), its
 * slot, how it is written and the default while which it is left out. Cards are written as
 * ``texts`` (the 52 card texts by id). An event of a kind without a plan, or a value of
 * another shape (a text that needs escaping, a float that is not finite, a slot not set),
 * gives NotImplemented and the Python code writes the whole list.
 * tests/test_events_text.py compares both ways.
 */
enum {
    EJ_VALUE = 0,     /* None, a bool, an int, a float or a text as it is */
    EJ_CARD = 1,      /* a card: its text */
    EJ_CARDS = 2,     /* a tuple of cards: a list of their texts */
    EJ_VALUES = 3,    /* a tuple of ints, bools or floats: a list */
    EJ_CATEGORY = 4,  /* a category: its name */
    EJ_OPTIONAL_CATEGORY = 5,  /* a category or None */
    EJ_RANK = 6,      /* a reveal's rank (2 ... 14, 1 for a low ace): its letter */
    EJ_HANDS = 7,     /* a tuple of hands by seat: an object of seat (as text) to cards */
    EJ_CONVERSIONS = 8,
};

#define EJ_FIELDS_MAX 8
#define EJ_KINDS_MAX 48

typedef struct {
    PyObject *key;      /* ',"seat":' (an ASCII str) */
    Py_ssize_t offset;  /* the field's slot */
    int convert;        /* EJ_* */
    PyObject *skip;     /* left out while equal to it; NULL: always written */
} EJField;

typedef struct {
    PyTypeObject *type;
    PyObject *head;     /* '{"type":"play"' (an ASCII str) */
    int private_;       /* seen by its first field's seat only; "to" written last */
    int count;
    EJField fields[EJ_FIELDS_MAX];
} EJKind;

static EJKind EJ_KIND[EJ_KINDS_MAX];
static int EJ_COUNT = 0;
static PyObject *EJ_S_NAME;  /* "name" */
static const char EJ_RANKS[] = "A23456789TJQKA";  /* by rank - 1: 2 ... 14 (RANKS) */

static int ej_ascii(PJText *out, PyObject *text)
{
    return pj_put(out, (const char *)PyUnicode_DATA(text), PyUnicode_GET_LENGTH(text));
}

/* a float as the stdlib's encoder writes a finite one (float.__repr__); PJ_OTHER else */
static int ej_float(PJText *out, PyObject *value)
{
    double number = PyFloat_AS_DOUBLE(value);
    if (!isfinite(number)) return PJ_OTHER;
    PyObject *text = PyFloat_Type.tp_repr(value);
    if (text == NULL) return PJ_ERROR;
    int status = PyUnicode_IS_ASCII(text) ? ej_ascii(out, text) : PJ_OTHER;
    Py_DECREF(text);
    return status;
}

static int ej_value(PJText *out, PyObject *value, PyObject *texts)
{
    (void)texts;
    if (PyUnicode_Check(value)) return pj_string(out, value);
    if (PyFloat_CheckExact(value)) return ej_float(out, value);
    return pj_scalar(out, value);
}

static int ej_category(PJText *out, PyObject *category)
{
    PyObject *name = category_name(category);
    if (name == NULL) return PJ_ERROR;
    int status = pj_string(out, name);
    Py_DECREF(name);
    return status;
}

static int ej_hands(PJText *out, PyObject *hands, PyObject *texts)
{
    if (!PyTuple_Check(hands)) return PJ_OTHER;
    if (PJ_LITERAL(out, "{") < 0) return PJ_ERROR;
    for (Py_ssize_t seat = 0; seat < PyTuple_GET_SIZE(hands); seat++) {
        char key[32];
        int size = snprintf(key, sizeof key, "%s\"%zd\":", seat > 0 ? "," : "", seat);
        if (pj_put(out, key, size) < 0) return PJ_ERROR;
        int status = pj_cards(out, PyTuple_GET_ITEM(hands, seat), texts);
        if (status != PJ_OK) return status;
    }
    return PJ_LITERAL(out, "}");
}

static int ej_field(PJText *out, int convert, PyObject *value, PyObject *texts)
{
    switch (convert) {
    case EJ_VALUE: return ej_value(out, value, texts);
    case EJ_CARD: return pj_card(out, value, texts);
    case EJ_CARDS: return pj_cards(out, value, texts);
    case EJ_VALUES: return pj_array(out, value, ej_value, texts);
    case EJ_CATEGORY:
        return value == Py_None ? PJ_OTHER : ej_category(out, value);
    case EJ_OPTIONAL_CATEGORY:
        return value == Py_None ? PJ_LITERAL(out, "null") : ej_category(out, value);
    case EJ_RANK: {
        if (value == Py_None) return PJ_LITERAL(out, "null");
        if (!PyLong_CheckExact(value)) return PJ_OTHER;
        long rank = PyLong_AsLong(value);
        if (rank == -1 && PyErr_Occurred()) {
            PyErr_Clear();
            return PJ_OTHER;
        }
        if (rank > 14) return PJ_OTHER;  /* Python: an IndexError */
        char letter[3] = {'"', rank >= 2 ? EJ_RANKS[rank - 1] : 'A', '"'};
        return pj_put(out, letter, 3);
    }
    case EJ_HANDS: return ej_hands(out, value, texts);
    default: return PJ_OTHER;
    }
}

/* one event, if ``audience`` may see it (the caller wrote the separator when ``*written``) */
static int ej_event(PJText *out, PyObject *event, PyObject *audience, PyObject *texts,
                    int *written)
{
    PyTypeObject *type = Py_TYPE(event);
    const EJKind *kind = NULL;
    for (int k = 0; k < EJ_COUNT; k++) {
        if (EJ_KIND[k].type == type) {
            kind = &EJ_KIND[k];
            break;
        }
    }
    if (kind == NULL) return PJ_OTHER;
    PyObject *seat = NULL;
    if (kind->private_) {
        seat = *(PyObject **)((char *)event + kind->fields[0].offset);
        if (seat == NULL) return PJ_OTHER;
        int same = PyObject_RichCompareBool(seat, audience, Py_EQ);
        if (same < 0) return PJ_ERROR;
        if (!same) return PJ_OK;
    }
    if (*written && PJ_LITERAL(out, ",") < 0) return PJ_ERROR;
    *written = 1;
    if (ej_ascii(out, kind->head) < 0) return PJ_ERROR;
    for (int f = 0; f < kind->count; f++) {
        const EJField *field = &kind->fields[f];
        PyObject *value = *(PyObject **)((char *)event + field->offset);
        if (value == NULL) return PJ_OTHER;
        if (field->skip != NULL) {
            int equal = value == field->skip ? 1
                        : PyObject_RichCompareBool(value, field->skip, Py_EQ);
            if (equal < 0) return PJ_ERROR;
            if (equal) continue;
        }
        if (ej_ascii(out, field->key) < 0) return PJ_ERROR;
        int status = ej_field(out, field->convert, value, texts);
        if (status != PJ_OK) return status;
    }
    if (seat != NULL) {
        if (PJ_LITERAL(out, ",\"to\":") < 0) return PJ_ERROR;
        int status = pj_scalar(out, seat);
        if (status != PJ_OK) return status;
    }
    return PJ_LITERAL(out, "}");
}

static PyObject *events_json_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 3) {
        PyErr_SetString(PyExc_TypeError, "events_json_text() takes the events, the audience "
                        "and the cards' texts");
        return NULL;
    }
    PyObject *events = args[0], *audience = args[1], *texts = args[2];
    if (EJ_COUNT == 0 || !PyTuple_CheckExact(texts) || PyTuple_GET_SIZE(texts) != 52
        || (!PyList_CheckExact(events) && !PyTuple_CheckExact(events)))
        Py_RETURN_NOTIMPLEMENTED;
    PJText out;
    pj_open(&out);
    int written = 0;
    int status = PJ_LITERAL(&out, "[");
    for (Py_ssize_t i = 0; status == PJ_OK && i < PySequence_Fast_GET_SIZE(events); i++)
        status = ej_event(&out, PySequence_Fast_GET_ITEM(events, i), audience, texts,
                          &written);
    if (status == PJ_OK) status = PJ_LITERAL(&out, "]");
    return pj_close(&out, status);
}

static void ej_clear(void)
{
    for (int k = 0; k < EJ_COUNT; k++) {
        EJKind *kind = &EJ_KIND[k];
        Py_CLEAR(kind->type);
        Py_CLEAR(kind->head);
        for (int f = 0; f < kind->count; f++) {
            Py_CLEAR(kind->fields[f].key);
            Py_CLEAR(kind->fields[f].skip);
        }
        kind->count = 0;
    }
    EJ_COUNT = 0;
}

static int ej_ascii_text(PyObject *value, const char *what)
{
    if (PyUnicode_CheckExact(value) && PyUnicode_IS_ASCII(value)) return 0;
    PyErr_Format(PyExc_TypeError, "install_events(): %s must be an ASCII str", what);
    return -1;
}

/* one kind's plan: (cls, head, private, ((key, slot name, conversion, skip), ...)), skip ()
   for a field always written, (default,) for one left out while equal to its default */
static int ej_install_kind(EJKind *kind, PyObject *plan)
{
    PyObject *cls, *head, *fields;
    int private_;
    if (!PyTuple_Check(plan)
        || !PyArg_ParseTuple(plan, "O!O!pO!", &PyType_Type, &cls, &PyUnicode_Type, &head,
                             &private_, &PyTuple_Type, &fields))
        return -1;
    if (ej_ascii_text(head, "a head") < 0) return -1;
    Py_ssize_t count = PyTuple_GET_SIZE(fields);
    if (count > EJ_FIELDS_MAX || (private_ && count == 0)) {
        PyErr_SetString(PyExc_ValueError, "install_events(): too many fields, or a private "
                        "kind without its seat");
        return -1;
    }
    kind->type = (PyTypeObject *)Py_NewRef(cls);
    kind->head = Py_NewRef(head);
    kind->private_ = private_;
    kind->count = 0;
    for (Py_ssize_t f = 0; f < count; f++) {
        PyObject *key, *skip;
        const char *slot;
        int convert;
        if (!PyArg_ParseTuple(PyTuple_GET_ITEM(fields, f), "O!siO!", &PyUnicode_Type, &key,
                              &slot, &convert, &PyTuple_Type, &skip))
            return -1;
        if (ej_ascii_text(key, "a key") < 0) return -1;
        if (convert < 0 || convert >= EJ_CONVERSIONS || PyTuple_GET_SIZE(skip) > 1) {
            PyErr_SetString(PyExc_ValueError, "install_events(): a bad conversion or skip");
            return -1;
        }
        EJField *field = &kind->fields[kind->count];
        if (offset_of(cls, slot, &field->offset) < 0) return -1;
        field->key = Py_NewRef(key);
        field->convert = convert;
        field->skip = PyTuple_GET_SIZE(skip) ? Py_NewRef(PyTuple_GET_ITEM(skip, 0)) : NULL;
        kind->count++;
    }
    return 0;
}

static PyObject *install_events(PyObject *module, PyObject *plans)
{
    (void)module;
    if (!PyTuple_Check(plans) || PyTuple_GET_SIZE(plans) > EJ_KINDS_MAX) {
        PyErr_SetString(PyExc_TypeError, "install_events() takes a tuple of the kinds' plans");
        return NULL;
    }
    if (EJ_S_NAME == NULL && (EJ_S_NAME = PyUnicode_InternFromString("name")) == NULL)
        return NULL;
    ej_clear();
    for (Py_ssize_t k = 0; k < PyTuple_GET_SIZE(plans); k++) {
        EJ_COUNT = (int)k + 1;
        if (ej_install_kind(&EJ_KIND[k], PyTuple_GET_ITEM(plans, k)) < 0) {
            ej_clear();
            return NULL;
        }
    }
    Py_RETURN_NONE;
}

/* frame_json_text(frame, state_mark, events_mark, states, events): the compact JSON text
 * (separators "," and ":", ASCII) of a frame made of dicts (text keys), lists, tuples,
 * texts, ints, floats, bools and None, as the stdlib's encoder writes it, with each object
 * that is ``state_mark`` (by identity) written as the next of ``states`` and each that is
 * ``events_mark`` as the next of ``events`` (lists or tuples of texts already JSON, every
 * one of them used): the batch frame of
 * chicago.server.protocol.dumps_with_states in one buffer, without a string made per key
 * and value. Anything of another shape (a text that needs escaping, a key that is no text,
 * a float that is not finite, a subclass of dict or list, more or fewer marks than texts)
 * gives NotImplemented and the Python code writes the frame.
 */
typedef struct {
    PyObject *state_mark, *events_mark, *states, *events;
    Py_ssize_t state_at, events_at;
} FJMarks;

static int fj_value(PJText *out, PyObject *value, FJMarks *marks, int depth)
{
    if (value == marks->state_mark || value == marks->events_mark) {
        int state = value == marks->state_mark;
        PyObject *texts = state ? marks->states : marks->events;
        Py_ssize_t *at = state ? &marks->state_at : &marks->events_at;
        if (*at >= PySequence_Fast_GET_SIZE(texts)) return PJ_OTHER;
        PyObject *text = PySequence_Fast_GET_ITEM(texts, (*at)++);
        if (!PyUnicode_CheckExact(text) || !PyUnicode_IS_ASCII(text)) return PJ_OTHER;
        return ej_ascii(out, text);
    }
    if (PyUnicode_Check(value)) return pj_string(out, value);
    if (PyFloat_CheckExact(value)) return ej_float(out, value);
    if (depth > 64) return PJ_OTHER;
    if (PyDict_CheckExact(value)) {
        Py_ssize_t position = 0;
        PyObject *key, *item;
        int first = 1;
        if (PJ_LITERAL(out, "{") < 0) return PJ_ERROR;
        while (PyDict_Next(value, &position, &key, &item)) {
            if (!PyUnicode_CheckExact(key)) return PJ_OTHER;
            if (!first && PJ_LITERAL(out, ",") < 0) return PJ_ERROR;
            first = 0;
            int status = pj_string(out, key);
            if (status == PJ_OK) status = PJ_LITERAL(out, ":");
            if (status == PJ_OK) status = fj_value(out, item, marks, depth + 1);
            if (status != PJ_OK) return status;
        }
        return PJ_LITERAL(out, "}");
    }
    if (PyList_CheckExact(value) || PyTuple_CheckExact(value)) {
        if (PJ_LITERAL(out, "[") < 0) return PJ_ERROR;
        for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(value); i++) {
            if (i > 0 && PJ_LITERAL(out, ",") < 0) return PJ_ERROR;
            int status = fj_value(out, PySequence_Fast_GET_ITEM(value, i), marks, depth + 1);
            if (status != PJ_OK) return status;
        }
        return PJ_LITERAL(out, "]");
    }
    return pj_scalar(out, value);
}

static PyObject *frame_json_text(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "frame_json_text() takes the frame, the state's and "
                        "the events' marks and their texts");
        return NULL;
    }
    FJMarks marks = {args[1], args[2], args[3], args[4], 0, 0};
    if ((!PyList_CheckExact(marks.states) && !PyTuple_CheckExact(marks.states))
        || (!PyList_CheckExact(marks.events) && !PyTuple_CheckExact(marks.events))
        || marks.state_mark == Py_None || marks.events_mark == Py_None)
        Py_RETURN_NOTIMPLEMENTED;
    PJText out;
    pj_open(&out);
    int status = fj_value(&out, args[0], &marks, 0);
    if (status == PJ_OK && (marks.state_at != PySequence_Fast_GET_SIZE(marks.states)
                            || marks.events_at != PySequence_Fast_GET_SIZE(marks.events)))
        status = PJ_OTHER;
    return pj_close(&out, status);
}

/* end of events and frames as JSON text (issue 28, thirty-second pass) */

/* ------------------------------------------------------------------ kept discards
 * (issue 28, thirty-fourth pass; h92). The discard actions of three cards kept as those of
 * one and two are (discard_action): a random pagat deal made 192 new discard actions, 16 an
 * exchange turn, of which the player takes one; ten of the 16 are of three cards. There are
 * C(52, 3) = 22,100 of them, each made when first listed and kept for the process (about
 * 2.3 MB when all are made), found by the combinatorial number of its three cards.
 */
static PyObject **DISCARD_THREE; /* 22,100 slots, allocated on first use */

/* The slot of the three-card discard of ``pattern`` (three bits) of the sorted ``cards``;
   NULL (no error set) if no memory for the table, when the action is made each time. */
static PyObject **discard_three(const int *cards, int pattern)
{
    if (DISCARD_THREE == NULL
        && (DISCARD_THREE = PyMem_Calloc(22100, sizeof(PyObject *))) == NULL)
        return NULL;
    const signed char *bits = PATTERN_BITS[pattern & 31];
    if (bits[0] != 3) return NULL;
    int a = cards[bits[1]], b = cards[bits[2]], c = cards[bits[3]]; /* sorted: a < b < c */
    if (a < 0 || a >= b || b >= c || c > 51) return NULL;
    return &DISCARD_THREE[c * (c - 1) * (c - 2) / 6 + b * (b - 1) / 2 + a];
}

/* ------------------------------------------------------------------ one up and the sixth card
 * (issue 28, thirty-sixth pass; h96). Two exchange turns that went to Python on every
 * occurrence, now taken in C with the same state and records as the Python methods:
 *
 * - V-ONE-UP (presets wikipedia and wikipedia-42): the request (Game._on_one_up_request:
 *   a broken combination shown first, the card out of the hand, the next card of the stock
 *   turned face up, the seat asked next) and the answer (Game._on_one_up_choice: the face-up
 *   card taken, or both cards to the pile and the next one drawn face down), each from a
 *   plain stock (a CardSource of its own class; the other sources choose the cards in
 *   Python), the next seat found in C after the answer as after a discard;
 * - V-LOCK-6: a locked seat dealt six cards throws one (Game._on_exchange's first case):
 *   its legal actions (the six one-card discards, kept as every one-card discard is), the
 *   discard itself, and the seat found to decide by next_turn (Game._needs_decision).
 *
 * tests/test_engine_one_up_c.py shows that these turns no longer call Python and are the
 * same as the pure-Python game's on random games of every preset and variation.
 */
static PyObject *OU_K_ACCEPT;     /* ActionKind.ACCEPT (OU_K_ONE_UP: ActionKind.ONE_UP) */
static PyObject *OU_R_ONE_UP, *OU_R_CHOICE;     /* the records' kinds: OneUp, OneUpChoice */

static int install_one_up(PyObject *config)
{
    if (!(OU_K_ONE_UP = take(config, "K_ONE_UP")) || !(OU_K_ACCEPT = take(config, "K_ACCEPT"))
        || !(OU_R_ONE_UP = take(config, "OneUp")) || !(OU_R_CHOICE = take(config, "OneUpChoice")))
        return -1;
    return 0;
}

/* The legal actions of a locked seat's six-card exchange turn (Game._exchange_options under
   V-LOCK-6): one discard per card, lowest id first. NULL with no error: not such a turn. */
static PyObject *legal_sixth(PyObject *self, long seat)
{
    PyObject *hands = list_slot(self, O_HANDS), *locked = list_slot(self, O_LOCKED);
    if (hands == NULL || locked == NULL || seat < 0 || seat >= PyList_GET_SIZE(hands)
        || seat >= PyList_GET_SIZE(locked) || PyList_GET_ITEM(locked, seat) != Py_True)
        return NULL;
    PyObject *hand = PyList_GET_ITEM(hands, seat);
    if (!PyList_CheckExact(hand) || PyList_GET_SIZE(hand) != 6) return NULL;
    uint64_t cards = 0;
    for (Py_ssize_t i = 0; i < 6; i++) {
        long c = card_id(PyList_GET_ITEM(hand, i));
        if (c < 0 || c > 51) {
            PyErr_Clear();
            return NULL;
        }
        cards |= (uint64_t)1 << c;
    }
    if (__builtin_popcountll(cards) != 6) return NULL;
    PyObject *legal = PyTuple_New(6);
    if (legal == NULL) return NULL;
    for (Py_ssize_t i = 0; cards; i++, cards &= cards - 1) {
        int card = __builtin_ctzll(cards);
        PyObject *action = discard_action((uint64_t)1 << card, &card, 1);
        if (action == NULL) {
            Py_DECREF(legal);
            return NULL;
        }
        PyTuple_SET_ITEM(legal, i, action);
    }
    return legal;
}

/* Is ``action``, a one-up request, one of the exchange options (legal_exchanges) of
   ``seat``? 1 yes, 0 no, 2 not a turn of that kind, -1 on an error (as discard_is_legal). */
static int one_up_is_legal(PyObject *self, long seat, PyObject *action)
{
    int cards[5], one_up;
    long limit;
    int shape = exchange_shape(self, seat, cards, &limit, &one_up);
    if (shape <= 0) return shape < 0 ? -1 : 2;
    if (!one_up) return 0;
    uint64_t mask;
    if (mask_of(action, &mask) < 0) return -1;
    for (int i = 0; i < 5; i++)
        if (mask == (uint64_t)1 << cards[i])
            return action == ONE_UP[cards[i]]
                ? 1 : PyObject_RichCompareBool(action, ONE_UP[cards[i]], Py_EQ);
    return 0;
}

/* The exchange counts of this round (borrowed), with an entry for ``seat``; the round in
   ``round``. NULL with an error set if the game has none. */
static PyObject *round_counts(PyObject *self, long seat, long *round)
{
    *round = PyLong_AsLong(SLOT(self, O_ROUND));
    if (*round == -1 && PyErr_Occurred()) return NULL;
    PyObject *all_counts = list_slot(self, O_EXCHANGE_COUNTS);
    if (all_counts != NULL && *round >= 0 && *round < PyList_GET_SIZE(all_counts)) {
        PyObject *counts = PyList_GET_ITEM(all_counts, *round);
        if (PyList_CheckExact(counts) && seat < PyList_GET_SIZE(counts)) return counts;
    }
    PyErr_SetString(PyExc_IndexError, "exchange_counts has no entry for this seat");
    return NULL;
}

/* The single card of ``action`` (a play, one up or one-card discard), or -1 with an error. */
static int single_card(PyObject *action)
{
    uint64_t mask;
    if (mask_of(action, &mask) < 0) return -1;
    if (mask == 0 || (mask & (mask - 1)) || mask >> 52) {
        PyErr_SetString(PyExc_ValueError, "the action names no single card");
        return -1;
    }
    return __builtin_ctzll(mask);
}

/* ``card`` out of ``hand`` (list.remove), 0 or -1. */
static int remove_card(PyObject *hand, int card)
{
    Py_ssize_t at = find_card(hand, card);
    if (at < 0) {
        if (at == -1) PyErr_SetString(PyExc_ValueError, "list.remove(x): x not in list");
        return -1;
    }
    rd_delete(hand, at); /* fortieth pass */
    return 0;
}

/* Game._on_exchange for a locked seat's sixth card (V-LOCK-6): the card goes to the pile,
   nothing is drawn. */
static int on_sixth(PyObject *self, PyObject *seat_object, long seat, PyObject *action)
{
    int card = single_card(action);
    if (card < 0) return -1;
    long round;
    PyObject *counts = round_counts(self, seat, &round);
    PyObject *hand = seat_list(self, O_HANDS, seat, "hands");
    PyObject *own = seat_list(self, O_OWN_DISCARDS, seat, "_own_discards");
    PyObject *discards = list_slot(self, O_DISCARDS), *categories = list_slot(self, O_CATEGORIES);
    if (counts == NULL || hand == NULL || own == NULL) return -1;
    if (discards == NULL || categories == NULL || seat >= PyList_GET_SIZE(categories)) {
        PyErr_SetString(PyExc_TypeError, "Game's discards are not as expected");
        return -1;
    }
    if (remove_card(hand, card) < 0 || PyList_Append(discards, DECK[card]) < 0
        || PyList_Append(own, DECK[card]) < 0
        || PyList_SetItem(categories, seat, Py_NewRef(Py_None)) < 0
        || PyList_SetItem(counts, seat, small_int(1)) < 0)
        return -1;
    PyObject *number = small_int(round + 1);
    if (number == NULL) return -1;
    PyObject *cards = plain(PyTuple_Pack(1, DECK[card])), *none = PyTuple_New(0);
    int failed = cards == NULL || none == NULL
        || add_record(self, PyTuple_Pack(6, EV_EXCHANGE, seat_object, number, SMALL_INTS[1],
                                         SMALL_INTS[0], Py_True)) < 0
        || add_record(self, PyTuple_Pack(5, EV_EXCHANGED, seat_object, number, cards,
                                         none)) < 0;
    Py_DECREF(number);
    Py_XDECREF(cards);
    Py_XDECREF(none);
    return failed ? -1 : add_to_turn(self);
}

/* Game._on_one_up_request: the card out of the hand (a broken combination shown first),
   the next card turned face up; the seat answers next (Phase.ONE_UP). */
static int on_one_up_request(PyObject *self, PyObject *seat_object, long seat,
                             PyObject *action)
{
    int card = single_card(action);
    if (card < 0) return -1;
    long round;
    PyObject *counts = round_counts(self, seat, &round);
    PyObject *hand = seat_list(self, O_HANDS, seat, "hands");
    PyObject *own = seat_list(self, O_OWN_DISCARDS, seat, "_own_discards");
    if (counts == NULL || hand == NULL || own == NULL) return -1;
    uint64_t mask = (uint64_t)1 << card;
    uint64_t guarded = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(SLOT(self, O_PROTECTED), seat));
    if (guarded == (uint64_t)-1 && PyErr_Occurred()) return -1;
    if ((guarded & mask) && show_if_breaking(self, seat_object, seat, guarded, mask,
                                             PyTuple_GET_ITEM(action, 1)) < 0)
        return -1;
    if (remove_card(hand, card) < 0 || PyList_Append(own, DECK[card]) < 0
        || PyList_SetItem(SLOT(self, O_CATEGORIES), seat, Py_NewRef(Py_None)) < 0)
        return -1;
    PyObject *face_up = draw_card(self);
    if (face_up == NULL) return -1;
    PyObject *number = small_int(round + 1);
    PyObject *cards = plain(PyTuple_Pack(1, DECK[card])), *none = PyTuple_New(0);
    int failed = number == NULL || cards == NULL || none == NULL
        || set_slot(self, O_PENDING_ONE_UP, plain(PyTuple_Pack(2, DECK[card], face_up))) < 0
        || set_slot(self, O_ONE_UP_CARD, plain(PyTuple_Pack(2, seat_object, face_up))) < 0
        || PyList_SetItem(counts, seat, small_int(1)) < 0
        || add_record(self, PyTuple_Pack(7, EV_EXCHANGE, seat_object, number, SMALL_INTS[1],
                                         SMALL_INTS[1], Py_False, Py_True)) < 0
        || add_record(self, PyTuple_Pack(5, EV_EXCHANGED, seat_object, number, cards,
                                         none)) < 0
        || add_record(self, PyTuple_Pack(3, OU_R_ONE_UP, seat_object, face_up)) < 0
        || set_slot(self, O_PHASE, Py_NewRef(PH_ONE_UP)) < 0
        || set_slot(self, O_TO_ACT, Py_NewRef(seat_object)) < 0;
    Py_DECREF(face_up);
    Py_XDECREF(number);
    Py_XDECREF(cards);
    Py_XDECREF(none);
    return failed ? -1 : 0;
}

/* Game._on_one_up_choice: the face-up card taken, or rejected with the discarded one and
   the next card drawn face down; the exchange round goes on. */
static int on_one_up_choice(PyObject *self, PyObject *seat_object, long seat,
                            PyObject *action)
{
    PyObject *pending = SLOT(self, O_PENDING_ONE_UP);
    PyObject *hand = seat_list(self, O_HANDS, seat, "hands");
    if (hand == NULL) return -1;
    if (pending == NULL || !PyTuple_CheckExact(pending) || PyTuple_GET_SIZE(pending) != 2) {
        PyErr_SetString(PyExc_TypeError, "no one-up card is pending");
        return -1;
    }
    long round = PyLong_AsLong(SLOT(self, O_ROUND));
    if (round == -1 && PyErr_Occurred()) return -1;
    PyObject *discarded = Py_NewRef(PyTuple_GET_ITEM(pending, 0));
    PyObject *face_up = Py_NewRef(PyTuple_GET_ITEM(pending, 1));
    PyObject *drawn = NULL, *drawn_cards = NULL, *number = NULL, *none = NULL;
    int failed = -1;
    if (PyTuple_GET_ITEM(action, 0) == OU_K_ACCEPT) {
        PyObject *discards = list_slot(self, O_DISCARDS);
        if (PyList_Append(hand, face_up) < 0 || discards == NULL
            || PyList_Append(discards, discarded) < 0
            || add_record(self, PyTuple_Pack(4, OU_R_CHOICE, seat_object, face_up,
                                             Py_True)) < 0)
            goto done;
    }
    else {
        if ((drawn = draw_card(self)) == NULL || PyList_Append(hand, drawn) < 0) goto done;
        PyObject *discards = list_slot(self, O_DISCARDS); /* a reshuffle made a new pile */
        if (discards == NULL || PyList_Append(discards, discarded) < 0
            || PyList_Append(discards, face_up) < 0)
            goto done;
        if ((number = small_int(round + 1)) == NULL || (none = PyTuple_New(0)) == NULL
            || (drawn_cards = plain(PyTuple_Pack(1, drawn))) == NULL)
            goto done;
        if (add_record(self, PyTuple_Pack(4, OU_R_CHOICE, seat_object, face_up, Py_False)) < 0
            || add_record(self, PyTuple_Pack(5, EV_EXCHANGED, seat_object, number, none,
                                             drawn_cards)) < 0)
            goto done;
    }
    if (set_slot(self, O_PENDING_ONE_UP, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_ONE_UP_CARD, Py_NewRef(Py_None)) < 0
        || PyList_SetItem(SLOT(self, O_CATEGORIES), seat, Py_NewRef(Py_None)) < 0
        || set_slot(self, O_PHASE, Py_NewRef(PH_EXCHANGE)) < 0)
        goto done;
    failed = add_to_turn(self);
done:
    Py_DECREF(discarded);
    Py_DECREF(face_up);
    Py_XDECREF(drawn);
    Py_XDECREF(drawn_cards);
    Py_XDECREF(number);
    Py_XDECREF(none);
    return failed;
}

/* apply()'s turns of this block. ``phase``: the phase of the turn (Exchange or One up);
   the action is legal. 1 if done with the seat to act set (a one-up request: the same
   seat answers), 2 if done and the exchange round goes on (apply finds the next seat),
   0 if not a turn of this block (Python's handler does it), -1 on an error. */
static int one_up_or_sixth(PyObject *self, PyObject *seat_object, long seat, PyObject *phase,
                           PyObject *action)
{
    PyObject *kind = PyTuple_GET_ITEM(action, 0);
    PyObject *locked = list_slot(self, O_LOCKED), *hands = list_slot(self, O_HANDS);
    if (locked == NULL || hands == NULL || seat < 0 || seat >= PyList_GET_SIZE(locked)
        || seat >= PyList_GET_SIZE(hands) || list_slot(self, O_CATEGORIES) == NULL
        || seat >= PyList_GET_SIZE(list_slot(self, O_CATEGORIES)))
        return 0;
    PyObject *lock = PyList_GET_ITEM(locked, seat), *hand = PyList_GET_ITEM(hands, seat);
    if (phase == PH_EXCHANGE && kind == K_DISCARD) {
        if (lock != Py_True || !PyList_CheckExact(hand) || PyList_GET_SIZE(hand) != 6)
            return 0;
        return on_sixth(self, seat_object, seat, action) < 0 ? -1 : 2;
    }
    if (lock != Py_False || !exchange_here(self, seat)) return 0;
    if (phase == PH_EXCHANGE && kind == OU_K_ONE_UP)
        return on_one_up_request(self, seat_object, seat, action) < 0 ? -1 : 1;
    if (phase == PH_ONE_UP)
        return on_one_up_choice(self, seat_object, seat, action) < 0 ? -1 : 2;
    return 0;
}

/* end of one up and the sixth card (issue 28, thirty-sixth pass) */

/* ------------------------------------------------------------------ views made cheaper
 * (issue 28, thirty-eighth pass)
 *
 * The public text of a state (public_json_text) is written for every state a person is
 * shown, and most of it is the same from one state to the next: the deal's announcements,
 * reveals and round results (the very tuples, shared by the views of the states until a
 * scoring event makes new ones: views._Scoring.parts) and its taken tricks (each the very
 * TakenTrick, shared through views._TAKEN). vc_memo keeps the text written for such an
 * object, by identity, with a strong reference to the object (so that no other object can
 * take its address while it is kept) and to the card texts it was written with: the same
 * object written again with the same card texts is the same text, as a view's values are
 * immutable (frozen dataclasses, tuples, events whose fields are read-only). Only public
 * fields are written here: what is kept is what every audience is shown, and a kept text
 * is put in only for the object it was written from. A direct-mapped table of VC_SLOTS
 * entries: a new object takes its slot's place (its old object and text let go).
 * vc_memo_clear() empties it (tests); tests/test_views_once.py compares the texts with the
 * Python encoder's on random games and shows the kept texts used.
 */
#define VC_SLOTS 1024

typedef struct {
    PyObject *object;  /* the value written (a strong reference), NULL: an empty slot */
    PyObject *texts;   /* the card texts it was written with */
    PyObject *text;    /* its text, a bytes object */
    int kind;          /* the field (11, 12, 13) or 19 for one taken trick */
} VCEntry;

static VCEntry VC_TABLE[VC_SLOTS];
static Py_ssize_t VC_HITS, VC_MISSES;

static Py_ssize_t vc_slot(PyObject *value, int kind)
{
    uintptr_t key = (uintptr_t)value >> 4;
    key ^= key >> 11;
    key = key * 31u + (uintptr_t)kind;
    return (Py_ssize_t)(key % VC_SLOTS);
}

/* ``value`` written by ``write`` (as an array of items written so when ``array``), its text
   kept for the next time the same object is written with the same ``texts``; a value that
   is not a tuple (the Python code's other shapes) is written without the memo */
static int vc_memo(PJText *out, int kind, PyObject *value, PyObject *texts, PJItem write,
                   int array)
{
    if (array ? !PyTuple_CheckExact(value) : value == Py_None)
        return array ? pj_array(out, value, write, texts) : write(out, value, texts);
    VCEntry *entry = &VC_TABLE[vc_slot(value, kind)];
    if (entry->object == value && entry->kind == kind && entry->texts == texts) {
        VC_HITS++;
        return pj_put(out, PyBytes_AS_STRING(entry->text), PyBytes_GET_SIZE(entry->text));
    }
    Py_ssize_t start = out->size;
    int status = array ? pj_array(out, value, write, texts) : write(out, value, texts);
    if (status != PJ_OK) return status;
    VC_MISSES++;
    PyObject *text = PyBytes_FromStringAndSize(out->data + start, out->size - start);
    if (text == NULL) return PJ_ERROR;
    /* the slot read again: writing may have run Python code (an event's to_json) */
    entry = &VC_TABLE[vc_slot(value, kind)];
    PyObject *old_object = entry->object, *old_texts = entry->texts, *old_text = entry->text;
    entry->object = Py_NewRef(value);
    entry->texts = Py_NewRef(texts);
    entry->text = text;
    entry->kind = kind;
    Py_XDECREF(old_object);
    Py_XDECREF(old_texts);
    Py_XDECREF(old_text);
    return PJ_OK;
}

/* one taken trick of the view's ``tricks``, its text kept (pj_trick) */
static int vc_trick(PJText *out, PyObject *trick, PyObject *texts)
{
    return vc_memo(out, 19, trick, texts, pj_trick, 0);
}

/* vc_memo_clear(): every kept text let go; (hits, misses) since the last clear */
static PyObject *vc_memo_clear(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    PyObject *counts = Py_BuildValue("(nn)", VC_HITS, VC_MISSES);
    for (int i = 0; i < VC_SLOTS; i++) {
        VCEntry *entry = &VC_TABLE[i];
        PyObject *object = entry->object, *texts = entry->texts, *text = entry->text;
        entry->object = entry->texts = entry->text = NULL;
        Py_XDECREF(object);
        Py_XDECREF(texts);
        Py_XDECREF(text);
    }
    VC_HITS = VC_MISSES = 0;
    return counts;
}

/* end of views made cheaper (issue 28, thirty-eighth pass) */

/* ------------------------------------------------------------------ recycled discards
   (issue 28, fortieth pass)

   The discard actions of four and five cards (six of the 32 options of an exchange turn)
   cannot all be kept as those of up to three cards are: there are 270,725 + 2,598,960 of
   them. Until this pass each was made anew whenever a turn listed it and freed when the
   caller dropped its list, about 700 instructions for each of the 72 of a random pagat deal
   (an Action tuple and its mask's int made, then both freed).

   Now they come from a direct-mapped table of RD_SLOTS actions found by a hash of the mask.
   The slot's action is given out again when its mask is the one asked for (two games, or
   a copy, listing the same hand share the object, as they share those of up to three
   cards). Otherwise, when the table holds the only reference to it (Py_REFCNT 1: nobody
   outside can see it, no list, log or caller holds it), that action is rewritten in place
   for the new mask (its mask's int too, in place when the table's action holds the only
   reference to it and it has as many digits) and given out: neither is made nor freed.
   An action anyone else holds is never changed: the slot then gets a new action and the
   old one lives on with its holders. The table is bounded (RD_SLOTS actions, about 100 KB).

   The values are the pure path's: an Action (kind discard, the mask, None, None), untracked
   by the collector as new_discard makes them. A tuple's hash is worked out on every call
   before Python 3.14 (3.14 keeps it in the tuple), so a rewritten one hashes by its new
   mask; from 3.14 on, and for any other layout of int, the table only shares equal masks
   and makes the others anew. */

#define RD_BITS 10
#define RD_SLOTS (1 << RD_BITS)
static PyObject *RD_ACTION[RD_SLOTS]; /* an Action of a four- or five-card discard, or NULL */
static uint64_t RD_MASK[RD_SLOTS];    /* its mask (the table's actions change only here) */

#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
#define RD_REWRITE 1
/* Write ``mask`` into ``value``, an int nobody else holds, if it has as many digits as the
   mask needs (1 done, 0 not). */
static int rd_write_int(PyObject *value, uint64_t mask)
{
    Py_ssize_t digits = mask == 0 ? 0 : (mask >> PyLong_SHIFT) == 0 ? 1
        : (mask >> (2 * PyLong_SHIFT)) == 0 ? 2 : 3;
    if (!PyLong_CheckExact(value) || Py_SIZE(value) != digits || digits == 0) return 0;
    digit *d = ((PyLongObject *)value)->ob_digit;
    for (Py_ssize_t i = 0; i < digits; i++, mask >>= PyLong_SHIFT)
        d[i] = (digit)(mask & PyLong_MASK);
    return 1;
}
#else
#define RD_REWRITE 0
#endif

static PyObject *recycled_discard(uint64_t mask)
{
    size_t at = (size_t)((mask * 0x9E3779B97F4A7C15ULL) >> (64 - RD_BITS));
    PyObject *held = RD_ACTION[at];
    if (held != NULL && RD_MASK[at] == mask) return Py_NewRef(held);
#if RD_REWRITE
    if (held != NULL && Py_REFCNT(held) == 1) {
        PyObject *value = PyTuple_GET_ITEM(held, 1);
        if (!(Py_REFCNT(value) == 1 && rd_write_int(value, mask))) {
            PyObject *fresh = PyLong_FromUnsignedLongLong(mask);
            if (fresh == NULL) return NULL;
            PyTuple_SET_ITEM(held, 1, fresh);
            Py_DECREF(value);
        }
        RD_MASK[at] = mask;
        return Py_NewRef(held);
    }
#endif
    PyObject *action = new_discard(mask);
    if (action == NULL) return NULL;
    RD_ACTION[at] = Py_NewRef(action);
    RD_MASK[at] = mask;
    Py_XDECREF(held);
    return action;
}

/* recycled_discards(): the actions the table holds now (a new list; for the tests). */
static PyObject *recycled_discards(PyObject *module, PyObject *unused)
{
    PyObject *found = PyList_New(0);
    if (found == NULL) return NULL;
    for (size_t at = 0; at < RD_SLOTS; at++)
        if (RD_ACTION[at] != NULL && PyList_Append(found, RD_ACTION[at]) < 0) {
            Py_DECREF(found);
            return NULL;
        }
    return found;
}

/* The lists of a turn changed in place. The C turns changed the hand, the stock and the
   piles through PyList_SetSlice, as list.remove, list.pop, ``hand[:] = kept`` and
   list.extend do in game.py: each a general slice assignment (a new list for the kept
   cards, the items copied twice), about 250 instructions where a few dozen do. These give
   the lists the same items in the same order; the only difference is that a list that
   shrinks keeps its allocated room (CPython's own list.pop gives some back), which no
   Python code can see but through sys.getsizeof. */

/* del list[at] (``at`` in range) */
static void rd_delete(PyObject *list, Py_ssize_t at)
{
    PyObject **items = ((PyListObject *)list)->ob_item;
    Py_ssize_t size = PyList_GET_SIZE(list);
    PyObject *gone = items[at];
    memmove(items + at, items + at + 1, (size_t)(size - at - 1) * sizeof(PyObject *));
    Py_SET_SIZE(list, size - 1);
    Py_DECREF(gone); /* after the list is whole again */
}

/* list.pop() of a list that is not empty (a new reference) */
static PyObject *rd_pop(PyObject *list)
{
    Py_ssize_t top = PyList_GET_SIZE(list) - 1;
    PyObject *item = PyList_GET_ITEM(list, top);
    Py_SET_SIZE(list, top);
    return item;
}

/* list.extend(tuple), 0 or -1 */
static int rd_extend(PyObject *list, PyObject *tuple)
{
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(tuple); i++)
        if (PyList_Append(list, PyTuple_GET_ITEM(tuple, i)) < 0) return -1;
    return 0;
}

/* hand[:] = [c for c in hand if not mask >> c & 1] (Game._on_exchange), 0 or -1: every card
   is read first, so that a hand with something that is no card is left as it was. */
static int rd_keep(PyObject *hand, uint64_t mask)
{
    PyObject **items = ((PyListObject *)hand)->ob_item;
    Py_ssize_t size = PyList_GET_SIZE(hand), kept = 0, gone = 0;
    PyObject *out[64];
    if (size > 64) {
        PyErr_SetString(PyExc_ValueError, "a hand of more than 64 cards");
        return -1;
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long c = card_id(items[i]);
        if (c == -1 && PyErr_Occurred()) return -1;
        if (c < 0 || c > 63) {
            PyErr_SetString(PyExc_ValueError, "no card");
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < size; i++) {
        long c = card_id(items[i]);
        if (mask >> c & 1)
            out[gone++] = items[i];
        else
            items[kept++] = items[i];
    }
    Py_SET_SIZE(hand, kept);
    for (Py_ssize_t i = 0; i < gone; i++) Py_DECREF(out[i]);
    return 0;
}

/* PyLong_AsLong (the macro above sends every call of this file here). The ints read here
   are cards, seats, counts, scores and rounds: an int of at most one digit of 30 bits, whose
   value CPython 3.11 keeps as its size's sign times its one digit. Those are read from the
   object, about 6 instructions where PyLong_AsLong and PyLong_AsLongAndOverflow take 35 (some
   700 calls a pagat deal); anything else (more digits, not an int, another version's
   layout) goes to PyLong_AsLong itself, with the same result and errors. */
static inline long rd_as_long(PyObject *value)
{
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
    if (PyLong_Check(value)) {
        Py_ssize_t size = Py_SIZE(value);
        if (size == 0) return 0;
        if (size == 1) return (long)((PyLongObject *)value)->ob_digit[0];
        if (size == -1) return -(long)((PyLongObject *)value)->ob_digit[0];
    }
#endif
    return (PyLong_AsLong)(value);
}

/* PyLong_AsUnsignedLongLong the same way (the macro above): a card mask (52 bits) is an int
   of at most two digits; about 10 instructions where PyLong_AsUnsignedLongLong takes some
   150 for two digits (through _PyLong_AsByteArray). Anything else goes to the function. */
static inline unsigned long long rd_as_mask(PyObject *value)
{
#if PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000 && PYLONG_BITS_IN_DIGIT == 30
    if (PyLong_Check(value)) {
        Py_ssize_t size = Py_SIZE(value);
        const digit *d = ((PyLongObject *)value)->ob_digit;
        if (size == 0) return 0;
        if (size == 1) return d[0];
        if (size == 2) return (unsigned long long)d[0] | (unsigned long long)d[1] << PyLong_SHIFT;
    }
#endif
    return (PyLong_AsUnsignedLongLong)(value);
}

/* list(tuple) for legal_actions (the cached legal actions are a tuple): the list made at
   its size and filled, without PySequence_List's growing of an empty list. */
static PyObject *rd_list(PyObject *tuple)
{
    if (!PyTuple_CheckExact(tuple)) return PySequence_List(tuple);
    Py_ssize_t n = PyTuple_GET_SIZE(tuple);
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    PyObject **from = ((PyTupleObject *)tuple)->ob_item, **to = ((PyListObject *)list)->ob_item;
    for (Py_ssize_t i = 0; i < n; i++) to[i] = Py_NewRef(from[i]);
    return list;
}

/* end of recycled discards (issue 28, fortieth pass) */

/* ------------------------------------------------------------------ counts kept, options listed directly
   (issue 28, forty-third pass)

   Two of the spread pieces of a random pagat deal.

   *A game's counts kept.* Every event record and every action a C turn adds sets the
   game's count of them (Game._pending_count, Game._action_count) to a new int: past 256
   (CPython's own small ints) each was made (PyLong_FromSsize_t) and the one it replaced
   freed, about 120 instructions, some 75 times a pagat deal. p43_count gives the ints
   0 .. P43_COUNTS - 1 from a table made as they are first asked for and kept for the
   process (at most P43_COUNTS ints, about 128 KB); a larger count is made as before. The
   value is the same int; only its identity differs (two games at the same count now hold
   the same object), which nothing reads.

   *An exchange turn's options listed directly.* legal_exchanges called discard_action
   for each of the 32 options of a turn (a call, the pattern's bits read, the three-card
   slot found through discard_three and its checks, the mask of every pattern worked out
   first). p43_exchanges finds each option's slot in one switch, from the sorted hand
   (checked strictly rising once, so the three-card slots need no checks), works out a mask
   only for the four- and five-card discards (the recycled table) and for an action not
   made yet, and writes the tuple's items directly. The same actions, in the same order:
   those of up to three cards are the kept objects, the others come from
   recycled_discard as before. A hand that is not strictly rising (no game makes one) is
   left to the old loop. */

#define P43_COUNTS 4096
static PyObject *P43_COUNT[P43_COUNTS]; /* the kept counts, made when first asked for */
static Py_ssize_t P43_LISTED, P43_LEFT;  /* turns listed here and left to the old loop */

/* The int ``n`` (a new reference; NULL with an error set) */
static PyObject *p43_count(Py_ssize_t n)
{
    if (n >= 0 && n < P43_COUNTS) {
        PyObject *kept = P43_COUNT[n];
        if (kept == NULL && (kept = P43_COUNT[n] = PyLong_FromSsize_t(n)) == NULL)
            return NULL;
        return Py_NewRef(kept);
    }
    return PyLong_FromSsize_t(n);
}

/* The exchange options of the sorted five-card ``cards`` (legal_exchanges): the first
   ``count`` patterns' discards, then the one-up requests if ``one_up``. A new tuple; NULL
   with an error set, or NULL without one when the old loop must list them. */
static PyObject *p43_exchanges(const int *cards, int count, int one_up)
{
    if (!(cards[0] >= 0 && cards[0] < cards[1] && cards[1] < cards[2] && cards[2] < cards[3]
          && cards[3] < cards[4] && cards[4] <= 51)
        || count < 0 || count > 32) {
        P43_LEFT++;
        return NULL;
    }
    if (DISCARD_THREE == NULL
        && (DISCARD_THREE = PyMem_Calloc(22100, sizeof(PyObject *))) == NULL) {
        PyErr_Clear();
        P43_LEFT++;
        return NULL;
    }
    /* the slot of every pattern's kept action (NULL: four or five cards, recycled) */
    PyObject **slots[32];
    slots[0] = &KEEP_ACTION;
    for (int i = 0; i < 5; i++) {
        slots[1 << i] = &DISCARD_ONE[cards[i]];
        for (int j = i + 1; j < 5; j++) {
            slots[1 << i | 1 << j] = &DISCARD_TWO[cards[i] * 52 + cards[j]];
            for (int k = j + 1; k < 5; k++) {
                int c = cards[k], b = cards[j];
                slots[1 << i | 1 << j | 1 << k]
                    = &DISCARD_THREE[c * (c - 1) * (c - 2) / 6 + b * (b - 1) / 2 + cards[i]];
            }
        }
    }
    slots[15] = slots[23] = slots[27] = slots[29] = slots[30] = slots[31] = NULL;
    PyObject *legal = p46_new_options(count + (one_up ? 5 : 0)); /* forty-sixth pass */
    if (legal == NULL) return NULL;
    PyObject **out = ((PyTupleObject *)legal)->ob_item;
    for (int p = 0; p < count; p++) {
        int pattern = PATTERNS[p] & 31;
        PyObject **slot = slots[pattern], *action;
        if (slot != NULL && *slot != NULL)
            action = Py_NewRef(*slot);
        else {
            uint64_t mask = 0;
            for (int i = 0; i < 5; i++)
                if (pattern >> i & 1) mask |= (uint64_t)1 << cards[i];
            if (slot == NULL)
                action = recycled_discard(mask);
            else if ((*slot = new_discard(mask)) != NULL)
                action = Py_NewRef(*slot);
            else
                action = NULL;
        }
        if (action == NULL) {
            Py_DECREF(legal); /* the items not set yet are NULL, which it skips */
            return NULL;
        }
        out[p] = action;
    }
    if (one_up)
        for (int i = 0; i < 5; i++) out[count + i] = Py_NewRef(ONE_UP[cards[i]]);
    P43_LISTED++;
    return legal;
}

/* *A hand's category under the game's rules* (category_of, every announcement turn and
   every look at a hand) read the rules' two flags, wheel_straight and royal_separate, by
   name each time (two attribute lookups, about 320 instructions). Rules is a frozen
   dataclass with slots: its fields never change, so they are read once for a Rules object
   and kept with a reference to it (as exchange_shape and rt_read_rules keep theirs); another
   Rules object is read anew. ``wheel`` and ``royal`` are new references; 0, or -1 with an
   error set. */
static PyObject *P43_RULES, *P43_WHEEL, *P43_ROYAL;

static int p43_rules_flags(PyObject *rules, PyObject **wheel, PyObject **royal)
{
    if (rules != P43_RULES) {
        PyObject *w = PyObject_GetAttr(rules, S_WHEEL);
        PyObject *r = w == NULL ? NULL : PyObject_GetAttr(rules, S_ROYAL);
        if (r == NULL) {
            Py_XDECREF(w);
            return -1;
        }
        Py_XSETREF(P43_WHEEL, w);
        Py_XSETREF(P43_ROYAL, r);
        Py_XSETREF(P43_RULES, Py_NewRef(rules));
    }
    *wheel = Py_NewRef(P43_WHEEL);
    *royal = Py_NewRef(P43_ROYAL);
    return 0;
}

/* *A scoring round's reason.* resolve_announcements wrote the text of every round's Score
   record ("scoring round 2") with PyUnicode_FromFormat, about 1,500 instructions, one to
   two times a deal: the texts of rounds 1-15 are kept once made (the same str value as
   before, as game.py's f-string makes it); another round's is made as before. A new
   reference, NULL with an error set. */
static PyObject *P43_REASON[16];

static PyObject *p43_reason(long round)
{
    if (round < 1 || round >= 16) return PyUnicode_FromFormat("scoring round %ld", round);
    if (P43_REASON[round] == NULL
        && (P43_REASON[round] = PyUnicode_FromFormat("scoring round %ld", round)) == NULL)
        return NULL;
    return Py_NewRef(P43_REASON[round]);
}

/* pass43_stats(): (exchange turns listed by p43_exchanges, left to the old loop, counts
   kept); for the tests. */
static PyObject *pass43_stats(PyObject *module, PyObject *unused)
{
    Py_ssize_t kept = 0;
    for (Py_ssize_t i = 0; i < P43_COUNTS; i++) kept += P43_COUNT[i] != NULL;
    return Py_BuildValue("(nnn)", P43_LISTED, P43_LEFT, kept);
}

/* end of counts kept, options listed directly (issue 28, forty-third pass) */

/*
 * Events made from their pending records (issue 28, forty-second pass).
 *
 * make_events(events, records, count): chicago.engine.game.Game._made_events' loop, which
 * makes the Event of each of the first ``count`` records (``(kind number, field, ...)``:
 * game._EventRecord) and appends them to the list ``events``, as
 * ``events.extend([kinds[r[0]](*r[1:]) for r in records[:count]])`` does. A kind that
 * install_event_kinds() was given the slots of (a kind whose __init__ stores its
 * arguments in those slots, and its parameters' defaults in those of the fields left out,
 * checked in Python first: game._event_slots) is made by allocating the object and
 * writing its slots, without the class call and its __init__'s frame (some 12,900
 * instructions a state of a server's table went to that loop); any other kind, or a
 * record of too many or too few fields, is made by calling the class. Nothing is appended if a record fails. tests/server/test_move_path_42.py
 * compares the events made both ways on games of every preset.
 */

#define MK_KINDS_MAX 64
#define MK_FIELDS_MAX 8
static PyObject *MK_KINDS;                          /* the kinds, by number (a tuple) */
static int MK_COUNT = 0;
static int MK_FIELDS[MK_KINDS_MAX];                 /* -1: made by calling the class */
static Py_ssize_t MK_OFFSET[MK_KINDS_MAX][MK_FIELDS_MAX];
static PyObject *MK_DEFAULTS[MK_KINDS_MAX];         /* the last fields' defaults (a tuple) */

static PyObject *mk_called(PyObject *record)
{
    PyObject *number = PySequence_GetItem(record, 0);
    if (number == NULL) return NULL;
    PyObject *kind = PyObject_GetItem(MK_KINDS, number);
    Py_DECREF(number);
    if (kind == NULL) return NULL;
    PyObject *rest = PySequence_GetSlice(record, 1, PY_SSIZE_T_MAX);
    PyObject *args = rest == NULL ? NULL : PySequence_Tuple(rest);
    Py_XDECREF(rest);
    PyObject *event = args == NULL ? NULL : PyObject_Call(kind, args, NULL);
    Py_XDECREF(args);
    Py_DECREF(kind);
    return event;
}

static PyObject *mk_event(PyObject *record)
{
    if (!PyTuple_CheckExact(record) || PyTuple_GET_SIZE(record) < 1) return mk_called(record);
    PyObject *number = PyTuple_GET_ITEM(record, 0);
    if (!PyLong_CheckExact(number)) return mk_called(record);
    long k = PyLong_AsLong(number);
    if (k == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return mk_called(record);
    }
    if (k < 0 || k >= MK_COUNT) return mk_called(record);
    int fields = MK_FIELDS[k];
    Py_ssize_t given = PyTuple_GET_SIZE(record) - 1;
    if (fields < 0 || given > fields) return mk_called(record);
    PyObject *defaults = MK_DEFAULTS[k];
    Py_ssize_t optional = PyTuple_GET_SIZE(defaults);
    if (given < fields - optional) return mk_called(record);
    PyTypeObject *type = (PyTypeObject *)PyTuple_GET_ITEM(MK_KINDS, k);
    PyObject *event = type->tp_alloc(type, 0);
    if (event == NULL) return NULL;
    for (Py_ssize_t i = 0; i < given; i++)
        SLOT(event, MK_OFFSET[k][i]) = Py_NewRef(PyTuple_GET_ITEM(record, i + 1));
    for (Py_ssize_t i = given; i < fields; i++)  /* a field left out: its default */
        SLOT(event, MK_OFFSET[k][i]) =
            Py_NewRef(PyTuple_GET_ITEM(defaults, i - (fields - optional)));
    return event;
}

static PyObject *make_events(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (MK_KINDS == NULL || nargs != 3 || !PyList_CheckExact(args[0])
        || !PyList_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError,
                        "make_events() takes a list of events, a list of records and a "
                        "count (install_event_kinds first)");
        return NULL;
    }
    PyObject *events = args[0], *records = args[1];
    Py_ssize_t count = PyLong_AsSsize_t(args[2]);
    if (count == -1 && PyErr_Occurred()) return NULL;
    if (count < 0 || count > PyList_GET_SIZE(records)) {
        PyErr_SetString(PyExc_ValueError, "make_events(): the count is not of the records");
        return NULL;
    }
    PyObject *made = PyList_New(count);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        /* (a class's __init__ may run Python code: the records are read as they are now) */
        if (i >= PyList_GET_SIZE(records)) {
            PyErr_SetString(PyExc_RuntimeError, "make_events(): the records changed");
            Py_DECREF(made);
            return NULL;
        }
        PyObject *record = Py_NewRef(PyList_GET_ITEM(records, i));
        PyObject *event = mk_event(record);
        Py_DECREF(record);
        if (event == NULL) {
            Py_DECREF(made);
            return NULL;
        }
        PyList_SET_ITEM(made, i, event);
    }
    Py_ssize_t size = PyList_GET_SIZE(events);
    int failed = PyList_SetSlice(events, size, size, made);
    Py_DECREF(made);
    if (failed) return NULL;
    Py_RETURN_NONE;
}

static PyObject *install_event_kinds(PyObject *module, PyObject *args)
{
    PyObject *kinds, *slots, *optional;
    if (!PyArg_ParseTuple(args, "O!O!O!", &PyTuple_Type, &kinds, &PyTuple_Type, &slots,
                          &PyTuple_Type, &optional))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(kinds);
    if (count > MK_KINDS_MAX || PyTuple_GET_SIZE(slots) != count
        || PyTuple_GET_SIZE(optional) != count) {
        PyErr_SetString(PyExc_TypeError,
                        "install_event_kinds(): a tuple of kinds and one of their slots");
        return NULL;
    }
    int fields[MK_KINDS_MAX];
    Py_ssize_t offsets[MK_KINDS_MAX][MK_FIELDS_MAX];
    for (Py_ssize_t k = 0; k < count; k++) {
        PyObject *kind = PyTuple_GET_ITEM(kinds, k), *names = PyTuple_GET_ITEM(slots, k);
        if (!PyType_Check(kind)) {
            PyErr_SetString(PyExc_TypeError, "install_event_kinds(): a kind is a class");
            return NULL;
        }
        fields[k] = -1;
        if (names == Py_None) continue;  /* made by calling the class */
        if (!PyTuple_Check(names) || PyTuple_GET_SIZE(names) > MK_FIELDS_MAX) {
            PyErr_SetString(PyExc_TypeError,
                            "install_event_kinds(): a kind's slots are a tuple or None");
            return NULL;
        }
        PyObject *defaults = PyTuple_GET_ITEM(optional, k);
        if (!PyTuple_Check(defaults) || PyTuple_GET_SIZE(defaults) > PyTuple_GET_SIZE(names)) {
            PyErr_SetString(PyExc_TypeError,
                            "install_event_kinds(): a kind's defaults are a tuple of its last "
                            "fields'");
            return NULL;
        }
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(names); i++) {
            PyObject *name = PyTuple_GET_ITEM(names, i);
            const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
            if (text == NULL || offset_of(kind, text, &offsets[k][i]) < 0) {
                if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a slot name is text");
                return NULL;
            }
        }
        fields[k] = (int)PyTuple_GET_SIZE(names);
    }
    Py_XSETREF(MK_KINDS, Py_NewRef(kinds));
    for (Py_ssize_t k = 0; k < count; k++) {
        MK_FIELDS[k] = fields[k];
        Py_XSETREF(MK_DEFAULTS[k], Py_NewRef(PyTuple_GET_ITEM(optional, k)));
        for (int i = 0; i < fields[k]; i++) MK_OFFSET[k][i] = offsets[k][i];
    }
    MK_COUNT = (int)count;
    Py_RETURN_NONE;
}

/* end of events made from their pending records (issue 28, forty-second pass) */

/*
 * An enum member's name and value read once (issue 28, forty-second pass).
 *
 * category_name(member) and member_value(member): ``member.name`` and ``member.value``
 * (new references), as the JSON writers above read them for a hand's category
 * (public_json_text, own_json_of, events_json_text) and a view's phase (public_json_text).
 * On Python 3.11 an enum member's ``name`` and ``value`` are Python properties
 * (enum.property.__get__: a frame of Python code, some 800 instructions, several times a
 * person move); the members of chicago.categories.Category and chicago.engine.phases.Phase
 * are given to install_enum_members() once, which reads both then, and are found by
 * identity (a member is its class's for the process's life; its name and value never
 * change). Anything else is read as before.
 */

#define EN_MAX 32
static PyObject *EN_MEMBERS[EN_MAX], *EN_NAMES[EN_MAX], *EN_VALUES[EN_MAX];
static int EN_COUNT = 0;
static PyObject *EN_S_NAME, *EN_S_VALUE;

static int en_strings(void)
{
    if (EN_S_NAME == NULL && (EN_S_NAME = PyUnicode_InternFromString("name")) == NULL)
        return -1;
    if (EN_S_VALUE == NULL && (EN_S_VALUE = PyUnicode_InternFromString("value")) == NULL)
        return -1;
    return 0;
}

static PyObject *category_name(PyObject *category)
{
    for (int i = 0; i < EN_COUNT; i++)
        if (EN_MEMBERS[i] == category) return Py_NewRef(EN_NAMES[i]);
    if (en_strings() < 0) return NULL;
    return PyObject_GetAttr(category, EN_S_NAME);
}

static PyObject *member_value(PyObject *member)
{
    for (int i = 0; i < EN_COUNT; i++)
        if (EN_MEMBERS[i] == member) return Py_NewRef(EN_VALUES[i]);
    if (en_strings() < 0) return NULL;
    return PyObject_GetAttr(member, EN_S_VALUE);
}

static PyObject *install_enum_members(PyObject *module, PyObject *members)
{
    if (!PyTuple_Check(members) || PyTuple_GET_SIZE(members) > EN_MAX) {
        PyErr_Format(PyExc_TypeError, "install_enum_members() takes a tuple of at most %d "
                     "members", EN_MAX);
        return NULL;
    }
    if (en_strings() < 0) return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(members);
    PyObject *names[EN_MAX], *values[EN_MAX];
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *member = PyTuple_GET_ITEM(members, i);
        names[i] = PyObject_GetAttr(member, EN_S_NAME);
        values[i] = names[i] == NULL ? NULL : PyObject_GetAttr(member, EN_S_VALUE);
        if (values[i] == NULL) {
            Py_XDECREF(names[i]);
            for (Py_ssize_t j = 0; j < i; j++) {
                Py_DECREF(names[j]);
                Py_DECREF(values[j]);
            }
            return NULL;
        }
    }
    for (int i = 0; i < EN_COUNT; i++) {  /* (again: the new members replace the old) */
        Py_CLEAR(EN_MEMBERS[i]);
        Py_CLEAR(EN_NAMES[i]);
        Py_CLEAR(EN_VALUES[i]);
    }
    for (Py_ssize_t i = 0; i < count; i++) {
        EN_MEMBERS[i] = Py_NewRef(PyTuple_GET_ITEM(members, i));
        EN_NAMES[i] = names[i];
        EN_VALUES[i] = values[i];
    }
    EN_COUNT = (int)count;
    Py_RETURN_NONE;
}

/* end of an enum member's name and value read once (issue 28, forty-second pass) */

/*
 * A slotted object made from its fields (issue 28, forty-second pass).
 *
 * slot_maker(cls, names): a function that makes an object of exactly ``cls`` from its
 * fields given in ``names``' order, written into those slots, as a class whose __init__
 * stores each argument in its slot does (the server's LogEntry and Move, frozen
 * dataclasses whose __init__ writes each slot through its descriptor's __set__). A log
 * entry made so costs about a tenth of one made by the class call (its Python __init__
 * and six method-wrapper calls: some 5,000 instructions, four or more a person move).
 * chicago.server.core.rows checks once that the class's own __init__ stores exactly its
 * arguments before it uses one (rows.slot_maker); tests/server/test_move_path_42.py
 * compares the objects made both ways.
 */

#define SM_FIELDS_MAX 16
#define SLOT_MAKER "chicago.engine._engine.slot_maker"

typedef struct {
    PyTypeObject *type;
    Py_ssize_t count;
    Py_ssize_t offsets[SM_FIELDS_MAX];
} SlotMaker;

static void slot_maker_free(PyObject *capsule)
{
    SlotMaker *maker = PyCapsule_GetPointer(capsule, SLOT_MAKER);
    if (maker == NULL) return;
    Py_XDECREF(maker->type);
    PyMem_Free(maker);
}

static PyObject *slot_made(PyObject *capsule, PyObject *const *args, Py_ssize_t nargs)
{
    SlotMaker *maker = PyCapsule_GetPointer(capsule, SLOT_MAKER);
    if (maker == NULL) return NULL;
    if (nargs != maker->count) {
        PyErr_Format(PyExc_TypeError, "a %s is made of %zd fields, not %zd",
                     maker->type->tp_name, maker->count, nargs);
        return NULL;
    }
    PyObject *made = maker->type->tp_alloc(maker->type, 0);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < nargs; i++) SLOT(made, maker->offsets[i]) = Py_NewRef(args[i]);
    return made;
}

static PyMethodDef SLOT_MADE = {
    "made", (PyCFunction)(void (*)(void))slot_made, METH_FASTCALL,
    "made(*fields)\n--\n\nAn object of the maker's class with these fields in its slots "
    "(chicago.engine._engine.slot_maker)."};

static PyObject *slot_maker(PyObject *module, PyObject *args)
{
    PyObject *type, *names;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &type, &PyTuple_Type, &names))
        return NULL;
    Py_ssize_t count = PyTuple_GET_SIZE(names);
    if (count > SM_FIELDS_MAX) {
        PyErr_Format(PyExc_TypeError, "slot_maker(): at most %d fields", SM_FIELDS_MAX);
        return NULL;
    }
    if (((PyTypeObject *)type)->tp_alloc == NULL) {
        PyErr_SetString(PyExc_TypeError, "slot_maker(): the class cannot be allocated");
        return NULL;
    }
    SlotMaker *maker = PyMem_Calloc(1, sizeof(SlotMaker));
    if (maker == NULL) return PyErr_NoMemory();
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *name = PyTuple_GET_ITEM(names, i);
        const char *text = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (text == NULL || offset_of(type, text, &maker->offsets[i]) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "a slot name is text");
            PyMem_Free(maker);
            return NULL;
        }
    }
    maker->type = (PyTypeObject *)Py_NewRef(type);
    maker->count = count;
    PyObject *capsule = PyCapsule_New(maker, SLOT_MAKER, slot_maker_free);
    if (capsule == NULL) {
        Py_DECREF(type);
        PyMem_Free(maker);
        return NULL;
    }
    PyObject *function = PyCFunction_New(&SLOT_MADE, capsule);
    Py_DECREF(capsule);
    return function;
}

/* end of a slotted object made from its fields (issue 28, forty-second pass) */

/*
 * A game's number of events (issue 28, forty-second pass).
 *
 * event_count_of(game): chicago.engine.game.Game.event_count (``min(_event_count,
 * len(_events)) + _pending_offset + _pending_count``) read from the game's slots, put on
 * Game as the property's getter (game._install_event_maker): the server's table reads it
 * twice an entry applied, and each entry is applied twice (the preview's, then the
 * table's), some 16 times a person move at about 1,000 instructions for the Python
 * property. Slots of other types (or unset) are read by the Python getter given to
 * install_event_count, as before. is_over_of does the same for Game.is_over.
 */

static PyTypeObject *EC_GAME;
static PyObject *EC_PYTHON;   /* the Python getter */
static PyObject *EC_OVER;     /* Phase.OVER */
static Py_ssize_t EC_EVENTS, EC_EVENT_COUNT, EC_PENDING_OFFSET, EC_PENDING_COUNT, EC_PHASE;

/* is_over_of(game): Game.is_over (``game.phase is Phase.OVER``) read from the slot, put on
   Game as the property's getter as event_count_of is (read some 26 times a person move) */
static PyObject *is_over_of(PyObject *module, PyObject *game)
{
    if (EC_GAME == NULL || !PyObject_TypeCheck(game, EC_GAME)) {
        PyErr_SetString(PyExc_TypeError, "is_over_of() reads a Game (install first)");
        return NULL;
    }
    PyObject *phase = SLOT(game, EC_PHASE);
    if (phase == NULL) {
        PyErr_SetString(PyExc_AttributeError, "'Game' object has no attribute 'phase'");
        return NULL;
    }
    return Py_NewRef(phase == EC_OVER ? Py_True : Py_False);
}

static PyObject *event_count_of(PyObject *module, PyObject *game)
{
    if (EC_GAME == NULL || !PyObject_TypeCheck(game, EC_GAME)) {
        PyErr_SetString(PyExc_TypeError, "event_count_of() reads a Game (install first)");
        return NULL;
    }
    PyObject *events = SLOT(game, EC_EVENTS), *made = SLOT(game, EC_EVENT_COUNT);
    PyObject *offset = SLOT(game, EC_PENDING_OFFSET), *pending = SLOT(game, EC_PENDING_COUNT);
    if (events == NULL || made == NULL || offset == NULL || pending == NULL
        || !PyList_CheckExact(events) || !PyLong_CheckExact(made) || !PyLong_CheckExact(offset)
        || !PyLong_CheckExact(pending))
        return PyObject_CallOneArg(EC_PYTHON, game);
    long count = PyLong_AsLong(made), first = PyLong_AsLong(offset), more = PyLong_AsLong(pending);
    if ((count == -1 || first == -1 || more == -1) && PyErr_Occurred()) return NULL;
    Py_ssize_t size = PyList_GET_SIZE(events);
    return PyLong_FromSsize_t((count < size ? (Py_ssize_t)count : size) + (Py_ssize_t)first
                              + (Py_ssize_t)more);
}

static PyObject *install_event_count(PyObject *module, PyObject *args)
{
    PyObject *game, *python, *over;
    if (!PyArg_ParseTuple(args, "O!OO", &PyType_Type, &game, &python, &over)) return NULL;
    Py_ssize_t offsets[5];
    const char *names[5] = {"_events", "_event_count", "_pending_offset", "_pending_count",
                            "phase"};
    for (int i = 0; i < 5; i++)
        if (offset_of(game, names[i], &offsets[i]) < 0) return NULL;
    EC_PHASE = offsets[4];
    Py_XSETREF(EC_OVER, Py_NewRef(over));
    EC_EVENTS = offsets[0];
    EC_EVENT_COUNT = offsets[1];
    EC_PENDING_OFFSET = offsets[2];
    EC_PENDING_COUNT = offsets[3];
    Py_XSETREF(EC_PYTHON, Py_NewRef(python));
    Py_XSETREF(EC_GAME, (PyTypeObject *)Py_NewRef(game));
    Py_RETURN_NONE;
}

/* end of a game's number of events (issue 28, forty-second pass) */

/* ------------------------------------------------------------------ deal memo reads
   (issue 28, forty-first pass)

   chicago.engine.carried keeps, per deal, the events each seat may see (a SeatLog per seat
   in a DealMemo shared by a game and its copies) and the facts folded from them. Every
   view of a bot's turn, every person's update and every public view asks the memo (about
   seven times a person move), and in Python each ask cost 15,000-24,000 instructions: the
   identity checks, the seat's new events picked out one by one (an attribute read of
   ``private`` and ``audience`` per event), the log's tuple made again, the SeenEvents, two
   locks, and the fold's kept state looked up. These methods do the same in C and are put on
   the classes in place of the Python ones (DealMemo.seen and .log, SeatLog.read; the Python
   methods stay as DealMemo._seen_python, ._log_python and SeatLog._read_python, and serve
   anything of another shape: a subclass, a seat or count that is no int, events that are
   no list, indices out of the plain range).

   The same locks are held for the same work (the memo's while its deal and a log are read,
   the log's while a fact is folded and read), so a Python reader in another thread and
   these exclude each other as before. Whether a seat may see an event is read from a table
   of the event kinds made at install_memo (exact types: public, or private with the slot
   of its seat); an event of any other type is asked as the Python code asks it
   (``e.private``, ``e.audience``), under the lock. A log only ever takes what its seat may
   see: a private event of another seat is never put in it. tests/test_memo_reads.py
   compares the two paths on random games of every preset and variation. */

#define DM_KINDS 64
static PyTypeObject *DM_MEMO, *DM_LOG, *DM_SEEN, *DM_FOLD;
static PyObject *DM_SEEN_PY, *DM_LOG_PY, *DM_READ_PY; /* the kept Python methods */
static PyTypeObject *DM_KIND[DM_KINDS];     /* the event kinds, by a hash of the type */
static Py_ssize_t DM_AUDIENCE[DM_KINDS];   /* -1: public; else the offset of its seat */
static Py_ssize_t DM_O_MLOCK, DM_O_DEAL, DM_O_LOGS, DM_O_PLAYERS, DM_O_RULES;
static Py_ssize_t DM_O_FACTS, DM_O_LLOCK, DM_O_SCANNED, DM_O_SEEN, DM_O_SEAT;
static Py_ssize_t DM_O_START, DM_O_ADVANCE;
static PyObject *DM_S_LOG, *DM_S_PRIVATE, *DM_S_AUDIENCE, *DM_S_ACQUIRE, *DM_S_RELEASE;

static int dm_acquire(PyObject *lock)
{
    PyObject *done = PyObject_VectorcallMethod(DM_S_ACQUIRE, &lock,
                                               1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (done == NULL) return -1;
    Py_DECREF(done);
    return 0;
}

/* release ``lock``, keeping an error set before (-1 if it fails) */
static int dm_release(PyObject *lock)
{
    PyObject *type, *value, *trace;
    PyErr_Fetch(&type, &value, &trace);
    PyObject *done = PyObject_VectorcallMethod(DM_S_RELEASE, &lock,
                                               1 | PY_VECTORCALL_ARGUMENTS_OFFSET, NULL);
    if (done == NULL) {
        Py_XDECREF(type);
        Py_XDECREF(value);
        Py_XDECREF(trace);
        return -1;
    }
    Py_DECREF(done);
    PyErr_Restore(type, value, trace);
    return 0;
}

static size_t dm_hash(PyTypeObject *type)
{
    return ((uintptr_t)type >> 4) % DM_KINDS;
}

/* 1 if ``seat`` (None: the spectators) may see ``event``, 0 if not, -1 on an error: as
   ``not e.private or (seat is not None and e.audience == seat)`` */
static int dm_visible(PyObject *event, PyObject *seat)
{
    PyTypeObject *type = Py_TYPE(event);
    size_t at = dm_hash(type);
    for (size_t i = 0; i < DM_KINDS && DM_KIND[at] != NULL; i++, at = (at + 1) % DM_KINDS) {
        if (DM_KIND[at] != type) continue;
        Py_ssize_t offset = DM_AUDIENCE[at];
        if (offset < 0) return 1;
        if (seat == Py_None) return 0;
        PyObject *audience = SLOT(event, offset);
        if (audience == NULL) {
            PyErr_SetString(PyExc_AttributeError, "a private event without its seat");
            return -1;
        }
        if (audience == seat) return 1;
        return PyObject_RichCompareBool(audience, seat, Py_EQ);
    }
    /* another kind: asked as the Python code asks */
    PyObject *private = PyObject_GetAttr(event, DM_S_PRIVATE);
    if (private == NULL) return -1;
    int hidden = PyObject_IsTrue(private);
    Py_DECREF(private);
    if (hidden <= 0) return hidden < 0 ? -1 : 1;
    if (seat == Py_None) return 0;
    PyObject *audience = PyObject_GetAttr(event, DM_S_AUDIENCE);
    if (audience == NULL) return -1;
    int same = PyObject_RichCompareBool(audience, seat, Py_EQ);
    Py_DECREF(audience);
    return same;
}

/* how many of deal[0:count] ``seat`` may see, or -1 on an error */
static Py_ssize_t dm_count(PyObject *deal, Py_ssize_t count, PyObject *seat)
{
    Py_ssize_t seen = 0;
    for (Py_ssize_t i = 0; i < count && i < PyList_GET_SIZE(deal); i++) {
        PyObject *event = Py_NewRef(PyList_GET_ITEM(deal, i));
        int visible = dm_visible(event, seat);
        Py_DECREF(event);
        if (visible < 0) return -1;
        seen += visible;
    }
    return seen;
}

/* SeatLog._read: the log's seat's events among deal[scanned:count] put after its own */
static int dm_scan(PyObject *log, PyObject *deal, Py_ssize_t count)
{
    PyObject *scanned = SLOT(log, DM_O_SCANNED), *had = SLOT(log, DM_O_SEEN);
    PyObject *seat = SLOT(log, DM_O_SEAT);
    if (scanned == NULL || had == NULL || seat == NULL || !PyLong_CheckExact(scanned)
        || !PyTuple_CheckExact(had)) {
        PyErr_SetString(PyExc_TypeError, "a SeatLog of another shape");
        return -1;
    }
    Py_ssize_t done = PyLong_AsSsize_t(scanned);
    if (done == -1 && PyErr_Occurred()) return -1;
    if (count <= done) return 0;
    if (count > PyList_GET_SIZE(deal)) count = PyList_GET_SIZE(deal);
    char small[128], *flags = small;
    Py_ssize_t span = count - done, new = 0;
    if (span > (Py_ssize_t)sizeof small && (flags = PyMem_Malloc((size_t)span)) == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < span; i++) {
        if (done + i >= PyList_GET_SIZE(deal)) { /* the deal changed under a Python call */
            span = i;
            break;
        }
        PyObject *event = Py_NewRef(PyList_GET_ITEM(deal, done + i));
        int visible = dm_visible(event, seat);
        Py_DECREF(event);
        if (visible < 0) {
            if (flags != small) PyMem_Free(flags);
            return -1;
        }
        flags[i] = (char)visible;
        new += visible;
    }
    if (new) {
        Py_ssize_t size = PyTuple_GET_SIZE(had);
        PyObject *seen = PyTuple_New(size + new);
        if (seen == NULL) {
            if (flags != small) PyMem_Free(flags);
            return -1;
        }
        for (Py_ssize_t i = 0; i < size; i++)
            PyTuple_SET_ITEM(seen, i, Py_NewRef(PyTuple_GET_ITEM(had, i)));
        Py_ssize_t at = size;
        for (Py_ssize_t i = 0; i < span && at < size + new; i++)
            if (flags[i])
                PyTuple_SET_ITEM(seen, at++, Py_NewRef(PyList_GET_ITEM(deal, done + i)));
        if (at < size + new) { /* cannot happen: the deal's items only grow */
            Py_DECREF(seen);
            if (flags != small) PyMem_Free(flags);
            PyErr_SetString(PyExc_RuntimeError, "the deal changed while it was read");
            return -1;
        }
        set_slot(log, DM_O_SEEN, seen);
    }
    if (flags != small) PyMem_Free(flags);
    return set_slot(log, DM_O_SCANNED, PyLong_FromSsize_t(done + span));
}

/* a SeenEvents of the first ``size`` of the log's events, knowing the log */
static PyObject *dm_seen_events(PyObject *log, PyObject *events, Py_ssize_t size)
{
    PyObject *seen = DM_SEEN->tp_alloc(DM_SEEN, size);
    if (seen == NULL) return NULL;
    for (Py_ssize_t i = 0; i < size; i++)
        PyTuple_SET_ITEM(seen, i, Py_NewRef(PyTuple_GET_ITEM(events, i)));
    if (PyObject_SetAttr(seen, DM_S_LOG, log) < 0) {
        Py_DECREF(seen);
        return NULL;
    }
    return seen;
}

/* DealMemo.seen (mode 0) and DealMemo.log (mode 1) */
static PyObject *dm_ask(PyObject *self, PyObject *const *args, Py_ssize_t nargs, int mode)
{
    PyObject *python = mode == 0 ? DM_SEEN_PY : DM_LOG_PY;
    if (Py_TYPE(self) != DM_MEMO || nargs < 3 || nargs > 4) goto in_python;
    PyObject *seat = args[0], *events = args[1], *start_object = args[2];
    PyObject *stop_object = nargs == 4 ? args[3] : Py_None;
    if (!(seat == Py_None || PyLong_CheckExact(seat)) || !PyList_CheckExact(events)
        || !PyLong_CheckExact(start_object)
        || !(stop_object == Py_None || PyLong_CheckExact(stop_object)))
        goto in_python;
    Py_ssize_t length = PyList_GET_SIZE(events);
    Py_ssize_t start = PyLong_AsSsize_t(start_object);
    Py_ssize_t stop = stop_object == Py_None ? length : PyLong_AsSsize_t(stop_object);
    if ((start == -1 || stop == -1) && PyErr_Occurred()) {
        PyErr_Clear();
        goto in_python;
    }
    if (start < 0 || stop < start || stop > length) goto in_python;
    PyObject *deal = SLOT(self, DM_O_DEAL), *logs = SLOT(self, DM_O_LOGS);
    PyObject *lock = SLOT(self, DM_O_MLOCK);
    if (deal == NULL || logs == NULL || lock == NULL || !PyList_CheckExact(deal)
        || !PyDict_CheckExact(logs))
        goto in_python;
    Py_ssize_t count = stop - start;
    PyObject *result = NULL, *log = NULL;
    Py_INCREF(self);
    if (dm_acquire(lock) < 0) {
        Py_DECREF(self);
        return NULL;
    }
    Py_ssize_t done = PyList_GET_SIZE(deal);
    if (count <= done) {
        if (count && PyList_GET_ITEM(deal, count - 1) != PyList_GET_ITEM(events, start + count - 1))
            goto other_way;
    } else {
        if (done && PyList_GET_ITEM(deal, done - 1) != PyList_GET_ITEM(events, start + done - 1))
            goto other_way;
        for (Py_ssize_t i = start + done; i < start + count; i++)
            if (PyList_Append(deal, PyList_GET_ITEM(events, i)) < 0) goto out;
    }
    log = PyDict_GetItemWithError(logs, seat);
    if (log == NULL) {
        if (PyErr_Occurred()) goto out;
        PyObject *made = PyObject_CallFunctionObjArgs((PyObject *)DM_LOG, seat,
                                                      SLOT(self, DM_O_PLAYERS),
                                                      SLOT(self, DM_O_RULES), NULL);
        if (made == NULL) goto out;
        log = PyDict_SetDefault(logs, seat, made);
        Py_DECREF(made);
        if (log == NULL) goto out;
    }
    Py_INCREF(log);
    if (Py_TYPE(log) != DM_LOG) { /* another kind of log: its own methods */
        PyObject *read = PyObject_CallMethod(log, "_read", "On", deal, count);
        if (read == NULL) goto out;
        Py_DECREF(read);
        result = mode == 0 ? PyObject_CallMethod(log, "seen", "On", deal, count)
                           : PyObject_CallMethod(log, "seen_count", "On", deal, count);
        if (result != NULL && mode == 1) {
            PyObject *pair = PyTuple_Pack(2, log, result);
            Py_SETREF(result, pair);
        }
        goto out;
    }
    if (dm_scan(log, deal, count) < 0) goto out;
    {
        PyObject *seen = SLOT(log, DM_O_SEEN), *scanned = SLOT(log, DM_O_SCANNED);
        Py_ssize_t size = PyTuple_GET_SIZE(seen);
        if (PyLong_AsSsize_t(scanned) != count) { /* an older state */
            size = dm_count(deal, count, SLOT(log, DM_O_SEAT));
            if (size < 0) goto out;
            if (size > PyTuple_GET_SIZE(seen)) size = PyTuple_GET_SIZE(seen);
        }
        if (mode == 0) {
            result = dm_seen_events(log, seen, size);
        } else {
            PyObject *number = PyLong_FromSsize_t(size);
            if (number != NULL) {
                result = PyTuple_Pack(2, log, number);
                Py_DECREF(number);
            }
        }
    }
    goto out;
other_way:
    result = Py_NewRef(Py_None);
out:
    if (dm_release(lock) < 0) Py_CLEAR(result);
    Py_XDECREF(log);
    Py_DECREF(self);
    return result;
in_python:
    {
        PyObject *call[5] = {self};
        for (Py_ssize_t i = 0; i < nargs && i < 4; i++) call[i + 1] = args[i];
        return PyObject_Vectorcall(python, call, (size_t)(nargs < 4 ? nargs : 4) + 1, NULL);
    }
}

static PyObject *dm_seen(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return dm_ask(self, args, nargs, 0);
}

static PyObject *dm_log(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    return dm_ask(self, args, nargs, 1);
}

/* SeatLog.read(fold, count, read) */
static PyObject *dm_read(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (Py_TYPE(self) != DM_LOG || nargs != 3 || Py_TYPE(args[0]) != DM_FOLD
        || !PyLong_CheckExact(args[1])) {
        PyObject *call[4] = {self};
        for (Py_ssize_t i = 0; i < nargs && i < 3; i++) call[i + 1] = args[i];
        return PyObject_Vectorcall(DM_READ_PY, call, (size_t)(nargs < 3 ? nargs : 3) + 1,
                                   NULL);
    }
    PyObject *fold = args[0], *count_object = args[1], *read = args[2];
    PyObject *seen = SLOT(self, DM_O_SEEN), *facts = SLOT(self, DM_O_FACTS);
    PyObject *lock = SLOT(self, DM_O_LLOCK);
    PyObject *start = SLOT(fold, DM_O_START), *advance = SLOT(fold, DM_O_ADVANCE);
    if (seen == NULL || facts == NULL || lock == NULL || start == NULL || advance == NULL
        || !PyTuple_CheckExact(seen) || !PyDict_CheckExact(facts)) {
        PyErr_SetString(PyExc_TypeError, "a SeatLog or Fold of another shape");
        return NULL;
    }
    Py_ssize_t size = PyTuple_GET_SIZE(seen);
    Py_ssize_t count = PyLong_AsSsize_t(count_object);
    if (count == -1 && PyErr_Occurred()) {
        if (!PyErr_ExceptionMatches(PyExc_OverflowError)) return NULL;
        PyErr_Clear();
        count = -1; /* out of range all the same */
    }
    if (count < 0 || count > size) {
        PyErr_Format(PyExc_ValueError, "the log holds %zd events, not %R", size, count_object);
        return NULL;
    }
    Py_INCREF(self);
    Py_INCREF(seen);
    Py_INCREF(fold);
    PyObject *result = NULL, *kept = NULL, *state = NULL;
    if (dm_acquire(lock) < 0) goto done;
    kept = PyDict_GetItemWithError(facts, fold);
    if (kept == NULL && PyErr_Occurred()) goto out;
    Py_XINCREF(kept);
    Py_ssize_t folded = -1;
    if (kept != NULL) {
        if (!PyTuple_CheckExact(kept) || PyTuple_GET_SIZE(kept) != 2) {
            PyErr_SetString(PyExc_TypeError, "a kept fact of another shape");
            goto out;
        }
        folded = PyLong_AsSsize_t(PyTuple_GET_ITEM(kept, 0));
        if (folded == -1 && PyErr_Occurred()) goto out;
    }
    if (kept != NULL && folded <= count) {
        state = Py_NewRef(PyTuple_GET_ITEM(kept, 1));
        if (folded < count) {
            PyObject *more = PyTuple_GetSlice(seen, folded, count);
            if (more == NULL) goto out;
            PyObject *call[3] = {state, more, self};
            PyObject *next = PyObject_Vectorcall(advance, call, 3, NULL);
            Py_DECREF(more);
            if (next == NULL) goto out;
            Py_SETREF(state, next);
            PyObject *pair = PyTuple_Pack(2, count_object, state);
            if (pair == NULL) goto out;
            int failed = PyDict_SetItem(facts, fold, pair);
            Py_DECREF(pair);
            if (failed) goto out;
        }
    } else {
        PyObject *first = PyObject_Vectorcall(start, &self, 1, NULL);
        if (first == NULL) goto out;
        PyObject *these = PyTuple_GetSlice(seen, 0, count);
        if (these == NULL) {
            Py_DECREF(first);
            goto out;
        }
        PyObject *call[3] = {first, these, self};
        state = PyObject_Vectorcall(advance, call, 3, NULL);
        Py_DECREF(first);
        Py_DECREF(these);
        if (state == NULL) goto out;
        if (kept == NULL) {
            PyObject *pair = PyTuple_Pack(2, count_object, state);
            if (pair == NULL) goto out;
            int failed = PyDict_SetItem(facts, fold, pair);
            Py_DECREF(pair);
            if (failed) goto out;
        }
    }
    result = PyObject_Vectorcall(read, &state, 1, NULL);
out:
    if (dm_release(lock) < 0) Py_CLEAR(result);
done:
    Py_XDECREF(kept);
    Py_XDECREF(state);
    Py_DECREF(fold);
    Py_DECREF(seen);
    Py_DECREF(self);
    return result;
}

static PyMethodDef DM_MEMO_METHODS[] = {
    {"seen", (PyCFunction)(void (*)(void))dm_seen, METH_FASTCALL,
     "seen($self, seat, events, start, stop=None, /)\n--\n\n"
     "The events of the deal events[start:stop] that ``seat`` may see, from its log; None "
     "when the deal went another way than the memo's (see chicago.engine.carried)."},
    {"log", (PyCFunction)(void (*)(void))dm_log, METH_FASTCALL,
     "log($self, seat, events, start, stop=None, /)\n--\n\n"
     "seen() as the seat's log and the number of its events seen() gives, without making "
     "them; None as for seen()."},
    {NULL, NULL, 0, NULL},
};

static PyMethodDef DM_LOG_METHODS[] = {
    {"read", (PyCFunction)(void (*)(void))dm_read, METH_FASTCALL,
     "read($self, fold, count, read, /)\n--\n\n"
     "``read`` of the state of ``fold`` after the first ``count`` events of the log, carried "
     "on from the kept state (see chicago.engine.carried)."},
    {NULL, NULL, 0, NULL},
};

static int dm_put_methods(PyObject *cls, PyMethodDef *defs)
{
    for (PyMethodDef *def = defs; def->ml_name != NULL; def++) {
        PyObject *descriptor = PyDescr_NewMethod((PyTypeObject *)cls, def);
        if (descriptor == NULL) return -1;
        int failed = PyObject_SetAttrString(cls, def->ml_name, descriptor);
        Py_DECREF(descriptor);
        if (failed) return -1;
    }
    return 0;
}

/* install_memo(config): the classes of chicago.engine.carried, the event kinds (a dict of
   each exact event type to the name of its seat's slot, None for a public kind); puts the
   C methods on DealMemo and SeatLog */
static PyObject *install_memo(PyObject *module, PyObject *config)
{
    (void)module;
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "install_memo() takes a dict");
        return NULL;
    }
    PyObject *memo = take(config, "DealMemo"), *log = take(config, "SeatLog");
    PyObject *seen = memo && log ? take(config, "SeenEvents") : NULL;
    PyObject *fold = seen ? take(config, "Fold") : NULL;
    PyObject *kinds = fold ? take(config, "kinds") : NULL;
    PyObject *result = NULL;
    if (kinds == NULL) goto out;
    if (!PyType_Check(memo) || !PyType_Check(log) || !PyType_Check(seen) || !PyType_Check(fold)
        || !PyDict_Check(kinds) || PyDict_GET_SIZE(kinds) > DM_KINDS / 2) {
        PyErr_SetString(PyExc_TypeError, "install_memo(): classes and a dict of kinds");
        goto out;
    }
    if (offset_of(memo, "_lock", &DM_O_MLOCK) < 0 || offset_of(memo, "deal", &DM_O_DEAL) < 0
        || offset_of(memo, "logs", &DM_O_LOGS) < 0
        || offset_of(memo, "players", &DM_O_PLAYERS) < 0
        || offset_of(memo, "rules", &DM_O_RULES) < 0
        || offset_of(log, "_facts", &DM_O_FACTS) < 0 || offset_of(log, "_lock", &DM_O_LLOCK) < 0
        || offset_of(log, "_scanned", &DM_O_SCANNED) < 0
        || offset_of(log, "_seen", &DM_O_SEEN) < 0 || offset_of(log, "seat", &DM_O_SEAT) < 0
        || offset_of(fold, "start", &DM_O_START) < 0
        || offset_of(fold, "advance", &DM_O_ADVANCE) < 0)
        goto out;
    memset(DM_KIND, 0, sizeof DM_KIND);
    PyObject *kind, *slot;
    Py_ssize_t at = 0;
    while (PyDict_Next(kinds, &at, &kind, &slot)) {
        if (!PyType_Check(kind)) {
            PyErr_SetString(PyExc_TypeError, "install_memo(): kinds are event types");
            goto out;
        }
        Py_ssize_t offset = -1;
        if (slot != Py_None) {
            const char *name = PyUnicode_AsUTF8(slot);
            if (name == NULL || offset_of(kind, name, &offset) < 0) goto out;
        }
        size_t place = dm_hash((PyTypeObject *)kind);
        while (DM_KIND[place] != NULL) place = (place + 1) % DM_KINDS;
        DM_KIND[place] = (PyTypeObject *)Py_NewRef(kind); /* kept for the module's life */
        DM_AUDIENCE[place] = offset;
    }
    if ((DM_S_LOG = PyUnicode_InternFromString("log")) == NULL
        || (DM_S_PRIVATE = PyUnicode_InternFromString("private")) == NULL
        || (DM_S_AUDIENCE = PyUnicode_InternFromString("audience")) == NULL
        || (DM_S_ACQUIRE = PyUnicode_InternFromString("acquire")) == NULL
        || (DM_S_RELEASE = PyUnicode_InternFromString("release")) == NULL
        || (DM_SEEN_PY = PyObject_GetAttrString(memo, "_seen_python")) == NULL
        || (DM_LOG_PY = PyObject_GetAttrString(memo, "_log_python")) == NULL
        || (DM_READ_PY = PyObject_GetAttrString(log, "_read_python")) == NULL)
        goto out;
    DM_MEMO = (PyTypeObject *)Py_NewRef(memo);
    DM_LOG = (PyTypeObject *)Py_NewRef(log);
    DM_SEEN = (PyTypeObject *)Py_NewRef(seen);
    DM_FOLD = (PyTypeObject *)Py_NewRef(fold);
    if (dm_put_methods(memo, DM_MEMO_METHODS) < 0 || dm_put_methods(log, DM_LOG_METHODS) < 0)
        goto out;
    result = Py_NewRef(Py_None);
out:
    Py_XDECREF(memo);
    Py_XDECREF(log);
    Py_XDECREF(seen);
    Py_XDECREF(fold);
    Py_XDECREF(kinds);
    return result;
}

/* end of deal memo reads (issue 28, forty-first pass) */

/* ------------------------------------------------------------------ a game's memo asks
   (issue 28, forty-fourth pass)

   Game.seen_by and Game.seat_log ask the deal's memo (Game._from_memo: the seat checked,
   the events not made yet made, the memo's first event compared with the deal's, the ask,
   a memo of the game's own when it went another way). In Python that was most of an ask
   (about 5,000 instructions, some seven asks a person move). These do the same in C, in
   the same order, and are put on Game in place of the Python methods (kept as
   Game._from_memo_python, ._seen_by_python and ._seat_log_python, which serve anything of
   another shape: a subclass of Game, a seat that is no int or out of range, slots of
   other types). The ask is DealMemo's own method as the class holds it when asked (the C
   one of "deal memo reads" is called directly when it is that one and the memo is a
   DealMemo). No lock is taken here: the memo's methods take theirs, as before. */

static PyTypeObject *FM_GAME;
static PyObject *FM_DEAL_MEMO;                 /* carried.DealMemo, as game.py names it */
static PyObject *FM_FROM_MEMO_PY, *FM_SEEN_BY_PY, *FM_SEAT_LOG_PY; /* the Python methods */
static PyObject *FM_C_SEEN, *FM_C_LOG;         /* DealMemo's C seen and log at install */
static Py_ssize_t FM_O_PCOUNT, FM_O_POFFSET, FM_O_EVENTS, FM_O_ECOUNT, FM_O_START,
    FM_O_MEMO, FM_O_PLAYERS, FM_O_RULES, FM_O_FIRST;
static PyObject *FM_S_MADE, *FM_S_SEEN, *FM_S_LOG, *FM_S_FIRST;
static Py_ssize_t FM_O_PENDING, FM_O_PBASE;


/* an exact int's value into *value; 0 if it is no exact int or does not fit */
static int fm_ssize(PyObject *object, Py_ssize_t *value)
{
    if (object == NULL || !PyLong_CheckExact(object)) return 0;
    *value = PyLong_AsSsize_t(object);
    if (*value == -1 && PyErr_Occurred()) {
        PyErr_Clear();
        return 0;
    }
    return 1;
}

/* Game._made_events for a game whose log is its own and whose records are its own
   (no earlier segments shared with copies): make_events, then the same slots set as the
   Python sets them; anything else by the Python method. 0, or -1 on an error. */
static int fm_made_events(PyObject *self)
{
    PyObject *events = SLOT(self, FM_O_EVENTS), *pending = SLOT(self, FM_O_PENDING);
    PyObject *base = SLOT(self, FM_O_PBASE), *count_object = SLOT(self, FM_O_PCOUNT);
    Py_ssize_t count;
    if (MK_KINDS == NULL || events == NULL || !PyList_CheckExact(events) || pending == NULL
        || !PyList_CheckExact(pending) || base == NULL || !PyTuple_CheckExact(base)
        || PyTuple_GET_SIZE(base) != 0 || !fm_ssize(SLOT(self, FM_O_ECOUNT), &count)
        || count != PyList_GET_SIZE(events) || !fm_ssize(count_object, &count)) {
        PyObject *made = PyObject_CallMethodNoArgs(self, FM_S_MADE);
        Py_XDECREF(made);
        return made == NULL ? -1 : 0;
    }
    PyObject *args[3] = {events, pending, count_object};
    for (int i = 0; i < 3; i++) Py_INCREF(args[i]);
    PyObject *done = make_events(NULL, args, 3);
    for (int i = 0; i < 3; i++) Py_DECREF(args[i]);
    if (done == NULL) return -1;
    Py_DECREF(done);
    events = SLOT(self, FM_O_EVENTS);
    if (set_slot(self, FM_O_PENDING, PyList_New(0)) < 0
        || set_slot(self, FM_O_PCOUNT, PyLong_FromLong(0)) < 0
        || set_slot(self, FM_O_PBASE, PyTuple_New(0)) < 0
        || set_slot(self, FM_O_POFFSET, PyLong_FromLong(0)) < 0
        || set_slot(self, FM_O_ECOUNT, PyLong_FromSsize_t(PyList_GET_SIZE(events))) < 0)
        return -1;
    return 0;
}

/* ask(memo, seat, events, start, stop): the C method directly when it is DealMemo's */
static PyObject *fm_call(PyObject *ask, PyObject *memo, PyObject *seat, PyObject *events,
                         PyObject *start, PyObject *stop)
{
    if (Py_TYPE(memo) == DM_MEMO && (ask == FM_C_SEEN || ask == FM_C_LOG)) {
        PyObject *args[4] = {seat, events, start, stop};
        return dm_ask(memo, args, 4, ask == FM_C_SEEN ? 0 : 1);
    }
    PyObject *call[5] = {memo, seat, events, start, stop};
    return PyObject_Vectorcall(ask, call, 5, NULL);
}

/* Game._from_memo(seat, ask); NotImplemented (a new reference) for the Python method */
static PyObject *fm_from_memo(PyObject *self, PyObject *seat, PyObject *ask)
{
    if (Py_TYPE(self) != FM_GAME) return Py_NewRef(Py_NotImplemented);
    Py_ssize_t players, pending, offset, count, start, stop;
    if (!fm_ssize(SLOT(self, FM_O_PLAYERS), &players) || SLOT(self, FM_O_RULES) == NULL
        || SLOT(self, FM_O_MEMO) == NULL) /* (a slot not set: the Python raises) */
        return Py_NewRef(Py_NotImplemented);
    if (seat != Py_None) {
        Py_ssize_t who;
        if (!fm_ssize(seat, &who) || who < 0 || who >= players) /* the Python raises */
            return Py_NewRef(Py_NotImplemented);
    }
    PyObject *events = SLOT(self, FM_O_EVENTS);
    if (!fm_ssize(SLOT(self, FM_O_PCOUNT), &pending) || !fm_ssize(SLOT(self, FM_O_POFFSET), &offset)
        || !fm_ssize(SLOT(self, FM_O_ECOUNT), &count) || events == NULL
        || !PyList_CheckExact(events))
        return Py_NewRef(Py_NotImplemented);
    if (pending || offset || PyList_GET_SIZE(events) < count) {
        /* (the log past this game's events is a copy's: not read) */
        if (fm_made_events(self) < 0) return NULL;
        events = SLOT(self, FM_O_EVENTS);
        if (events == NULL || !PyList_CheckExact(events)) return Py_NewRef(Py_NotImplemented);
    }
    PyObject *stop_object = SLOT(self, FM_O_ECOUNT), *start_object = SLOT(self, FM_O_START);
    if (!fm_ssize(stop_object, &stop) || !fm_ssize(start_object, &start) || start < 0
        || stop > PyList_GET_SIZE(events))
        return Py_NewRef(Py_NotImplemented);
    PyObject *first = start < stop ? PyList_GET_ITEM(events, start) : Py_None;
    PyObject *memo = SLOT(self, FM_O_MEMO);
    PyObject *found = NULL, *memo_first = NULL;
    /* held: a Python call (an ask of another kind, a lock waited for) may change the slots */
    Py_INCREF(events);
    Py_INCREF(first);
    Py_INCREF(stop_object);
    Py_INCREF(start_object);
    Py_INCREF(memo);
    if (memo != Py_None) {
        if (Py_TYPE(memo) == DM_MEMO) memo_first = Py_XNewRef(SLOT(memo, FM_O_FIRST));
        if (memo_first == NULL) {
            memo_first = PyObject_GetAttr(memo, FM_S_FIRST);
            if (memo_first == NULL) goto out;
        }
        if (memo_first == first) {
            found = fm_call(ask, memo, seat, events, start_object, stop_object);
            if (found == NULL) goto out;
        }
    }
    if (found == NULL || found == Py_None) {
        /* no memo of this deal, or this game went another way than its memo's */
        Py_CLEAR(found);
        PyObject *made = PyObject_CallFunctionObjArgs(FM_DEAL_MEMO, first,
                                                      SLOT(self, FM_O_PLAYERS),
                                                      SLOT(self, FM_O_RULES), NULL);
        if (made == NULL) goto out;
        Py_XSETREF(memo, Py_NewRef(made));
        set_slot(self, FM_O_MEMO, made);
        found = fm_call(ask, memo, seat, events, start_object, stop_object);
        if (found == Py_None) { /* a new memo takes any deal */
            Py_CLEAR(found);
            PyErr_SetString(PyExc_AssertionError, "a new memo refused its deal");
        }
    }
out:
    Py_XDECREF(memo_first);
    Py_DECREF(memo);
    Py_DECREF(start_object);
    Py_DECREF(stop_object);
    Py_DECREF(first);
    Py_DECREF(events);
    return found;
}

/* the Python method of a name, called with (self, seat[, ask]) */
static PyObject *fm_python(PyObject *method, PyObject *self, PyObject *seat, PyObject *ask)
{
    PyObject *call[3] = {self, seat, ask};
    return PyObject_Vectorcall(method, call, ask == NULL ? 2 : 3, NULL);
}

static PyObject *fm_method(PyObject *self, PyObject *seat, PyObject *name, PyObject *python)
{
    PyObject *ask = _PyType_Lookup(DM_MEMO, name); /* DealMemo.seen / .log as it is now */
    if (ask == NULL || (ask != FM_C_SEEN && ask != FM_C_LOG && !PyFunction_Check(ask)))
        return fm_python(python, self, seat, NULL); /* (another kind of attribute) */
    Py_INCREF(ask);
    PyObject *found = fm_from_memo(self, seat, ask);
    Py_DECREF(ask);
    if (found == Py_NotImplemented) {
        Py_DECREF(found);
        return fm_python(python, self, seat, NULL);
    }
    return found;
}

/* Game.seen_by(seat) */
static PyObject *fm_seen_by(PyObject *self, PyObject *seat)
{
    return fm_method(self, seat, FM_S_SEEN, FM_SEEN_BY_PY);
}

/* Game.seat_log(seat) */
static PyObject *fm_seat_log(PyObject *self, PyObject *seat)
{
    return fm_method(self, seat, FM_S_LOG, FM_SEAT_LOG_PY);
}

/* Game._from_memo(seat, ask) */
static PyObject *fm_from_memo_method(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 2) {
        PyErr_Format(PyExc_TypeError, "_from_memo() takes 2 arguments (%zd given)", nargs);
        return NULL;
    }
    PyObject *found = fm_from_memo(self, args[0], args[1]);
    if (found == Py_NotImplemented) {
        Py_DECREF(found);
        return fm_python(FM_FROM_MEMO_PY, self, args[0], args[1]);
    }
    return found;
}

static PyMethodDef FM_GAME_METHODS[] = {
    {"seen_by", (PyCFunction)fm_seen_by, METH_O,
     "seen_by($self, seat, /)\n--\n\n"
     "The events of the current (or last) deal that ``seat`` may see (``None``: the public "
     "ones), in order: what its view holds, taken from the seat's log in a memo shared with "
     "this game's copies, which carries the facts folded from them on "
     "(:mod:`chicago.engine.carried`)."},
    {"seat_log", (PyCFunction)fm_seat_log, METH_O,
     "seat_log($self, seat, /)\n--\n\n"
     "The log :meth:`seen_by` takes ``seat``'s events from, and how many of them it gives: "
     "for a reader of a fact folded in the log (a view's scoring rounds) that keeps no "
     "events, without making them."},
    {"_from_memo", (PyCFunction)(void (*)(void))fm_from_memo_method, METH_FASTCALL,
     "_from_memo($self, seat, ask, /)\n--\n\n"
     "``ask`` of the memo of the current deal (one made when this game has none, or went "
     "another way than its memo's) about ``seat`` and the deal's events."},
    {NULL, NULL, 0, NULL},
};

/* install_from_memo(Game, config): config holds DealMemo and the Python methods
   (from_memo, seen_by, seat_log); puts the C ones on Game. DealMemo's C methods must be
   on it already (install_memo). */
static PyObject *install_from_memo(PyObject *module, PyObject *args)
{
    (void)module;
    PyObject *game, *config;
    if (!PyArg_ParseTuple(args, "O!O!", &PyType_Type, &game, &PyDict_Type, &config))
        return NULL;
    if (DM_MEMO == NULL) {
        PyErr_SetString(PyExc_RuntimeError, "install_from_memo(): install_memo() first");
        return NULL;
    }
    PyObject *memo = take(config, "DealMemo");
    PyObject *from_memo = memo ? take(config, "from_memo") : NULL;
    PyObject *seen_by = from_memo ? take(config, "seen_by") : NULL;
    PyObject *seat_log = seen_by ? take(config, "seat_log") : NULL;
    PyObject *result = NULL;
    if (seat_log == NULL) goto out;
    if (memo != (PyObject *)DM_MEMO) {
        PyErr_SetString(PyExc_TypeError, "install_from_memo(): not the memo's DealMemo");
        goto out;
    }
    if (offset_of(game, "_pending_count", &FM_O_PCOUNT) < 0
        || offset_of(game, "_pending_offset", &FM_O_POFFSET) < 0
        || offset_of(game, "_events", &FM_O_EVENTS) < 0
        || offset_of(game, "_pending", &FM_O_PENDING) < 0
        || offset_of(game, "_pending_base", &FM_O_PBASE) < 0
        || offset_of(game, "_event_count", &FM_O_ECOUNT) < 0
        || offset_of(game, "_deal_start_event", &FM_O_START) < 0
        || offset_of(game, "_memo", &FM_O_MEMO) < 0
        || offset_of(game, "players", &FM_O_PLAYERS) < 0
        || offset_of(game, "rules", &FM_O_RULES) < 0
        || offset_of(memo, "first", &FM_O_FIRST) < 0)
        goto out;
    if ((FM_S_MADE = PyUnicode_InternFromString("_made_events")) == NULL
        || (FM_S_SEEN = PyUnicode_InternFromString("seen")) == NULL
        || (FM_S_LOG = PyUnicode_InternFromString("log")) == NULL
        || (FM_S_FIRST = PyUnicode_InternFromString("first")) == NULL)
        goto out;
    FM_C_SEEN = _PyType_Lookup(DM_MEMO, FM_S_SEEN);
    FM_C_LOG = _PyType_Lookup(DM_MEMO, FM_S_LOG);
    if (FM_C_SEEN == NULL || FM_C_LOG == NULL
        || Py_TYPE(FM_C_SEEN) != &PyMethodDescr_Type || Py_TYPE(FM_C_LOG) != &PyMethodDescr_Type) {
        PyErr_SetString(PyExc_TypeError, "install_from_memo(): DealMemo's C methods are not on it");
        goto out;
    }
    Py_INCREF(FM_C_SEEN); /* kept for the module's life: compared by identity */
    Py_INCREF(FM_C_LOG);
    FM_GAME = (PyTypeObject *)Py_NewRef(game);
    FM_DEAL_MEMO = Py_NewRef(memo);
    FM_FROM_MEMO_PY = Py_NewRef(from_memo);
    FM_SEEN_BY_PY = Py_NewRef(seen_by);
    FM_SEAT_LOG_PY = Py_NewRef(seat_log);
    if (dm_put_methods(game, FM_GAME_METHODS) < 0) goto out;
    result = Py_NewRef(Py_None);
out:
    Py_XDECREF(memo);
    Py_XDECREF(from_memo);
    Py_XDECREF(seen_by);
    Py_XDECREF(seat_log);
    return result;
}

/* end of a game's memo asks (issue 28, forty-fourth pass) */

/* ------------------------------------------------------------------ the card places fold
   (issue 28, forty-fourth pass)

   chicago.engine.knowledge._fold (the card places of a seat's events: where it knows
   cards to be, read for every view's known_out and carried in the seat's log) was Python,
   about a microsecond an event it follows. places_fold does the same in C, step for step
   on the same objects (the same dict and set operations in the same order, so the
   places' dicts and sets end alike, their order too). It takes the exact kinds it was
   installed with (their fields read from their slots, as their properties read them) and
   places of the exact CardPlaces class whose fields are a dict and sets; anything else
   (another iterable of events, a subclass, fields of another type) is folded by the
   Python function (knowledge._fold_python). */

enum { PF_DEAL, PF_EXCHANGED, PF_EXCHANGE, PF_REDEAL, PF_ONE_UP, PF_ONE_UP_CHOICE, PF_SHOW,
       PF_RESHUFFLE, PF_KINDS };
static PyTypeObject *PF_KIND[PF_KINDS];
static PyObject *PF_PLACES, *PF_PYTHON;     /* CardPlaces, knowledge._fold_python */
static PyObject *PF_S_DIFFERENCE;            /* "difference_update" */
static Py_ssize_t PF_O_HELD, PF_O_PILE, PF_O_OUT, PF_O_PENDING, PF_O_RETURNED, PF_O_RESHUFFLES;
/* the slots read of each kind: its seat and one or two more */
static Py_ssize_t PF_O_SEAT[PF_KINDS], PF_O_A[PF_KINDS], PF_O_B[PF_KINDS];

static int pf_kind(PyObject *event)
{
    PyTypeObject *type = Py_TYPE(event);
    for (int k = 0; k < PF_KINDS; k++)
        if (PF_KIND[k] == type) return k;
    return -1;
}

/* a field of an event (a borrowed reference), or NULL with AttributeError */
static PyObject *pf_field(PyObject *event, Py_ssize_t offset)
{
    PyObject *value = SLOT(event, offset);
    if (value == NULL) PyErr_SetString(PyExc_AttributeError, "an event's field is not set");
    return value;
}

/* whether places are of the shape this fold changes */
static int pf_shaped(PyObject *known)
{
    if ((PyObject *)Py_TYPE(known) != PF_PLACES) return 0;
    PyObject *held = SLOT(known, PF_O_HELD), *pile = SLOT(known, PF_O_PILE);
    PyObject *out = SLOT(known, PF_O_OUT), *pending = SLOT(known, PF_O_PENDING);
    PyObject *returned = SLOT(known, PF_O_RETURNED);
    return held != NULL && PyDict_CheckExact(held) && pile != NULL && PySet_CheckExact(pile)
        && out != NULL && PySet_CheckExact(out) && pending != NULL && PySet_CheckExact(pending)
        && returned != NULL && PySet_CheckExact(returned)
        && SLOT(known, PF_O_RESHUFFLES) != NULL;
}

/* CardPlaces._forget(card) */
static int pf_forget(PyObject *known, PyObject *card)
{
    PyObject *held = SLOT(known, PF_O_HELD);
    int has = PyDict_Contains(held, card);
    if (has < 0 || (has && PyDict_DelItem(held, card) < 0)) return -1;
    if (PySet_Discard(SLOT(known, PF_O_PILE), card) < 0
        || PySet_Discard(SLOT(known, PF_O_OUT), card) < 0
        || PySet_Discard(SLOT(known, PF_O_RETURNED), card) < 0)
        return -1;
    return 0;
}

/* CardPlaces._forget_all(cards): cards a tuple */
static int pf_forget_all(PyObject *known, PyObject *cards)
{
    PyObject *held = SLOT(known, PF_O_HELD);
    Py_ssize_t n = PyTuple_GET_SIZE(cards);
    if (PyDict_GET_SIZE(held))
        for (Py_ssize_t i = 0; i < n; i++) {
            int has = PyDict_Contains(held, PyTuple_GET_ITEM(cards, i));
            if (has < 0 || (has && PyDict_DelItem(held, PyTuple_GET_ITEM(cards, i)) < 0))
                return -1;
        }
    /* set.difference_update itself: it may make the set's table smaller at its end, which
       orders the set's cards as Python's own does */
    Py_ssize_t places[3] = {PF_O_PILE, PF_O_OUT, PF_O_RETURNED};
    for (int p = 0; p < 3; p++) {
        PyObject *done = PyObject_CallMethodOneArg(SLOT(known, places[p]), PF_S_DIFFERENCE,
                                                   cards);
        if (done == NULL) return -1;
        Py_DECREF(done);
    }
    return 0;
}

/* the cards held[card] == who moved from held into ``into`` (CardPlaces._exchanged, or a
   thrown-in hand's cards put on the pile) */
static int pf_move_held(PyObject *known, PyObject *who, PyObject *into)
{
    PyObject *held = SLOT(known, PF_O_HELD);
    PyObject *cards = PyList_New(0), *card, *owner;
    if (cards == NULL) return -1;
    Py_ssize_t at = 0;
    while (PyDict_Next(held, &at, &card, &owner)) {
        int same = PyObject_RichCompareBool(owner, who, Py_EQ);
        if (same < 0 || (same && PyList_Append(cards, card) < 0)) {
            Py_DECREF(cards);
            return -1;
        }
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(cards); i++) {
        card = PyList_GET_ITEM(cards, i);
        if (PyDict_DelItem(held, card) < 0 || PySet_Add(into, card) < 0) {
            Py_DECREF(cards);
            return -1;
        }
    }
    Py_DECREF(cards);
    return 0;
}

static int pf_step(PyObject **known_at, PyObject *open, PyObject *seat, PyObject *event,
                   int kind)
{
    PyObject *known = *known_at;
    PyObject *who = kind == PF_DEAL || kind == PF_RESHUFFLE ? NULL
                                                            : pf_field(event, PF_O_SEAT[kind]);
    if (who == NULL && kind != PF_DEAL && kind != PF_RESHUFFLE) return -1;
    switch (kind) {
    case PF_DEAL: {
        PyObject *fresh = PyObject_CallNoArgs(PF_PLACES);
        if (fresh == NULL) return -1;
        if (!pf_shaped(fresh)) {
            Py_DECREF(fresh);
            PyErr_SetString(PyExc_TypeError, "CardPlaces() of another shape");
            return -1;
        }
        Py_SETREF(*known_at, fresh);
        return PySet_Clear(open);
    }
    case PF_EXCHANGED: { /* private: the seat's own discards and draws */
        PyObject *drawn = pf_field(event, PF_O_A[kind]), *discarded = pf_field(event, PF_O_B[kind]);
        if (drawn == NULL || discarded == NULL) return -1;
        if (!PyTuple_CheckExact(drawn) || !PyTuple_CheckExact(discarded)) {
            PyErr_SetString(PyExc_TypeError, "an exchange's cards are no tuple");
            return -1;
        }
        if (pf_forget_all(known, drawn) < 0) return -1;
        int open_seat = PySet_Contains(open, seat);
        if (open_seat < 0) return -1;
        PyObject *into = SLOT(known, open_seat ? PF_O_PENDING : PF_O_PILE);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(discarded); i++)
            if (PySet_Add(into, PyTuple_GET_ITEM(discarded, i)) < 0) return -1;
        return 0;
    }
    case PF_EXCHANGE: {
        PyObject *one_up = pf_field(event, PF_O_A[kind]);
        if (one_up == NULL) return -1;
        int up = PyObject_IsTrue(one_up);
        if (up < 0) return -1;
        if (up) return PySet_Add(open, who); /* its discard joins the pile at the choice */
        int other = PyObject_RichCompareBool(who, seat, Py_NE);
        if (other <= 0) return other;
        PyObject *discarded = pf_field(event, PF_O_B[kind]);
        if (discarded == NULL) return -1;
        int some = PyObject_IsTrue(discarded);
        if (some <= 0) return some;
        if (!PyDict_GET_SIZE(SLOT(known, PF_O_HELD))) return 0;
        return pf_move_held(known, who, SLOT(known, PF_O_OUT));
    }
    case PF_REDEAL: {
        PyObject *redealt = pf_field(event, PF_O_A[kind]);
        if (redealt == NULL) return -1;
        int yes = PyObject_IsTrue(redealt);
        if (yes <= 0) return yes;
        int other = PyObject_RichCompareBool(who, seat, Py_NE);
        if (other <= 0) return other;
        return pf_move_held(known, who, SLOT(known, PF_O_PILE)); /* thrown in whole */
    }
    case PF_ONE_UP: {
        PyObject *card = pf_field(event, PF_O_A[kind]);
        if (card == NULL) return -1;
        Py_INCREF(card);
        int failed = pf_forget(known, card) < 0
            || PyDict_SetItem(SLOT(known, PF_O_HELD), card, who) < 0;
        Py_DECREF(card);
        return failed ? -1 : 0;
    }
    case PF_ONE_UP_CHOICE: {
        PyObject *card = pf_field(event, PF_O_A[kind]), *accepted = pf_field(event, PF_O_B[kind]);
        if (card == NULL || accepted == NULL) return -1;
        if (PySet_Discard(open, who) < 0 || pf_forget(known, card) < 0) return -1;
        int own = PyObject_RichCompareBool(who, seat, Py_EQ);
        if (own < 0) return -1;
        if (own) {
            PyObject *pile = SLOT(known, PF_O_PILE), *pending = SLOT(known, PF_O_PENDING);
            PyObject *joined = PyNumber_InPlaceOr(pile, pending);
            if (joined == NULL) return -1;
            Py_INCREF(pending);
            if (set_slot(known, PF_O_PILE, joined) < 0 || PySet_Clear(pending) < 0) {
                Py_DECREF(pending);
                return -1;
            }
            Py_DECREF(pending);
        } else if (PyDict_GET_SIZE(SLOT(known, PF_O_HELD))) {
            if (pf_move_held(known, who, SLOT(known, PF_O_OUT)) < 0) return -1;
        }
        int taken = PyObject_IsTrue(accepted);
        if (taken < 0) return -1;
        if (!taken) return PySet_Add(SLOT(known, PF_O_PILE), card);
        int other = PyObject_RichCompareBool(who, seat, Py_NE);
        if (other <= 0) return other;
        return PyDict_SetItem(SLOT(known, PF_O_HELD), card, who);
    }
    case PF_SHOW: {
        int own = PyObject_RichCompareBool(who, seat, Py_EQ);
        if (own) return own < 0 ? -1 : 0; /* the seat's own cards: it knows them */
        PyObject *cards = pf_field(event, PF_O_A[kind]);
        if (cards == NULL) return -1;
        if (!PyTuple_CheckExact(cards)) {
            PyErr_SetString(PyExc_TypeError, "a show's cards are no tuple");
            return -1;
        }
        if (pf_forget_all(known, cards) < 0) return -1;
        PyObject *held = SLOT(known, PF_O_HELD);
        for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(cards); i++)
            if (PyDict_SetItem(held, PyTuple_GET_ITEM(cards, i), who) < 0) return -1;
        return 0;
    }
    case PF_RESHUFFLE: { /* the pile is the new stock */
        PyObject *pile = SLOT(known, PF_O_PILE);
        PyObject *count = SLOT(known, PF_O_RESHUFFLES);
        if (set_slot(known, PF_O_RETURNED, PySet_New(pile)) < 0 || PySet_Clear(pile) < 0
            || PySet_Clear(SLOT(known, PF_O_OUT)) < 0)
            return -1;
        PyObject *one = PyLong_FromLong(1);
        if (one == NULL) return -1;
        PyObject *more = PyNumber_Add(count, one);
        Py_DECREF(one);
        return set_slot(known, PF_O_RESHUFFLES, more);
    }
    }
    return 0;
}

/* places_fold(events, seat, known, one_up_open): knowledge._fold */
static PyObject *places_fold(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (PF_PLACES == NULL || nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "places_fold(events, seat, known, one_up_open) "
                        "(install_places first)");
        return NULL;
    }
    PyObject *events = args[0], *seat = args[1], *known = args[2], *open = args[3];
    if (!(PyTuple_Check(events) || PyList_CheckExact(events)) || !pf_shaped(known)
        || !PySet_CheckExact(open))
        return PyObject_Vectorcall(PF_PYTHON, args, 4, NULL);
    Py_INCREF(events);
    Py_INCREF(known);
    Py_INCREF(open);
    int failed = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(events); i++) {
        PyObject *event = PySequence_Fast_GET_ITEM(events, i);
        int kind = pf_kind(event);
        if (kind < 0) continue; /* plays, announcements …: they move no card followed here */
        Py_INCREF(event);
        failed = pf_step(&known, open, seat, event, kind) < 0;
        Py_DECREF(event);
        if (failed) break;
    }
    Py_DECREF(events);
    if (failed) {
        Py_DECREF(known);
        Py_DECREF(open);
        return NULL;
    }
    PyObject *pair = PyTuple_Pack(2, known, open);
    Py_DECREF(known);
    Py_DECREF(open);
    return pair;
}

/* install_places(config): CardPlaces, the Python fold, and the kinds with the names of
   the slots read (Deal, Exchanged, Exchange, Redeal, OneUp, OneUpChoice, Show, Reshuffle) */
static PyObject *install_places(PyObject *module, PyObject *config)
{
    (void)module;
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "install_places() takes a dict");
        return NULL;
    }
    static const char *names[PF_KINDS] = {"Deal", "Exchanged", "Exchange", "Redeal", "OneUp",
                                          "OneUpChoice", "Show", "Reshuffle"};
    static const char *slots[PF_KINDS][4] = {
        {NULL, NULL, NULL, NULL}, {"_seat", "_drawn", "_discarded", NULL},
        {"_seat", "_one_up", "_discarded", NULL}, {"_seat", "_redealt", NULL, NULL},
        {"_seat", "_card", NULL, NULL}, {"_seat", "_card", "_accepted", NULL},
        {"_seat", "_cards", NULL, NULL}, {NULL, NULL, NULL, NULL}};
    PyObject *places = take(config, "CardPlaces");
    PyObject *python = places ? take(config, "fold") : NULL;
    if (python == NULL) goto failed;
    if (!PyType_Check(places)
        || offset_of(places, "held", &PF_O_HELD) < 0 || offset_of(places, "pile", &PF_O_PILE) < 0
        || offset_of(places, "out", &PF_O_OUT) < 0
        || offset_of(places, "pending", &PF_O_PENDING) < 0
        || offset_of(places, "returned", &PF_O_RETURNED) < 0
        || offset_of(places, "reshuffles", &PF_O_RESHUFFLES) < 0)
        goto failed;
    for (int k = 0; k < PF_KINDS; k++) {
        PyObject *kind = take(config, names[k]);
        if (kind == NULL) goto failed;
        if (!PyType_Check(kind)) {
            Py_DECREF(kind);
            PyErr_SetString(PyExc_TypeError, "install_places(): kinds are types");
            goto failed;
        }
        Py_ssize_t *at[3] = {&PF_O_SEAT[k], &PF_O_A[k], &PF_O_B[k]};
        for (int s = 0; s < 3; s++)
            if (slots[k][s] != NULL && offset_of(kind, slots[k][s], at[s]) < 0) {
                Py_DECREF(kind);
                goto failed;
            }
        PF_KIND[k] = (PyTypeObject *)kind; /* kept for the module's life */
    }
    if ((PF_S_DIFFERENCE = PyUnicode_InternFromString("difference_update")) == NULL)
        goto failed;
    PF_PLACES = places;
    PF_PYTHON = python;
    Py_RETURN_NONE;
failed:
    Py_XDECREF(places);
    Py_XDECREF(python);
    return NULL;
}

/* the places fold's advance and its shared read in C (knowledge._advance_places and
   _carried_out; the Python ones kept as _advance_places_python, _carried_out_python and
   called for anything of another shape, and for the set made again) */
static PyTypeObject *PF_PLACING;
static PyObject *PF_ADVANCE_PY, *PF_CARRIED_PY;
static Py_ssize_t PF_O_PLACES, PF_O_OPEN, PF_O_KNOWN_OUT;

/* advance_places(state, events, log) */
static PyObject *advance_places(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (PF_PLACING == NULL || nargs != 3 || Py_TYPE(args[0]) != PF_PLACING
        || !(PyTuple_Check(args[1]) || PyList_CheckExact(args[1])) || DM_LOG == NULL
        || Py_TYPE(args[2]) != DM_LOG || SLOT(args[2], DM_O_SEAT) == NULL
        || SLOT(args[0], PF_O_PLACES) == NULL || SLOT(args[0], PF_O_OPEN) == NULL)
        return PyObject_Vectorcall(PF_ADVANCE_PY, args, (size_t)nargs, NULL);
    PyObject *state = args[0], *events = args[1];
    int moved = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(events); i++) {
        int kind = pf_kind(PySequence_Fast_GET_ITEM(events, i));
        if (kind < 0) continue;
        moved = 1;
        if (kind != PF_EXCHANGE) { /* it may move a card into or out of the stock */
            if (set_slot(state, PF_O_KNOWN_OUT, Py_NewRef(Py_None)) < 0) return NULL;
            break;
        }
    }
    if (moved) {
        PyObject *call[4] = {events, SLOT(args[2], DM_O_SEAT), SLOT(state, PF_O_PLACES),
                             SLOT(state, PF_O_OPEN)};
        for (int i = 0; i < 4; i++) Py_INCREF(call[i]);
        PyObject *pair = places_fold(NULL, call, 4);
        for (int i = 0; i < 4; i++) Py_DECREF(call[i]);
        if (pair == NULL) return NULL;
        if (!PyTuple_CheckExact(pair) || PyTuple_GET_SIZE(pair) != 2) {
            Py_DECREF(pair);
            PyErr_SetString(PyExc_TypeError, "the places fold gave no pair");
            return NULL;
        }
        set_slot(state, PF_O_PLACES, Py_NewRef(PyTuple_GET_ITEM(pair, 0)));
        set_slot(state, PF_O_OPEN, Py_NewRef(PyTuple_GET_ITEM(pair, 1)));
        Py_DECREF(pair);
    }
    return Py_NewRef(state);
}

/* carried_out(state): the set kept, else the Python function makes it */
static PyObject *carried_out(PyObject *module, PyObject *state)
{
    (void)module;
    if (PF_PLACING != NULL && Py_TYPE(state) == PF_PLACING) {
        PyObject *out = SLOT(state, PF_O_KNOWN_OUT);
        if (out != NULL && out != Py_None) return Py_NewRef(out);
    }
    return PyObject_CallOneArg(PF_CARRIED_PY, state);
}

/* install_placing(config): knowledge._Placing and the Python advance and read */
static PyObject *install_placing(PyObject *module, PyObject *config)
{
    (void)module;
    if (!PyDict_Check(config) || PF_PLACES == NULL) {
        PyErr_SetString(PyExc_TypeError, "install_placing() takes a dict (after install_places)");
        return NULL;
    }
    PyObject *placing = take(config, "Placing");
    PyObject *advance = placing ? take(config, "advance") : NULL;
    PyObject *read = advance ? take(config, "carried_out") : NULL;
    if (read == NULL || !PyType_Check(placing)
        || offset_of(placing, "places", &PF_O_PLACES) < 0
        || offset_of(placing, "one_up_open", &PF_O_OPEN) < 0
        || offset_of(placing, "out", &PF_O_KNOWN_OUT) < 0) {
        if (read != NULL && !PyErr_Occurred())
            PyErr_SetString(PyExc_TypeError, "install_placing(): Placing is a class");
        Py_XDECREF(placing);
        Py_XDECREF(advance);
        Py_XDECREF(read);
        return NULL;
    }
    PF_PLACING = (PyTypeObject *)placing; /* kept for the module's life */
    PF_ADVANCE_PY = advance;
    PF_CARRIED_PY = read;
    Py_RETURN_NONE;
}

/* end of the card places fold (issue 28, forty-fourth pass) */

/* ------------------------------------------------------------------ the scoring rounds fold
   (issue 28, forty-fourth pass)

   chicago.engine.views._Scoring.add (the scoring rounds carried in the spectators' log,
   read for every public view) and its read _Scoring.parts were Python frames around a few
   events each. scoring_add does what add does, in the same order on the same objects (an
   Announcement made by calling its class); scoring_parts gives the parts kept, else calls
   the Python method. Anything of another shape goes to the Python (_Scoring.add, .parts). */

enum { SC_ANNOUNCE, SC_PASS, SC_REVEAL, SC_RESULT, SC_EXCHANGE, SC_DEAL, SC_KINDS };
static PyTypeObject *SC_KIND[SC_KINDS];
static PyTypeObject *SC_SCORING;
static PyObject *SC_ANNOUNCEMENT, *SC_ADD_PY, *SC_PARTS_PY;
static Py_ssize_t SC_O_PARTS, SC_O_RESULT, SC_O_START, SC_O_WORDS, SC_O_ANNOUNCEMENTS,
    SC_O_RESULTS, SC_O_REVEALS, SC_O_ROUND_OF_WORD;
static Py_ssize_t SC_O_SEAT[2], SC_O_ROUND[2], SC_O_CATEGORY; /* Announce, Pass */

static int sc_step(PyObject *self, PyObject *event, int kind)
{
    PyObject *announcements = SLOT(self, SC_O_ANNOUNCEMENTS), *reveals = SLOT(self, SC_O_REVEALS);
    switch (kind) {
    case SC_ANNOUNCE:
    case SC_PASS: {
        if (set_slot(self, SC_O_PARTS, Py_NewRef(Py_None)) < 0) return -1;
        PyObject *category = kind == SC_ANNOUNCE ? SLOT(event, SC_O_CATEGORY) : Py_None;
        PyObject *round = SLOT(event, SC_O_ROUND[kind]), *seat = SLOT(event, SC_O_SEAT[kind]);
        if (category == NULL || round == NULL || seat == NULL) {
            PyErr_SetString(PyExc_AttributeError, "an event's field is not set");
            return -1;
        }
        int words = PyObject_IsTrue(SLOT(self, SC_O_WORDS));
        if (words < 0) return -1;
        int begins = !words;
        if (!begins) {
            Py_ssize_t n = PyList_GET_SIZE(announcements);
            if (n == 0) {
                PyErr_SetString(PyExc_IndexError, "list index out of range");
                return -1;
            }
            PyObject *last = PyList_GET_ITEM(announcements, n - 1);
            PyObject *last_round = Py_TYPE(last) == (PyTypeObject *)SC_ANNOUNCEMENT
                ? Py_XNewRef(SLOT(last, SC_O_ROUND_OF_WORD)) : NULL;
            if (last_round == NULL) {
                Py_INCREF(last);
                last_round = PyObject_GetAttrString(last, "round");
                Py_DECREF(last);
                if (last_round == NULL) return -1;
            }
            begins = PyObject_RichCompareBool(round, last_round, Py_NE);
            Py_DECREF(last_round);
            if (begins < 0) return -1;
        }
        if (begins) {
            PyObject *start = Py_BuildValue("(nn)", PyList_GET_SIZE(announcements),
                                            PyList_GET_SIZE(reveals));
            if (set_slot(self, SC_O_START, start) < 0) return -1;
            set_slot(self, SC_O_WORDS, Py_NewRef(Py_True));
            set_slot(self, SC_O_RESULT, Py_NewRef(Py_None));
        }
        PyObject *call[3] = {round, seat, category};
        PyObject *word = PyObject_Vectorcall(SC_ANNOUNCEMENT, call, 3, NULL);
        if (word == NULL) return -1;
        int failed = PyList_Append(SLOT(self, SC_O_ANNOUNCEMENTS), word);
        Py_DECREF(word);
        return failed;
    }
    case SC_REVEAL:
        if (set_slot(self, SC_O_PARTS, Py_NewRef(Py_None)) < 0) return -1;
        return PyList_Append(reveals, event);
    case SC_RESULT:
        if (set_slot(self, SC_O_PARTS, Py_NewRef(Py_None)) < 0) return -1;
        if (PyList_Append(SLOT(self, SC_O_RESULTS), event) < 0) return -1;
        return set_slot(self, SC_O_RESULT, Py_NewRef(event));
    default: { /* an exchange round has begun since (or a new deal) */
        int words = PyObject_IsTrue(SLOT(self, SC_O_WORDS));
        if (words <= 0) return words;
        if (kind == SC_EXCHANGE && SLOT(self, SC_O_RESULT) == Py_None) return 0;
        if (set_slot(self, SC_O_PARTS, Py_NewRef(Py_None)) < 0) return -1;
        return set_slot(self, SC_O_WORDS, Py_NewRef(Py_False));
    }
    }
}

static int sc_shaped(PyObject *self)
{
    Py_ssize_t slots[] = {SC_O_PARTS, SC_O_RESULT, SC_O_START, SC_O_WORDS};
    for (size_t i = 0; i < sizeof slots / sizeof slots[0]; i++)
        if (SLOT(self, slots[i]) == NULL) return 0;
    PyObject *lists[] = {SLOT(self, SC_O_ANNOUNCEMENTS), SLOT(self, SC_O_RESULTS),
                         SLOT(self, SC_O_REVEALS)};
    for (size_t i = 0; i < 3; i++)
        if (lists[i] == NULL || !PyList_CheckExact(lists[i])) return 0;
    return 1;
}

/* scoring_add(scoring, events, log=None): _Scoring.add */
static PyObject *scoring_add(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    (void)module;
    if (SC_SCORING == NULL || nargs < 2 || nargs > 3 || Py_TYPE(args[0]) != SC_SCORING
        || !(PyTuple_Check(args[1]) || PyList_CheckExact(args[1])) || !sc_shaped(args[0]))
        return PyObject_Vectorcall(SC_ADD_PY, args, (size_t)nargs, NULL);
    PyObject *self = args[0], *events = args[1];
    Py_INCREF(self);
    Py_INCREF(events);
    int failed = 0;
    for (Py_ssize_t i = 0; i < PySequence_Fast_GET_SIZE(events) && !failed; i++) {
        PyObject *event = PySequence_Fast_GET_ITEM(events, i);
        PyTypeObject *type = Py_TYPE(event);
        int kind = 0;
        while (kind < SC_KINDS && SC_KIND[kind] != type) kind++;
        if (kind == SC_KINDS) continue; /* plays, draws …: no part of a scoring round */
        if (!sc_shaped(self)) { /* (changed under an Announcement's call) */
            PyErr_SetString(PyExc_TypeError, "a _Scoring of another shape");
            failed = 1;
            break;
        }
        Py_INCREF(event);
        failed = sc_step(self, event, kind) < 0;
        Py_DECREF(event);
    }
    Py_DECREF(events);
    if (failed) {
        Py_DECREF(self);
        return NULL;
    }
    return self;
}

/* scoring_parts(scoring): _Scoring.parts, the parts kept read directly */
static PyObject *scoring_parts(PyObject *module, PyObject *self)
{
    (void)module;
    if (SC_SCORING != NULL && Py_TYPE(self) == SC_SCORING) {
        PyObject *parts = SLOT(self, SC_O_PARTS);
        if (parts != NULL && parts != Py_None) return Py_NewRef(parts);
    }
    return PyObject_CallOneArg(SC_PARTS_PY, self);
}

/* install_scoring(config): _Scoring, Announcement, the Python add and parts, the kinds */
static PyObject *install_scoring(PyObject *module, PyObject *config)
{
    (void)module;
    if (!PyDict_Check(config)) {
        PyErr_SetString(PyExc_TypeError, "install_scoring() takes a dict");
        return NULL;
    }
    static const char *names[SC_KINDS] = {"Announce", "Pass", "Reveal", "RoundResult",
                                          "Exchange", "Deal"};
    PyObject *scoring = take(config, "Scoring");
    PyObject *word = scoring ? take(config, "Announcement") : NULL;
    PyObject *add = word ? take(config, "add") : NULL;
    PyObject *parts = add ? take(config, "parts") : NULL;
    PyObject *kinds[SC_KINDS] = {NULL};
    if (parts == NULL) goto failed;
    for (int k = 0; k < SC_KINDS; k++)
        if ((kinds[k] = take(config, names[k])) == NULL || !PyType_Check(kinds[k])) {
            if (!PyErr_Occurred())
                PyErr_SetString(PyExc_TypeError, "install_scoring(): kinds are types");
            goto failed;
        }
    if (!PyType_Check(scoring) || !PyType_Check(word)
        || offset_of(scoring, "_parts", &SC_O_PARTS) < 0
        || offset_of(scoring, "_result", &SC_O_RESULT) < 0
        || offset_of(scoring, "_start", &SC_O_START) < 0
        || offset_of(scoring, "_words", &SC_O_WORDS) < 0
        || offset_of(scoring, "announcements", &SC_O_ANNOUNCEMENTS) < 0
        || offset_of(scoring, "results", &SC_O_RESULTS) < 0
        || offset_of(scoring, "reveals", &SC_O_REVEALS) < 0
        || offset_of(word, "round", &SC_O_ROUND_OF_WORD) < 0
        || offset_of(kinds[SC_ANNOUNCE], "_seat", &SC_O_SEAT[SC_ANNOUNCE]) < 0
        || offset_of(kinds[SC_ANNOUNCE], "_round", &SC_O_ROUND[SC_ANNOUNCE]) < 0
        || offset_of(kinds[SC_ANNOUNCE], "_category", &SC_O_CATEGORY) < 0
        || offset_of(kinds[SC_PASS], "_seat", &SC_O_SEAT[SC_PASS]) < 0
        || offset_of(kinds[SC_PASS], "_round", &SC_O_ROUND[SC_PASS]) < 0) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "install_scoring(): classes");
        goto failed;
    }
    for (int k = 0; k < SC_KINDS; k++) SC_KIND[k] = (PyTypeObject *)kinds[k]; /* kept */
    SC_SCORING = (PyTypeObject *)scoring;
    SC_ANNOUNCEMENT = word;
    SC_ADD_PY = add;
    SC_PARTS_PY = parts;
    Py_RETURN_NONE;
failed:
    for (int k = 0; k < SC_KINDS; k++) Py_XDECREF(kinds[k]);
    Py_XDECREF(scoring);
    Py_XDECREF(word);
    Py_XDECREF(add);
    Py_XDECREF(parts);
    return NULL;
}

/* end of the scoring rounds fold (issue 28, forty-fourth pass) */

/* ------------------------------------------------------------------ records and entries shared
   (issue 28, forty-sixth pass)

   A random pagat deal makes about a hundred small tuples that it keeps as long as its game:
   the log's (seat, action) entry of every action, the record of every play, trick, pass,
   announcement, exchange and Chicago call, the (seat, card) pair of every card played. Each
   was made (PyTuple_Pack: about 180 instructions, nearly always a fresh allocation, since
   they outlive the turn and the tuple free lists run dry), counted by the collector as a new
   object that lives (so a young collection every few deals), and freed with its game.

   Most of them repeat: seat 2 playing the queen of hearts to the third trick is the same
   record in every game; the entries of plays, passes and announcements, and of the kept
   discards, are a few thousand values in all. p46_tuple gives the tuple of ``n`` items from a
   direct-mapped table of P46_SLOTS kept tuples, found by a hash of the items' addresses:
   the kept one if it holds the very same objects, else a new one, kept in that slot (the
   one it replaces is dropped by the table). The table holds its tuples, and they their
   items, so an address seen in the table is never another object's.

   Only values nobody changes are passed: ints (seats, counts, rounds, record kinds), Cards,
   enum members, None, bools and Action tuples. The one object the engine rewrites in place,
   a recycled four- or five-card discard (fortieth pass), is rewritten only while its table
   holds the only reference to it; a kept entry holding it is one more, so it is never
   rewritten. The tuples are equal to those made before, off the collector's watch as
   plain() left them; only their identity changes (two games share them, as they share the
   kept actions), which nothing reads.

   *A category's points kept.* The showdown and the scoring rounds called Rules.points_for
   (a Python method: about 1,000 instructions, two or three times a deal). Rules is a frozen
   dataclass whose points are a tuple: its answers are kept per category (ids 0-15) for the
   last Rules object, read anew for another, as p43_rules_flags keeps its flags. */

#define P46_BITS 13
#define P46_SLOTS (1 << P46_BITS)
static PyObject *P46_KEPT[P46_SLOTS]; /* a kept tuple, or NULL */
static Py_ssize_t P46_SHARED, P46_MADE;  /* tuples given again, and made */

static PyObject *p46_tuple(Py_ssize_t n, PyObject *const *items)
{
    uint64_t h = (uint64_t)n;
    for (Py_ssize_t i = 0; i < n; i++)
        h = (h ^ ((uintptr_t)items[i] >> 4)) * 0x9E3779B97F4A7C15ULL;
    size_t at = (size_t)(h >> (64 - P46_BITS));
    PyObject *kept = P46_KEPT[at];
    if (kept != NULL && PyTuple_GET_SIZE(kept) == n) {
        PyObject *const *have = ((PyTupleObject *)kept)->ob_item;
        Py_ssize_t i = 0;
        while (i < n && have[i] == items[i]) i++;
        if (i == n) {
            P46_SHARED++;
            return Py_NewRef(kept);
        }
    }
    PyObject *made = PyTuple_New(n);
    if (made == NULL) return NULL;
    for (Py_ssize_t i = 0; i < n; i++) PyTuple_SET_ITEM(made, i, Py_NewRef(items[i]));
    plain(made);
    P46_MADE++;
    Py_XSETREF(P46_KEPT[at], Py_NewRef(made));
    return made;
}

static PyObject *P46_RULES;          /* the Rules object whose points are kept */
static PyObject *P46_POINTS[16];     /* its points_for(category) by category id, or NULL */

static PyObject *p46_points_for(PyObject *rules, PyObject *category)
{
    long id = PyLong_Check(category) ? PyLong_AsLong(category) : -1;
    if (id == -1 && PyErr_Occurred()) PyErr_Clear();
    if (id < 0 || id >= 16) return PyObject_CallMethodOneArg(rules, RA_S_POINTS_FOR, category);
    if (rules != P46_RULES) {
        for (int i = 0; i < 16; i++) Py_CLEAR(P46_POINTS[i]);
        Py_XSETREF(P46_RULES, Py_NewRef(rules));
    }
    if (P46_POINTS[id] == NULL) {
        PyObject *points = PyObject_CallMethodOneArg(rules, RA_S_POINTS_FOR, category);
        if (points == NULL) return NULL;
        if (!PyLong_CheckExact(points)) return points; /* not kept: only plain ints are */
        P46_POINTS[id] = points;
    }
    return Py_NewRef(P46_POINTS[id]);
}

/* *A broken combination shown: the flag read once, the hand sorted by id.* show_if_breaking
   read the rules' show_on_break by name (PyObject_GetAttrString, about 900 instructions)
   and sorted a list of the hand's Cards with their rich comparisons (about 1,000), some
   500 times in 316 deals. The flag is kept for the last Rules object (frozen, as above);
   a hand whose items are all the engine's own Card objects (DECK, ids 0-51) is sorted by
   its ids in C, giving the same Cards in the same order as sorted() (Cards order as their
   ids, and no two are equal). */
static PyObject *P46_SHOW_RULES;
static int P46_SHOW_ON;

static int p46_show_on_break(PyObject *rules)
{
    if (rules != P46_SHOW_RULES) {
        PyObject *value = PyObject_GetAttrString(rules, "show_on_break");
        if (value == NULL) return -1;
        int on = PyObject_IsTrue(value);
        Py_DECREF(value);
        if (on < 0) return -1;
        P46_SHOW_ON = on;
        Py_XSETREF(P46_SHOW_RULES, Py_NewRef(rules));
    }
    return P46_SHOW_ON;
}

/* Two new tuples (off the collector's watch), each of ``hand``'s cards sorted, if it is a
   list of at most six DECK Cards: 0; else -1 without an error (the caller sorts). */
static int p46_sorted_cards(PyObject *hand, PyObject **first, PyObject **second)
{
    long ids[6];
    Py_ssize_t n = PyList_CheckExact(hand) ? PyList_GET_SIZE(hand) : 7;
    if (n > 6) return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *card = PyList_GET_ITEM(hand, i);
        long c = card_id(card);
        if (c == -1 && PyErr_Occurred()) PyErr_Clear();
        if (c < 0 || c > 51 || DECK[c] != card) return -1;
        Py_ssize_t j = i;
        while (j > 0 && ids[j - 1] > c) {
            ids[j] = ids[j - 1];
            j--;
        }
        ids[j] = c;
    }
    PyObject *a = PyTuple_New(n), *b = PyTuple_New(n);
    if (a == NULL || b == NULL) {
        Py_XDECREF(a);
        Py_XDECREF(b);
        PyErr_Clear();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyTuple_SET_ITEM(a, i, Py_NewRef(DECK[ids[i]]));
        PyTuple_SET_ITEM(b, i, Py_NewRef(DECK[ids[i]]));
    }
    *first = plain(a);
    *second = plain(b);
    return 0;
}

/* *A new deal's rules read once.* plain_deal read four of the rules' fields by name at every
   deal (lock_six, win_again, redeal_low, lock_at: about 800 instructions). They are kept
   for the last Rules object (frozen, as above). 1 if the rules let start_deal deal (no
   win-again, no low-hand redeal), with ``lock_six`` and ``lock_at`` (borrowed: the kept
   value) set; 0 if not (Python's deal), -1 on an error. */
static PyObject *P46_DEAL_RULES, *P46_LOCK_AT;
static int P46_LOCK_SIX, P46_DEAL_PLAIN;

static int p46_deal_rules(PyObject *rules, int *lock_six, PyObject **lock_at)
{
    if (rules != P46_DEAL_RULES) {
        int six = rule_is(rules, D_S_LOCK_SIX, 1), again, plain_flow;
        if (six < 0 || (again = rule_is(rules, D_S_WIN_AGAIN, 1)) < 0) return -1;
        PyObject *redeal = PyObject_GetAttr(rules, D_S_REDEAL_LOW);
        if (redeal == NULL) return -1;
        int differs = PyUnicode_Check(redeal) ? PyUnicode_Compare(redeal, D_OFF) : 1;
        Py_DECREF(redeal);
        if (differs == -1 && PyErr_Occurred()) return -1;
        PyObject *at = PyObject_GetAttr(rules, D_S_LOCK_AT);
        if (at == NULL) return -1;
        plain_flow = !again && differs == 0;
        Py_XSETREF(P46_LOCK_AT, at);
        P46_LOCK_SIX = six;
        P46_DEAL_PLAIN = plain_flow;
        Py_XSETREF(P46_DEAL_RULES, Py_NewRef(rules));
    }
    *lock_six = P46_LOCK_SIX;
    *lock_at = P46_LOCK_AT; /* borrowed */
    return P46_DEAL_PLAIN;
}

/* *An exchange turn's tuple of options kept for the next turn.* Every exchange turn's 32-37
   options were put in a new tuple (too long for the tuple free lists: allocated, linked for
   the collector, then freed with its items when the turn was taken). When apply drops a
   turn's options and nothing else holds their tuple (Py_REFCNT 1: no caller, no copy of the
   game), the tuple is emptied (its items released as its freeing would) and kept, one for
   each length 32-37, for p43_exchanges to fill at the next exchange turn. A tuple anyone
   else holds is dropped as before. */
static PyObject *P46_OPTIONS[6]; /* an empty tuple of 32 + i items, or NULL */
static Py_ssize_t P46_REUSED;

static PyObject *p46_new_options(Py_ssize_t n)
{
    if (n >= 32 && n < 38 && P46_OPTIONS[n - 32] != NULL) {
        PyObject *kept = P46_OPTIONS[n - 32];
        P46_OPTIONS[n - 32] = NULL;
        P46_REUSED++;
        return kept; /* (its reference: the table's) */
    }
    return PyTuple_New(n);
}

static void p46_keep_options(PyObject *self)
{
    PyObject *known = SLOT(self, O_LEGAL);
    if (known == NULL || !PyTuple_CheckExact(known) || Py_REFCNT(known) != 1) return;
    Py_ssize_t n = PyTuple_GET_SIZE(known);
    if (n < 32 || n >= 38 || P46_OPTIONS[n - 32] != NULL) return;
    SLOT(self, O_LEGAL) = Py_NewRef(Py_None);
    P46_OPTIONS[n - 32] = known;
    PyObject **items = ((PyTupleObject *)known)->ob_item;
    for (Py_ssize_t i = 0; i < n; i++) Py_CLEAR(items[i]);
}

/* pass46_stats(): (tuples given again from the table, tuples made, exchange turns' tuples
   used again) (for the tests). */
static PyObject *pass46_stats(PyObject *module, PyObject *unused)
{
    (void)module;
    (void)unused;
    return Py_BuildValue("(nnn)", P46_SHARED, P46_MADE, P46_REUSED);
}

/* end of records and entries shared (issue 28, forty-sixth pass) */

static PyMethodDef METHODS[] = {
    {"pass46_stats", pass46_stats, METH_NOARGS,
     "pass46_stats()\n--\n\n(record and entry tuples given again from the kept table, made, "
     "options' tuples used again) "
     "(issue 28, forty-sixth pass; for the tests)."},
    {"pass43_stats", pass43_stats, METH_NOARGS,
     "pass43_stats()\n--\n\n(exchange turns listed directly, turns left to the old loop, "
     "counts kept) (issue 28, forty-third pass; for the tests)."},
    {"install_memo", install_memo, METH_O,
     "install_memo(config)\n--\n\nPut the C reads of a deal's memo on chicago.engine.carried's "
     "DealMemo and SeatLog (issue 28, forty-first pass; carried does this once at import)."},
    {"install_from_memo", install_from_memo, METH_VARARGS,
     "install_from_memo(Game, config)\n--\n\nPut the C asks of a deal's memo on Game "
     "(seen_by, seat_log, _from_memo; issue 28, forty-fourth pass; game.py does this once at "
     "import)."},
    {"install_places", install_places, METH_O,
     "install_places(config)\n--\n\nSet up places_fold with chicago.engine.knowledge's "
     "CardPlaces, the event kinds and the Python fold (issue 28, forty-fourth pass)."},
    {"places_fold", (PyCFunction)(void (*)(void))places_fold, METH_FASTCALL,
     "places_fold(events, seat, known, one_up_open)\n--\n\nchicago.engine.knowledge._fold "
     "in C: the card places and the seats whose one-up discard is open after ``events`` "
     "(issue 28, forty-fourth pass)."},
    {"install_placing", install_placing, METH_O,
     "install_placing(config)\n--\n\nSet up advance_places and carried_out with "
     "chicago.engine.knowledge's _Placing and the Python ones (issue 28, forty-fourth "
     "pass)."},
    {"advance_places", (PyCFunction)(void (*)(void))advance_places, METH_FASTCALL,
     "advance_places(state, events, log)\n--\n\nchicago.engine.knowledge._advance_places "
     "in C (issue 28, forty-fourth pass)."},
    {"carried_out", carried_out, METH_O,
     "carried_out(state)\n--\n\nchicago.engine.knowledge._carried_out in C (issue 28, "
     "forty-fourth pass)."},
    {"install_scoring", install_scoring, METH_O,
     "install_scoring(config)\n--\n\nSet up scoring_add and scoring_parts with "
     "chicago.engine.views' _Scoring (issue 28, forty-fourth pass)."},
    {"scoring_add", (PyCFunction)(void (*)(void))scoring_add, METH_FASTCALL,
     "scoring_add(scoring, events, log=None)\n--\n\nchicago.engine.views._Scoring.add in C "
     "(issue 28, forty-fourth pass)."},
    {"scoring_parts", scoring_parts, METH_O,
     "scoring_parts(scoring)\n--\n\nchicago.engine.views._Scoring.parts, the parts kept "
     "read in C (issue 28, forty-fourth pass)."},
    {"vc_memo_clear", vc_memo_clear, METH_NOARGS,
     "vc_memo_clear()\n--\n\nLet go every public text kept by identity (issue 28, "
     "thirty-eighth pass); (hits, misses) since the last clear."},
    {"recycled_discards", recycled_discards, METH_NOARGS,
     "recycled_discards()\n--\n\nThe four- and five-card discard actions the table of "
     "recycled discards holds now (issue 28, fortieth pass; for the tests)."},
    {"install_taken", install_taken, METH_O,
     "install_taken(config)\n--\n\nviews' TakenTrick, _PLAYED, _TAKEN and _taken_python for "
     "taken()."},
    {"taken", taken_trick, METH_O,
     "taken(trick)\n--\n\nThe view of a taken trick (winner, plays), as "
     "chicago.engine.views._taken_python makes it."},
    {"shuffle", shuffle, METH_VARARGS,
     "shuffle(rng, cards)\n--\n\n"
     "Shuffle the list ``cards`` in place exactly as ``rng.shuffle(cards)`` does, in less "
     "time (chicago.engine.sources.shuffle)."},
    {"copy_random", copy_random, METH_O,
     "copy_random(rng)\n--\n\n"
     "A random.Random in the same state as ``rng`` that shares nothing with it (the same "
     "as setting a new one's state to ``rng.getstate()``, in less time)."},
    {"hold_batch", hold_batch, METH_VARARGS,
     "hold_batch(facts, legal, program, played, announced, deals, make)\n--\n\n"
     "A capsule holding a batch's own arrays open for step_batch and observe_batch, and "
     "what step_batch needs to make a step's arrays."},
    {"observe_batch", observe_batch, METH_VARARGS,
     "observe_batch(games, slots, held, out, legal_out, seats)\n--\n\n"
     "Write the rows of the games at ``slots`` (None: every game) as chicago.env.batch "
     "observes them: facts, legal ids, the observation made by ``program``, the seat."},
    {"step_batch", (PyCFunction)(void (*)(void))step_batch, METH_FASTCALL,
     "step_batch(games, picks, held)\n--\n\n"
     "Apply one action id to each game and write its rows as observe_batch does "
     "(chicago.env.batch); the step's named tuple and the slots whose game ended."},
    {"pick_legal", (PyCFunction)(void (*)(void))pick_legal, METH_FASTCALL,
     "pick_legal(legal, uniforms, out)\n--\n\n"
     "Per row of ``legal``, the column of its k-th true entry, k = floor(uniforms[i] * "
     "its true entries), into ``out`` (chicago.env.batch's uniform random pick)."},
    {"setup_batch", setup_batch, METH_O,
     "setup_batch(config)\n--\n\n"
     "The action ids and phases of chicago.env.batch (and numpy's arrays, checked); returns "
     "the number of facts a row and whether arrays are read directly (not through the "
     "buffer protocol)."},
    {"knowledge_of", (PyCFunction)(void (*)(void))knowledge_of, METH_FASTCALL,
     "knowledge_of(view, walk, places)\n--\n\n"
     "The Knowledge of a seat's view from the walk over its events and its card places, as "
     "chicago.engine.knowledge._assemble_python makes it (that function for anything else)."},
    {"install_knowledge", install_knowledge, METH_O,
     "install_knowledge(config)\n--\n\n"
     "The types knowledge_of reads and makes (chicago.engine.knowledge does this once at "
     "import)."},
    {"new_view", (PyCFunction)(void (*)(void))new_view, METH_FASTCALL | METH_KEYWORDS,
     "new_view(**fields)\n--\n\n"
     "A SeatView of every field given by keyword, its slots written directly "
     "(chicago.engine.views)."},
    {"view_with_own", (PyCFunction)(void (*)(void))view_with_own, METH_FASTCALL,
     "view_with_own(public, seat, hand, hand_category, discarded, legal_actions, known_out, "
     "events)\n--\n\n"
     "A SeatView with the fields of ``public`` and the seat's own fields given "
     "(chicago.engine.views)."},
    {"install_view", install_view, METH_VARARGS,
     "install_view(cls, fields, own)\n--\n\n"
     "The SeatView class, the names of all its fields and of the seat's own ones, in "
     "view_with_own's order (chicago.engine.views does this once at import)."},
    {"public_view_of", (PyCFunction)(void (*)(void))public_view_of, METH_FASTCALL,
     "public_view_of(game, announcements, reveals, round_results, scoring_round)\n--\n\n"
     "The public view of a Game (chicago.engine.views.public_view) read from its slots, "
     "its scoring rounds given; NotImplemented for anything else (a subclass, another "
     "shape), which the Python code makes."},
    {"own_view_of", (PyCFunction)(void (*)(void))own_view_of, METH_FASTCALL,
     "own_view_of(public, game, seat, visible, out)\n--\n\n"
     "A seat's view of a Game made from its public view, the seat's own fields read from "
     "the game's slots (``out``: the cards its log knows out of the stock); NotImplemented "
     "for anything else, which the Python code makes."},
    {"own_json_of", (PyCFunction)(void (*)(void))own_json_of, METH_FASTCALL,
     "own_json_of(game, seat, out, texts)\n--\n\n"
     "The JSON object of a seat's own fields of a Game (own_json of own_part) read from "
     "the game's slots (``out``: the cards its log knows out of the stock; ``texts``: the "
     "cards' texts by id); NotImplemented for anything else, which the Python code makes."},
    {"public_json_text", (PyCFunction)(void (*)(void))public_json_text, METH_FASTCALL,
     "public_json_text(view, texts, other)\n--\n\n"
     "The compact JSON text of a view's public fields (chicago.engine.viewjson.public_json, "
     "encoded) written in one step (``texts``: the cards' texts by id; ``other(name, "
     "value)``: the text of reveals, round results, the scoring round and the settlement); "
     "NotImplemented for anything of another shape, which the Python code writes."},
    {"state_json_text", (PyCFunction)(void (*)(void))state_json_text, METH_FASTCALL,
     "state_json_text(public, own)\n--\n\n"
     "An update's state as compact JSON text: the public text (public_json_text's) with the "
     "seat's own fields (own_json_of's object) written after its own; NotImplemented for "
     "anything of another shape, which the Python code writes."},
    {"events_json_text", (PyCFunction)(void (*)(void))events_json_text, METH_FASTCALL,
     "events_json_text(events, audience, texts)\n--\n\n"
     "The compact JSON text of the events ``audience`` may see, each as its to_json() (cards "
     "as ``texts``), by the plans of install_events; NotImplemented for what the Python code "
     "writes (chicago.engine.eventtext)."},
    {"frame_json_text", (PyCFunction)(void (*)(void))frame_json_text, METH_FASTCALL,
     "frame_json_text(frame, state_mark, events_mark, states, events)\n--\n\n"
     "The compact JSON text of a frame, each of its marks written as the next of its texts "
     "(lists); NotImplemented for what the Python code writes "
     "(chicago.server.protocol.dumps_with_states)."},
    {"install_events", install_events, METH_O,
     "install_events(plans)\n--\n\n"
     "Install how events_json_text writes each kind of event (chicago.engine.eventtext "
     "does this once at import)."},
    {"install_public", install_public, METH_O,
     "install_public(config)\n--\n\n"
     "What public_view_of makes a view of (chicago.engine.views does this once at import, "
     "after install_view)."},
    {"copier", copier, METH_VARARGS,
     "copier(cls, names, kinds, extra)\n--\n\n"
     "A function that copies an object of exactly ``cls`` slot by slot: each named slot "
     "taken as its kind says (0 shared, 1 a new list, 2 a new list of new lists, 3 a new "
     "dict, 4 its copy()), then, for a class with a __dict__, extra(copy, attributes) when "
     "the object has attributes of its own; as chicago.engine.state's Python copier does."},
    {"install_enum_members", install_enum_members, METH_O,
     "install_enum_members(members)\n--\n\n"
     "Enum members (chicago.categories.Category's, chicago.engine.phases.Phase's) whose "
     "names and values the JSON writers then give by identity (issue 28, forty-second "
     "pass)."},
    {"slot_maker", slot_maker, METH_VARARGS,
     "slot_maker(cls, names)\n--\n\n"
     "A function that makes an object of exactly ``cls`` from its fields, written into the "
     "slots ``names`` in order (issue 28, forty-second pass)."},
    {"event_count_of", event_count_of, METH_O,
     "event_count_of(game)\n--\n\n"
     "Game.event_count read from the game's slots (issue 28, forty-second pass)."},
    {"is_over_of", is_over_of, METH_O,
     "is_over_of(game)\n--\n\n"
     "Game.is_over read from the game's slot (issue 28, forty-second pass)."},
    {"install_event_count", install_event_count, METH_VARARGS,
     "install_event_count(game, python, over)\n--\n\n"
     "The Game class whose slots event_count_of and is_over_of read, the Python getter "
     "event_count_of calls for slots of other types, and Phase.OVER."},
    {"make_events", (PyCFunction)(void (*)(void))make_events, METH_FASTCALL,
     "make_events(events, records, count)\n--\n\n"
     "Append to ``events`` the Event of each of the first ``count`` records, as "
     "chicago.engine.game.Game._made_events makes them (issue 28, forty-second pass)."},
    {"install_event_kinds", install_event_kinds, METH_VARARGS,
     "install_event_kinds(kinds, slots, defaults)\n--\n\n"
     "The event kinds by record number and, per kind, the slots its __init__ fills in "
     "order (None: made by calling the class) and the defaults of its last fields, for "
     "make_events."},
    {"install", install, METH_VARARGS,
     "install(game, config): put the accelerated legal_actions() and apply() on the Game "
     "class (chicago.engine.game does this once at import)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "chicago.engine._engine",
    "The C accelerator of chicago.engine.game.Game (see _engine.c).", -1, METHODS,
};

PyMODINIT_FUNC PyInit__engine(void)
{
    S_GETRANDBITS = PyUnicode_InternFromString("getrandbits");
    S_COPY = PyUnicode_InternFromString("copy");
    S_GETSTATE = PyUnicode_InternFromString("getstate");
    S_SETSTATE = PyUnicode_InternFromString("setstate");
    S_DICT = PyUnicode_InternFromString("__dict__");
    if (S_GETRANDBITS == NULL || S_GETSTATE == NULL || S_SETSTATE == NULL || S_DICT == NULL
        || S_COPY == NULL)
        return NULL;
    PyObject *random_module = PyImport_ImportModule("_random");
    if (random_module == NULL) return NULL;
    PyObject *twister = PyObject_GetAttrString(random_module, "Random");
    Py_DECREF(random_module);
    if (twister == NULL) return NULL;
    if (PyType_Check(twister)
        && ((PyTypeObject *)twister)->tp_basicsize == (Py_ssize_t)sizeof(TwisterObject))
        TWISTER = (PyTypeObject *)twister; /* kept for the module's life */
    else
        Py_DECREF(twister);
    for (int i = 0; i <= 64; i++)
        if ((BIT_COUNTS[i] = PyLong_FromLong(i)) == NULL) return NULL;
    return PyModule_Create(&module);
}
