/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * ucx_worker.c: one UCP worker per event loop, and the epoll set the loop sleeps in. The struct is here
 * because the files that keep the worker's lists (ucx_conn.c, ucx_linger.c, ucx_stray.c,
 * ucx_probe.c) read and change its fields; ucx_worker.c calls them, never the other way.
 */
#ifndef NETTY_UCX_WORKER_H
#define NETTY_UCX_WORKER_H

#include "ucx_native.h"

/*
 * epoll data of the worker's set: a Java-registered fd is stored as fd << 1; a closing
 * connection's side channel as the connection pointer with the low bit set.
 */
#define NUCX_EPOLL_CONN_BIT 1ull

struct nucx_worker {
    ucp_worker_h worker;
    int ucx_fd;
    int epoll_fd;
    int event_fd;
    int timer_fd;          /* times waits where epoll_pwait2 cannot (timed_wait_pwait2 0) */
    int timed_wait_pwait2;
    int32_t *ready;        /* shared with Java, see enum nucx_ready_word */
    int max_connections;   /* connection indices run from 0 to this, exclusive */
    nucx_conn *live;       /* connections Java has not closed yet */
    nucx_conn *closing;    /* connections waiting for their requests to finish before they are freed */
    uint32_t *freed_ids;   /* ids of freed connections that asked for report_free, until Java takes them */
    int freed_count;
    int freed_capacity;
    void *stray_buffer;    /* NUCX_STRAY_BUFFER_BYTES that stray messages are received into and dropped */
    int sweep_pending;     /* the last sweep of unexpected messages stopped at its limit (ucx_stray.c) */
    struct nucx_probe *probe; /* shared-memory probe (ucx_probe.c), once a same-host peer vanished */
    nucx_conn **conns_by_id;    /* open and closing connections by id (ucx_ids.c) */
    uint32_t ids_capacity;      /* a power of two, or 0 */
    uint32_t ids_count;
    struct nucx_endpoint **ep_table; /* endpoints to peer workers by address (ucx_endpoint.c) */
    uint32_t ep_buckets;        /* a power of two, or 0 */
    uint32_t ep_listed;
};

NUCX_HIDDEN int nucx_register_worker(JNIEnv *env, jclass cls);

#endif
