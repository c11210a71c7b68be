/* otf2.c — reader of Score-P OTF2 traces through libotf2, FORMATS.md §3.
 * Invariant: a rank's graph is one chain in trace order (compute gaps, MPI
 * operations, collectives expanded into point-to-point rounds); only a
 * rendezvous Isend's data task hangs off the chain until its wait. Messages
 * carry tags that encode (communicator, tag, per-pair sequence), so matching
 * is exact and FIFO per (peer, tag, communicator). open() reads the global
 * definitions; load(r) reads only rank r's location. Called through
 * replay_source_open. */
#ifdef HAVE_CONFIG_H
#include "config.h"
#endif
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <otf2/otf2.h>

#include "replay/readers/otf2map.h"
#include "replay/readers/source.h"
#include "warp_error.h"
#include "warp_ini.h"

/* The reader's options (its key at the end). */
typedef struct otf2_opts {
    uint64_t eager_limit; /* messages above it use rendezvous (the receiver sends a control message) */
} otf2_opts;

typedef struct o2_group {
    uint32_t n;
    uint64_t *members;
    int type;
} o2_group;

typedef struct o2_defs {
    uint64_t timer_res;
    uint32_t nstrings, nregions, ngroups, ncomms;
    char **strings;
    uint32_t *region_name; /* string id per region */
    o2_group *groups;
    uint32_t *comm_group;  /* group id per comm */
    uint64_t *locations;   /* location id per rank */
    uint32_t nlocs;
    int32_t nranks;
    int comm_locations;    /* group id of COMM_LOCATIONS, -1 if none */
} o2_defs;

static OTF2_ErrorCode quiet(void *u, const char *file, uint64_t line, const char *fn, OTF2_ErrorCode code,
                            const char *fmt, va_list va)
{
    (void)u, (void)file, (void)line, (void)fn, (void)fmt, (void)va;
    return code;
}

/* Grows an array indexed by a definition id. */
static void *grow(void *p, uint32_t *n, uint32_t need, size_t elem)
{
    if (need < *n)
        return p;
    uint32_t m = need + 1 > 2 * *n ? need + 1 : 2 * *n;
    p = warp_xrealloc(p, (size_t)m * elem);
    memset((char *)p + (size_t)*n * elem, 0, (size_t)(m - *n) * elem);
    *n = m;
    return p;
}

