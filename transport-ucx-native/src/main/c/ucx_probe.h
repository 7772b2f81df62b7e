/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_probe.c: the shared-memory probe of a worker whose same-host peer vanished. */
#ifndef NETTY_UCX_PROBE_H
#define NETTY_UCX_PROBE_H

#include "ucx_native.h"

typedef struct nucx_probe nucx_probe;

NUCX_HIDDEN void nucx_probe_free(nucx_worker *w);
NUCX_HIDDEN int nucx_register_probe(JNIEnv *env, jclass cls);

#endif
