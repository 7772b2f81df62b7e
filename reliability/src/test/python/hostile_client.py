#!/usr/bin/env python3
# Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
"""A hostile netty-ucx client, in a process of its own, for the reliability module's security tests.

It speaks the side-channel protocol v8 (docs/protocol.md) by hand, with no UCX at all, and reports what the
server did as lines on standard output that the Java test waits for. Standard library only.

  hostile_client.py handshake HOST PORT [options]
      intro, server intro, client hello (as the options say), server hello, then (optionally) an address
      message of our own. Prints:
        SERVER_INTRO proof=HEX valid=true|false|n/a   (valid: the server's proof checks with --secret)
        SERVER_HELLO flags=N id=N window=N unit=N
        SERVER_ADDRESS n | NO_ADDRESS                  (what followed the server's hello within --wait-ms)
        SENT_ADDRESS MODE n                            (with --address)
        CLOSED_BY_SERVER STAGE | STILL_OPEN            (whether the server ended the connection)
        DONE
      options: --secret KEY (hex or base64; named in the intro, proves the client hello; zeros without), --flags N (default 19: accepts the TCP
      data path, shared memory, trusts the server), --window N, --unit N, --id N, --wait-ms N,
      --address forged|truncated|huge|replay:HEX (what to send after the server's hello),
      --close-early y (send the hello and the address corked, without waiting for the server's hello, and close, so
      that they leave with the FIN; print CLOSED_EARLY: the server reads them from a socket no process holds),
      --hello-delay-ms N (wait that long after the server's intro before the hello),
      --host-proof none (zeros instead of the proof that this client runs on the server's host, as a peer behind a
      forwarder sends: it does not know the host's boot id).
  hostile_client.py flood HOST PORT COUNT SOURCE[,SOURCE...] [EXPECT_CLOSED]
      COUNT sockets, spread evenly over the source addresses in order, each sends only "NUCX" and then nothing.
      Prints FLOOD opened=N refused=R failed_connects=F kept=SOURCE:N,... once the server's answers settled
      (refused: the server closed or reset it; kept: still open, per source address; with EXPECT_CLOSED, not
      before that many were closed, or 8 s passed: a server that accepts slowly closes late), or FLOOD_UNSUPPORTED why
      when this process may not open that many sockets; then waits for a line (or the end) on standard input, closes every socket and prints CLOSED.
"""
import base64
import hashlib
import hmac
import os
import resource
import select
import socket
import struct
import sys
import time

MAGIC = 0x4E554358
VERSION = 8
NONCE_BYTES = 16
KEY_ID_BYTES = 8
HOST_PROOF_BYTES = 16
KEY_IDS_BYTES = 2 * KEY_ID_BYTES
PROOF_BYTES = KEY_ID_BYTES + 32
ADDRESS_MAC_BYTES = 32
SERVER_INTRO_BYTES = 8 + NONCE_BYTES + PROOF_BYTES
HELLO_BYTES = 76
OWNER_KEY_BYTES = 32
FLAG_ACCEPTS = 1
FLAG_SHARED_MEMORY = 2
FLAG_TRUSTS = 16


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Closed(Exception):
    pass


def read_exactly(sock, n, stage):
    data = b""
    while len(data) < n:
        try:
            chunk = sock.recv(n - len(data))
        except (ConnectionResetError, BrokenPipeError):
            chunk = b""
        if not chunk:
            raise Closed(stage)
        data += chunk
    return data


def boot_id():
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            text = f.read().strip().replace("-", "")
        return bytes.fromhex(text)
    except (OSError, ValueError):
        return os.urandom(16)


def mac(secret, label, client_nonce, server_nonce):
    return hmac.new(secret, label + client_nonce + server_nonce, hashlib.sha256).digest()


def key_id(secret):
    return hmac.new(secret, b"netty-ucx key id", hashlib.sha256).digest()[:KEY_ID_BYTES]


def decode_key(text):
    try:
        return bytes.fromhex(text)
    except ValueError:
        return base64.b64decode(text, validate=True)


