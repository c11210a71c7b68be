/* engine/checkpoint.c — writing checkpoints (docs/checkpoint.md). A checkpoint
 * is a consistent cut: every rank rolls back to the cut (<= GVT), the network
 * is drained until no message is in transit, everything below the cut is
 * committed; then each LP's state, out block, RNG counter, send sequence,
 * digest, warp_alloc blocks (pointers into them relocated by the reader) and
 * the pending events it will receive are one record, so any rank count can
 * read them back (checkpoint_read.c). Called by the schedulers at GVT rounds
 * and by warp_run after a signal. Files: DIR.tmp, renamed to DIR once whole. */
#include "internal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "checkpoint_format.h"

/* ---- identity ------------------------------------------------------------- */

uint64_t ckpt_sum(uint64_t seed, const void *p, size_t n)
{
    const unsigned char *b = p;
    uint64_t a = seed ^ 0x9E3779B97F4A7C15ull, c = ~seed, h[4] = {a, c, a ^ 0x60EA27EEADC0B5D6ull, c + 1};
    size_t i = 0;
    for (; i + 32 <= n; i += 32)
        for (int k = 0; k < 4; k++) {
            uint64_t v;
            memcpy(&v, b + i + 8 * k, 8);
            h[k] = ((h[k] + v * 0xC2B2AE3D27D4EB4Full) << 31 | (h[k] + v * 0xC2B2AE3D27D4EB4Full) >> 33) *
                   0x9E3779B185EBCA87ull;
        }
    uint64_t t = h[0] ^ (h[1] << 17 | h[1] >> 47) ^ (h[2] << 31 | h[2] >> 33) ^ (h[3] << 47 | h[3] >> 17);
    for (; i < n; i++)
        t = (t ^ b[i]) * 0x100000001B3ull;
    t ^= n;
    t ^= t >> 30;
    t *= 0xbf58476d1ce4e5b9ull;
    t ^= t >> 27;
    t *= 0x94d049bb133111ebull;
    return t ^ (t >> 31);
}

/* The program's version, the compiler and the engine's data layout: what
 * must match for the bytes of a checkpoint to mean the same. (Not the
 * compile time: the static and shared libwarp would differ.) */
uint64_t ckpt_build_id(void)
{
    static const char id[] = PACKAGE_VERSION " " __VERSION__;
    size_t layout[] = {sizeof(warp_event), sizeof(alloc_hdr), sizeof(warp_rng), sizeof(void *)};
    return ckpt_sum(ckpt_sum(0, id, sizeof id), layout, sizeof layout);
}

void ckpt_path(const char *opt, char *path, size_t cap, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(path, cap, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= cap)
        warp_fatal(WARP_EXIT_USAGE, "%s=DIR: the path %.60s... is longer than %zu bytes: choose a shorter DIR",
                   opt, path, cap - 1);
}

void warp_set_config_hash(warp_ctx *w, const void *bytes, size_t n)
{
    w->ck.config_hash = ckpt_sum(w->ck.config_hash + 1, bytes, n);
}

int warp_restarting(const warp_ctx *w) { return w->opt.restart_dir != NULL; }
int warp_checkpointing(const warp_ctx *w) { return w->opt.restart_dir || w->opt.ckpt_dir; }

uint64_t ckpt_config_hash(const warp_ctx *w)
{
    const warp_model *m = w->m;
    uint64_t h = ckpt_sum(w->ck.config_hash, m->name, strlen(m->name));
    uint64_t v[5] = {m->total_lps, m->msg_size, w->opt.seed, 0, 0};
    memcpy(&v[3], &w->opt.end, 8);
    memcpy(&v[4], &m->lookahead, 8);
    h = ckpt_sum(h, v, sizeof v);
    /* Every LP's type and sizes: a sampled grid or a larger router changes them. */
    const warp_lp_type *last = NULL;
    for (warp_lpid g = 0; g < m->total_lps; g++) {
        const warp_lp_type *t = m->lp_type(g, m->arg);
        if (t == last)
            continue;
        last = t;
        uint64_t s[3] = {g, t->state_size, t->out_size};
        h = ckpt_sum(ckpt_sum(h, s, sizeof s), t->name ? t->name : "", t->name ? strlen(t->name) : 0);
    }
    return h;
}

/* ---- setup and triggers -------------------------------------------------- */

static void remove_dir(const char *dir, bool check_only);

