/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * The file descriptor behind a Netty DefaultFileRegion, for sendfile(2) on plain TCP connections
 * (ucx_plain.c: the TCP data path, and peers that do not speak netty-ucx). Neither the region nor the JDK's
 * FileChannel gives it out, so it is read from private fields: DefaultFileRegion.file (a
 * FileChannel, null until open()), the JDK's FileChannelImpl.fd (a FileDescriptor) and
 * FileDescriptor.fd (an int, -1 once closed). JNI reads them without opening the JDK's modules.
 *
 * The classes and fields are resolved once, when the library loads: FindClass sees the classes of
 * the loader that loads it (Netty's among them), where an event-loop thread would not. When one is
 * missing (another Netty or JDK release) the library still loads, fileRegionFdReachable() is false,
 * and Java copies a region's bytes as it does for any other region.
 */
#include "ucx_file_region.h"

/* Bytes sendfile has sent, over every connection of the process. */
static uint64_t bytes_sent_from_files;

static jclass default_file_region;
static jclass file_channel_impl;
static jfieldID region_file;
static jfieldID channel_fd;
static jfieldID descriptor_fd;

/* The field, or NULL with the exception cleared; with keep, also the class, as a global reference. */
static jfieldID find_field(JNIEnv *env, const char *class_name, const char *name, const char *signature, jclass *keep) {
    jclass cls = (*env)->FindClass(env, class_name);
    jfieldID field = cls != NULL ? (*env)->GetFieldID(env, cls, name, signature) : NULL;
    if (field != NULL && keep != NULL) {
        *keep = (*env)->NewGlobalRef(env, cls);
        field = *keep != NULL ? field : NULL;
    }
    if ((*env)->ExceptionCheck(env)) {
        (*env)->ExceptionClear(env);
    }
    (*env)->DeleteLocalRef(env, cls);
    return field;
}

static void resolve_fields(JNIEnv *env) {
    region_file = find_field(env, "io/netty/channel/DefaultFileRegion", "file", "Ljava/nio/channels/FileChannel;",
                             &default_file_region);
    channel_fd = find_field(env, "sun/nio/ch/FileChannelImpl", "fd", "Ljava/io/FileDescriptor;", &file_channel_impl);
    descriptor_fd = find_field(env, "java/io/FileDescriptor", "fd", "I", NULL);
}

static int fields_reachable(void) {
    return region_file != NULL && channel_fd != NULL && descriptor_fd != NULL;
}

/*
 * The descriptor the region's open file has now, to use at once (not to keep), or -1 (not open, closed, or not
 * the JDK's own FileChannel).
 */
int nucx_file_region_open_fd(JNIEnv *env, jobject region) {
    if (!fields_reachable() || region == NULL || !(*env)->IsInstanceOf(env, region, default_file_region)) {
        return -1;
    }
    jobject channel = (*env)->GetObjectField(env, region, region_file);
    jobject descriptor = channel != NULL && (*env)->IsInstanceOf(env, channel, file_channel_impl)
                             ? (*env)->GetObjectField(env, channel, channel_fd)
                             : NULL;
    int fd = descriptor != NULL ? (*env)->GetIntField(env, descriptor, descriptor_fd) : -1;
    (*env)->DeleteLocalRef(env, descriptor);
    (*env)->DeleteLocalRef(env, channel);
    return fd;
}

/* Counts bytes sendfile sent, over every connection of the process: lets tests see that it is used. */
void nucx_file_bytes_sent(uint64_t n) {
    __atomic_add_fetch(&bytes_sent_from_files, n, __ATOMIC_RELAXED);
}

static jlong java_bytes_sent_from_files(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return (jlong) __atomic_load_n(&bytes_sent_from_files, __ATOMIC_RELAXED);
}

static jboolean java_file_region_fd_reachable(JNIEnv *env, jclass cls) {
    (void) env; (void) cls;
    return fields_reachable() ? JNI_TRUE : JNI_FALSE;
}

static const JNINativeMethod methods[] = {
    {"fileRegionFdReachable", "()Z", (void *) java_file_region_fd_reachable},
    {"bytesSentFromFiles", "()J", (void *) java_bytes_sent_from_files},
};

int nucx_register_file_region(JNIEnv *env, jclass cls) {
    resolve_fields(env);
    return (*env)->RegisterNatives(env, cls, methods, NUCX_ARRAY_LEN(methods));
}

void nucx_file_region_destroy(JNIEnv *env) {
    jclass *classes[] = {&default_file_region, &file_channel_impl};
    for (int i = 0; i < NUCX_ARRAY_LEN(classes); i++) {
        if (*classes[i] != NULL) {
            (*env)->DeleteGlobalRef(env, *classes[i]);
            *classes[i] = NULL;
        }
    }
    region_file = channel_fd = descriptor_fd = NULL;
}
