# cython: language_level=3, boundscheck=False, wraparound=False, initializedcheck=False, cdivision=True
"""The searches' inner loops in C, for the compiled engine (make fast; loaded through native.py): the movement
search's (movement.search) and a trace's breadth-first search, kept for the next (trace_sets.Layers, at the end).

Each is the same search, step for step, as the Python loop it stands for. The movement search: the positions with
one set of objectives passed make a layer, searched lowest mask first, each a Dijkstra search by MP left (a bucket
of hexes for each MP left, most first). It reads the board's flags and a StepCosts' steps packed as flat arrays of C
ints (`Packed`), keeps its per-hex values in C arrays, and makes Python objects only for its answer.
movement.search makes the first arrivals (entries, the way out of an enemy zone of control, river crossings) and
the map exits from what this returns, and calls `run` only where the objectives' masks fit a C int
(OBJECTIVES_FIT). A trace's search keeps its layers as C words rather than Python ints. Pure Python runs
the loops of their own modules, and tests/test_engine_compiled.py plays the same games with both.
"""

from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_GET_ITEM, PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport int32_t, int64_t, uint64_t
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcpy, memset

import sys
from array import array

cdef extern from *:
    int __builtin_popcountll(unsigned long long) nogil
    int __builtin_ctzll(unsigned long long) nogil

cdef extern from "Python.h":
    object _PyLong_FromByteArray(const unsigned char* bytes, size_t n, int little_endian, int is_signed)

OBJECTIVES_FIT = 62  # at most this many objectives: a mask (with -1 for none) is a C int64
_NO_EXIT = 2 ** 31 - 1  # (Packed.exit_cost of a hex without exits)
cdef bint _LITTLE_ENDIAN = sys.byteorder == "little"  # (sets of hexes go between C words and ints as bytes)

cdef enum:
    ENEMY = 1
    ZOC = 2
    NO_PASS = 4
    _FEW_EDGES = 16  # a map with more edges than this: run allocates its lists for them
    _SORT_WORDS = 64  # _sort's words: maps of 4096 hexes at most (more: sorted by insertion)


cdef struct IntList:
    int32_t* items
    Py_ssize_t count
    Py_ssize_t room


cdef struct Layer:
    uint64_t mask
    bint done
    int32_t* best  # hex -> most MP left there in this layer (-1: not reached)
    IntList* buckets  # MP left -> hexes to handle
    int bucket_room  # how many buckets it has (the most MP left, plus one)


cdef struct Search:
    int size
    int allowance
    int64_t* ends  # hex -> most valuable objectives mask of a path ending there (-1: none)
    IntList reached  # hexes with an end, in the order found
    IntList went_on  # each hex handled (once a layer)
    Layer** layers  # the layers made, those of this search first
    int layer_count  # this search's
    int layer_made
    int layer_room
    const unsigned char* flags
    const uint64_t* bit
    uint64_t counted  # the objectives' bits a path's mask takes (movement.reach_of's `held` left out)
    const int64_t* rank
    bint ranked
    bint stop_in_zoc
    int zoc_extra
    bint zoc_to_zoc
    int most_layers  # movement.MOST_ROUTE_SETS: a search that would make more gives up (too_many)
    bint too_many
    bint failed  # out of memory


