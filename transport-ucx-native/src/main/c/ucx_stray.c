/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Stray messages: tagged messages that no posted receive wanted. Those for a parked connection
 * (ucx_park.c) are held for it; otherwise a peer that follows the protocol never sends one to a live
 * connection: every receive of the window is posted again before its credit goes back, so a data
 * message that waits in UCX's unexpected queue was sent without credit or repeats a sequence number. Messages still in flight when a connection
 * closed (its receives cancelled), or aimed at ids that do not exist, land there too. UCX would keep
 * all of them until the worker is destroyed, so the loop drains them after each productive progress
 * call. A stray is dropped and counted, never blamed on the connection its tag names: UCX 1.13's tag
 * receive does not tell which endpoint a message came from, so anyone who learned or guessed a
 * connection's tag could otherwise close that connection by sending it one message.
 */
#include "ucx_conn.h"
#include "ucx_park.h"
#include "ucx_stray.h"
#include "ucx_worker.h"

int nucx_sweep_strays(nucx_worker *w) {
    int swept = 0;
    while (swept < NUCX_STRAYS_PER_SWEEP) {
        ucp_tag_recv_info_t info;
        ucp_tag_message_h message = ucp_tag_probe_nb(w->worker, 0, 0, 1, &info);
        if (message == NULL) {
            break;
        }
        swept++;
        if (nucx_conn_take_unexpected(w, message, &info)) {
            continue;
        }
        nucx_discard_message(w, message);
        nucx_count_strays(1);
    }
    return swept;
}

/*
 * Drops every stray before the worker is destroyed: messages that arrived for connections closed
 * since the last productive progress call would otherwise each be reported by UCX as a warning of an
 * unexpected message nobody received.
 */
void nucx_drop_all_strays(nucx_worker *w) {
    while (nucx_sweep_strays(w) == NUCX_STRAYS_PER_SWEEP) {
        /* a full sweep: more may wait */
    }
}

static jlong java_strays_dropped(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return (jlong) nucx_strays_counted();
}

static const JNINativeMethod methods[] = {
    {"straysDropped", "()J", (void *) java_strays_dropped},
};

int nucx_register_stray(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
