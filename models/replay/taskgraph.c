/* taskgraph.c — building and freezing one rank's task graph (taskgraph.h).
 * Invariant: after replay_rank_end the CSR arrays hold every edge added, in
 * insertion order per task, every dependency names an existing other task and
 * the dependencies form no cycle. Called by every trace reader and generator. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "replay/taskgraph.h"
#include "warp_error.h"

void replay_rank_begin(replay_rank *r, int32_t rank)
{
    memset(r, 0, sizeof *r);
    r->rank = rank;
}

void replay_rank_reserve(replay_rank *r, uint32_t ntasks, uint32_t ndeps, uint32_t nmsgs)
{
    if (ntasks > r->cap_tasks) {
        r->cap_tasks = ntasks;
        r->tasks = warp_xrealloc(r->tasks, (size_t)ntasks * sizeof *r->tasks);
    }
    if (ndeps > r->b_cap_deps) {
        r->b_cap_deps = ndeps;
        r->b_dep_task = warp_xrealloc(r->b_dep_task, (size_t)ndeps * sizeof(uint32_t));
        r->b_dep_val = warp_xrealloc(r->b_dep_val, (size_t)ndeps * sizeof(uint32_t));
    }
    if (nmsgs > r->b_cap_msgs) {
        r->b_cap_msgs = nmsgs;
        r->b_msg_task = warp_xrealloc(r->b_msg_task, (size_t)nmsgs * sizeof(uint32_t));
        r->b_msg = warp_xrealloc(r->b_msg, (size_t)nmsgs * sizeof(replay_msg));
    }
}

uint32_t replay_add_task(replay_rank *r, uint64_t dur_ns, uint8_t flags,
                         int32_t trig_src, int32_t trig_tag)
{
    if (r->ntasks == r->cap_tasks) {
        r->cap_tasks = r->cap_tasks ? 2 * r->cap_tasks : 16;
        r->tasks = warp_xrealloc(r->tasks, (size_t)r->cap_tasks * sizeof *r->tasks);
    }
    replay_task *t = &r->tasks[r->ntasks];
    memset(t, 0, sizeof *t);
    t->dur_ns = dur_ns;
    t->flags = flags;
    t->trig_src = (flags & REPLAY_TRIGGERED) ? trig_src : REPLAY_ANY;
    t->trig_tag = (flags & REPLAY_TRIGGERED) ? trig_tag : REPLAY_ANY;
    return r->ntasks++;
}

void replay_add_dep(replay_rank *r, uint32_t task, uint32_t dep, int start_only)
{
    if (r->b_ndeps == r->b_cap_deps) {
        r->b_cap_deps = r->b_cap_deps ? 2 * r->b_cap_deps : 16;
        r->b_dep_task = warp_xrealloc(r->b_dep_task, (size_t)r->b_cap_deps * sizeof(uint32_t));
        r->b_dep_val = warp_xrealloc(r->b_dep_val, (size_t)r->b_cap_deps * sizeof(uint32_t));
    }
    r->b_dep_task[r->b_ndeps] = task;
    r->b_dep_val[r->b_ndeps] = (dep & 0x7fffffffu) | (start_only ? REPLAY_DEP_START : 0);
    /* An index that does not fit 31 bits is caught in replay_rank_end. */
    if (dep > 0x7fffffffu)
        r->b_dep_val[r->b_ndeps] = 0x7fffffffu;
    r->b_ndeps++;
}

void replay_add_msg(replay_rank *r, uint32_t task, int32_t dst, uint64_t bytes, int32_t tag)
{
    if (r->b_nmsgs == r->b_cap_msgs) {
        r->b_cap_msgs = r->b_cap_msgs ? 2 * r->b_cap_msgs : 16;
        r->b_msg_task = warp_xrealloc(r->b_msg_task, (size_t)r->b_cap_msgs * sizeof(uint32_t));
        r->b_msg = warp_xrealloc(r->b_msg, (size_t)r->b_cap_msgs * sizeof(replay_msg));
    }
    r->b_msg_task[r->b_nmsgs] = task;
    r->b_msg[r->b_nmsgs] = (replay_msg){.bytes = bytes, .dst = dst, .tag = tag};
    r->b_nmsgs++;
}