/* Rank 0 keeps DIR.lock write-locked (fcntl, which NFS and Lustre honour)
 * until the process ends, so two runs never replace each other's
 * checkpoints; creating it also shows, before anything runs, that DIR's
 * place is writable. The file stays; the lock goes with the process. */
static void lock_dir(warp_ctx *w)
{
    const char *dir = w->opt.ckpt_dir;
    char path[CKPT_PATH_CAP];
    ckpt_path("--checkpoint", path, sizeof path, "%s.lock", dir);
    struct stat st;
    if (stat(dir, &st) == 0 && !S_ISDIR(st.st_mode))
        warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s: exists and is not a directory; give a new or an "
                                    "existing directory", dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0)
        warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s: cannot write beside it (%s: %s); give a directory in a "
                                    "writable place", dir, path, strerror(errno));
    struct flock l = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
    if (fcntl(fd, F_SETLK, &l) != 0) {
        if (errno != EACCES && errno != EAGAIN)
            warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s: cannot lock %s (%s): two runs could write one "
                                        "checkpoint; give a DIR on a file system with locks", dir, path,
                       strerror(errno));
        struct flock q = {.l_type = F_WRLCK, .l_whence = SEEK_SET};
        long pid = fcntl(fd, F_GETLK, &q) == 0 && q.l_type != F_UNLCK ? (long)q.l_pid : 0;
        char who[48] = "";
        if (pid > 0)
            snprintf(who, sizeof who, " (process %ld)", pid);
        warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s: another run%s is writing its checkpoints there (it holds "
                                    "%s); give each run its own DIR", dir, who, path);
    }
    w->ck.lock_fd = fd;
    /* Files in the way of DIR.tmp are found now, not at the first checkpoint. */
    char tmp[CKPT_PATH_CAP];
    ckpt_path("--checkpoint", tmp, sizeof tmp, "%s.tmp", dir);
    remove_dir(tmp, true);
}

void ckpt_setup(warp_ctx *w)
{
    w->ck.next_at = w->opt.ckpt_at;
    bool timed = w->opt.ckpt_every_s > 0 || w->opt.ckpt_at < INFINITY || w->opt.ckpt_exit;
    if (timed && !w->opt.ckpt_dir)
        warp_fatal(WARP_EXIT_USAGE, "--checkpoint-every, --checkpoint-at and --checkpoint-exit need "
                                    "--checkpoint=DIR: add where to write");
    if ((w->opt.ckpt_dir || w->opt.restart_dir) && w->opt.synch == SYNCH_CHECK)
        warp_fatal(WARP_EXIT_USAGE, "--synch=check does not checkpoint or restart: use seq, cons or opt");
    if (w->opt.ckpt_dir && w->opt.restart_dir && !strcmp(w->opt.ckpt_dir, w->opt.restart_dir))
        warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s is also --restart: a new checkpoint replaces the old one "
                                    "atomically, which is fine, but give the same DIR only once you have "
                                    "a copy; use another DIR", w->opt.ckpt_dir);
    /* A DIR too long for its files' paths stops the run now, not at the
     * first checkpoint hours into it. */
    char longest[CKPT_PATH_CAP];
    if (w->opt.restart_dir)
        ckpt_path("--restart", longest, sizeof longest, "%s/" CKPT_RANK_FILE, w->opt.restart_dir, 0);
    if (!w->opt.ckpt_dir)
        return;
    ckpt_path("--checkpoint", longest, sizeof longest, "%s.tmp/" CKPT_RANK_FILE, w->opt.ckpt_dir, w->nranks - 1);
    /* A checkpoint at or after the end would never be written (the run is
     * over by then): refused, as an expert means a time inside the run. */
    if (w->opt.ckpt_at < INFINITY && w->opt.ckpt_at >= w->opt.end)
        warp_fatal(WARP_EXIT_USAGE, "--checkpoint-at=%.9g%s: not before the end time %.9g%s, so the run would "
                                    "end without it; give a time below the end",
                   w->opt.ckpt_at, w->opt.time_in_ns ? "ns" : "", w->opt.end, w->opt.time_in_ns ? "ns" : "");
    if (w->rank == 0 && w->ck.lock_fd < 0)
        lock_dir(w);
    const char *s = w->opt.ckpt_signals ? w->opt.ckpt_signals : "TERM,USR1";
    for (const char *p = s; *p;) {
        size_t n = strcspn(p, ",");
        int sig = ckpt_signal_number(p, n);
        if (sig)
            warp_signal_catch(sig);
        p += n + (p[n] == ',');
    }
    w->ck.last = warp_wtime();
}