cdef class Packed:
    """What a search reads of one StepCosts and its tables, as C arrays (made once for the StepCosts, kept on it):
    each hex's plain steps and steps into objectives (neighbour and MP, cheapest first, from its offset to the next
    hex's), whether the hex is rare (exits or objective neighbours) and has exits, each hex's objective bit, and the
    rank of each set of objectives (none: ranked by count, then the lower bits). And the lists of a search on it,
    kept from one search to the next with every item as a search finds it (not made anew: a search then costs what
    it reaches, not the size of the map)."""

    cdef int32_t[::1] plain_start, plain_to, plain_cost, objective_start, objective_to, objective_cost
    cdef int32_t[::1] area_start, area_to  # each hex's neighbours on the map (what a step from it may look at)
    cdef const unsigned char[::1] rare
    cdef int32_t[::1] exit_cost  # each hex's cheapest exit (MP to leave the map there; more than any allowance: none)
    cdef int32_t[::1] exit_start, exit_edge, exit_mp  # each hex's exits: the edge (an index of `edges`) and its MP
    cdef tuple edges  # the map edges left by, sorted (a Reach's exits come so)
    cdef uint64_t[::1] bit
    cdef int64_t[::1] rank
    cdef bint ranked
    cdef int size
    cdef tuple numbers  # the hex numbers as ints, made once
    cdef Search* kept  # a search's lists, clean (NULL until the first search)
    cdef bint busy  # a search is using them (another, at the same time, makes its own)

    def __init__(self, plain_moves, objective_moves, rare, exits, index_bit, mask_rank, neighbours):
        if not _LITTLE_ENDIAN:  # (the hexes a search looked at go from C words to an int by int.from_bytes)
            raise ValueError("hexes as C words need a little-endian machine")
        self.plain_start, self.plain_to, self.plain_cost = _flat(plain_moves)
        self.objective_start, self.objective_to, self.objective_cost = _flat(objective_moves)
        self.area_start, self.area_to, _ = _flat([[(n, 0) for n in around] for around in neighbours])
        self.rare = bytes(1 if r else 0 for r in rare)
        self.exit_cost = array("i", [min((mp for _, mp in e), default=_NO_EXIT) for e in exits])
        self.edges = tuple(sorted({edge for e in exits for edge, _ in e}))
        edge_index = {edge: i for i, edge in enumerate(self.edges)}
        self.exit_start, self.exit_edge, self.exit_mp = _flat([[(edge_index[edge], mp) for edge, mp in e]
                                                                for e in exits], len(self.edges))
        self.bit = array("Q", index_bit)
        self.ranked = len(mask_rank) > 0
        self.rank = array("q", mask_rank if self.ranked else [0])
        self.size = len(plain_moves)
        self.numbers = tuple(range(self.size))
        if len(objective_moves) != self.size or len(rare) != self.size or len(exits) != self.size \
                or len(index_bit) != self.size or len(neighbours) != self.size:
            raise ValueError("steps of another map")

    def __dealloc__(self):
        if self.kept != NULL:
            _free(self.kept)


def _flat(steps_by_hex, targets=None):
    """Each hex's (neighbour, MP) pairs as three arrays: where each hex's begin (one more, for the end), the
    neighbours and the MP. (`targets`: how many the second of a pair may be below, where not the hexes.)"""
    start, to, cost = array("i", [0]), array("i"), array("i")
    if targets is None:
        targets = len(steps_by_hex)
    for steps in steps_by_hex:
        for n, mp in steps:
            if mp < 0 or not 0 <= n < targets:
                raise ValueError("a step of negative MP, or off the map")
            to.append(n)
            cost.append(mp)
        start.append(len(to))
    return start, to, cost


cdef inline bint _append(IntList* items, int32_t value) noexcept nogil:
    cdef Py_ssize_t room
    cdef int32_t* grown
    if items.count == items.room:
        room = items.room * 2 if items.room else 16
        grown = <int32_t*> realloc(items.items, room * sizeof(int32_t))
        if grown == NULL:
            return False
        items.items, items.room = grown, room
    items.items[items.count] = value
    items.count += 1
    return True


cdef inline bint _worth_more(Search* s, uint64_t mask, uint64_t other) noexcept nogil:
    """movement._worth_more."""
    cdef int count, other_count
    if s.ranked:
        return s.rank[mask] > s.rank[other]
    count, other_count = __builtin_popcountll(mask), __builtin_popcountll(other)
    return count > other_count or (count == other_count and mask < other)


cdef Layer* _layer(Search* s, uint64_t mask) noexcept nogil:
    """The layer of `mask`, this search's next if it has none yet (one made before, clean, or a new one; NULL: out
    of memory)."""
    cdef int i
    cdef Layer* layer
    cdef Layer** grown
    cdef IntList* buckets
    for i in range(s.layer_count):
        if s.layers[i].mask == mask:
            return s.layers[i]
    if s.layer_count >= s.most_layers:
        s.too_many = True
        return NULL
    if s.layer_count == s.layer_made:
        if s.layer_made == s.layer_room:
            grown = <Layer**> realloc(s.layers, (s.layer_room * 2 + 4) * sizeof(Layer*))
            if grown == NULL:
                return NULL
            s.layers, s.layer_room = grown, s.layer_room * 2 + 4
        layer = <Layer*> malloc(sizeof(Layer))
        if layer == NULL:
            return NULL
        layer.best = <int32_t*> malloc(s.size * sizeof(int32_t))
        if layer.best == NULL:
            free(layer)
            return NULL
        memset(layer.best, 0xFF, s.size * sizeof(int32_t))  # every int -1
        layer.buckets, layer.bucket_room = NULL, 0
        s.layers[s.layer_made] = layer
        s.layer_made += 1
    layer = s.layers[s.layer_count]
    if layer.bucket_room <= s.allowance:
        buckets = <IntList*> realloc(layer.buckets, (s.allowance + 1) * sizeof(IntList))
        if buckets == NULL:
            return NULL
        memset(&buckets[layer.bucket_room], 0, (s.allowance + 1 - layer.bucket_room) * sizeof(IntList))
        layer.buckets, layer.bucket_room = buckets, s.allowance + 1
    layer.mask, layer.done = mask, False
    s.layer_count += 1
    return layer


