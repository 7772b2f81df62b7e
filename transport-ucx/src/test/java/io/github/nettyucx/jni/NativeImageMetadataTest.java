/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.jni;

import com.google.gson.JsonArray;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import io.github.nettyucx.buffer.UcxByteBufAllocator;
import io.github.nettyucx.datapath.UcxLink;
import io.github.nettyucx.handshake.UcxTrust;
import io.github.nettyucx.loop.UcxIoHandler;
import io.github.nettyucx.transport.UcxSocketChannel;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The GraalVM native-image metadata of the transport's jar against this build's code: every class the JNI library
 * looks up by name (read from its C sources) is in jni-config.json, and every class, field, method and constructor
 * the metadata names exists; the channels Netty creates by reflection and the file region's fields the transport
 * reaches are in reflect-config.json; the JNI library is a resource an image keeps; the native layer initialises at
 * run time. There is no GraalVM here: this checks the metadata against the code, not an image built from it.
 */
class NativeImageMetadataTest {
    private static final String DIR = "META-INF/native-image/io.github.nettyucx/netty-ucx-transport/";
    /** The JNI library's sources, beside this module (the tests run in the module's folder). */
    private static final Path C_SOURCES = Path.of("..", "transport-ucx-native", "src", "main", "c");
    /** A class name in a C string literal: "java/io/IOException", "io/github/nettyucx/jni/UcxNative". */
    private static final Pattern CLASS_LITERAL = Pattern.compile("\"((?:[a-z][a-z0-9_]*/)+[A-Z][A-Za-z0-9_$]*)\"");

    @Test
    void everyClassTheLibraryLooksUpIsInTheJniConfig() throws IOException {
        Set<String> looked = new TreeSet<>();
        try (Stream<Path> files = Files.list(C_SOURCES)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".c")).collect(Collectors.toList())) {
                Matcher matcher = CLASS_LITERAL.matcher(Files.readString(file));
                while (matcher.find()) {
                    looked.add(matcher.group(1).replace('/', '.'));
                }
            }
        }
        assertTrue(looked.contains(UcxNative.class.getName()), "no class found in " + C_SOURCES + ": " + looked);
        Set<String> listed = names(read("jni-config.json").getAsJsonArray());
        Set<String> missing = new TreeSet<>(looked);
        missing.removeAll(listed);
        assertTrue(missing.isEmpty(), "looked up by the JNI library, not in jni-config.json: " + missing);
    }

    @Test
    void everyJniEntryExists() throws Exception {
        JsonArray entries = read("jni-config.json").getAsJsonArray();
        assertExist(entries);
        // The logger's receiver comes from Java (UcxNativeLog.install), not from FindClass: its methods by name.
        assertTrue(names(entries).contains(UcxNativeLog.class.getName()), "UcxNativeLog is not in jni-config.json");
    }

    @Test
    void everyReflectionEntryExists() throws Exception {
        JsonArray entries = read("reflect-config.json").getAsJsonArray();
        assertExist(entries);
        Set<String> listed = names(entries);
        for (String channel : List.of("UcxSocketChannel", "UcxServerSocketChannel", "UcxDatagramChannel")) {
            assertTrue(listed.contains("io.github.nettyucx.transport." + channel),
                    channel + " (made by Netty's ReflectiveChannelFactory) is not in reflect-config.json");
        }
    }

    @Test
    void theLibraryIsAResourceOfTheImage() throws IOException {
        JsonArray includes = read("resource-config.json").getAsJsonObject().getAsJsonObject("resources")
                .getAsJsonArray("includes");
        List<String> patterns = new ArrayList<>();
        includes.forEach(include -> patterns.add(include.getAsJsonObject().get("pattern").getAsString()));
        String library = "META-INF/native/lib" + UcxNativeLibrary.name() + ".so";
        assertNotNull(getClass().getClassLoader().getResource(library), library + " is not on the test class path");
        for (String resource : List.of(library, "META-INF/io.github.nettyucx/netty-ucx-transport.properties")) {
            assertTrue(patterns.stream().anyMatch(p -> Pattern.matches(p, resource)),
                    resource + " matches no pattern of resource-config.json: " + patterns);
        }
    }

    @Test
    void everyLayerInitialisesAtRunTime() throws IOException {
        Properties properties = new Properties();
        try (InputStream in = resource("native-image.properties")) {
            properties.load(in);
        }
        String args = properties.getProperty("Args", "");
        Matcher runTime = Pattern.compile("--initialize-at-run-time=(\\S+)").matcher(args);
        assertTrue(runTime.find(), "no --initialize-at-run-time in " + args);
        List<String> packages = List.of(runTime.group(1).split(","));
        // Every layer: the native layer reads the library's constants, and each layer above keeps some of them (or
        // the availability check that loads the library) in static fields.
        for (Class<?> layer : List.of(UcxNative.class, UcxByteBufAllocator.class, UcxIoHandler.class, UcxTrust.class,
                UcxLink.class, UcxSocketChannel.class)) {
            assertTrue(packages.contains(layer.getPackageName()), layer.getPackageName() + " is not initialised at "
                    + "run time: " + packages);
        }
        assertFalse(args.contains("--initialize-at-build-time"), args);
    }

    /** Every class, and each field, method and constructor of it the entries name. */
    private static void assertExist(JsonArray entries) throws Exception {
        ClassLoader loader = NativeImageMetadataTest.class.getClassLoader();
        for (JsonElement element : entries) {
            JsonObject entry = element.getAsJsonObject();
            Class<?> type = Class.forName(entry.get("name").getAsString(), false, loader);
            if (entry.has("fields")) {
                for (JsonElement field : entry.getAsJsonArray("fields")) {
                    type.getDeclaredField(field.getAsJsonObject().get("name").getAsString());
                }
            }
            if (entry.has("methods")) {
                for (JsonElement method : entry.getAsJsonArray("methods")) {
                    JsonObject m = method.getAsJsonObject();
                    List<Class<?>> parameters = new ArrayList<>();
                    for (JsonElement parameter : m.getAsJsonArray("parameterTypes")) {
                        parameters.add(parameterType(parameter.getAsString(), loader));
                    }
                    Class<?>[] types = parameters.toArray(new Class<?>[0]);
                    String name = m.get("name").getAsString();
                    if (name.equals("<init>")) {
                        type.getDeclaredConstructor(types);
                    } else {
                        type.getDeclaredMethod(name, types);
                    }
                }
            }
        }
    }

    private static Class<?> parameterType(String name, ClassLoader loader) throws ClassNotFoundException {
        if (name.equals("byte[]")) {
            return byte[].class;
        }
        return Class.forName(name, false, loader);
    }

    private static Set<String> names(JsonArray entries) {
        Set<String> names = new TreeSet<>();
        entries.forEach(entry -> names.add(entry.getAsJsonObject().get("name").getAsString()));
        return names;
    }

    private static JsonElement read(String file) throws IOException {
        try (Reader reader = new InputStreamReader(resource(file), StandardCharsets.UTF_8)) {
            return JsonParser.parseReader(reader);
        }
    }

    private static InputStream resource(String file) {
        InputStream in = NativeImageMetadataTest.class.getClassLoader().getResourceAsStream(DIR + file);
        assertNotNull(in, DIR + file + " is not in the transport's resources");
        return in;
    }
}
