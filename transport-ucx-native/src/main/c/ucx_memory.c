/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * Memory regions of UcxByteBufAllocator: anonymous mappings registered once with ucp_mem_map on the
 * process-wide context, so that sends and receives from them can pass the region's memory handle
 * (UCP_OP_ATTR_FIELD_MEMH) instead of UCX looking the buffer up in its registration cache.
 *
 * The mapping is ours (mmap), not UCP_MEM_MAP_ALLOCATE: a region whose registration fails stays
 * usable as plain memory (memh 0) and is unmapped the same way, so Java has one code path that
 * frees every region. Java (UcxMemoryRegion) owns each region and calls memoryUnmap exactly once.
 */
#include <errno.h>
#include <sys/mman.h>
#include "ucx_memory.h"
#include "ucx_context.h"
#include "ucx_errors.h"

/* Registers memory we mapped ourselves with the process-wide context (regions, send slots). */
ucs_status_t nucx_mem_register(void *address, size_t length, ucp_mem_h *memh) {
    ucs_status_t status = nucx_context_init();
    if (status != UCS_OK) {
        return status;
    }
    ucp_mem_map_params_t params = {
        .field_mask = UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH,
        .address = address,
        .length = length,
    };
    return ucp_mem_map(nucx_context(), &params, memh);
}

/*
 * Maps length bytes (a multiple of the page size) and registers them. A failed registration is
 * reported in out[STATUS] with memh 0 rather than thrown: the memory still works, only without
 * the zero-copy shortcut, and Java decides how loudly to say so.
 */
static void java_memory_map(JNIEnv *env, jclass cls, jlong length, jlongArray out) {
    (void) cls;
    if (length <= 0) {
        nucx_throw_io(env, "memoryMap", "length must be positive");
        return;
    }
    void *address = mmap(NULL, (size_t) length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (address == MAP_FAILED) {
        nucx_throw_errno(env, "mmap of a memory region failed", errno);
        return;
    }
    ucp_mem_h memh = NULL;
    ucs_status_t status = nucx_mem_register(address, (size_t) length, &memh);
    if (status != UCS_OK) {
        memh = NULL;
    }
    jlong values[NUCX_MAP_WORDS];
    values[NUCX_MAP_ADDRESS] = (jlong) (intptr_t) address;
    values[NUCX_MAP_MEMH] = (jlong) (intptr_t) memh;
    values[NUCX_MAP_STATUS] = (jlong) status;
    (*env)->SetLongArrayRegion(env, out, 0, NUCX_MAP_WORDS, values);
    if ((*env)->ExceptionCheck(env)) {
        /* Java never learnt about the region, so it is freed here. */
        if (memh != NULL) {
            ucp_mem_unmap(nucx_context(), memh);
        }
        munmap(address, (size_t) length);
    }
}

/*
 * Deregisters (when memh is not 0) and unmaps a region. Returns 0, a negative ucs_status_t of
 * ucp_mem_unmap, or a positive errno of munmap; the memory is unmapped in every case.
 */
static jint java_memory_unmap(JNIEnv *env, jclass cls, jlong address, jlong length, jlong memh) {
    (void) env;
    (void) cls;
    jint result = 0;
    if (memh != 0) {
        result = (jint) ucp_mem_unmap(nucx_context(), (ucp_mem_h) (intptr_t) memh);
    }
    if (munmap((void *) (intptr_t) address, (size_t) length) != 0 && result == 0) {
        result = errno;
    }
    return result;
}

static const JNINativeMethod methods[] = {
    {"memoryMap", "(J[J)V", (void *) java_memory_map},
    {"memoryUnmap", "(JJJ)I", (void *) java_memory_unmap},
};

int nucx_register_memory(JNIEnv *env, jclass cls) {
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}
