/*
 * Copyright 2026 The netty-ucx authors. Licensed under the Apache License, Version 2.0.
 */

import org.apache.spark.executor.ShuffleReadMetrics;
import org.apache.spark.executor.TaskMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;

import java.util.concurrent.atomic.LongAdder;

/**
 * The shuffle-heavy job of bin/spark-demo and bin/bench spark, compiled there against the Spark distribution's jars
 * (it is no part of the Maven build). Two generated tables of {@code rows} rows each are joined on their key with a
 * sort-merge join, so that every row of both crosses the shuffle, then reduced to a count and two order-independent
 * checksums: the result line must be the same whatever transport carried the shuffle. Spark's own task metrics, summed
 * over the job's tasks, are printed next to it.
 *
 * <p>Arguments: rows, partitions.
 */
public final class ShuffleJob {
    private ShuffleJob() {
    }

    public static void main(String[] args) throws Exception {
        long rows = Long.parseLong(args[0]);
        int partitions = Integer.parseInt(args[1]);
        SparkSession spark = SparkSession.builder().appName("netty-ucx shuffle job").getOrCreate();
        Totals totals = new Totals();
        spark.sparkContext().addSparkListener(totals);

        // Payloads from a hash of the key: as costly to compute on either side, and as incompressible as hex gets.
        Dataset<Row> left = spark.range(0, rows, 1, partitions)
                .selectExpr("id AS k", "concat(hex(xxhash64(id)), hex(xxhash64(id, 1)), hex(xxhash64(id, 2))) AS a");
        Dataset<Row> right = spark.range(0, rows, 1, partitions)
                .selectExpr("(id * 7919) % " + rows + " AS k",
                        "concat(hex(xxhash64(id, 3)), hex(xxhash64(id, 4)), hex(xxhash64(id, 5))) AS b");
        long start = System.nanoTime();
        Row result = left.join(right, "k")
                .selectExpr("xxhash64(k, a, b) AS h")
                .selectExpr("count(h)", "bit_xor(h)", "sum(pmod(h, 1000003))")
                .first();
        long millis = (System.nanoTime() - start) / 1_000_000;
        // Task-end events reach the listener on Spark's listener thread: wait until it has seen them all.
        spark.sparkContext().listenerBus().waitUntilEmpty(30_000);

        System.out.println("RESULT rows=" + result.getLong(0) + " xor=" + result.getLong(1) + " sum=" + result.get(2));
        System.out.println("JOB_MILLIS " + millis);
        System.out.println("SHUFFLE remoteBytesRead=" + totals.remoteBytes.sum() + " localBytesRead="
                + totals.localBytes.sum() + " remoteBlocks=" + totals.remoteBlocks.sum() + " fetchWaitMillis="
                + totals.fetchWait.sum() + " writeBytes=" + totals.writeBytes.sum() + " writeMillis="
                + totals.writeNanos.sum() / 1_000_000);
        System.out.println("TASKS count=" + totals.tasks.sum() + " runMillis=" + totals.run.sum() + " cpuMillis="
                + totals.cpuNanos.sum() / 1_000_000 + " gcMillis=" + totals.gc.sum() + " deserializeMillis="
                + totals.deserialize.sum());
        spark.stop();
    }

    /** Spark's task metrics summed over the application's tasks, as its UI's stage summary sums them. */
    private static final class Totals extends SparkListener {
        final LongAdder tasks = new LongAdder();
        final LongAdder remoteBytes = new LongAdder();
        final LongAdder localBytes = new LongAdder();
        final LongAdder remoteBlocks = new LongAdder();
        final LongAdder fetchWait = new LongAdder();
        final LongAdder writeBytes = new LongAdder();
        final LongAdder writeNanos = new LongAdder();
        final LongAdder run = new LongAdder();
        final LongAdder cpuNanos = new LongAdder();
        final LongAdder gc = new LongAdder();
        final LongAdder deserialize = new LongAdder();

        @Override
        public void onTaskEnd(SparkListenerTaskEnd end) {
            TaskMetrics m = end.taskMetrics();
            if (m == null) {
                return;
            }
            tasks.increment();
            ShuffleReadMetrics read = m.shuffleReadMetrics();
            remoteBytes.add(read.remoteBytesRead());
            localBytes.add(read.localBytesRead());
            remoteBlocks.add(read.remoteBlocksFetched());
            fetchWait.add(read.fetchWaitTime());
            writeBytes.add(m.shuffleWriteMetrics().bytesWritten());
            writeNanos.add(m.shuffleWriteMetrics().writeTime());
            run.add(m.executorRunTime());
            cpuNanos.add(m.executorCpuTime());
            gc.add(m.jvmGCTime());
            deserialize.add(m.executorDeserializeTime());
        }
    }
}
