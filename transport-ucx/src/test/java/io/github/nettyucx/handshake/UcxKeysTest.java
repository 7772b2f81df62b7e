/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.handshake;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Arrays;
import java.util.Base64;
import java.util.HexFormat;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link UcxKeys}: the key generator (32 random bytes, base64, mode 600, never over an existing file) and the key
 * file format (hex, base64, raw bytes; passphrases and short keys refused), through
 * {@link UcxTrust#sharedSecretFile}, the way a user's key file is read.
 */
class UcxKeysTest {
    private static Path keyFile(Path dir, byte[] content) throws IOException {
        Path file = dir.resolve("key");
        Files.deleteIfExists(file);
        Files.write(file, content);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
        return file;
    }

    private static byte[] read(Path file) throws IOException {
        return UcxTrust.sharedSecretFile(file).secret();
    }

    // ---- the generator ----

    @Test
    void theGeneratorWritesA32ByteKeyOnlyItsOwnerMayRead(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("new.key");
        UcxKeys.writeNewKeyFile(file);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        String text = Files.readString(file, StandardCharsets.US_ASCII);
        assertTrue(text.endsWith("\n"), "one line: " + text);
        byte[] key = Base64.getDecoder().decode(text.strip());
        assertEquals(UcxKeys.KEY_BYTES, key.length);
        assertArrayEquals(key, read(file), "the transport reads back what the generator wrote");

        Path other = dir.resolve("other.key");
        UcxKeys.writeNewKeyFile(other);
        assertFalse(Arrays.equals(key, read(other)), "two keys alike");
        assertFalse(Arrays.equals(UcxKeys.generate(), UcxKeys.generate()));
        assertEquals(32, UcxKeys.generate().length);
    }

    @Test
    void theGeneratorNeverOverwritesAKey(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("in-use.key");
        UcxKeys.writeNewKeyFile(file);
        byte[] before = Files.readAllBytes(file);
        FileAlreadyExistsException e = assertThrows(FileAlreadyExistsException.class,
                () -> UcxKeys.writeNewKeyFile(file));
        assertTrue(e.getMessage().contains("not overwritten"), e.getMessage());
        assertArrayEquals(before, Files.readAllBytes(file));
    }

    /** The command ({@code bin/ucx-keygen}): exit status and messages, without exiting this JVM. */
    @Test
    void theCommandWritesAKeyAndSaysWhy(@TempDir Path dir) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        Path file = dir.resolve("cli.key");
        assertEquals(0, UcxKeys.run(new String[] {file.toString()}, new PrintStream(out, true),
                new PrintStream(err, true)));
        assertTrue(out.toString().contains("secret-file:"), out.toString());
        assertEquals(32, read(file).length);
        assertEquals(1, UcxKeys.run(new String[] {file.toString()}, new PrintStream(out, true),
                new PrintStream(err, true)), "an existing file");
        assertTrue(err.toString().contains("not overwritten"), err.toString());
        assertEquals(2, UcxKeys.run(new String[0], new PrintStream(out, true), new PrintStream(err, true)));
        assertTrue(err.toString().contains("usage: ucx-keygen FILE"), err.toString());
    }

    // ---- the file format ----

    /**
     * A raw binary key with bytes that are not UTF-8 (0x80..0xFF alone): every byte counts. Read as UTF-8 text, as
     * before, each such byte became U+FFFD and keys that differ only there were one key.
     */
    @Test
    void aBinaryKeyFileKeepsAllItsBytes(@TempDir Path dir) throws IOException {
        byte[] key = new byte[32];
        for (int i = 0; i < key.length; i++) {
            key[i] = (byte) (0x80 + i * 3);
        }
        assertArrayEquals(key, read(keyFile(dir, key)));
        byte[] other = key.clone();
        other[5] ^= 0x01;
        assertFalse(Arrays.equals(read(keyFile(dir, key)), read(keyFile(dir, other))),
                "two keys that differ in a byte that is not UTF-8 read as one");
        // Raw bytes are taken untrimmed: a random key may start or end with a white-space byte.
        byte[] spaced = key.clone();
        spaced[0] = ' ';
        spaced[31] = '\n';
        assertArrayEquals(spaced, read(keyFile(dir, spaced)));
    }

    @Test
    void hexAndBase64KeyFilesAreDecoded(@TempDir Path dir) throws IOException {
        byte[] key = UcxKeys.generate();
        String hex = HexFormat.of().formatHex(key);
        assertArrayEquals(key, read(keyFile(dir, (hex + "\n").getBytes(StandardCharsets.US_ASCII))));
        assertArrayEquals(key, read(keyFile(dir, hex.toUpperCase(java.util.Locale.ROOT)
                .getBytes(StandardCharsets.US_ASCII))));
        String base64 = Base64.getEncoder().encodeToString(key);
        assertArrayEquals(key, read(keyFile(dir, ("  " + base64 + "\r\n").getBytes(StandardCharsets.US_ASCII))));
        assertArrayEquals(key, read(keyFile(dir, base64.replace("=", "").getBytes(StandardCharsets.US_ASCII))),
                "base64 without padding");
        String urlSafe = Base64.getUrlEncoder().encodeToString(key);
        assertArrayEquals(key, read(keyFile(dir, urlSafe.getBytes(StandardCharsets.US_ASCII))));
    }

    @Test
    void aPassphraseIsRefusedWithTheFix(@TempDir Path dir) throws IOException {
        for (String passphrase : new String[] {"correct horse battery staple\n", "Tr0ub4dor&3-is-my-password",
            "pässwört, mit Umlauten, lang genug\n"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> read(keyFile(dir, passphrase.getBytes(StandardCharsets.UTF_8))), passphrase);
            assertTrue(e.getMessage().contains("passphrase"), e.getMessage());
            assertTrue(e.getMessage().contains("bin/ucx-keygen FILE"), e.getMessage());
        }
        // Text encoded as base64 or hex is still text.
        String encoded = Base64.getEncoder().encodeToString("a passphrase, base64-encoded".getBytes(
                StandardCharsets.US_ASCII));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> read(keyFile(dir, encoded.getBytes(StandardCharsets.US_ASCII))));
        assertTrue(e.getMessage().contains("bin/ucx-keygen FILE"), e.getMessage());
        // Few distinct bytes: not random, whatever the encoding.
        byte[] repeated = new byte[32];
        Arrays.fill(repeated, 0, 16, (byte) 0x01);
        Arrays.fill(repeated, 16, 32, (byte) 0xF1);
        e = assertThrows(IllegalArgumentException.class, () -> read(keyFile(dir, repeated)));
        assertTrue(e.getMessage().contains("distinct byte values"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> UcxTrust.sharedSecret(new byte[32]));
    }

    @Test
    void aShortOrEmptyKeyIsRefused(@TempDir Path dir) throws IOException {
        byte[] key = UcxKeys.generate();
        String shortHex = HexFormat.of().formatHex(key, 0, 15);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> read(keyFile(dir, shortHex.getBytes(StandardCharsets.US_ASCII))));
        assertTrue(e.getMessage().contains("at least 16 bytes, got 15"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> read(keyFile(dir, Arrays.copyOf(key, 15))));
        assertThrows(IllegalArgumentException.class, () -> read(keyFile(dir, new byte[0])));
        assertThrows(IllegalArgumentException.class, () -> read(keyFile(dir, "\n\n".getBytes(
                StandardCharsets.US_ASCII))));
    }

    @Test
    void aKeyFileOpenToOthersIsRefusedWhateverItHolds(@TempDir Path dir) throws IOException {
        Path file = keyFile(dir, UcxKeys.generate());
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-r-----"));
        IOException e = assertThrows(IOException.class, () -> read(file));
        assertTrue(e.getMessage().contains("chmod 600"), e.getMessage());
    }
}
