/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_ids.c: a worker's connections by id. */
#ifndef NETTY_UCX_IDS_H
#define NETTY_UCX_IDS_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_ids_add(nucx_worker *w, nucx_conn *conn);
NUCX_HIDDEN void nucx_ids_remove(nucx_worker *w, nucx_conn *conn);
NUCX_HIDDEN nucx_conn *nucx_ids_find(const nucx_worker *w, uint32_t id);
NUCX_HIDDEN void nucx_ids_free(nucx_worker *w);

#endif