cdef void _arrive(Search* s, int32_t h, uint64_t mask, int left, bint stop) noexcept nogil:
    """movement._Arrivals.arrive."""
    cdef int64_t old
    cdef Layer* layer
    mask |= s.bit[h] & s.counted
    old = s.ends[h]
    if old < 0:
        s.ends[h] = <int64_t> mask
        if not _append(&s.reached, h):
            s.failed = True
    elif <uint64_t> old != mask and _worth_more(s, mask, <uint64_t> old):
        s.ends[h] = <int64_t> mask
    if stop:
        return
    layer = _layer(s, mask)
    if layer == NULL:
        s.failed = s.failed or not s.too_many
        return
    if layer.best[h] < left:
        layer.best[h] = left
        if not _append(&layer.buckets[left], h):
            s.failed = True


cdef void _step(Search* s, int32_t n, int cost, uint64_t mask, int left, bint in_zoc) noexcept nogil:
    """movement._Arrivals.step: into an enemy unit, an enemy zone of control, a friend in the way or an objective."""
    cdef unsigned char flag = s.flags[n]
    if flag & ENEMY:
        return
    if flag & ZOC:
        if in_zoc and not s.zoc_to_zoc:
            return
        cost += s.zoc_extra
        if cost <= left:
            _arrive(s, n, mask, left - cost, s.stop_in_zoc or flag & NO_PASS != 0)
    elif cost <= left:
        _arrive(s, n, mask, left - cost, flag & NO_PASS != 0)


cdef Search* _new_search(int size) noexcept nogil:
    """Clean lists for searches on a map of `size` hexes (NULL: out of memory)."""
    cdef Search* s = <Search*> malloc(sizeof(Search))
    if s == NULL:
        return NULL
    memset(s, 0, sizeof(Search))
    s.size = size
    s.ends = <int64_t*> malloc(size * sizeof(int64_t))
    if s.ends == NULL:
        free(s)
        return NULL
    memset(s.ends, 0xFF, size * sizeof(int64_t))  # every end -1
    return s


cdef void _clean(Search* s) noexcept nogil:
    """The lists as they were before the search, where it wrote: an end at each hex reached, a layer's MP left at
    each hex it put in a bucket."""
    cdef Py_ssize_t at
    cdef int i, left
    cdef Layer* layer
    for at in range(s.reached.count):
        s.ends[s.reached.items[at]] = -1
    s.reached.count = 0
    s.went_on.count = 0
    for i in range(s.layer_count):
        layer = s.layers[i]
        for left in range(layer.bucket_room):
            for at in range(layer.buckets[left].count):
                layer.best[layer.buckets[left].items[at]] = -1
            layer.buckets[left].count = 0
    s.layer_count = 0
    s.failed = False
    s.too_many = False


cdef void _free(Search* s) noexcept nogil:
    cdef int i, left
    for i in range(s.layer_made):
        for left in range(s.layers[i].bucket_room):
            free(s.layers[i].buckets[left].items)
        free(s.layers[i].buckets)
        free(s.layers[i].best)
        free(s.layers[i])
    free(s.layers)
    free(s.ends)
    free(s.reached.items)
    free(s.went_on.items)
    free(s)


cdef void _sort(int32_t* items, Py_ssize_t count, int size) noexcept nogil:
    """Hex numbers (each once, below `size`) in order: by their bits in words on the stack, read lowest first (a few
    dozen numbers found in a Dijkstra search's order, an insertion sort's hundreds of moves); by insertion on a map
    too big for them."""
    cdef uint64_t words[_SORT_WORDS]
    cdef uint64_t word
    cdef Py_ssize_t i, j, at
    cdef int32_t item
    cdef int w, count_words = (size + 63) >> 6
    if count_words <= _SORT_WORDS:
        memset(words, 0, count_words * sizeof(uint64_t))
        for i in range(count):
            words[items[i] >> 6] |= (<uint64_t> 1) << (items[i] & 63)
        at = 0
        for w in range(count_words):
            word = words[w]
            while word:
                items[at] = (w << 6) + __builtin_ctzll(word)
                at += 1
                word &= word - 1
        return
    for i in range(1, count):
        item = items[i]
        j = i - 1
        while j >= 0 and items[j] > item:
            items[j + 1] = items[j]
            j -= 1
        items[j + 1] = item