static OTF2_CallbackCode def_clock(void *u, uint64_t res, uint64_t off, uint64_t len, uint64_t rt)
{
    (void)off, (void)len, (void)rt;
    ((o2_defs *)u)->timer_res = res;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_string(void *u, OTF2_StringRef self, const char *s)
{
    o2_defs *d = u;
    d->strings = grow(d->strings, &d->nstrings, self, sizeof *d->strings);
    free(d->strings[self]);
    d->strings[self] = warp_xstrdup(s);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_region(void *u, OTF2_RegionRef self, OTF2_StringRef name, OTF2_StringRef cn,
                                    OTF2_StringRef desc, OTF2_RegionRole role, OTF2_Paradigm par,
                                    OTF2_RegionFlag fl, OTF2_StringRef file, uint32_t b, uint32_t e)
{
    (void)cn, (void)desc, (void)role, (void)par, (void)fl, (void)file, (void)b, (void)e;
    o2_defs *d = u;
    uint32_t old = d->nregions;
    d->region_name = grow(d->region_name, &d->nregions, self, sizeof *d->region_name);
    for (uint32_t i = old; i < d->nregions; i++)
        d->region_name[i] = UINT32_MAX;
    d->region_name[self] = name;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_location(void *u, OTF2_LocationRef self, OTF2_StringRef name,
                                      OTF2_LocationType type, uint64_t nev, OTF2_LocationGroupRef g)
{
    (void)name, (void)nev, (void)g;
    o2_defs *d = u;
    if (type != OTF2_LOCATION_TYPE_CPU_THREAD)
        return OTF2_CALLBACK_SUCCESS;
    uint32_t n = d->nlocs;
    d->locations = grow(d->locations, &n, d->nlocs, sizeof *d->locations);
    d->locations[d->nlocs++] = self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_group(void *u, OTF2_GroupRef self, OTF2_StringRef name, OTF2_GroupType type,
                                   OTF2_Paradigm par, OTF2_GroupFlag fl, uint32_t n, const uint64_t *m)
{
    (void)name, (void)par, (void)fl;
    o2_defs *d = u;
    d->groups = grow(d->groups, &d->ngroups, self, sizeof *d->groups);
    o2_group *g = &d->groups[self];
    free(g->members);
    g->n = n;
    g->type = type;
    g->members = warp_xcalloc(n, sizeof *g->members);
    memcpy(g->members, m, (size_t)n * sizeof *m);
    if (type == OTF2_GROUP_TYPE_COMM_LOCATIONS)
        d->comm_locations = (int)self;
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode def_comm(void *u, OTF2_CommRef self, OTF2_StringRef name, OTF2_GroupRef group,
                                  OTF2_CommRef parent, OTF2_CommFlag fl)
{
    (void)name, (void)parent, (void)fl;
    o2_defs *d = u;
    uint32_t old = d->ncomms;
    d->comm_group = grow(d->comm_group, &d->ncomms, self, sizeof *d->comm_group);
    for (uint32_t i = old; i < d->ncomms; i++)
        d->comm_group[i] = UINT32_MAX;
    d->comm_group[self] = group;
    return OTF2_CALLBACK_SUCCESS;
}

static void free_defs(o2_defs *d)
{
    for (uint32_t i = 0; i < d->nstrings; i++)
        free(d->strings[i]);
    for (uint32_t i = 0; i < d->ngroups; i++)
        free(d->groups[i].members);
    free(d->strings);
    free(d->region_name);
    free(d->groups);
    free(d->comm_group);
    free(d->locations);
    free(d);
}

/* ---- events of one location ------------------------------------------------- */

typedef struct o2_load {
    o2_evbuf buf;
    const o2_defs *defs;
} o2_load;

#define O2_PUSH(u, t, ...)                                                           \
    do {                                                                             \
        o2_event e_ = {.time = (t), __VA_ARGS__};                                    \
        o2_evbuf_push(&((o2_load *)(u))->buf, &e_);                                  \
    } while (0)

static int is_mpi_region(const o2_defs *d, OTF2_RegionRef r)
{
    if (r >= d->nregions || d->region_name[r] >= d->nstrings || !d->strings[d->region_name[r]])
        return 0;
    return strncmp(d->strings[d->region_name[r]], "MPI_", 4) == 0;
}

static OTF2_CallbackCode ev_enter(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef r)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = is_mpi_region(((o2_load *)u)->defs, r) ? O2_ENTER_MPI : O2_OTHER);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_leave(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                  OTF2_AttributeList *a, OTF2_RegionRef r)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = is_mpi_region(((o2_load *)u)->defs, r) ? O2_LEAVE_MPI : O2_OTHER);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_send(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_SEND, .peer = peer, .comm = c, .tag = tag, .len = len);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_ISEND, .peer = peer, .comm = c, .tag = tag, .len = len, .req = req);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_isend_done(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                       OTF2_AttributeList *a, uint64_t req)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_ISEND_DONE, .req = req);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv_req(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                      OTF2_AttributeList *a, uint64_t req)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_IRECV_POST, .req = req);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_recv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                 OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag, uint64_t len)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_RECV, .peer = peer, .comm = c, .tag = tag, .len = len);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_irecv(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                  OTF2_AttributeList *a, uint32_t peer, OTF2_CommRef c, uint32_t tag,
                                  uint64_t len, uint64_t req)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_IRECV_DONE, .peer = peer, .comm = c, .tag = tag, .len = len, .req = req);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_coll_end(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                     OTF2_AttributeList *a, OTF2_CollectiveOp op, OTF2_CommRef c,
                                     uint32_t root, uint64_t sent, uint64_t recvd)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_COLL, .op = op, .comm = c, .peer = root, .len = sent, .len2 = recvd);
    return OTF2_CALLBACK_SUCCESS;
}

static OTF2_CallbackCode ev_cancelled(OTF2_LocationRef l, OTF2_TimeStamp t, uint64_t p, void *u,
                                      OTF2_AttributeList *a, uint64_t req)
{
    (void)l, (void)p, (void)a;
    O2_PUSH(u, t, .kind = O2_CANCELLED, .req = req);
    return OTF2_CALLBACK_SUCCESS;
}

static const o2_group *comm_group_of(const o2_defs *d, uint32_t comm)
{
    if (comm >= d->ncomms || d->comm_group[comm] >= d->ngroups)
        return NULL;
    return &d->groups[d->comm_group[comm]];
}

/* Callback of the mapper: members of a communicator as world ranks. */
static int comm_members(const void *arg, uint32_t comm, const uint64_t **members, uint32_t *n, int *self)
{
    const o2_group *g = comm_group_of(arg, comm);
    if (!g)
        return -1;
    *self = g->type == OTF2_GROUP_TYPE_COMM_SELF;
    *members = g->members;
    *n = g->n;
    return 0;
}

