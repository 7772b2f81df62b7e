/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_tag_path.c: a connection's data messages as UCP tagged messages, for the connection core. */
#ifndef NETTY_UCX_TAG_PATH_H
#define NETTY_UCX_TAG_PATH_H

#include "ucx_conn.h"

/*
 * Sends a slot whose header already holds the credits: data and count are a contiguous buffer and its
 * length, or an I/O vector and its entry count when iov is set. Returns 0 when the send completed at
 * once, 1 while it is in flight, or a negative status.
 */
NUCX_HIDDEN jint nucx_tag_send(nucx_conn *conn, int slot, void *data, size_t count, int iov, uint32_t seq);
/* Posts the receive of sequence number seq into buffer (memh: its registration, or NULL). */
NUCX_HIDDEN void nucx_tag_post_recv(nucx_conn *conn, int slot, uint32_t seq, char *buffer, ucp_mem_h memh);
/* Java closed the connection: linger on the side channel (side_fd, now the connection's, or -1). */
NUCX_HIDDEN void nucx_tag_close(nucx_conn *conn, int side_fd, int force);

#endif
