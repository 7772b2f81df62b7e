/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/* ucx_tag_path.c: data messages as UCP tagged messages, the path every connection starts on. */
#ifndef NETTY_UCX_TAG_PATH_H
#define NETTY_UCX_TAG_PATH_H

#include "ucx_conn.h"

NUCX_HIDDEN extern const nucx_path_ops nucx_tag_path;

#endif