def closed_by_server(sock, seconds):
    """True when the server ends the connection within seconds (bytes before the end are discarded)."""
    deadline = time.monotonic() + seconds
    sock.setblocking(False)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                return False
            readable, _, _ = select.select([sock], [], [], left)
            if not readable:
                return False
            try:
                if not sock.recv(65536):
                    return True
            except (ConnectionResetError, BrokenPipeError):
                return True
            except BlockingIOError:
                pass
    finally:
        sock.setblocking(True)


def address_message(mode):
    """An address message as --address says; its MACs are zeros, which no key's check accepts."""
    # The address MAC, then the ownership MAC: zeros, which no key's check accepts.
    zero_mac = bytes(2 * ADDRESS_MAC_BYTES)
    if mode == "forged":
        body = bytes([0x0F]) + os.urandom(199)
        return struct.pack(">I", len(body)) + body + zero_mac
    if mode == "truncated":
        return struct.pack(">I", 1000) + os.urandom(40)
    if mode == "huge":
        return struct.pack(">I", 0x7FFFFFFF) + os.urandom(64)
    if mode.startswith("replay:"):
        body = bytes.fromhex(mode[len("replay:"):])
        return struct.pack(">I", len(body)) + body + zero_mac
    raise ValueError("unknown --address " + mode)


def handshake(args):
    host, port = args[0], int(args[1])
    options = {"--flags": str(FLAG_ACCEPTS | FLAG_SHARED_MEMORY | FLAG_TRUSTS), "--window": "8",
               "--unit": "65536", "--id": "1", "--wait-ms": "500"}
    i = 2
    while i < len(args):
        options[args[i]] = args[i + 1]
        i += 2
    secret = options.get("--secret")
    secret = decode_key(secret) if secret is not None else None
    sock = socket.create_connection((host, port), timeout=10)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    stage = "intro"
    try:
        client_nonce = os.urandom(NONCE_BYTES)
        key_ids = bytes(KEY_IDS_BYTES) if secret is None else key_id(secret) + bytes(KEY_ID_BYTES)
        sock.sendall(struct.pack(">IHH", MAGIC, VERSION, 0) + client_nonce + key_ids)
        intro = read_exactly(sock, SERVER_INTRO_BYTES, "server-intro")
        magic, version, _ = struct.unpack(">IHH", intro[:8])
        if magic != MAGIC or version != VERSION:
            say("BAD_SERVER_INTRO magic=%x version=%d" % (magic, version))
            return
        server_nonce, server_proof = intro[8:8 + NONCE_BYTES], intro[8 + NONCE_BYTES:]
        valid = "n/a" if secret is None else str(hmac.compare_digest(
            server_proof, key_id(secret) + mac(secret, b"netty-ucx 8 server", client_nonce, server_nonce))).lower()
        say("SERVER_INTRO proof=%s valid=%s" % (server_proof.hex(), valid))

        stage = "hello"
        proof = bytes(PROOF_BYTES) if secret is None else key_id(secret) + mac(secret, b"netty-ucx 8 client",
                                                                                client_nonce, server_nonce)
        hello = proof + struct.pack(">HHIQII", int(options["--flags"]) & 0xFFFF, 0, int(options["--id"]) & 0xFFFFFFFF,
                                    0, int(options["--window"]) & 0xFFFFFFFF, int(options["--unit"]) & 0xFFFFFFFF)
        # The host proof: an HMAC keyed with this host's boot id, which a peer behind a forwarder does not know.
        host_proof = bytes(HOST_PROOF_BYTES) if options.get("--host-proof") == "none" else \
            mac(boot_id(), b"netty-ucx 8 client host", client_nonce, server_nonce)[:HOST_PROOF_BYTES]
        hello += host_proof + struct.pack(">I", 0)  # message key: this client receives no messages
        # An owner key: any 32 random bytes are an X25519 public key; this client holds no private key for it.
        hello += os.urandom(OWNER_KEY_BYTES)
        time.sleep(int(options.get("--hello-delay-ms", "0")) / 1000.0)
        if options.get("--close-early") == "y":
            # Corked, the bytes leave only with the FIN of close(): the server reads them from a closed socket.
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_CORK, 1)
            sock.sendall(hello + address_message(options["--address"]))
            sock.close()
            say("CLOSED_EARLY")
            return
        sock.sendall(hello)
        flags, _, conn_id, _, window, unit = struct.unpack(">HHIQII",
                                                           read_exactly(sock, HELLO_BYTES, "server-hello")[:24])
        say("SERVER_HELLO flags=%d id=%d window=%d unit=%d" % (flags, conn_id, window, unit))

        stage = "address"
        readable, _, _ = select.select([sock], [], [], int(options["--wait-ms"]) / 1000.0)
        if readable:
            try:
                header = sock.recv(4, socket.MSG_PEEK)
            except ConnectionResetError:
                header = b""
            if len(header) == 0:
                raise Closed("after-server-hello")
            if len(header) == 4:
                length = struct.unpack(">I", header)[0]
                say("SERVER_ADDRESS %d" % length)
            else:
                say("SERVER_ADDRESS partial")
        else:
            say("NO_ADDRESS")

        mode = options.get("--address")
        if mode is not None:
            stage = "our-address"
            message = address_message(mode)
            sock.sendall(message)
            say("SENT_ADDRESS %s %d" % (mode.split(":")[0], len(message)))
        if closed_by_server(sock, 2):
            raise Closed(stage)
        say("STILL_OPEN")
    except Closed as e:
        say("CLOSED_BY_SERVER %s" % e.args[0])
    except (ConnectionResetError, BrokenPipeError):
        say("CLOSED_BY_SERVER %s" % stage)
    finally:
        sock.close()
        say("DONE")


