/* engine/checkpoint_read.c — --restart=DIR: checks the checkpoint (magic,
 * version, build, configuration, sizes, checksums) and restores the LPs this
 * rank owns under the current placement: state, out block, RNG counter, send
 * sequence, digest, warp_alloc blocks (pointers relocated), the type's hook
 * bytes and the pending events. Any rank count reads any checkpoint. Every
 * problem stops with exit code 2 and one line. Called by warp_run in place of
 * the init handlers. */
#include "internal.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>

#include "checkpoint_format.h"


/* memcpy for parts that may be empty, where either side may then be NULL. */
static void copy(void *dst, const void *src, size_t n)
{
    if (n)
        memcpy(dst, src, n);
}

static const char *restart_dir;

static void bad(const char *file, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void bad(const char *file, const char *fmt, ...)
{
    char why[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, sizeof why, fmt, ap);
    va_end(ap);
    warp_fatal(WARP_EXIT_USAGE, "--restart=%s: %s%s%s", restart_dir, file ? file : "", file ? ": " : "", why);
}

static const char *fix_same = "restart with the same program build, run file, --end and --seed";

static void check_ident(const char *file, const char *magic, uint32_t version, uint32_t kind, uint32_t want_kind,
                        uint64_t build, uint64_t config, const warp_ctx *w)
{
    if (memcmp(magic, CKPT_MAGIC, 8))
        bad(file, "not a Warpnet checkpoint file (bad magic)");
    if (version != CKPT_VERSION)
        bad(file, "checkpoint format version %u; this build reads version %u", version, CKPT_VERSION);
    if (kind != want_kind)
        bad(file, "a %s file where a %s file belongs", kind == CKPT_KIND_META ? "meta" : "rank",
            want_kind == CKPT_KIND_META ? "meta" : "rank");
    if (build != ckpt_build_id())
        bad(file, "written by another build of the program (build id %016llx, this one %016llx); %s",
            (unsigned long long)build, (unsigned long long)ckpt_build_id(), fix_same);
    if (config != w->ck.hash)
        bad(file, "written for another configuration (hash %016llx, this run %016llx); %s",
            (unsigned long long)config, (unsigned long long)w->ck.hash, fix_same);
}

/* Reads n bytes at off of f, or stops naming the file as truncated. */
static void read_at(FILE *f, const char *file, uint64_t off, void *p, size_t n)
{
    if (fseeko(f, (off_t)off, SEEK_SET) != 0 || fread(p, 1, n, f) != n)
        bad(file, "truncated: cannot read %zu bytes at offset %llu", n, (unsigned long long)off);
}

static FILE *open_sized(const char *dir, const char *name, char *path, size_t cap, uint64_t *size)
{
    ckpt_path("--restart", path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "rb");
    if (!f)
        bad(NULL, "cannot open %s (%s): give a directory written by --checkpoint", path, strerror(errno));
    struct stat st;
    if (fstat(fileno(f), &st) != 0)
        bad(path, "cannot stat (%s)", strerror(errno));
    *size = (uint64_t)st.st_size;
    return f;
}

/* A cursor over one record, bounded by its length. */
static const void *take(warp_ckpt *c, size_t n)
{
    if (n > c->len - c->pos)
        bad(c->file, "LP %llu: its record ends early (corrupt checkpoint)", (unsigned long long)c->gid);
    const void *p = c->buf + c->pos;
    c->pos += n;
    return p;
}

void warp_ckpt_read(warp_ckpt *c, void *p, size_t n)
{
    uint64_t len;
    memcpy(&len, take(c, sizeof len), sizeof len);
    if (len != n)
        bad(c->file, "LP %llu: the model's checkpoint hook reads %zu bytes where %llu were written",
            (unsigned long long)c->gid, n, (unsigned long long)len);
    copy(p, take(c, n), n);
}

static void restore_lp(warp_ctx *w, warp_ckpt *c, uint8_t *seen)
{
    ckpt_lp_hdr h;
    memcpy(&h, take(c, sizeof h), sizeof h);
    if (h.gid != c->gid)
        bad(c->file, "the record of LP %llu names LP %llu (corrupt checkpoint)", (unsigned long long)c->gid,
            (unsigned long long)h.gid);
    warp_lp *lp = map_local_lp(w, h.gid);
    uint64_t li = (uint64_t)(lp - w->lps);
    if (seen[li])
        bad(c->file, "LP %llu appears twice (corrupt checkpoint)", (unsigned long long)h.gid);
    seen[li] = 1;
    const warp_lp_type *t = lp->type;
    if (h.state_size != t->state_size || h.out_size != t->out_size)
        bad(c->file, "LP %llu (%s): state/out sizes %llu/%llu, this run's %zu/%zu; %s",
            (unsigned long long)h.gid, t->name ? t->name : "?", (unsigned long long)h.state_size,
            (unsigned long long)h.out_size, t->state_size, t->out_size, fix_same);
    copy(lp->state, take(c, t->state_size), t->state_size);
    copy(lp->out, take(c, t->out_size), t->out_size);
    lp->rng.counter = h.rng;
    lp->seq = h.seq;
    lp->digest = h.digest;

    if (h.nevents > (c->len - c->pos) / (sizeof(ckpt_ev_hdr) + w->msg_size) ||
        h.nblocks > c->len - c->pos || h.nrelocs > (c->len - c->pos) / sizeof(ckpt_reloc))
        bad(c->file, "LP %llu: counts beyond its record (corrupt checkpoint)", (unsigned long long)h.gid);
    warp_event **evs = warp_xcalloc(h.nevents ? h.nevents : 1, sizeof *evs);
    for (uint64_t k = 0; k < h.nevents; k++) {
        ckpt_ev_hdr eh;
        memcpy(&eh, take(c, sizeof eh), sizeof eh);
        warp_event *e = pool_get(w);
        memset(EV_COLD(e), 0, sizeof(ev_cold) + sizeof *e);
        e->ts = eh.ts;
        e->depth = eh.depth;
        e->src = eh.src;
        e->seq = eh.seq;
        e->dst = h.gid;
        e->lp = lp;
        copy(EV_PAYLOAD(e), take(c, w->msg_size), w->msg_size);
        evs[k] = e;
    }
    char **blocks = warp_xcalloc(h.nblocks ? h.nblocks : 1, sizeof *blocks);
    for (uint64_t b = 0; b < h.nblocks; b++) {
        uint64_t cls;
        memcpy(&cls, take(c, sizeof cls), sizeof cls);
        if (cls < 1 || cls > 11)
            bad(c->file, "LP %llu: a memory block of unknown class (corrupt checkpoint)", (unsigned long long)h.gid);
        blocks[b] = alloc_get_class(w, (uint32_t)cls);
        memcpy(blocks[b], take(c, alloc_usable((uint32_t)cls)), alloc_usable((uint32_t)cls));
    }
    for (uint64_t r = 0; r < h.nrelocs; r++) {
        ckpt_reloc x;
        memcpy(&x, take(c, sizeof x), sizeof x);
        char *base;
        size_t len;
        if (x.region == 0) {
            base = lp->state;
            len = t->state_size;
        } else if (x.region == 1) {
            base = lp->out;
            len = t->out_size;
        } else if (x.region - 2 < h.nevents) {
            base = EV_PAYLOAD(evs[x.region - 2]);
            len = w->msg_size;
        } else if (x.region - 2 - h.nevents < h.nblocks) {
            base = blocks[x.region - 2 - h.nevents];
            len = alloc_usable(alloc_class((alloc_hdr *)base - 1));
        } else {
            bad(c->file, "LP %llu: a pointer in an unknown region (corrupt checkpoint)", (unsigned long long)h.gid);
        }
        if (x.block >= h.nblocks || x.offset + sizeof(uintptr_t) > len)
            bad(c->file, "LP %llu: a pointer out of bounds (corrupt checkpoint)", (unsigned long long)h.gid);
        uintptr_t v = (uintptr_t)blocks[x.block] + (uintptr_t)x.target;
        memcpy(base + x.offset, &v, sizeof v);
    }
    if (h.hook_len != c->len - c->pos)
        bad(c->file, "LP %llu: its record has %llu bytes left for %llu hook bytes (corrupt checkpoint)",
            (unsigned long long)h.gid, (unsigned long long)(c->len - c->pos), (unsigned long long)h.hook_len);
    if (t->ckpt_load) {
        warp_ckpt hc = {.w = w, .buf = c->buf + c->pos, .len = h.hook_len, .file = c->file, .gid = h.gid};
        w->sched.cur_lp = lp;
        t->ckpt_load(lp, lp->state, lp->out, &hc);
        w->sched.cur_lp = NULL;
        if (hc.pos != hc.len)
            bad(c->file, "LP %llu: the model's checkpoint hook left %llu bytes unread",
                (unsigned long long)h.gid, (unsigned long long)(hc.len - hc.pos));
    } else if (h.hook_len) {
        bad(c->file, "LP %llu (%s) has hook bytes but this build's type has no ckpt_load; %s",
            (unsigned long long)h.gid, t->name ? t->name : "?", fix_same);
    }
    for (uint64_t k = 0; k < h.nevents; k++)
        queue_insert(w, evs[k]);
    free(evs);
    free(blocks);
}

/* One rank file: its header and index always; its whole body, checked
 * against the meta's checksum, when this rank owns any of its LPs. */
static uint64_t read_rank_file(warp_ctx *w, uint32_t r, uint64_t want_size, uint64_t want_sum, uint8_t *seen)
{
    char name[64], path[CKPT_PATH_CAP];
    snprintf(name, sizeof name, CKPT_RANK_FILE, (int)r);
    uint64_t size;
    FILE *f = open_sized(restart_dir, name, path, sizeof path, &size);
    if (size != want_size)
        bad(name, "truncated or replaced: %llu bytes, the checkpoint's meta says %llu",
            (unsigned long long)size, (unsigned long long)want_size);
    ckpt_file_hdr hdr;
    if (size < sizeof hdr + 8)
        bad(name, "truncated: %llu bytes", (unsigned long long)size);
    read_at(f, name, 0, &hdr, sizeof hdr);
    check_ident(name, hdr.magic, hdr.version, hdr.kind, CKPT_KIND_RANK, hdr.build, hdr.config, w);
    uint64_t index_off;
    read_at(f, name, size - 8, &index_off, sizeof index_off);
    if (hdr.nlps > size / sizeof(ckpt_index) || index_off + hdr.nlps * sizeof(ckpt_index) + 8 != size)
        bad(name, "its index does not fit the file (corrupt checkpoint)");
    ckpt_index *index = warp_xcalloc(hdr.nlps ? hdr.nlps : 1, sizeof *index);
    read_at(f, name, index_off, index, hdr.nlps * sizeof *index);
    uint64_t mine = 0;
    for (uint64_t i = 0; i < hdr.nlps; i++) {
        if (index[i].gid >= w->total_lps)
            bad(name, "names LP %llu of %llu (corrupt checkpoint)", (unsigned long long)index[i].gid,
                (unsigned long long)w->total_lps);
        mine += map_pe_of(w, index[i].gid) == w->rank;
    }
    if (mine) {
        char *body = malloc(size);
        if (!body)
            warp_fatal(WARP_EXIT_RESOURCE, "--restart: out of memory reading %s (%llu bytes)", path,
                       (unsigned long long)size);
        read_at(f, name, 0, body, size);
        uint64_t sum = 0;
        for (uint64_t off = 0; off < size; off += CKPT_CHUNK)
            sum = ckpt_sum(sum, body + off, size - off < CKPT_CHUNK ? size - off : CKPT_CHUNK);
        if (sum != want_sum)
            bad(name, "checksum mismatch: the file is corrupt; use an intact checkpoint");
        for (uint64_t i = 0; i < hdr.nlps; i++) {
            if (map_pe_of(w, index[i].gid) != w->rank)
                continue;
            if (index[i].offset < sizeof hdr || index[i].offset > index_off ||
                index[i].length > index_off - index[i].offset)
                bad(name, "LP %llu: its record lies outside the file (corrupt checkpoint)",
                    (unsigned long long)index[i].gid);
            warp_ckpt c = {.w = w, .buf = body + index[i].offset, .len = index[i].length, .file = name,
                           .gid = index[i].gid};
            restore_lp(w, &c, seen);
        }
        free(body);
    }
    free(index);
    fclose(f);
    return mine;
}

void ckpt_restore(warp_ctx *w)
{
    double t0 = warp_wtime();
    restart_dir = w->opt.restart_dir;
    char path[CKPT_PATH_CAP];
    uint64_t size;
    FILE *f = open_sized(restart_dir, CKPT_META_FILE, path, sizeof path, &size);
    ckpt_meta m;
    if (size < sizeof m + 8)
        bad(CKPT_META_FILE, "truncated: %llu bytes", (unsigned long long)size);
    read_at(f, CKPT_META_FILE, 0, &m, sizeof m);
    if (memcmp(m.magic, CKPT_MAGIC, 8))
        bad(CKPT_META_FILE, "not a Warpnet checkpoint file (bad magic)");
    if (m.nfiles == 0 || size != sizeof m + 16 * (uint64_t)m.nfiles + 8)
        bad(CKPT_META_FILE, "truncated or corrupt: %llu bytes for %u rank files", (unsigned long long)size,
            m.nfiles);
    char *all = warp_xcalloc(size, 1);
    read_at(f, CKPT_META_FILE, 0, all, size);
    fclose(f);
    uint64_t sum;
    memcpy(&sum, all + size - 8, 8);
    if (ckpt_sum(0, all, size - 8) != sum)
        bad(CKPT_META_FILE, "checksum mismatch: the file is corrupt; use an intact checkpoint");
    check_ident(CKPT_META_FILE, m.magic, m.version, m.kind, CKPT_KIND_META, m.build, m.config, w);
    if (m.total_lps != w->total_lps || m.msg_size != w->msg_size)
        bad(CKPT_META_FILE, "%llu LPs of %llu-byte messages, this run %llu of %zu; %s",
            (unsigned long long)m.total_lps, (unsigned long long)m.msg_size, (unsigned long long)w->total_lps,
            w->msg_size, fix_same);
    const uint64_t *files = (const uint64_t *)(all + sizeof m);
    uint8_t *seen = warp_xcalloc(w->nlocal ? w->nlocal : 1, 1);
    uint64_t got = 0;
    for (uint32_t r = 0; r < m.nfiles; r++)
        got += read_rank_file(w, r, files[2 * r], files[2 * r + 1], seen);
    for (uint64_t i = 0; i < w->nlocal; i++)
        if (!seen[i])
            bad(NULL, "LP %llu is in none of its rank files (incomplete checkpoint)",
                (unsigned long long)lp_gid(&w->lps[i]));
    WARP_ASSERT(got == w->nlocal, "a restart restores each local LP once");
    uint64_t bytes = size;
    for (uint32_t r = 0; r < m.nfiles; r++)
        bytes += files[2 * r];
    double slowest = warp_wtime() - t0;
    warp_reduce_to_root(w, &slowest, 1, WARP_TYPE_DOUBLE, WARP_OP_MAX);
    if (w->rank == 0 && !w->opt.quiet) {
        const char *prog = warp_program_name();
        fprintf(stderr, "%s%scheckpoint %s read: %.1f MB in %.3f s\n", prog ? prog : "", prog ? ": " : "",
                restart_dir, (double)bytes / 1e6, slowest);
    }
    free(seen);
    free(all);
    w->sched.gvt_value = m.cut;
    if (w->rank == 0)
        w->ck.restored_committed = m.committed;
    if (w->ck.next_at <= m.cut)
        w->ck.next_at = INFINITY; /* already behind us */
}