void replay_rank_dependants(const replay_rank *r, uint32_t **out_end, uint32_t **out)
{
    uint32_t n = r->ntasks;
    uint32_t *end = warp_xcalloc((size_t)n + 1, sizeof *end);
    uint32_t *dep = warp_xcalloc(r->ndeps, sizeof *dep);
    for (uint32_t k = 0; k < r->ndeps; k++)
        end[REPLAY_DEP_INDEX(r->deps[k]) + 1]++;
    for (uint32_t i = 0; i < n; i++)
        end[i + 1] += end[i];
    uint32_t *fill = warp_xcalloc(n, sizeof *fill);
    for (uint32_t i = 0; i < n; i++)
        for (uint32_t k = replay_dep_begin(r, i); k < r->tasks[i].dep_end; k++) {
            uint32_t d = REPLAY_DEP_INDEX(r->deps[k]);
            dep[end[d] + fill[d]++] = i | (r->deps[k] & REPLAY_DEP_START);
        }
    free(fill);
    *out_end = end;
    *out = dep;
}

/* Kahn's algorithm over the frozen dependency lists; returns a task on a
 * cycle, or UINT32_MAX when there is none. */
static uint32_t find_cycle(const replay_rank *r)
{
    uint32_t n = r->ntasks;
    /* Every dependency on an earlier task (as generators and most traces
     * write them): index order is a topological order, no cycle. */
    int forward = 1;
    for (uint32_t i = 0; i < n && forward; i++)
        for (uint32_t k = replay_dep_begin(r, i); k < r->tasks[i].dep_end; k++)
            if (REPLAY_DEP_INDEX(r->deps[k]) >= i) {
                forward = 0;
                break;
            }
    if (forward)
        return UINT32_MAX;
    uint32_t *indeg = warp_xcalloc(n, sizeof *indeg);
    uint32_t *out_end, *out;
    replay_rank_dependants(r, &out_end, &out);
    for (uint32_t i = 0; i < n; i++)
        indeg[i] = r->tasks[i].dep_end - replay_dep_begin(r, i);
    uint32_t *stack = warp_xcalloc(n, sizeof *stack);
    uint32_t top = 0, seen = 0;
    for (uint32_t i = 0; i < n; i++)
        if (!indeg[i])
            stack[top++] = i;
    while (top) {
        uint32_t t = stack[--top];
        seen++;
        for (uint32_t k = out_end[t]; k < out_end[t + 1]; k++)
            if (--indeg[REPLAY_DEP_INDEX(out[k])] == 0)
                stack[top++] = REPLAY_DEP_INDEX(out[k]);
    }
    uint32_t bad = UINT32_MAX;
    if (seen != n)
        for (uint32_t i = 0; i < n && bad == UINT32_MAX; i++)
            if (indeg[i])
                bad = i;
    free(indeg);
    free(out_end);
    free(out);
    free(stack);
    return bad;
}

/* Counting sort's first half: cnt[i] becomes the first CSR index of task
 * i's entries (cnt[n] their total), given each entry's task. */
static void csr_starts(uint32_t *cnt, uint32_t n, const uint32_t *task, uint32_t m)
{
    memset(cnt, 0, ((size_t)n + 1) * sizeof *cnt);
    for (uint32_t k = 0; k < m; k++)
        cnt[task[k] + 1]++;
    for (uint32_t i = 0; i < n; i++)
        cnt[i + 1] += cnt[i];
}

static int in_task_order(const uint32_t *task, uint32_t n)
{
    for (uint32_t k = 1; k < n; k++)
        if (task[k] < task[k - 1])
            return 0;
    return 1;
}