def flood(args):
    host, port, count, sources = args[0], int(args[1]), int(args[2]), args[3].split(",")
    expect_closed = int(args[4]) if len(args) > 4 else 0
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    wanted = count + 64
    if soft != resource.RLIM_INFINITY and soft < wanted:
        if hard != resource.RLIM_INFINITY and hard < wanted:
            say("FLOOD_UNSUPPORTED the open-file limit is %d, %d sockets need %d" % (hard, count, wanted))
            return
        resource.setrlimit(resource.RLIMIT_NOFILE, (wanted, hard))
    sockets = []
    source_of = {}
    failed_connects = 0
    per_source = (count + len(sources) - 1) // len(sources)
    for n in range(count):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.bind((sources[n // per_source], 0))
            s.connect((host, port))
            s.sendall(b"NUCX")
            sockets.append(s)
            source_of[s.fileno()] = sources[n // per_source]
        except OSError:
            failed_connects += 1
            s.close()
    poller = select.poll()
    by_fd = {}
    for s in sockets:
        poller.register(s.fileno(), select.POLLIN | select.POLLHUP | select.POLLERR)
        by_fd[s.fileno()] = s
    ended = set()
    stable_since = time.monotonic()
    deadline = time.monotonic() + 8
    while time.monotonic() < deadline and (len(ended) < expect_closed or time.monotonic() - stable_since < 0.7):
        for fd, _ in poller.poll(100):
            if fd in ended:
                continue
            try:
                data = by_fd[fd].recv(4096)
            except OSError:
                data = b""
            if not data:
                ended.add(fd)
                poller.unregister(fd)
                stable_since = time.monotonic()
            else:
                say("UNEXPECTED %d bytes from the server" % len(data))
    kept = ",".join("%s:%d" % (source, sum(1 for fd, src in source_of.items() if src == source and fd not in ended))
                    for source in sources)
    say("FLOOD opened=%d refused=%d failed_connects=%d kept=%s" % (count, len(ended), failed_connects, kept))
    sys.stdin.readline()
    for s in sockets:
        s.close()
    say("CLOSED")


def main():
    command = sys.argv[1]
    if command == "handshake":
        handshake(sys.argv[2:])
    elif command == "flood":
        flood(sys.argv[2:])
    else:
        raise SystemExit("unknown command " + command)


if __name__ == "__main__":
    main()
