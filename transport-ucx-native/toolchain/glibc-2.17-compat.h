/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 *
 * Force-included (-include) by the Makefile into every C file when zig builds the library against glibc 2.17
 * (TOOLCHAIN=zig): declares what the sources call that glibc added after 2.17, through the system call, so that
 * the library carries no symbol version above GLIBC_2.17. Kept out of src/main/c: the sources are written for a
 * current glibc, and the gcc build never sees this file.
 */
#ifndef NETTY_UCX_GLIBC_2_17_COMPAT_H
#define NETTY_UCX_GLIBC_2_17_COMPAT_H

#include <features.h>

#if defined(__GLIBC__) && (__GLIBC__ == 2 && __GLIBC_MINOR__ < 25)
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* getrandom(2) came to glibc in 2.25; the kernel has had the call since 3.17. */
static inline ssize_t getrandom(void *buf, size_t len, unsigned int flags)
{
    return (ssize_t) syscall(SYS_getrandom, buf, len, flags);
}
#endif

#endif
