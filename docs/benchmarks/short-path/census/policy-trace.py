# policy-trace.py: patches UcxIdlePolicy.java (run in the repository root, on a scratch build only) to write each loop's
# mode, busy and runnable shares, other runnable threads (the moving average, census taken away), the census's
# share of the other loops and compilers, its slot, and ms spent spinning and sleeping at once, to /tmp/s18/pol/PID-LOOP.log
p='transport-ucx/src/main/java/io/github/nettyucx/loop/UcxIdlePolicy.java'
s=open(p).read()
a='''        boolean taken = cpusTaken(now) && !carriesStream(now);'''
assert s.count(a)==1
s=s.replace(a,'''        boolean cpusTakenNow = cpusTaken(now);
        boolean stream = carriesStream(now);
        boolean taken = cpusTakenNow && !stream;
        dbg(now, taken ? Mode.CPUS_TAKEN : Mode.SPINNING, cpusTakenNow, stream);''')
a='''    /** Whether the loop works at least'''
s=s.replace(a,'''    private java.io.PrintStream dbgOut;
    private Mode dbgLast;
    private long dbgSince;
    private final long[] dbgTime = new long[4];
    private long dbgNext;

    private void dbg(long now, Mode m, boolean takenNow, boolean stream) {
        if (dbgOut == null) {
            try {
                dbgOut = new java.io.PrintStream(new java.io.FileOutputStream("/tmp/s18/pol/" + ProcessHandle.current().pid()
                        + "-" + Thread.currentThread().getName() + ".log"), true);
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
            dbgSince = now;
            dbgNext = now;
        }
        if (dbgLast != null) {
            dbgTime[dbgLast.ordinal()] += now - dbgSince;
        }
        dbgSince = now;
        if (m != dbgLast || now - dbgNext >= 0) {
            dbgOut.printf("%d %s taken=%b stream=%b busy=%.2f run=%.2f others=%.2f fellows=%.2f slot=%d taskAgeMs=%d spinMs=%d takenMs=%d%n",
                    now / 1000000, m, takenNow, stream, busyShare, runnableShare, othersRunnable, fellows, censusSlot, (now - otherThreadsTaskSeenAt) / 1000000,
                    dbgTime[Mode.SPINNING.ordinal()] / 1000000, dbgTime[Mode.CPUS_TAKEN.ordinal()] / 1000000);
            dbgNext = now + 50_000_000L;
        }
        dbgLast = m;
    }

'''+a,1)
open(p,'w').write(s)