void ckpt_prepare(warp_ctx *w)
{
    if (w->opt.ckpt_dir || w->opt.restart_dir)
        w->ck.hash = ckpt_config_hash(w);
}

bool ckpt_due(warp_ctx *w, double gvt, double *cut)
{
    /* At the end (GVT at end time, or infinite: nothing left) the run is
     * over and its results are due, not a checkpoint. */
    if (!w->opt.ckpt_dir || !(gvt < w->opt.end))
        return false;
    if (w->ck.next_at < INFINITY && gvt >= w->ck.next_at) {
        *cut = w->ck.next_at;
        w->ck.next_at = INFINITY; /* once */
        return true;
    }
    /* A GVT that has not moved since the last cut would only write it
     * again (an interval shorter than a write would stall the run). */
    if (!(w->opt.ckpt_every_s > 0) || (w->ck.count && !(gvt > w->ck.last_cut)))
        return false;
    /* A checkpoint costs its write and the optimistic work past the cut
     * that it undoes. Waiting at least as long as the last one took keeps
     * that cost at most half the run: on a loaded machine an interval
     * shorter than a checkpoint wrote 1,002 of them in 120 s while GVT
     * crept by an event or two between them. */
    double wait = w->opt.ckpt_every_s > w->ck.cost_s ? w->opt.ckpt_every_s : w->ck.cost_s;
    int due = warp_wtime() - w->ck.last >= wait; /* rank 0's clock decides */
    if (w->nranks > 1)
        coll_bcast(w, &due, sizeof due);
    *cut = gvt;
    return due;
}

/* ---- the cut -------------------------------------------------------------- */

/* Every message sent is received: the sum over ranks and GVT epochs of
 * sent - received (anti-messages included) is zero. */
static void drain(warp_ctx *w)
{
    for (;;) {
        transport_flush(w);
        transport_poll(w);
        transport_flush(w);
        int64_t d = 0, sum;
        for (int k = 0; k < 4; k++)
            d += (int64_t)w->tr.sent[k] - (int64_t)w->tr.recvd[k];
        coll_allreduce(w, &d, &sum, 1, COLL_I64, COLL_SUM);
        if (sum == 0)
            return;
    }
}

static void cut_at(warp_ctx *w, double cut)
{
    /* Below the safe bound events may have run final (no undo), so the
     * cut is never below it (ckpt_take); what is still pending there is
     * final as well and runs now, leaving nothing below the cut pending. */
    warp_event *e;
    while ((e = queue_peek(w)) && e->ts < cut && e->ts < w->sched.safe_ts) {
        queue_pop(w);
        process_final(w, e);
    }
    if (w->sched.tracking) {
        warp_event key;
        memset(&key, 0, sizeof key);
        key.ts = cut;
        for (uint64_t k = 0; k < w->nkps; k++)
            rollback_kp(w, &w->kps[k], &key, false);
    }
    if (w->nranks > 1)
        drain(w);
    if (w->sched.tracking)
        fossil_collect(w, cut);
    for (uint64_t k = 0; k < w->nkps; k++)
        WARP_ASSERT(!w->kps[k].head, "after a checkpoint cut no processed event waits for commit");
    WARP_ASSERT(w->nranks == 1 || !w->tr.orphans, "after a drained cut no anti-message waits for its event");
}

/* ---- writing -------------------------------------------------------------- */

void ckpt_buf_put(warp_ckpt *c, const void *p, size_t n)
{
    if (c->len + n > c->cap) {
        size_t cap = c->cap ? c->cap : 4096;
        while (cap < c->len + n)
            cap *= 2;
        c->buf = warp_xrealloc(c->buf, cap);
        c->cap = cap;
    }
    if (n) /* zero-size parts (an LP without output) may come as NULL */
        memcpy(c->buf + c->len, p, n);
    c->len += n;
}

void warp_ckpt_write(warp_ckpt *c, const void *p, size_t n)
{
    uint64_t len = n;
    ckpt_buf_put(c, &len, sizeof len);
    ckpt_buf_put(c, p, n);
}

#define PUT(c, v) ckpt_buf_put((c), &(v), sizeof(v))

