/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_memory.c: memory mapped and registered with UCX. */
#ifndef NETTY_UCX_MEMORY_H
#define NETTY_UCX_MEMORY_H

#include "ucx_native.h"

NUCX_HIDDEN ucs_status_t nucx_mem_register(void *address, size_t length, ucp_mem_h *memh);
NUCX_HIDDEN int nucx_register_memory(JNIEnv *env, jclass cls);

#endif