static int o2_load_rank(replay_source *s, int32_t rank, replay_rank *out, replay_err *err)
{
    const o2_defs *d = s->impl;
    OTF2_Reader *rd = OTF2_Reader_Open(s->path);
    if (!rd)
        return replay_errf(err, "%s: libotf2 cannot reopen the archive", s->path);
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    uint64_t loc = d->locations[rank], nread = 0;
    o2_load L = {.defs = d};
    int rc = -1;
    OTF2_EvtReaderCallbacks *cb = OTF2_EvtReaderCallbacks_New();
    OTF2_EvtReaderCallbacks_SetEnterCallback(cb, ev_enter);
    OTF2_EvtReaderCallbacks_SetLeaveCallback(cb, ev_leave);
    OTF2_EvtReaderCallbacks_SetMpiSendCallback(cb, ev_send);
    OTF2_EvtReaderCallbacks_SetMpiIsendCallback(cb, ev_isend);
    OTF2_EvtReaderCallbacks_SetMpiIsendCompleteCallback(cb, ev_isend_done);
    OTF2_EvtReaderCallbacks_SetMpiIrecvRequestCallback(cb, ev_irecv_req);
    OTF2_EvtReaderCallbacks_SetMpiRecvCallback(cb, ev_recv);
    OTF2_EvtReaderCallbacks_SetMpiIrecvCallback(cb, ev_irecv);
    OTF2_EvtReaderCallbacks_SetMpiCollectiveEndCallback(cb, ev_coll_end);
    OTF2_EvtReaderCallbacks_SetMpiRequestCancelledCallback(cb, ev_cancelled);
    OTF2_EvtReader *er = NULL;
    if (OTF2_Reader_SelectLocation(rd, loc) != OTF2_SUCCESS || OTF2_Reader_OpenDefFiles(rd) != OTF2_SUCCESS ||
        OTF2_Reader_OpenEvtFiles(rd) != OTF2_SUCCESS) {
        replay_errf(err, "%s: cannot open the files of location %" PRIu64 " (rank %d)", s->path, loc, rank);
        goto out;
    }
    /* Local definitions carry the id mappings of this location, if any. */
    OTF2_DefReader *dr = OTF2_Reader_GetDefReader(rd, loc);
    if (dr) {
        OTF2_ErrorCode dc = OTF2_Reader_ReadAllLocalDefinitions(rd, dr, &nread);
        OTF2_Reader_CloseDefReader(rd, dr);
        if (dc != OTF2_SUCCESS) { /* a cut file once passed: its mappings were silently lost */
            OTF2_Reader_CloseDefFiles(rd);
            replay_errf(err, "%s: reading the local definitions of location %" PRIu64 " (rank %d) failed "
                        "after %" PRIu64 " records: %s; the trace is truncated or corrupt", s->path, loc,
                        rank, nread, OTF2_Error_GetDescription(dc));
            goto out;
        }
    }
    OTF2_Reader_CloseDefFiles(rd);
    er = OTF2_Reader_GetEvtReader(rd, loc);
    if (!er) {
        replay_errf(err, "%s: no event reader for location %" PRIu64 " (rank %d)", s->path, loc, rank);
        goto out;
    }
    OTF2_Reader_RegisterEvtCallbacks(rd, er, cb, &L);
    OTF2_ErrorCode ec = OTF2_Reader_ReadAllLocalEvents(rd, er, &nread);
    if (ec != OTF2_SUCCESS) {
        replay_errf(err, "%s: reading the events of location %" PRIu64 " (rank %d) failed after %" PRIu64
                    " events: %s; the trace is truncated or corrupt", s->path, loc, rank, nread,
                    OTF2_Error_GetDescription(ec));
        goto out;
    }
    o2_map_ctx mc = {.rank = rank, .nranks = s->nranks, .timer_res = d->timer_res,
                     .eager_limit = ((const otf2_opts *)s->opts)->eager_limit, .members = comm_members, .arg = d,
                     .path = s->path, .coll = &s->coll};
    rc = o2_map_events(&mc, &L.buf, out, err);
out:
    if (er)
        OTF2_Reader_CloseEvtReader(rd, er);
    OTF2_Reader_CloseEvtFiles(rd);
    OTF2_EvtReaderCallbacks_Delete(cb);
    OTF2_Reader_Close(rd);
    free(L.buf.ev);
    return rc;
}

static void o2_close(replay_source *s)
{
    free_defs(s->impl);
}

static const replay_source_ops o2_ops = {"otf2", o2_load_rank, o2_close, NULL, NULL, NULL, NULL};