/* Best effort, on the way to a fatal error: removes the checkpoint files
 * (meta, rank-*) of an unfinished DIR.tmp and the directory itself. */
static void discard_dir(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    char path[CKPT_PATH_CAP];
    while ((de = readdir(d)))
        if ((!strcmp(de->d_name, CKPT_META_FILE) || !strncmp(de->d_name, "rank-", 5)) &&
            snprintf(path, sizeof path, "%s/%s", dir, de->d_name) < (int)sizeof path)
            unlink(path);
    closedir(d);
    rmdir(dir);
}

/* A file written through a 1 MiB buffer; its checksum chains the chunks. */
typedef struct ckpt_out {
    FILE *f;
    char path[CKPT_PATH_CAP];
    warp_ckpt buf;
    uint64_t size, sum;
} ckpt_out;

/* A write that failed (a full disk) takes the unfinished DIR.tmp with it,
 * as far as this rank can: left there, it kept the disk full. The previous
 * checkpoint, in DIR, stays. */
static void out_fail(ckpt_out *o)
{
    int err = errno;
    if (o->f)
        fclose(o->f);
    o->f = NULL;
    char dir[CKPT_PATH_CAP];
    snprintf(dir, sizeof dir, "%s", o->path);
    char *slash = strrchr(dir, '/');
    if (slash) {
        *slash = 0;
        discard_dir(dir);
    }
    warp_fatal(WARP_EXIT_RESOURCE, "--checkpoint: cannot write %s (%s): free space or choose another DIR",
               o->path, strerror(err));
}

static void out_spill(ckpt_out *o, bool all)
{
    size_t off = 0;
    while (o->buf.len - off >= CKPT_CHUNK || (all && off < o->buf.len)) {
        size_t n = o->buf.len - off < CKPT_CHUNK ? o->buf.len - off : CKPT_CHUNK;
        o->sum = ckpt_sum(o->sum, o->buf.buf + off, n);
        if (fwrite(o->buf.buf + off, 1, n, o->f) != n)
            out_fail(o);
        o->size += n;
        off += n;
    }
    memmove(o->buf.buf, o->buf.buf + off, o->buf.len - off);
    o->buf.len -= off;
}

static void out_put(ckpt_out *o, const void *p, size_t n)
{
    ckpt_buf_put(&o->buf, p, n);
    if (o->buf.len >= CKPT_CHUNK)
        out_spill(o, false);
}

static void out_open(ckpt_out *o, const char *dir, const char *name)
{
    memset(o, 0, sizeof *o);
    ckpt_path("--checkpoint", o->path, sizeof o->path, "%s/%s", dir, name);
    o->f = fopen(o->path, "wb");
    if (!o->f)
        out_fail(o);
}

static void out_close(ckpt_out *o)
{
    out_spill(o, true);
    if (fflush(o->f) || fsync(fileno(o->f)))
        out_fail(o);
    FILE *f = o->f;
    o->f = NULL; /* closed, whatever fclose says */
    if (fclose(f))
        out_fail(o);
    free(o->buf.buf);
}

/* Open-addressing set of blocks found for one LP: block -> index. */
typedef struct block_set {
    alloc_hdr **key;
    uint32_t *val;
    size_t cap;
    alloc_hdr **list; /* in discovery order */
    size_t n, lcap;
} block_set;

static size_t bs_slot(const block_set *s, const alloc_hdr *h)
{
    uint64_t x = (uint64_t)(uintptr_t)h * 0x9E3779B97F4A7C15ull;
    size_t i = (size_t)(x >> 20) & (s->cap - 1);
    while (s->key[i] && s->key[i] != h)
        i = (i + 1) & (s->cap - 1);
    return i;
}

static uint32_t bs_add(block_set *s, alloc_hdr *h)
{
    if (2 * (s->n + 1) > s->cap) {
        block_set g = {.cap = s->cap ? 2 * s->cap : 64};
        g.key = warp_xcalloc(g.cap, sizeof *g.key);
        g.val = warp_xcalloc(g.cap, sizeof *g.val);
        for (size_t i = 0; i < s->n; i++) {
            size_t j = bs_slot(&g, s->list[i]);
            g.key[j] = s->list[i];
            g.val[j] = (uint32_t)i;
        }
        free(s->key);
        free(s->val);
        s->key = g.key;
        s->val = g.val;
        s->cap = g.cap;
    }
    size_t i = bs_slot(s, h);
    if (s->key[i])
        return s->val[i];
    if (s->n == s->lcap) {
        s->lcap = s->lcap ? 2 * s->lcap : 64;
        s->list = warp_xrealloc(s->list, s->lcap * sizeof *s->list);
    }
    s->key[i] = h;
    s->val[i] = (uint32_t)s->n;
    s->list[s->n] = h;
    return (uint32_t)s->n++;
}

