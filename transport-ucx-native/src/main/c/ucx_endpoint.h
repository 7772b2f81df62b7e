/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
/*
 * ucx_endpoint.c: the UCP endpoints of a worker's connections, one per peer worker. The connections
 * between two workers share one endpoint (their tags tell them apart); the connection core
 * (ucx_conn.c) keeps each endpoint's list of connections and decides when it closes.
 */
#ifndef NETTY_UCX_ENDPOINT_H
#define NETTY_UCX_ENDPOINT_H

#include "ucx_native.h"

typedef struct nucx_endpoint nucx_endpoint;

/* The peer worker's owner key (X25519, docs/protocol.md): connections share an endpoint only when equal. */
#define NUCX_OWNER_BYTES 32

struct nucx_endpoint {
    nucx_worker *worker;
    ucp_ep_h ep;
    int err_mode;             /* the ucp_err_handling_mode_t it was created with */
    int users;                /* connections on it that Java has not closed */
    nucx_conn *first_user;    /* those connections, linked through nucx_conn.next_on_ep */
    int wired_up;             /* its first flush completed: its lanes are final */
    int wiring;               /* that flush is still in flight (it refers to this endpoint) */
    int closing;              /* ucp_ep_close_nbx is in flight (it refers to this endpoint) */
    nucx_conn *closer;        /* the connection that closed it and waits for the close to finish */
    ucs_status_t failed;      /* UCX's error for it, or UCS_OK */
    int listed;               /* in its worker's table: new connections to its peer may take it */
    uint64_t hash;
    nucx_endpoint *next_listed; /* the next endpoint of its table bucket */
    unsigned char owner[NUCX_OWNER_BYTES]; /* the key the peer proved it holds for that worker */
    size_t address_length;
    unsigned char address[];  /* the peer worker's address, as the peer sent it */
};

/*
 * The endpoint to the worker at this address, of this owner, with this error handling mode, if the
 * table lists one.
 */
NUCX_HIDDEN nucx_endpoint *nucx_endpoint_find(nucx_worker *w, const void *address, size_t length,
                                              const unsigned char *owner, int err_mode);

/*
 * Creates an endpoint to the worker at this address and lists it; with UCP_ERR_HANDLING_MODE_PEER,
 * UCX calls on_error with the endpoint. Returns NULL with *status set when it could not.
 */
NUCX_HIDDEN nucx_endpoint *nucx_endpoint_open(nucx_worker *w, const void *address, size_t length,
                                              const unsigned char *owner, int err_mode,
                                              ucp_err_handler_cb_t on_error, ucs_status_t *status);

/* New connections no longer take it (it failed, or its last connection closes it). */
NUCX_HIDDEN void nucx_endpoint_unlist(nucx_worker *w, nucx_endpoint *e);

/* Frees an endpoint record once nothing refers to it: no user, no request of its own in flight. */
NUCX_HIDDEN void nucx_endpoint_free_if_done(nucx_endpoint *e);

/* Frees the worker's table, not the endpoints, which their connections own. */
NUCX_HIDDEN void nucx_endpoint_table_free(nucx_worker *w);

#endif
