/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_context.c: the process's one UCP context. */
#ifndef NETTY_UCX_CONTEXT_H
#define NETTY_UCX_CONTEXT_H

#include "ucx_native.h"

NUCX_HIDDEN ucp_context_h nucx_context(void);
NUCX_HIDDEN ucs_status_t nucx_context_init(void);
NUCX_HIDDEN int nucx_register_context(JNIEnv *env, jclass cls);

#endif
