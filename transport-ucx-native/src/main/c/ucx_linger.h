/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_linger.c: the worker's list of closed connections that still linger, and their reaping. */
#ifndef NETTY_UCX_LINGER_H
#define NETTY_UCX_LINGER_H

#include "ucx_native.h"

NUCX_HIDDEN void nucx_reap_closed(nucx_worker *w);
NUCX_HIDDEN void nucx_linger_readable(nucx_conn *conn);
NUCX_HIDDEN void nucx_abandon_closing(nucx_worker *w);
NUCX_HIDDEN void nucx_leave_closing(nucx_worker *w);
NUCX_HIDDEN int nucx_closing_needs_progress(const nucx_worker *w);
NUCX_HIDDEN void nucx_let_go_of_stuck_receives(nucx_worker *w);
NUCX_HIDDEN int nucx_close_live(nucx_worker *w);
NUCX_HIDDEN int nucx_register_linger(JNIEnv *env, jclass cls);

#endif