static void bs_clear(block_set *s)
{
    if (s->n) /* (removing keys one by one would break the probe chains) */
        memset(s->key, 0, s->cap * sizeof *s->key);
    s->n = 0;
}

/* Records every aligned word of region `r` that points into a live
 * warp_alloc block, adding the block to the LP's set. */
static void scan(const alloc_index *ix, block_set *bs, warp_ckpt *rel, uint64_t *nrel, uint32_t r,
                 const char *base, size_t len)
{
    for (size_t off = 0; off + sizeof(uintptr_t) <= len; off += sizeof(uintptr_t)) {
        uintptr_t v;
        memcpy(&v, base + off, sizeof v);
        alloc_hdr *h = alloc_find(ix, v);
        if (!h)
            continue;
        ckpt_reloc x = {.region = r, .block = bs_add(bs, h), .offset = off,
                        .target = (uint64_t)(v - (uintptr_t)(h + 1))};
        PUT(rel, x);
        (*nrel)++;
    }
}

static int ev_cmp(const void *a, const void *b)
{
    const warp_event *x = *(warp_event *const *)a, *y = *(warp_event *const *)b;
    return ev_less(x, y) ? -1 : ev_less(y, x);
}

/* Writes this rank's LPs into dir/rank-R; returns its size and checksum. */
static void write_rank(warp_ctx *w, const char *dir, uint64_t *size, uint64_t *sum)
{
    /* The pending events, by destination LP, in key order. */
    uint64_t nev = 0, cap = 1024;
    warp_event **evs = warp_xcalloc(cap, sizeof *evs), *e;
    while ((e = queue_pop(w))) {
        if (nev == cap)
            evs = warp_xrealloc(evs, (cap *= 2) * sizeof *evs);
        evs[nev++] = e;
    }
    for (uint64_t i = 0; i < nev; i++)
        queue_insert(w, evs[i]);
    qsort(evs, nev, sizeof *evs, ev_cmp);
    uint64_t *first = warp_xcalloc(w->nlocal + 1, sizeof *first);
    warp_event **by_lp = warp_xcalloc(nev ? nev : 1, sizeof *by_lp);
    for (uint64_t i = 0; i < nev; i++)
        first[evs[i]->lp - w->lps + 1]++;
    for (uint64_t i = 0; i < w->nlocal; i++)
        first[i + 1] += first[i];
    uint64_t *fill = warp_xcalloc(w->nlocal + 1, sizeof *fill);
    for (uint64_t i = 0; i < nev; i++) {
        uint64_t l = (uint64_t)(evs[i]->lp - w->lps);
        by_lp[first[l] + fill[l]++] = evs[i];
    }
    free(fill);
    free(evs);

    char name[64];
    snprintf(name, sizeof name, CKPT_RANK_FILE, w->rank);
    ckpt_out o;
    out_open(&o, dir, name);
    ckpt_file_hdr hdr = {.version = CKPT_VERSION, .kind = CKPT_KIND_RANK, .rank = (uint32_t)w->rank,
                         .build = ckpt_build_id(), .config = w->ck.hash, .nlps = w->nlocal};
    memcpy(hdr.magic, CKPT_MAGIC, sizeof hdr.magic);
    out_put(&o, &hdr, sizeof hdr);
    ckpt_index *index = warp_xcalloc(w->nlocal ? w->nlocal : 1, sizeof *index);
    alloc_index ix;
    alloc_index_build(w, &ix);
    block_set bs = {0};
    warp_ckpt rec = {.w = w}, rel = {.w = w}, hook = {.w = w};
    for (uint64_t i = 0; i < w->nlocal; i++) {
        warp_lp *lp = &w->lps[i];
        const warp_lp_type *t = lp->type;
        uint64_t ne = first[i + 1] - first[i], nrel = 0;
        rec.len = rel.len = hook.len = 0;
        bs_clear(&bs);
        scan(&ix, &bs, &rel, &nrel, 0, lp->state, t->state_size);
        scan(&ix, &bs, &rel, &nrel, 1, lp->out, t->out_size);
        for (uint64_t k = 0; k < ne; k++)
            scan(&ix, &bs, &rel, &nrel, (uint32_t)(2 + k), EV_PAYLOAD(by_lp[first[i] + k]), w->msg_size);
        for (size_t b = 0; b < bs.n; b++) /* bs.n grows while blocks lead to blocks */
            scan(&ix, &bs, &rel, &nrel, (uint32_t)(2 + ne + b), (const char *)(bs.list[b] + 1),
                 alloc_usable(alloc_class(bs.list[b])));
        if (t->ckpt_save) {
            hook.gid = lp_gid(lp);
            w->sched.cur_lp = lp;
            t->ckpt_save(lp, lp->state, lp->out, &hook);
            w->sched.cur_lp = NULL;
        }
        ckpt_lp_hdr lh = {.gid = lp_gid(lp), .rng = lp->rng.counter, .seq = lp->seq, .digest = lp->digest,
                          .state_size = t->state_size, .out_size = t->out_size, .nevents = ne,
                          .nblocks = bs.n, .nrelocs = nrel, .hook_len = hook.len};
        PUT(&rec, lh);
        ckpt_buf_put(&rec, lp->state, t->state_size);
        ckpt_buf_put(&rec, lp->out, t->out_size);
        for (uint64_t k = 0; k < ne; k++) {
            const warp_event *x = by_lp[first[i] + k];
            ckpt_ev_hdr eh = {.ts = x->ts, .depth = x->depth, .src = x->src, .seq = x->seq};
            PUT(&rec, eh);
            ckpt_buf_put(&rec, EV_PAYLOAD(x), w->msg_size);
        }
        for (size_t b = 0; b < bs.n; b++) {
            uint64_t cls = alloc_class(bs.list[b]);
            PUT(&rec, cls);
            ckpt_buf_put(&rec, bs.list[b] + 1, alloc_usable((uint32_t)cls));
        }
        ckpt_buf_put(&rec, rel.buf, rel.len);
        ckpt_buf_put(&rec, hook.buf, hook.len);
        index[i] = (ckpt_index){.gid = lp_gid(lp), .offset = o.size + o.buf.len, .length = rec.len};
        out_put(&o, rec.buf, rec.len);
    }
    out_put(&o, index, w->nlocal * sizeof *index);
    /* The header's index offset goes last: the file's end says where. */
    uint64_t index_off = o.size + o.buf.len - w->nlocal * sizeof *index;
    out_put(&o, &index_off, sizeof index_off);
    out_close(&o);
    *size = o.size;
    *sum = o.sum;
    alloc_index_free(&ix);
    free(bs.key);
    free(bs.val);
    free(bs.list);
    free(rec.buf);
    free(rel.buf);
    free(hook.buf);
    free(index);
    free(by_lp);
    free(first);
}

