/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * ucx_frame_path.c: data messages as frames on the side channel's TCP socket (the TCP data path), the
 * path a connection moves to with connStreamStart.
 */
#ifndef NETTY_UCX_FRAME_PATH_H
#define NETTY_UCX_FRAME_PATH_H

#include "ucx_native.h"

NUCX_HIDDEN int nucx_frame_path_service(nucx_worker *w);
NUCX_HIDDEN int nucx_register_frame_path(JNIEnv *env, jclass cls);

#endif