cdef object _area(Packed packed, Search* s, int origin):
    """The origin and each hex the search went on from, with their neighbours, as an int of bits."""
    cdef int words = (s.size + 63) // 64 or 1
    cdef uint64_t* bits = <uint64_t*> malloc(words * sizeof(uint64_t))
    cdef Py_ssize_t at, k
    cdef int32_t h
    if bits == NULL:
        raise MemoryError()
    memset(bits, 0, words * sizeof(uint64_t))
    try:
        for at in range(-1 if origin >= 0 else 0, s.went_on.count):
            h = origin if at < 0 else s.went_on.items[at]
            bits[h >> 6] |= (<uint64_t> 1) << (h & 63)
            for k in range(packed.area_start[h], packed.area_start[h + 1]):
                bits[packed.area_to[k] >> 6] |= (<uint64_t> 1) << (packed.area_to[k] & 63)
        return _PyLong_FromByteArray(<const unsigned char*> bits, words * 8, 1, 0)  # (_store's int, made directly)
    finally:
        free(bits)


def run(Packed packed, bytes flags, int allowance, int origin, bint seeded, list first,
        uint64_t held, bint stop_in_zoc, int zoc_extra, bint zoc_to_zoc, tuple hexes, int most_layers):
    """The search from the unit's hex `origin` (a hex number; -1 for none), with every MP left there if `seeded`,
    and the arrivals `first` ((hex number, MP left, stop) with no objective passed yet), on the board `flags`
    (movement.Board), the objectives `held` (bits) passed without being taken (movement.reach_of's). Its answer, as
    movement.search makes a Reach of it: the destinations whose path passes an objective, with its mask (a dict, in
    hex order; None for none) and all their masks ORed; every destination's hex and hex number in hex order
    (movement.Reach.to, numbers); the hexes it looked at (as bits: the origin and each hex it went on from, with their
    neighbours; see movement.Reach.looked); the map edges left by (sorted), and by edge (as first left by) the
    objectives mask of the path leaving by it and the hex it leaves from. None where its paths pass more than
    `most_layers` sets of objectives (movement.MOST_ROUTE_SETS: movement.search then takes one route to each hex)."""
    cdef Search* s
    cdef bint own, done = False
    cdef Layer* layer
    cdef Layer* next_layer
    cdef IntList* bucket
    cdef int size = len(hexes), left, rest, cost, i
    cdef Py_ssize_t at, k, end
    cdef int32_t h, n
    cdef uint64_t mask, any_mask
    cdef int64_t old
    cdef unsigned char flag
    cdef bint from_zoc, stop
    cdef const int32_t* plain_start = &packed.plain_start[0]
    cdef const int32_t* plain_to = &packed.plain_to[0] if packed.plain_to.shape[0] else NULL
    cdef const int32_t* plain_cost = &packed.plain_cost[0] if packed.plain_cost.shape[0] else NULL
    cdef const int32_t* objective_start = &packed.objective_start[0]
    cdef const int32_t* objective_to = &packed.objective_to[0] if packed.objective_to.shape[0] else NULL
    cdef const int32_t* objective_cost = &packed.objective_cost[0] if packed.objective_cost.shape[0] else NULL
    cdef const unsigned char* rare = &packed.rare[0]
    cdef const int32_t* exit_cost = &packed.exit_cost[0]
    cdef const int32_t* exit_start = &packed.exit_start[0]
    cdef const int32_t* exit_edge = &packed.exit_edge[0] if packed.exit_edge.shape[0] else NULL
    cdef const int32_t* exit_mp = &packed.exit_mp[0] if packed.exit_mp.shape[0] else NULL
    # Each edge's most valuable objectives mask of a path leaving by it (-1: none yet), the hex that path leaves from,
    # and the edges in the order first left by
    cdef int edge_count = len(packed.edges), exits_found = 0, e
    cdef int64_t* edge_mask = NULL
    cdef int32_t* edge_hex = NULL
    cdef int32_t* edge_order = NULL
    cdef int64_t few_masks[_FEW_EDGES]  # (a map's few edges: no lists allocated for them)
    cdef int32_t few_hexes[_FEW_EDGES]
    cdef int32_t few_order[_FEW_EDGES]
    cdef bint edges_allocated = False

    if size != packed.size or len(flags) < size or origin >= size or (seeded and origin < 0) or allowance < 0:
        raise ValueError("a board or steps of another map")
    own = packed.busy  # (another search on these steps, at the same time: in another thread) its own lists
    if not own and packed.kept == NULL:
        packed.kept = _new_search(size)
    s = _new_search(size) if own else packed.kept
    if s == NULL:
        raise MemoryError()
    if edge_count <= _FEW_EDGES:
        edge_mask, edge_hex, edge_order = few_masks, few_hexes, few_order
    else:
        edges_allocated = True
        edge_mask = <int64_t*> malloc(edge_count * sizeof(int64_t))
        edge_hex = <int32_t*> malloc(edge_count * sizeof(int32_t))
        edge_order = <int32_t*> malloc(edge_count * sizeof(int32_t))
    if edge_mask != NULL:
        memset(edge_mask, 0xFF, edge_count * sizeof(int64_t))
    packed.busy = True
    s.allowance = allowance
    s.flags, s.bit, s.counted = <const unsigned char*> flags, &packed.bit[0], ~held
    s.rank, s.ranked = &packed.rank[0], packed.ranked
    s.stop_in_zoc, s.zoc_extra, s.zoc_to_zoc = stop_in_zoc, zoc_extra, zoc_to_zoc
    s.most_layers = most_layers if most_layers > 0 else 1
    try:
        if edge_count and (edge_mask == NULL or edge_hex == NULL or edge_order == NULL):
            raise MemoryError()
        if seeded:
            layer = _layer(s, 0)
            if layer == NULL:
                raise MemoryError()
            layer.best[origin] = allowance
            if not _append(&layer.buckets[allowance], origin):
                raise MemoryError()
        for n, left, stop in first:
            if n < 0 or n >= size or left < 0 or left > allowance:
                raise ValueError("an arrival off the map or with more MP than the allowance")
            _arrive(s, n, 0, left, stop)
        while not s.failed and not s.too_many:
            layer = NULL
            for i in range(s.layer_count):  # the lowest mask not searched yet
                next_layer = s.layers[i]
                if not next_layer.done and (layer == NULL or next_layer.mask < layer.mask):
                    layer = next_layer
            if layer == NULL:
                break
            layer.done = True
            mask = layer.mask
            for left in range(allowance, -1, -1):
                if s.too_many:
                    break
                bucket = &layer.buckets[left]
                at = 0
                while at < bucket.count and not s.too_many:  # (the count read again: a step of no MP would add to it)
                    h = bucket.items[at]
                    at += 1
                    if layer.best[h] > left:
                        continue  # reached again later with more MP left
                    if not _append(&s.went_on, h):
                        raise MemoryError()
                    from_zoc = s.flags[h] & ZOC != 0
                    if rare[h]:  # a map edge or an objective next to it
                        if exit_cost[h] <= left:  # an exit it may take (the cheapest at least)
                            for k in range(exit_start[h], exit_start[h + 1]):
                                if exit_mp[k] > left:
                                    continue
                                e = exit_edge[k]
                                old = edge_mask[e]
                                if old < 0:
                                    edge_mask[e], edge_hex[e] = <int64_t> mask, h
                                    edge_order[exits_found] = e
                                    exits_found += 1
                                elif <uint64_t> old != mask and _worth_more(s, mask, <uint64_t> old):
                                    edge_mask[e], edge_hex[e] = <int64_t> mask, h
                        end = objective_start[h + 1]
                        for k in range(objective_start[h], end):
                            if objective_cost[k] <= left:
                                _step(s, objective_to[k], objective_cost[k], mask, left, from_zoc)
                    end = plain_start[h + 1]
                    for k in range(plain_start[h], end):  # cheapest first; none is an objective: the layer stays
                        cost = plain_cost[k]
                        if cost > left:
                            break
                        n = plain_to[k]
                        stop = False
                        flag = s.flags[n]
                        if flag:
                            if flag & ENEMY:
                                continue
                            if flag & ZOC:
                                if from_zoc and not s.zoc_to_zoc:
                                    continue
                                cost += s.zoc_extra
                                if cost > left:
                                    continue
                                stop = s.stop_in_zoc or flag & NO_PASS != 0
                            else:
                                stop = True  # a friend that may not be passed through
                        old = s.ends[n]
                        if <uint64_t> old != mask:
                            if old < 0:
                                s.ends[n] = <int64_t> mask
                                if not _append(&s.reached, n):
                                    raise MemoryError()
                            elif _worth_more(s, mask, <uint64_t> old):
                                s.ends[n] = <int64_t> mask
                        if stop:
                            continue
                        rest = left - cost
                        if layer.best[n] < rest:
                            layer.best[n] = rest
                            if not _append(&layer.buckets[rest], n):
                                raise MemoryError()
        if s.failed:
            raise MemoryError()
        if s.too_many:
            done = True
            return None
        if origin >= 0 and s.ends[origin] >= 0:
            s.ends[origin] = -1
            for at in range(s.reached.count):
                if s.reached.items[at] == origin:
                    s.reached.items[at] = s.reached.items[s.reached.count - 1]
                    s.reached.count -= 1
                    break
        _sort(s.reached.items, s.reached.count, size)  # hex order: destinations come sorted
        # The answer's containers made at their size and filled in place (the numbers and hexes boxed already)
        boxed = packed.numbers
        numbers = PyTuple_New(s.reached.count)
        to = PyTuple_New(s.reached.count)
        masks = None  # the destinations whose path passes an objective, with its mask (None: none does)
        any_mask = 0
        for at in range(s.reached.count):
            n = s.reached.items[at]
            name = <object> PyTuple_GET_ITEM(hexes, n)
            number = <object> PyTuple_GET_ITEM(boxed, n)
            Py_INCREF(number)
            PyTuple_SET_ITEM(numbers, at, number)
            Py_INCREF(name)
            PyTuple_SET_ITEM(to, at, name)
            if s.ends[n]:
                if masks is None:
                    masks = {}
                masks[name] = s.ends[n]
                any_mask |= <uint64_t> s.ends[n]
        looked = _area(packed, s, origin)
        # The edges left by, sorted, and by edge (as first left by) the mask and the hex left from
        exits = PyTuple_New(exits_found)
        at = 0
        for e in range(edge_count):
            if edge_mask[e] >= 0:
                name = <object> PyTuple_GET_ITEM(packed.edges, e)
                Py_INCREF(name)
                PyTuple_SET_ITEM(exits, at, name)
                at += 1
        exit_masks, exit_hexes = {}, {}
        for at in range(exits_found):
            e = edge_order[at]
            name = <object> PyTuple_GET_ITEM(packed.edges, e)
            exit_masks[name] = edge_mask[e]
            exit_hexes[name] = <object> PyTuple_GET_ITEM(boxed, edge_hex[e])
        done = True
        return masks, any_mask, to, numbers, looked, exits, exit_masks, exit_hexes
    finally:
        if edges_allocated:
            free(edge_mask)
            free(edge_hex)
            free(edge_order)
        if own:
            _free(s)
        else:  # clean for the next search; after a failure, made anew by the next
            if done:
                _clean(s)
            else:
                _free(s)
                packed.kept = NULL
            packed.busy = False