/* Removes a checkpoint directory this engine wrote (its meta and rank
 * files), or with check_only only looks; stops when it holds anything else. */
static void remove_dir(const char *dir, bool check_only)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *de;
    char path[CKPT_PATH_CAP];
    while ((de = readdir(d))) {
        if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
            continue;
        if (strcmp(de->d_name, CKPT_META_FILE) && strncmp(de->d_name, "rank-", 5))
            warp_fatal(WARP_EXIT_USAGE, "--checkpoint: %s holds %s, which is no checkpoint file: move it "
                                        "or choose another DIR", dir, de->d_name);
        ckpt_path("--checkpoint", path, sizeof path, "%s/%s", dir, de->d_name);
        if (!check_only)
            unlink(path);
    }
    closedir(d);
    if (!check_only && rmdir(dir) != 0)
        warp_fatal(WARP_EXIT_USAGE, "--checkpoint: cannot remove the old %s (%s)", dir, strerror(errno));
}

static void write_meta(warp_ctx *w, const char *dir, double cut, uint64_t committed, const uint64_t *files)
{
    ckpt_out o;
    out_open(&o, dir, CKPT_META_FILE);
    ckpt_meta m = {.version = CKPT_VERSION, .kind = CKPT_KIND_META, .nfiles = (uint32_t)w->nranks,
                   .build = ckpt_build_id(), .config = w->ck.hash, .total_lps = w->total_lps,
                   .msg_size = w->msg_size, .cut = cut, .committed = committed};
    memcpy(m.magic, CKPT_MAGIC, sizeof m.magic);
    warp_ckpt b = {0};
    ckpt_buf_put(&b, &m, sizeof m);
    ckpt_buf_put(&b, files, 2 * (size_t)w->nranks * sizeof *files);
    uint64_t s = ckpt_sum(0, b.buf, b.len);
    ckpt_buf_put(&b, &s, sizeof s);
    out_put(&o, b.buf, b.len);
    out_close(&o);
    free(b.buf);
}