int replay_rank_end(replay_rank *r, const char *place, replay_err *err)
{
    uint32_t n = r->ntasks;
    for (uint32_t k = 0; k < r->b_ndeps; k++) {
        uint32_t d = REPLAY_DEP_INDEX(r->b_dep_val[k]);
        if (r->b_dep_task[k] >= n)
            return replay_errf(err, "%s: rank %d: a dependency names task %u of only %u",
                               place, r->rank, r->b_dep_task[k], n);
        if (d >= n || d == r->b_dep_task[k])
            return replay_errf(err, "%s: rank %d: task %u depends on %s task %u; "
                               "fix the trace's dependency lists", place, r->rank,
                               r->b_dep_task[k], d == r->b_dep_task[k] ? "itself as" : "nonexistent", d);
    }
    for (uint32_t k = 0; k < r->b_nmsgs; k++)
        if (r->b_msg_task[k] >= n)
            return replay_errf(err, "%s: rank %d: a message names task %u of only %u",
                               place, r->rank, r->b_msg_task[k], n);
    r->ndeps = r->b_ndeps;
    r->nmsgs = r->b_nmsgs;
    /* Edges added in task order (every generator and reader but GOAL's
     * out-of-order lines) are already the CSR arrays: they are kept as
     * they are, not copied. Otherwise a stable counting sort by task. */
    if (in_task_order(r->b_dep_task, r->b_ndeps) && in_task_order(r->b_msg_task, r->b_nmsgs)) {
        uint32_t d = 0, m = 0;
        for (uint32_t i = 0; i < n; i++) {
            while (d < r->b_ndeps && r->b_dep_task[d] == i)
                d++;
            while (m < r->b_nmsgs && r->b_msg_task[m] == i)
                m++;
            r->tasks[i].dep_end = d;
            r->tasks[i].msg_end = m;
        }
        free(r->deps);
        free(r->msgs);
        /* Capacity well above the count (growth by doubling) is given back. */
        if (r->b_cap_deps > r->b_ndeps + r->b_ndeps / 4 && r->b_ndeps)
            r->b_dep_val = warp_xrealloc(r->b_dep_val, (size_t)r->b_ndeps * sizeof *r->deps);
        if (r->b_cap_msgs > r->b_nmsgs + r->b_nmsgs / 4 && r->b_nmsgs)
            r->b_msg = warp_xrealloc(r->b_msg, (size_t)r->b_nmsgs * sizeof *r->msgs);
        r->deps = r->b_dep_val;
        r->msgs = r->b_msg;
        r->b_dep_val = NULL;
        r->b_msg = NULL;
        if (!r->deps)
            r->deps = warp_xcalloc(1, sizeof *r->deps);
        if (!r->msgs)
            r->msgs = warp_xcalloc(1, sizeof *r->msgs);
    } else {
        uint32_t *cnt = warp_xcalloc((size_t)n + 1, sizeof *cnt);
        r->deps = warp_xrealloc(r->deps, (r->b_ndeps ? r->b_ndeps : 1) * sizeof *r->deps);
        csr_starts(cnt, n, r->b_dep_task, r->b_ndeps);
        for (uint32_t i = 0; i < n; i++)
            r->tasks[i].dep_end = cnt[i + 1];
        for (uint32_t k = 0; k < r->b_ndeps; k++)
            r->deps[cnt[r->b_dep_task[k]]++] = r->b_dep_val[k];
        r->msgs = warp_xrealloc(r->msgs, (r->b_nmsgs ? r->b_nmsgs : 1) * sizeof *r->msgs);
        csr_starts(cnt, n, r->b_msg_task, r->b_nmsgs);
        for (uint32_t i = 0; i < n; i++)
            r->tasks[i].msg_end = cnt[i + 1];
        for (uint32_t k = 0; k < r->b_nmsgs; k++)
            r->msgs[cnt[r->b_msg_task[k]]++] = r->b_msg[k];
        free(cnt);
    }

    free(r->b_dep_task);
    free(r->b_dep_val);
    free(r->b_msg_task);
    free(r->b_msg);
    r->b_dep_task = r->b_dep_val = r->b_msg_task = NULL;
    r->b_msg = NULL;
    r->b_ndeps = r->b_cap_deps = r->b_nmsgs = r->b_cap_msgs = 0;
    if (n && n != r->cap_tasks) {
        r->tasks = warp_xrealloc(r->tasks, (size_t)n * sizeof *r->tasks);
        r->cap_tasks = n;
    }
    return replay_rank_validate(r, place, err);
}

int replay_rank_validate(const replay_rank *r, const char *place, replay_err *err)
{
    uint32_t dprev = 0, mprev = 0;
    for (uint32_t i = 0; i < r->ntasks; i++) {
        const replay_task *t = &r->tasks[i];
        if (t->dep_end < dprev || t->dep_end > r->ndeps || t->msg_end < mprev || t->msg_end > r->nmsgs)
            return replay_errf(err, "%s: rank %d: edge lists of task %u are out of bounds; "
                               "the trace is corrupt", place, r->rank, i);
        if (t->flags & ~(REPLAY_TRIGGERED | REPLAY_WAIT))
            return replay_errf(err, "%s: rank %d: task %u has unknown flags 0x%x; "
                               "the trace is corrupt or newer than this reader", place, r->rank, i, t->flags);
        if ((t->flags & REPLAY_WAIT) && ((t->flags & REPLAY_TRIGGERED) || t->msg_end != mprev))
            return replay_errf(err, "%s: rank %d: task %u is a wait that %s; a wait only passes time, so "
                               "move the receive or the sends to a task after it", place, r->rank, i,
                               (t->flags & REPLAY_TRIGGERED) ? "waits for a message" : "sends messages");
        for (uint32_t k = dprev; k < t->dep_end; k++) {
            uint32_t d = REPLAY_DEP_INDEX(r->deps[k]);
            if (d >= r->ntasks || d == i)
                return replay_errf(err, "%s: rank %d: task %u depends on %s task %u; "
                                   "fix the trace's dependency lists", place, r->rank, i,
                                   d == i ? "itself as" : "nonexistent", d);
        }
        dprev = t->dep_end;
        mprev = t->msg_end;
    }
    if (dprev != r->ndeps || mprev != r->nmsgs)
        return replay_errf(err, "%s: rank %d: %u dependencies and %u messages stored but the tasks "
                           "use %u and %u; the trace is corrupt", place, r->rank, r->ndeps, r->nmsgs,
                           dprev, mprev);
    uint32_t bad = find_cycle(r);
    if (bad != UINT32_MAX)
        return replay_errf(err, "%s: rank %d: task %u is on a dependency cycle; "
                           "no order can satisfy its requires/irequires", place, r->rank, bad);
    return 0;
}