static int otf2_open(const char *path, const void *opts, replay_source **out, replay_err *err)
{
    OTF2_Error_RegisterCallback(quiet, NULL);
    /* Accept the anchor file or the directory holding traces.otf2. */
    size_t n = strlen(path);
    char *anchor = warp_xcalloc(n + 16, 1);
    if (n >= 5 && !strcmp(path + n - 5, ".otf2"))
        strcpy(anchor, path);
    else
        snprintf(anchor, n + 16, "%s/traces.otf2", path);
    FILE *probe = fopen(anchor, "rb");
    if (!probe) {
        replay_errf(err, "%s: cannot open the OTF2 anchor file: %s", anchor, strerror(errno));
        free(anchor);
        return -1;
    }
    fclose(probe);
    OTF2_Reader *rd = OTF2_Reader_Open(anchor);
    if (!rd) {
        replay_errf(err, "%s: libotf2 cannot open this anchor file; is it an OTF2 trace?", anchor);
        free(anchor);
        return -1;
    }
    OTF2_Reader_SetSerialCollectiveCallbacks(rd);
    o2_defs *d = warp_xcalloc(1, sizeof *d);
    d->comm_locations = -1;
    OTF2_GlobalDefReader *gr = OTF2_Reader_GetGlobalDefReader(rd);
    OTF2_GlobalDefReaderCallbacks *gc = OTF2_GlobalDefReaderCallbacks_New();
    OTF2_GlobalDefReaderCallbacks_SetClockPropertiesCallback(gc, def_clock);
    OTF2_GlobalDefReaderCallbacks_SetStringCallback(gc, def_string);
    OTF2_GlobalDefReaderCallbacks_SetRegionCallback(gc, def_region);
    OTF2_GlobalDefReaderCallbacks_SetLocationCallback(gc, def_location);
    OTF2_GlobalDefReaderCallbacks_SetGroupCallback(gc, def_group);
    OTF2_GlobalDefReaderCallbacks_SetCommCallback(gc, def_comm);
    int rc = -1;
    uint64_t nread = 0;
    if (!gr) {
        replay_errf(err, "%s: the archive has no global definitions (traces.def)", anchor);
        goto out;
    }
    OTF2_Reader_RegisterGlobalDefCallbacks(rd, gr, gc, d);
    OTF2_ErrorCode ec = OTF2_Reader_ReadAllGlobalDefinitions(rd, gr, &nread);
    OTF2_Reader_CloseGlobalDefReader(rd, gr);
    if (ec != OTF2_SUCCESS) {
        replay_errf(err, "%s: reading the global definitions failed after %" PRIu64 " records: %s",
                    anchor, nread, OTF2_Error_GetDescription(ec));
        goto out;
    }
    if (!d->timer_res) {
        replay_errf(err, "%s: no clock properties (timer resolution) in the definitions", anchor);
        goto out;
    }
    if (d->comm_locations >= 0) {
        /* World rank r runs on location members[r]. */
        const o2_group *g = &d->groups[d->comm_locations];
        free(d->locations);
        d->locations = warp_xcalloc(g->n, sizeof *d->locations);
        memcpy(d->locations, g->members, (size_t)g->n * sizeof *g->members);
        d->nlocs = g->n;
    }
    if (!d->nlocs) {
        replay_errf(err, "%s: the trace defines no MPI locations", anchor);
        goto out;
    }
    d->nranks = (int32_t)d->nlocs;
    rc = 0;
out:
    OTF2_GlobalDefReaderCallbacks_Delete(gc);
    OTF2_Reader_Close(rd);
    if (rc) {
        free_defs(d);
        free(anchor);
        return -1;
    }
    *out = replay_source_new(&o2_ops, anchor, opts, sizeof(otf2_opts), d->nranks, d);
    free(anchor);
    return 0;
}

static const char *set_eager_limit(void *target, const char *v)
{
    const char *why;
    return warp_parse_bytes(v ? v : "", &((otf2_opts *)target)->eager_limit, &why) ? why : NULL;
}

static const warp_cfg_opt otf2_keys[] = {
    {"eager_limit", "BYTES", "64KiB", "OTF2, Dimemas: messages above it use rendezvous", set_eager_limit},
    {0},
};

static const otf2_opts otf2_dflt = {.eager_limit = 65536};

/* The anchor file *.otf2, or a directory holding traces.otf2. */
static int otf2_sniff(const char *path)
{
    if (replay_path_ends_with(path, ".otf2"))
        return 3;
    return replay_dir_holds(path, "traces.otf2") ? 2 : 0;
}

const replay_reader replay_reader_otf2 = {
    .name = "otf2",
    .sniff = otf2_sniff,
    .open = otf2_open,
    .keys = otf2_keys,
    .opts_size = sizeof(otf2_opts),
    .dflt = &otf2_dflt,
};