static void sync_dir(const char *path)
{
    int fd = open(path, O_RDONLY);
    if (fd >= 0) {
        fsync(fd);
        close(fd);
    }
}

void ckpt_take(warp_ctx *w, double cut)
{
    double t0 = warp_wtime();
    if (cut < w->sched.safe_ts) /* see cut_at; --checkpoint-at keeps the bound at T (gvt.c) */
        cut = w->sched.safe_ts;
    cut_at(w, cut);
    double lm = local_min_ts(w), at;
    coll_allreduce(w, &lm, &at, 1, COLL_DOUBLE, COLL_MIN);
    if (at > cut)
        at = cut; /* nothing below the cut is pending: it stands where asked */
    uint64_t committed = w->cnt.committed;
    warp_reduce_to_root(w, &committed, 1, WARP_TYPE_U64, WARP_OP_SUM);
    committed += w->ck.restored_committed;

    const char *dir = w->opt.ckpt_dir;
    char tmp[CKPT_PATH_CAP], old[CKPT_PATH_CAP];
    ckpt_path("--checkpoint", tmp, sizeof tmp, "%s.tmp", dir);
    ckpt_path("--checkpoint", old, sizeof old, "%s.old", dir);
    if (w->rank == 0) {
        remove_dir(tmp, false);
        if (mkdir(tmp, 0777) != 0)
            warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s: cannot create %s (%s)", dir, tmp, strerror(errno));
    }
    coll_barrier(w);
    uint64_t mine2[2], *files = w->rank == 0 ? warp_xcalloc(2 * (size_t)w->nranks, sizeof *files) : NULL;
    write_rank(w, tmp, &mine2[0], &mine2[1]);
    coll_gather(w, mine2, sizeof mine2, files);
    uint64_t bytes = 0;
    if (w->rank == 0) {
        write_meta(w, tmp, at, committed, files);
        for (int r = 0; r < w->nranks; r++)
            bytes += files[2 * r];
        sync_dir(tmp);
        /* The previous checkpoint stays whole until the new one is. */
        struct stat st;
        bool had = stat(dir, &st) == 0;
        if (had) {
            remove_dir(old, false);
            if (rename(dir, old) != 0)
                warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s: cannot move the previous checkpoint aside (%s)",
                           dir, strerror(errno));
        }
        if (rename(tmp, dir) != 0)
            warp_fatal(WARP_EXIT_USAGE, "--checkpoint=%s: cannot rename %s to it (%s)", dir, tmp,
                       strerror(errno));
        if (had)
            remove_dir(old, false);
        free(files);
    }
    coll_barrier(w);
    w->ck.count++;
    w->ck.last = warp_wtime();
    w->ck.cost_s = w->ck.last - t0;
    w->ck.last_cut = cut;
    if (w->rank == 0 && !w->opt.quiet) {
        const char *prog = warp_program_name();
        fprintf(stderr, "%s%scheckpoint %llu written to %s at time %.9g: %.1f MB in %.3f s\n",
                prog ? prog : "", prog ? ": " : "", (unsigned long long)w->ck.count, dir, at,
                (double)bytes / 1e6, w->ck.last - t0);
    }
    if (w->opt.ckpt_exit)
        w->ck.stop = true;
}

void ckpt_on_stop(warp_ctx *w, double cut)
{
    if (w->opt.ckpt_dir && !w->ck.stop)
        ckpt_take(w, cut);
    /* The network is drained: an orderly end on every rank. */
    if (w->nranks > 1)
        transport_destroy(w); /* no receive left posted for MPI_Finalize */
    gvt_destroy(w); /* its key type and operation, before MPI_Finalize */
    warp_stop_all(w, WARP_EXIT_CHECKPOINTED, "stopped after the checkpoint in %s (exit code %d): resume with --restart=%s",
                  w->opt.ckpt_dir, WARP_EXIT_CHECKPOINTED, w->opt.ckpt_dir);
}
