/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The worker's closing list: connections Java closed linger there until nothing of UCX can call them
 * back any more, and are freed by the worker's progress. What a connection waits for, and its whole
 * lifetime, are told at the top of ucx_conn.c, which owns the connection; this file walks the list,
 * reads the side channels of lingering connections, and hands Java the ids of freed ones.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>
#include "ucx_conn.h"
#include "ucx_conn_events.h"
#include "ucx_ids.h"
#include "ucx_linger.h"
#include "ucx_worker.h"

/* A lingering connection's side channel is readable: the peer's bytes are dropped until its end. */
void nucx_linger_readable(nucx_conn *conn) {
    char discard[256];
    for (;;) {
        ssize_t n = read(conn->linger.side_fd, discard, sizeof(discard));
        if (n > 0 || (n < 0 && errno == EINTR)) {
            continue;
        }
        if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            return;
        }
        break;
    }
    nucx_conn_peer_ended(conn);
}

void nucx_reap_closed(nucx_worker *w) {
    uint64_t now = nucx_now_nanos();
    nucx_conn **link = &w->closing;
    while (*link != NULL) {
        nucx_conn *conn = *link;
        if (nucx_conn_reapable(conn, now)) {
            *link = conn->linger.next_closing;
            nucx_conn_free(conn);
        } else {
            link = &conn->linger.next_closing;
        }
    }
}

void nucx_abandon_closing(nucx_worker *w) {
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        nucx_conn_peer_done(conn);
    }
}

/* False when the closing connections wait for nothing but receives that will never complete. */
int nucx_closing_needs_progress(const nucx_worker *w) {
    for (const nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        if (!conn->linger.peer_done || !nucx_conn_waits_only_for_receives(conn)) {
            return 1;
        }
    }
    return 0;
}

/*
 * For a worker about to be destroyed: lets go of receives that can no longer complete, and frees
 * their connections.
 */
void nucx_let_go_of_stuck_receives(nucx_worker *w) {
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        nucx_conn_orphan_receives(conn);
    }
    nucx_reap_closed(w);
}

/*
 * Leaves the connections still closing allocated with their UCP worker, which nothing will
 * progress any more (their requests never call back): only their side channels are closed, so
 * that their peers see the end.
 */
void nucx_leave_closing(nucx_worker *w) {
    for (nucx_conn *conn = w->closing; conn != NULL; conn = conn->linger.next_closing) {
        if (conn->linger.side_fd >= 0) {
            close(conn->linger.side_fd);
            conn->linger.side_fd = -1;
        }
        nucx_ids_remove(w, conn);
    }
    w->closing = NULL;
}

/* Closes (without flushing) every connection Java left open; returns how many there were. */
int nucx_close_live(nucx_worker *w) {
    int count = 0;
    while (w->live != NULL) {
        nucx_conn_close(w->live, -1, 1, 0);
        count++;
    }
    return count;
}

/* Moves up to out.length ids of freed connections to out; returns how many. */
static jint java_worker_take_freed(JNIEnv *env, jclass cls, jlong worker_ptr, jintArray out) {
    (void) cls;
    nucx_worker *w = (nucx_worker *) (intptr_t) worker_ptr;
    jsize n = (*env)->GetArrayLength(env, out);
    if (n > w->freed_count) {
        n = w->freed_count;
    }
    if (n == 0) {
        return 0;
    }
    (*env)->SetIntArrayRegion(env, out, 0, n, (const jint *) w->freed_ids);
    w->freed_count -= n;
    memmove(w->freed_ids, w->freed_ids + n, (size_t) w->freed_count * sizeof(uint32_t));
    return n;
}

static const JNINativeMethod methods[] = {
    {"workerTakeFreed", "(J[I)I", (void *) java_worker_take_freed},
};

int nucx_register_linger(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
