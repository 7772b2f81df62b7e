/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * ucx_conn_events.c: what a connection's completions report to Java (its state block and its worker's
 * ready list), for the connection core (ucx_conn.c), the tag path (ucx_tag_path.c) and the closing list
 * (ucx_linger.c).
 */
#ifndef NETTY_UCX_CONN_EVENTS_H
#define NETTY_UCX_CONN_EVENTS_H

#include "ucx_conn.h"

/* Lists the connection on its worker's ready list, once until Java clears its NOTIFIED word. */
NUCX_HIDDEN void nucx_conn_notify(nucx_conn *conn);
/* Notes the first error (a ucs_status_t or a NUCX_ERR_* code) and tells Java. */
NUCX_HIDDEN void nucx_conn_fail(nucx_conn *conn, int32_t error);
/* A data message's receive ended: its length (or status) in the slot's state, its credits counted. */
NUCX_HIDDEN void nucx_conn_recv_done(nucx_conn *conn, int slot, ucs_status_t status, size_t length);
/* Counts the credits a message's header returns. */
NUCX_HIDDEN void nucx_conn_take_credits(nucx_conn *conn, const void *message);
/* Whether a message carries the connection's key (one that does not is a stray). */
NUCX_HIDDEN int nucx_conn_message_has_key(const nucx_conn *conn, const void *message, size_t length);
/* Cancels the data receives posted through UCX. */
NUCX_HIDDEN void nucx_conn_cancel_data_receives(nucx_conn *conn);
/* The peer will send nothing more: the receives go, and the side channel leaves the loop's set. */
NUCX_HIDDEN void nucx_conn_peer_done(nucx_conn *conn);

#endif
