/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */
package io.github.nettyucx.agent;

import org.junit.jupiter.api.Test;

import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A short Spark job (agent/spark/ShuffleJob.java, a shuffled join) on a standalone cluster of this host, a master and
 * a worker with two executors, with the agent on every JVM: the result Spark computes without the agent (in local
 * mode, one JVM: the job's result does not depend on where its tasks ran, and a second cluster of five JVMs would
 * cost a minute of CPU for the same line), and the executors' shuffle and RPC connections over UCX. It needs a Spark
 * distribution, which is no Maven artifact: it runs where {@code NETTYUCX_SPARK_HOME} names one (bin/spark-demo
 * installs PyPI's pyspark, whose package folder is one), and is skipped, visibly, elsewhere.
 */
class SparkClusterTest {
    /** JVM options bin/test gives the tests' JVMs and their children (no C2), for every JVM of Spark's here. */
    private static final String CHILD_JVM_ARGS = System.getProperty("nettyucx.childJvmArgs", "");

    @Test
    void aShuffleJobGivesTheSameResultOverUcx() throws Exception {
        String home = System.getProperty("agent.sparkHome", "");
        assumeTrue(!home.isEmpty() && Files.isDirectory(Paths.get(home, "jars")),
                "no Spark distribution: set NETTYUCX_SPARK_HOME to run this test");
        Path work = Files.createTempDirectory("spark-cluster-test");
        Path job = compileJob(Paths.get(home), work);

        String plain = runLocally(Paths.get(home), work.resolve("plain"), job);
        String ucx = runOnCluster(Paths.get(home), work.resolve("ucx"), job);
        assertEquals(plain, ucx);

        List<Properties> executors = reports(work.resolve("ucx"), "executor-");
        assertEquals(2, executors.size(), "executor reports in " + work);
        for (Properties p : executors) {
            assertTrue(Long.parseLong(p.getProperty("ucx.connections.UCX")) > 0, p.toString());
            // Shuffle blocks and RPC both ways: each executor sent and received over UCX.
            assertTrue(Long.parseLong(p.getProperty("ucx.bytesSent")) > 0, p.toString());
            assertTrue(Long.parseLong(p.getProperty("ucx.bytesReceived")) > 0, p.toString());
            assertEquals("0", p.getProperty("ucx.connections.TCP_DATA_PATH"), p.toString());
            assertEquals("0", p.getProperty("agent.channels.left"), p.toString());
        }
    }

    /** ShuffleJob compiled against the distribution's jars, in a jar of its own. */
    private static Path compileJob(Path home, Path work) throws IOException {
        Path classes = Files.createDirectories(work.resolve("job"));
        String classPath;
        try (Stream<Path> jars = Files.list(home.resolve("jars"))) {
            // The compiler API does not expand a class path's "*", as the javac command does.
            classPath = jars.map(Path::toString).filter(j -> j.endsWith(".jar"))
                    .collect(Collectors.joining(File.pathSeparator));
        }
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-nowarn", "-d", classes.toString(), "-cp", classPath,
                System.getProperty("agent.sparkJob"));
        assertEquals(0, rc, "javac of ShuffleJob");
        Path jar = work.resolve("shuffle-job.jar");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar));
             Stream<Path> files = Files.list(classes)) {
            for (Path f : files.collect(Collectors.toList())) {
                out.putNextEntry(new JarEntry(f.getFileName().toString()));
                out.write(Files.readAllBytes(f));
                out.closeEntry();
            }
        }
        return jar;
    }

    /** The job in local mode, one JVM without the agent; its result line. */
    private static String runLocally(Path home, Path dir, Path job) throws Exception {
        Files.createDirectories(dir);
        return submit(home, dir, job, "local[2]", CHILD_JVM_ARGS, CHILD_JVM_ARGS);
    }

    /** A fresh cluster with the agent on every JVM, one job on it, the cluster stopped; the job's result line. */
    private static String runOnCluster(Path home, Path dir, Path job) throws Exception {
        Files.createDirectories(dir);
        String agentOpt = CHILD_JVM_ARGS + " -javaagent:" + AppJvm.agentJar() + "=metricsFile=" + dir;
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        String master = "spark://127.0.0.1:" + port;
        List<Process> daemons = new ArrayList<>();
        try {
            daemons.add(spark(home, dir, "master.log", agentOpt + "/daemon-%p.properties",
                    "bin/spark-class", "org.apache.spark.deploy.master.Master", "--host", "127.0.0.1", "--port",
                    String.valueOf(port), "--webui-port", "0"));
            daemons.add(spark(home, dir, "worker.log", agentOpt + "/daemon-%p.properties",
                    "bin/spark-class", "org.apache.spark.deploy.worker.Worker", "--host", "127.0.0.1", "--cores", "2",
                    "--memory", "2g", "--webui-port", "0", "--work-dir", dir.resolve("work").toString(), master));
            String result = submit(home, dir, job, master, agentOpt + "/driver-%p.properties",
                    agentOpt + "/executor-%p.properties");
            // Executors write their report when the worker stops them, after the application ends.
            for (int i = 0; i < 120 && reports(dir, "executor-").size() < 2; i++) {
                Thread.sleep(250);
            }
            return result;
        } finally {
            for (Process p : daemons) {
                p.destroy();
            }
            for (Process p : daemons) {
                if (!p.waitFor(30, TimeUnit.SECONDS)) {
                    p.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
                }
            }
        }
    }

    /** spark-submit of the job to {@code master}, with the given JVM options; its result line once it ended. */
    private static String submit(Path home, Path dir, Path job, String master, String driverOpts,
            String executorOpts) throws Exception {
        Process submit = spark(home, dir, "driver.log", "", "bin/spark-submit", "--master", master,
                "--class", "ShuffleJob", "--driver-memory", "512m", "--executor-memory", "512m",
                "--conf", "spark.executor.cores=1", "--conf", "spark.ui.enabled=false",
                "--conf", "spark.driver.host=127.0.0.1", "--conf", "spark.shuffle.readHostLocalDisk=false",
                "--conf", "spark.sql.autoBroadcastJoinThreshold=-1", "--conf", "spark.sql.shuffle.partitions=2",
                "--conf", "spark.driver.extraJavaOptions=" + driverOpts,
                "--conf", "spark.executor.extraJavaOptions=" + executorOpts,
                job.toString(), "20000", "2");
        if (!submit.waitFor(3, TimeUnit.MINUTES)) {
            submit.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
            throw new AssertionError("the Spark job did not end within 3 minutes; logs in " + dir);
        }
        String driver = Files.readString(dir.resolve("driver.log"));
        assertEquals(0, submit.exitValue(), driver);
        return driver.lines().filter(l -> l.startsWith("RESULT ")).findFirst()
                .orElseThrow(() -> new AssertionError("no RESULT line:\n" + driver));
    }

    private static Process spark(Path home, Path dir, String log, String daemonOpts, String... command)
            throws IOException {
        List<String> cmd = new ArrayList<>();
        cmd.add(home.resolve(command[0]).toString());
        cmd.addAll(List.of(command).subList(1, command.length));
        ProcessBuilder b = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(log).toFile());
        b.environment().put("SPARK_HOME", home.toString());
        b.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
        b.environment().put("SPARK_NO_DAEMONIZE", "1");
        b.environment().put("SPARK_DAEMON_JAVA_OPTS", daemonOpts);
        b.environment().put("JAVA_HOME", System.getProperty("java.home"));
        Process p = b.start();
        OutputStream in = p.getOutputStream();
        in.close();
        if (log.equals("worker.log")) {
            awaitLine(dir.resolve("master.log"), "Registering worker", p);
        }
        return p;
    }

    private static void awaitLine(Path log, String text, Process p) throws IOException {
        for (int i = 0; i < 240; i++) {
            if (Files.exists(log) && Files.readString(log, StandardCharsets.UTF_8).contains(text)) {
                return;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError(e);
            }
        }
        p.destroyForcibly();
        throw new AssertionError("no '" + text + "' in " + log + " within 60 s");
    }

    private static List<Properties> reports(Path dir, String prefix) throws IOException {
        List<Properties> reports = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.getFileName().toString().startsWith(prefix)
                    && f.toString().endsWith(".properties")).collect(Collectors.toList())) {
                Properties p = new Properties();
                try (var r = Files.newBufferedReader(f)) {
                    p.load(r);
                }
                reports.add(p);
            }
        }
        return reports;
    }
}
