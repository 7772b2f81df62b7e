/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * ucx_park.c: the messages each parked connection holds.
 * The connection core (ucx_conn.c) parks and unparks connections and decides which message a
 * parked one takes; the sweep (ucx_stray.c) discards what nobody takes.
 */
#ifndef NETTY_UCX_PARK_H
#define NETTY_UCX_PARK_H

#include "ucx_native.h"

/*
 * Messages a parked connection may hold per receive slot: a sequence number may come twice (a copy
 * from someone who knows the tag but not the message key, ucx_tag_path.c), and the copy that
 * arrived first must not push out the peer's.
 */
#define NUCX_HELD_PER_SLOT 2

/* A message UCX keeps as unexpected, held for a parked connection until its receive is posted. */
typedef struct nucx_held_message {
    ucp_tag_message_h message;
    uint32_t seq;    /* the sequence field of its tag */
    uint32_t length; /* its length, header included */
} nucx_held;


NUCX_HIDDEN int nucx_held_put(nucx_conn *conn, ucp_tag_message_h message, uint32_t seq, size_t length);
NUCX_HIDDEN ucp_tag_message_h nucx_held_take(nucx_conn *conn, uint32_t seq, size_t *length);
NUCX_HIDDEN void nucx_held_discard(nucx_conn *conn);

NUCX_HIDDEN void nucx_discard_message(nucx_worker *w, ucp_tag_message_h message);
NUCX_HIDDEN void nucx_count_strays(uint64_t count);
NUCX_HIDDEN uint64_t nucx_strays_counted(void);

#endif