void replay_rank_free(replay_rank *r)
{
    free(r->tasks);
    free(r->deps);
    free(r->msgs);
    free(r->b_dep_task);
    free(r->b_dep_val);
    free(r->b_msg_task);
    free(r->b_msg);
    int32_t rank = r->rank;
    memset(r, 0, sizeof *r);
    r->rank = rank;
}

size_t replay_rank_bytes(const replay_rank *r)
{
    return 48 + (size_t)r->ntasks * sizeof(replay_task) + (size_t)r->ndeps * sizeof(uint32_t) +
           (size_t)r->nmsgs * sizeof(replay_msg);
}

int replay_rank_repeat(replay_rank *r, uint32_t times, const char *place, replay_err *err)
{
    if (times <= 1 || r->ntasks == 0)
        return 0;
    uint64_t n = r->ntasks;
    if ((n + 1) * times > 0x7fffffffu)
        return replay_errf(err, "%s: rank %d: %u iterations of %u tasks exceed 2^31 tasks; "
                           "use fewer iterations", place, r->rank, times, r->ntasks);
    replay_rank src = *r;
    uint8_t *has_dependant = warp_xcalloc(n, 1);
    for (uint32_t k = 0; k < src.ndeps; k++)
        has_dependant[REPLAY_DEP_INDEX(src.deps[k])] = 1;
    uint64_t roots = 0, sinks = 0;
    for (uint32_t i = 0; i < n; i++) {
        roots += replay_dep_begin(&src, i) == src.tasks[i].dep_end;
        sinks += !has_dependant[i];
    }
    replay_rank_begin(r, src.rank);
    /* Exact sizes: each copy, plus a join per copy after the first that
     * needs the previous copy's sinks and is needed by this copy's roots. */
    uint64_t deps = (uint64_t)src.ndeps * times + (roots + sinks) * (times - 1),
             msgs = (uint64_t)src.nmsgs * times;
    if (deps <= UINT32_MAX && msgs <= UINT32_MAX) /* else the builder's counts overflow anyway */
        replay_rank_reserve(r, (uint32_t)((n + 1) * times - 1), (uint32_t)deps, (uint32_t)msgs);
    uint32_t base = 0, join = 0;
    for (uint32_t it = 0; it < times; it++) {
        if (it > 0) { /* a zero-length join: the end of the previous copy */
            join = replay_add_task(r, 0, 0, 0, 0);
            for (uint32_t j = 0; j < n; j++)
                if (!has_dependant[j])
                    replay_add_dep(r, join, base + j, 0);
            base = join + 1;
        }
        for (uint32_t i = 0; i < n; i++) {
            const replay_task *t = &src.tasks[i];
            uint32_t ti = replay_add_task(r, t->dur_ns, t->flags, t->trig_src, t->trig_tag);
            r->tasks[ti].cpu = t->cpu;
            r->tasks[ti].nic = t->nic;
            for (uint32_t k = replay_dep_begin(&src, i); k < t->dep_end; k++)
                replay_add_dep(r, ti, base + REPLAY_DEP_INDEX(src.deps[k]),
                               (src.deps[k] & REPLAY_DEP_START) != 0);
            if (it > 0 && replay_dep_begin(&src, i) == t->dep_end)
                replay_add_dep(r, ti, join, 0);
            for (uint32_t k = replay_msg_begin(&src, i); k < t->msg_end; k++)
                replay_add_msg(r, ti, src.msgs[k].dst, src.msgs[k].bytes, src.msgs[k].tag);
        }
    }
    free(has_dependant);
    replay_rank_free(&src);
    return replay_rank_end(r, place, err);
}
