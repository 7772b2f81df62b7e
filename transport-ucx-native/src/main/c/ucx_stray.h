/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_stray.c: tagged messages no posted receive wanted, drained and dropped. */
#ifndef NETTY_UCX_STRAY_H
#define NETTY_UCX_STRAY_H

#include "ucx_native.h"

/* Bytes a stray message is received into before it is dropped; longer ones are truncated. */
#define NUCX_STRAY_BUFFER_BYTES (64 * 1024 + NUCX_HEADER_BYTES)

/* Unexpected messages one sweep takes at most, so that a flood cannot hold the loop for long. */
#define NUCX_STRAYS_PER_SWEEP 64

NUCX_HIDDEN int nucx_sweep_strays(nucx_worker *w);
NUCX_HIDDEN void nucx_drop_all_strays(nucx_worker *w);
NUCX_HIDDEN int nucx_register_stray(JNIEnv *env, jclass cls);

#endif