def board_flags(enemy, zoc, no_pass, Py_ssize_t size):
    """movement.Board.of_bits' flags: a byte a hex number of a map of `size` hexes, ENEMY, ZOC and NO_PASS ORed where
    the bits of `enemy`, `zoc` and `no_pass` (ints) are set. OverflowError for a bit past the map, as to_bytes."""
    cdef bytes found = PyBytes_FromStringAndSize(NULL, size)  # (new: written in place before anyone sees it)
    cdef unsigned char* board = <unsigned char*> <char*> found
    cdef const unsigned char* raw
    cdef bytes as_bytes
    cdef Py_ssize_t at, i, count
    cdef unsigned char byte, flag
    memset(board, 0, size)
    for flag, bits in ((ENEMY, enemy), (ZOC, zoc), (NO_PASS, no_pass)):
        if not bits:
            continue
        as_bytes = (<object> bits).to_bytes((size + 7) // 8, "little")  # (OverflowError: a bit past the map)
        raw = <const unsigned char*> <const char*> as_bytes
        count = len(as_bytes)
        for at in range(count):
            byte = raw[at]
            i = at * 8
            while byte:
                if byte & 1:
                    if i >= size:
                        raise OverflowError("a hex number past the map")
                    board[i] |= flag
                byte >>= 1
                i += 1
    return found


# ------------------------------------------------------ a trace's breadth-first search, kept (trace_sets.Layers)


cdef class Shifts:
    """A hex_bits.Steps' steps as C words: for each difference between a hex's number and a neighbour's (the map's
    few), the hexes that step so, as bits (words little end first). Made once for the Steps (trace_sets.new_layers)."""

    cdef int count, words
    cdef int64_t* differences
    cdef uint64_t* movers  # count rows of `words` words

    def __cinit__(self, shifts, int size):
        if not _LITTLE_ENDIAN:
            raise ValueError("hexes as C words need a little-endian machine")
        self.count, self.words = len(shifts), (size + 63) // 64 or 1
        self.differences = <int64_t*> malloc(self.count * sizeof(int64_t) + 1)
        self.movers = <uint64_t*> malloc(self.count * self.words * sizeof(uint64_t) + 1)
        if self.differences == NULL or self.movers == NULL:
            raise MemoryError()
        for k, (difference, movers) in enumerate(shifts):
            if movers < 0 or movers.bit_length() > size or abs(difference) >= size:
                raise ValueError("steps of another map")
            self.differences[k] = difference
            _load(&self.movers[k * self.words], movers, self.words)

    def __dealloc__(self):
        free(self.differences)
        free(self.movers)


cdef void _load(uint64_t* words, bits, int count) except *:
    """The non-negative int `bits` (at most `count` words) into `words`."""
    data = bits.to_bytes(count * 8, "little")
    memcpy(words, <const char*> data, count * 8)


cdef object _store(const uint64_t* words, int count):
    """`count` words as an int."""
    return int.from_bytes(PyBytes_FromStringAndSize(<const char*> words, count * 8), "little")


cdef bint _span(const uint64_t* bits, int words, int* low, int* high) noexcept:
    """The first and last words of `bits` with a bit set (False: none)."""
    cdef int w
    low[0] = -1
    for w in range(words):
        if bits[w]:
            if low[0] < 0:
                low[0] = w
            high[0] = w
    return low[0] >= 0


cdef void _shifted(Shifts shifts, const uint64_t* bits, uint64_t* found, bint backward) noexcept:
    """The hexes one step from those of `bits` (hex_bits.Steps.after), or with `backward` the hexes a step into one
    of them comes from (Steps.into), into `found`. Only the words a step from `bits`' may reach are gone through: a
    breadth-first search's frontier is a ring of a few words of the map's."""
    cdef int words = shifts.words, k, w, q, r, low, high, first, last
    cdef int64_t difference
    cdef const uint64_t* movers
    cdef uint64_t moving, carried, below, above
    memset(found, 0, words * sizeof(uint64_t))
    if not _span(bits, words, &low, &high):
        return
    for k in range(shifts.count):
        difference = -shifts.differences[k] if backward else shifts.differences[k]
        movers = &shifts.movers[k * words]
        # forward, a hex moves if it is a mover, then shifts; backward, it shifts back, then is kept if a mover there
        if difference >= 0:  # << difference: word w takes words w - q and w - q - 1
            q, r = <int> (difference >> 6), <int> (difference & 63)
            first, last = low + q, min(high + q + 1, words - 1)
            for w in range(first, last + 1):
                below = bits[w - q] if w - q <= high else 0
                above = bits[w - q - 1] if r and w - q - 1 >= low else 0
                if not backward:
                    below &= movers[w - q]
                    if above:
                        above &= movers[w - q - 1]
                moving = below << r
                carried = above >> (64 - r) if r else 0
                found[w] |= (moving | carried) & movers[w] if backward else moving | carried
        else:  # >> -difference: word w takes words w + q and w + q + 1
            q, r = <int> ((-difference) >> 6), <int> ((-difference) & 63)
            first, last = max(low - q - 1, 0), min(high - q, words - 1)
            for w in range(first, last + 1):
                below = bits[w + q] if w + q >= low and w + q <= high else 0
                above = bits[w + q + 1] if r and w + q + 1 <= high and w + q + 1 < words else 0
                if not backward:
                    below &= movers[w + q]
                    if above:
                        above &= movers[w + q + 1]
                moving = below >> r
                carried = above << (64 - r) if r else 0
                found[w] |= (moving | carried) & movers[w] if backward else moving | carried


cdef int _first_meeting(const uint64_t* rows, int count, const uint64_t* bits, int words) noexcept:
    """The first of `count` rows with a hex of `bits` (count: none)."""
    cdef int i, w
    for i in range(count):
        for w in range(words):
            if rows[i * words + w] & bits[w]:
                return i
    return count


cdef class Layers:
    """A trace's search as trace_sets.Layers keeps it for its next search (the compiled engine's; trace_sets.IntLayers
    is pure Python's, the same search step for step): its layers as rows of C words (row i: the hexes reached in at
    most i steps from the sources, row 0 the sources), the hexes it let pass, and the hexes reached as an int, made
    once a search: no int is made for a layer, and what a change of the hexes passing leaves holding is found
    word by word."""

    cdef Shifts shifts
    cdef int words, count, room, limit
    cdef uint64_t* rows  # `room` rows of `words` words, `count` of them the search's layers
    cdef uint64_t* passing
    cdef uint64_t* scratch  # two rows' room: the hexes passing anew, and around them
    cdef readonly object reached

    def __cinit__(self, Shifts shifts, start, passing, int limit):
        """The search from the sources `start` (an int of bits) through the hexes `passing`, at most `limit` steps
        (-1: no limit)."""
        self.shifts, self.words, self.limit = shifts, shifts.words, limit
        self.room = 8
        self.rows = <uint64_t*> malloc(self.room * self.words * sizeof(uint64_t))
        self.passing = <uint64_t*> malloc(self.words * sizeof(uint64_t))
        self.scratch = <uint64_t*> malloc(2 * self.words * sizeof(uint64_t))
        if self.rows == NULL or self.passing == NULL or self.scratch == NULL:
            raise MemoryError()
        _load(self.rows, start, self.words)
        _load(self.passing, passing, self.words)
        self.count = 1
        self._spread()

    def __dealloc__(self):
        free(self.rows)
        free(self.passing)
        free(self.scratch)

    def update(self, passing):
        """The hexes reached once the hexes passing are `passing` (the sources the same): the search goes on again
        from the last layer that still holds (trace_sets.IntLayers.update), if any."""
        cdef int words = self.words, w, i, restart = -1, last
        cdef uint64_t* newly = self.scratch
        cdef uint64_t* around = self.scratch + words
        cdef uint64_t* reached = self.rows + (self.count - 1) * words
        cdef uint64_t old, any_stopped = 0, any_newly = 0, changed = 0
        _load(around, passing, words)  # (the new hexes passing, for now)
        for w in range(words):
            old = self.passing[w]
            changed |= old ^ around[w]
            newly[w] = around[w] & ~old & ~reached[w]  # passing now, not reached
            any_newly |= newly[w]
            old &= ~around[w] & reached[w]  # reached, passing no more
            any_stopped |= old
            self.passing[w] = around[w]
            around[w] = old
        if not changed:
            return self.reached
        if any_stopped:  # the layer before the first holding a hex that no longer passes (never the sources')
            i = _first_meeting(self.rows, self.count, around, words)
            restart = i - 1
        if any_newly:  # or the first next to a hex passing anew (within the limit), whichever comes first
            last = self.count if restart < 0 else restart + 1
            if self.limit >= 0 and self.limit < last:
                last = self.limit
            _shifted(self.shifts, newly, around, True)
            i = _first_meeting(self.rows, last, around, words)
            if i < last:
                restart = i
        if restart < 0:
            return self.reached
        self.count = restart + 1
        self._spread()
        return self.reached

    def as_ints(self):
        """The layers as ints (for the tests: trace_sets.IntLayers.layers)."""
        return [_store(self.rows + i * self.words, self.words) for i in range(self.count)]

    cdef int _spread(self) except -1:
        """Go on with the search from its last layer, into the hexes passing, at most `limit` steps from the
        sources; then the hexes reached, as an int."""
        cdef int words = self.words, w, steps = self.count - 1
        cdef uint64_t* frontier = self.scratch
        cdef uint64_t* following = self.scratch + words
        cdef uint64_t* reached
        cdef uint64_t* grown
        cdef uint64_t any_left
        reached = self.rows + steps * words
        if steps:
            for w in range(words):
                frontier[w] = reached[w] & ~reached[w - words]
        else:
            memcpy(frontier, reached, words * sizeof(uint64_t))
        while self.limit < 0 or steps < self.limit:
            _shifted(self.shifts, frontier, following, False)
            any_left = 0
            for w in range(words):
                following[w] &= self.passing[w] & ~reached[w]
                any_left |= following[w]
            if not any_left:
                break
            if self.count == self.room:
                grown = <uint64_t*> realloc(self.rows, 2 * self.room * words * sizeof(uint64_t))
                if grown == NULL:
                    raise MemoryError()
                self.rows, self.room = grown, 2 * self.room
            steps += 1
            self.count += 1
            reached = self.rows + steps * words
            for w in range(words):
                reached[w] = reached[w - words] | following[w]
            memcpy(frontier, following, words * sizeof(uint64_t))
        self.reached = _store(reached, words)
        return 0
