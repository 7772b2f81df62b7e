/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.Base64;
import java.util.Set;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Keys for {@link UcxTrust#sharedSecret(byte[])}: random ones, and the key file format. A shared key must be random
 * (at least 128 bits): a server proves its key to any client that asks, so a key an attacker can guess (a
 * passphrase) would fall to an offline dictionary attack on one recorded proof. {@code bin/ucx-keygen FILE} (this
 * class's {@link #main}) writes a new one.
 * <p>
 * A key file, or the text of {@code secret:TEXT}, is read as bytes, never as UTF-8 text. Its content with ASCII white
 * space trimmed at both ends is, in this order:
 * <ol>
 * <li>hex: an even number of hex digits, nothing else;</li>
 * <li>base64: the standard or URL-safe alphabet, padding optional, nothing else;</li>
 * <li>otherwise (files only) the raw bytes of the file, untrimmed.</li>
 * </ol>
 * The key must have at least 16 bytes. What is evidently a passphrase is refused: a raw file that is text (valid
 * UTF-8 without control characters but white space), a key that is all printable ASCII once decoded, or one with few
 * distinct byte values. That keeps out passphrases typed into a file, not a determined user's.
 */
public final class UcxKeys {
    /** The bytes of a key {@link #generate()} makes: 256 bits. */
    public static final int KEY_BYTES = 32;
    /** A key shorter than this is guessable. */
    public static final int MIN_KEY_BYTES = 16;
    /** The bytes of a key id: enough that two keys of one rotation never share one. */
    public static final int KEY_ID_BYTES = 8;
    private static final byte[] KEY_ID_LABEL = "netty-ucx key id".getBytes(StandardCharsets.US_ASCII);
    private static final String FIX = "make a key with: bin/ucx-keygen FILE";
    private static final SecureRandom RANDOM = new SecureRandom();

    private UcxKeys() {
    }

    /** A new random key of {@link #KEY_BYTES} bytes. */
    public static byte[] generate() {
        byte[] key = new byte[KEY_BYTES];
        RANDOM.nextBytes(key);
        return key;
    }

    /**
     * Writes a new random key, base64 and a newline, to {@code file}, which must not exist: it is created readable
     * and writable by its owner only (mode 600). Refuses to overwrite, since the key it holds may be in use.
     */
    public static void writeNewKeyFile(Path file) throws IOException {
        Set<PosixFilePermission> ownerOnly = PosixFilePermissions.fromString("rw-------");
        byte[] text = (Base64.getEncoder().encodeToString(generate()) + "\n").getBytes(StandardCharsets.US_ASCII);
        try (OutputStream out = Files.newOutputStream(Files.createFile(file,
                PosixFilePermissions.asFileAttribute(ownerOnly)), StandardOpenOption.WRITE)) {
            // The umask may only take bits away; set them again so the owner can read the key back.
            Files.setPosixFilePermissions(file, ownerOnly);
            out.write(text);
        } catch (FileAlreadyExistsException e) {
            throw new FileAlreadyExistsException(file.toString(), null,
                    "exists; not overwritten, since its key may be in use: remove it first or name another file");
        }
    }

    /**
     * {@code ucx-keygen FILE}: writes a new key to FILE ({@link #writeNewKeyFile}). Exits with 1 and a message on
     * stderr when FILE exists or cannot be written, with 2 on a wrong command line.
     */
    public static void main(String[] args) {
        int status = run(args, System.out, System.err);
        if (status != 0) {
            System.exit(status);
        }
    }

    static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length != 1 || args[0].startsWith("-")) {
            err.println("usage: ucx-keygen FILE\n"
                    + "writes a new random 256-bit key (base64) to FILE, created with mode 600, for\n"
                    + "-Dio.github.nettyucx.trust=secret-file:FILE (docs/security.md)");
            return 2;
        }
        Path file = Paths.get(args[0]);
        try {
            writeNewKeyFile(file);
        } catch (IOException e) {
            err.println("ucx-keygen: " + e.getMessage());
            return 1;
        }
        out.println("wrote a new key to " + file + " (mode 600); use it with -Dio.github.nettyucx.trust=secret-file:"
                + file.toAbsolutePath());
        return 0;
    }

    /** The key a key file's bytes hold (the class comment's format); {@code source} names it in errors. */
    static byte[] decodeFile(byte[] content, String source) {
        byte[] key = decodeText(trim(content));
        if (key == null) {
            if (isText(content)) {
                throw new IllegalArgumentException(source + " holds text that is neither hex nor base64: a "
                        + "passphrase, not a random key (" + FIX + ")");
            }
            key = content.clone();
        }
        check(key, source);
        return key;
    }

    /** The key {@code text} holds in hex or base64; {@code source} names it in errors. */
    static byte[] decodeText(String text, String source) {
        byte[] key = decodeText(trim(text.getBytes(StandardCharsets.UTF_8)));
        if (key == null) {
            throw new IllegalArgumentException(source + " is neither hex nor base64: a key goes there encoded, "
                    + "not a passphrase (" + FIX + ", then take its content)");
        }
        check(key, source);
        return key;
    }

    /**
     * Refuses a key that is short or evidently not random. A random key is all printable ASCII with a chance of
     * about 10^-7 at 16 bytes (10^-14 at 32), and has fewer distinct bytes than half its length (at most 16) with
     * less than 10^-11.
     */
    static void check(byte[] key, String source) {
        if (key.length < MIN_KEY_BYTES) {
            throw new IllegalArgumentException(source + ": a shared key needs at least " + MIN_KEY_BYTES
                    + " bytes, got " + key.length + " (" + FIX + ")");
        }
        boolean printable = true;
        boolean[] seen = new boolean[256];
        int distinct = 0;
        for (byte b : key) {
            printable &= b >= 0x20 && b < 0x7F;
            if (!seen[b & 0xFF]) {
                seen[b & 0xFF] = true;
                distinct++;
            }
        }
        if (printable) {
            throw new IllegalArgumentException(source + " is printable text: a passphrase, not a random key ("
                    + FIX + ")");
        }
        if (distinct < Math.min(key.length, KEY_BYTES) / 2) {
            throw new IllegalArgumentException(source + " has only " + distinct + " distinct byte values in "
                    + key.length + ": not a random key (" + FIX + ")");
        }
    }

    /** A short public name of {@code key}: the first bytes of an HMAC keyed with it, safe to show for random keys. */
    public static byte[] keyId(byte[] key) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Arrays.copyOf(mac.doFinal(KEY_ID_LABEL), KEY_ID_BYTES);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is missing from this JDK", e);
        }
    }

    /** Hex, then base64, of trimmed ASCII; null when it is neither (or empty). */
    private static byte[] decodeText(byte[] trimmed) {
        if (trimmed.length == 0) {
            return null;
        }
        String text = new String(trimmed, StandardCharsets.ISO_8859_1);
        if (text.length() % 2 == 0 && text.chars().allMatch(c -> Character.digit(c, 16) >= 0 && c < 0x80)) {
            byte[] key = new byte[text.length() / 2];
            for (int i = 0; i < key.length; i++) {
                key[i] = (byte) Integer.parseInt(text, 2 * i, 2 * i + 2, 16);
            }
            return key;
        }
        try {
            return text.indexOf('-') >= 0 || text.indexOf('_') >= 0 ? Base64.getUrlDecoder().decode(text)
                    : Base64.getDecoder().decode(text);
        } catch (IllegalArgumentException notBase64) {
            return null;
        }
    }

    private static byte[] trim(byte[] content) {
        int start = 0;
        int end = content.length;
        while (start < end && isAsciiSpace(content[start])) {
            start++;
        }
        while (end > start && isAsciiSpace(content[end - 1])) {
            end--;
        }
        return Arrays.copyOfRange(content, start, end);
    }

    private static boolean isAsciiSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\n' || b == '\r' || b == '\f' || b == 0x0B;
    }

    /** Valid UTF-8 with no control character but white space: what a person typed. */
    private static boolean isText(byte[] content) {
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(content)).toString();
        } catch (CharacterCodingException binary) {
            return false;
        }
        return text.chars().allMatch(c -> !Character.isISOControl(c) || Character.isWhitespace(c));
    }
}
