package io.deltafunnel.benchmark;

import java.io.IOException;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordedFrame;
import jdk.jfr.consumer.RecordedStackTrace;
import jdk.jfr.consumer.RecordedThread;
import jdk.jfr.consumer.RecordingFile;

/**
 * Aggregates a JFR recording of the DeltaFunnel path into stages. Each {@code jdk.ExecutionSample} (a thread
 * running Java code) is attributed, walking its stack from the leaf towards the root, to the first frame that
 * belongs to a known stage:
 *
 * <ul>
 *   <li>socket: {@code java.net}/{@code sun.nio.ch} socket code</li>
 *   <li>adaptation: {@code BatchCheck}, {@code ArrowBulkData}, {@code TargetBinding}, {@code ColumnReaders} (and the
 *       Arrow and JDK code they call), split into validate (the batch check) and getRowData</li>
 *   <li>driver encoding: {@code com.microsoft.sqlserver.jdbc} (and the JDK code it calls, e.g. BigDecimal)</li>
 *   <li>direct writer (the {@code direct} path): the encoders of {@code io.deltafunnel.mssql.direct} and the TDS
 *       packet framing of {@code io.deltafunnel.tds} (client threads), with the Arrow and JDK code they call;
 *       its pre-check {@code BatchCheck} counts as adaptation: validate</li>
 *   <li>query + Arrow export: {@code org.duckdb}, {@code org.apache.arrow.c}, {@code io.deltafunnel.query}</li>
 *   <li>Camel routing, emulator (the server side, by thread name), other</li>
 * </ul>
 *
 * {@code jdk.NativeMethodSample}s (threads inside native code: DuckDB's JNI calls, blocking socket reads) are
 * reported separately: they are wall-clock, not CPU. DuckDB's own worker threads are native and never sampled.
 *
 * <p>Usage: {@code java -cp ... io.deltafunnel.benchmark.JfrStages recording.jfr}
 */
public final class JfrStages {

    private JfrStages() {
    }

    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        Map<String, Long> cpu = new LinkedHashMap<>();
        Map<String, Long> nativeSamples = new LinkedHashMap<>();
        Map<String, Long> clientLeaves = new HashMap<>();
        Map<String, Long> driverFrames = new HashMap<>();
        Map<String, Long> adapterFrames = new HashMap<>();
        Map<String, Long> directFrames = new HashMap<>();
        Map<String, Long> directLines = new HashMap<>();
        double jvmCpu = 0;
        double machineCpu = 0;
        int cpuEvents = 0;
        long gcNanos = 0;
        long gcCount = 0;
        for (RecordedEvent e : RecordingFile.readAllEvents(file)) {
            String type = e.getEventType().getName();
            switch (type) {
                case "jdk.ExecutionSample" -> {
                    RecordedThread t = e.getThread("sampledThread");
                    RecordedStackTrace st = e.getStackTrace();
                    if (st == null) {
                        continue;
                    }
                    String stage = stage(t, st.getFrames());
                    cpu.merge(stage, 1L, Long::sum);
                    if (!stage.startsWith("emulator") && !st.getFrames().isEmpty()) {
                        clientLeaves.merge(frameName(st.getFrames().get(0)), 1L, Long::sum);
                        if (stage.startsWith("driver")) {
                            driverFrames.merge(firstMatching(st.getFrames(), "com.microsoft.sqlserver.jdbc.")
                                    + " <- leaf " + frameName(st.getFrames().get(0)), 1L, Long::sum);
                        }
                        if (stage.startsWith("direct writer")) {
                            RecordedFrame inner = firstFrame(st.getFrames(), "io.deltafunnel.mssql.direct.",
                                    "io.deltafunnel.tds.");
                            directFrames.merge((inner == null ? "?" : frameName(inner)) + " <- leaf "
                                    + frameName(st.getFrames().get(0)), 1L, Long::sum);
                            directLines.merge(frameLine(st.getFrames().get(0)) + (inner == null
                                    || inner == st.getFrames().get(0) ? "" : " <- " + frameLine(inner)), 1L,
                                    Long::sum);
                        }
                        if (stage.startsWith("adaptation")) {
                            adapterFrames.merge(firstMatching(st.getFrames(), "io.deltafunnel.mssql.")
                                    + " <- leaf " + frameName(st.getFrames().get(0)), 1L, Long::sum);
                        }
                    }
                }
                case "jdk.NativeMethodSample" -> {
                    RecordedThread t = e.getThread("sampledThread");
                    RecordedStackTrace st = e.getStackTrace();
                    if (st != null) {
                        nativeSamples.merge(nativeStage(t, st.getFrames()), 1L, Long::sum);
                    }
                }
                case "jdk.CPULoad" -> {
                    jvmCpu += e.getFloat("jvmUser") + e.getFloat("jvmSystem");
                    machineCpu += e.getFloat("machineTotal");
                    cpuEvents++;
                }
                case "jdk.GarbageCollection" -> {
                    gcNanos += e.getDuration().toNanos();
                    gcCount++;
                }
                default -> {
                }
            }
        }
        long clientTotal = cpu.entrySet().stream().filter(x -> !x.getKey().startsWith("emulator"))
                .mapToLong(Map.Entry::getValue).sum();
        long total = cpu.values().stream().mapToLong(Long::longValue).sum();
        System.out.println("## CPU samples by stage (jdk.ExecutionSample)");
        System.out.println();
        System.out.println("| stage | samples | % of client | % of all |");
        System.out.println("|---|---:|---:|---:|");
        cpu.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed()).forEach(x ->
                System.out.printf("| %s | %d | %s | %.1f%% |%n", x.getKey(), x.getValue(),
                        x.getKey().startsWith("emulator") ? "-" : String.format("%.1f%%", 100.0 * x.getValue()
                                / clientTotal), 100.0 * x.getValue() / total));
        System.out.println();
        System.out.println("## Native-method samples (wall clock inside native code, not CPU)");
        System.out.println();
        nativeSamples.entrySet().stream().sorted(Map.Entry.<String, Long>comparingByValue().reversed())
                .forEach(x -> System.out.printf("- %s: %d%n", x.getKey(), x.getValue()));
        System.out.println();
        if (cpuEvents > 0) {
            System.out.printf("CPU load (jdk.CPULoad, 0..1 of all cores): JVM %.2f, machine %.2f (other processes:"
                    + " %.2f)%n", jvmCpu / cpuEvents, machineCpu / cpuEvents, (machineCpu - jvmCpu) / cpuEvents);
        }
        System.out.printf("GC: %d collections, %.0f ms total pause/phase time%n", gcCount, gcNanos / 1e6);
        top("Top leaf methods (client threads)", clientLeaves, clientTotal, 25);
        top("Driver samples: innermost driver frame <- leaf", driverFrames, clientTotal, 20);
        top("Adapter samples: innermost io.deltafunnel.mssql frame <- leaf", adapterFrames, clientTotal, 20);
        if (!directFrames.isEmpty()) {
            top("Direct writer samples: innermost io.deltafunnel.mssql.direct / io.deltafunnel.tds frame <- leaf",
                    directFrames, clientTotal, 20);
            top("Direct writer samples by line: leaf method:line <- innermost direct/tds method:line", directLines,
                    clientTotal, 25);
        }
    }

    private static void top(String title, Map<String, Long> counts, long total, int n) {
        System.out.println();
        System.out.println("## " + title);
        System.out.println();
        List<Map.Entry<String, Long>> top = counts.entrySet().stream()
                .sorted(Map.Entry.<String, Long>comparingByValue().reversed()).limit(n).collect(Collectors.toList());
        for (Map.Entry<String, Long> x : top) {
            System.out.printf("- %5.1f%%  %s%n", 100.0 * x.getValue() / total, x.getKey());
        }
    }

    static String frameName(RecordedFrame f) {
        return f.getMethod().getType().getName() + "." + f.getMethod().getName();
    }

    static String frameLine(RecordedFrame f) {
        return frameName(f) + ":" + f.getLineNumber();
    }

    private static RecordedFrame firstFrame(List<RecordedFrame> frames, String prefix, String otherPrefix) {
        for (RecordedFrame f : frames) {
            String cls = f.getMethod().getType().getName();
            if (cls.startsWith(prefix) || cls.startsWith(otherPrefix)) {
                return f;
            }
        }
        return null;
    }

    private static String firstMatching(List<RecordedFrame> frames, String prefix) {
        for (RecordedFrame f : frames) {
            if (f.getMethod().getType().getName().startsWith(prefix)) {
                return frameName(f);
            }
        }
        return "?";
    }

    static String stage(RecordedThread thread, List<RecordedFrame> frames) {
        String threadName = thread == null ? "" : String.valueOf(thread.getJavaName());
        if (threadName.startsWith("mssql-emulator")) {
            return "emulator (server side: TDS decode, sink)";
        }
        for (RecordedFrame f : frames) {
            String cls = f.getMethod().getType().getName();
            String m = f.getMethod().getName();
            if (cls.startsWith("sun.nio.ch.") || cls.startsWith("java.net.Socket")
                    || cls.startsWith("java.net.SocketOutputStream") || cls.startsWith("java.net.SocketInputStream")) {
                return "socket (JDK socket code)";
            }
            if (cls.startsWith("io.deltafunnel.mssql.channel.ArrowBulkData")
                    || cls.startsWith("io.deltafunnel.mssql.channel.BulkBatch")
                    || cls.startsWith("io.deltafunnel.mssql.bind.TargetBinding")
                    || cls.startsWith("io.deltafunnel.mssql.bind.BatchCheck")
                    || cls.startsWith("io.deltafunnel.arrow.read.ColumnReaders")) {
                return contains(frames, "io.deltafunnel.mssql.bind.BatchCheck", null)
                        ? "adaptation: validate (ArrowBulkData/TargetBinding/ColumnReaders)"
                        : "adaptation: getRowData (ArrowBulkData/TargetBinding/ColumnReaders)";
            }
            if (cls.startsWith("io.deltafunnel.tds.")) {
                return "direct writer: TDS packet framing (io.deltafunnel.tds.TdsMessageWriter)";
            }
            if (cls.startsWith("io.deltafunnel.mssql.direct.")) {
                return "direct writer: encoders (DirectBulkWriter, DirectTdsConnection, incl. Arrow/JDK code they call)";
            }
            if (cls.startsWith("com.microsoft.sqlserver.jdbc.")) {
                return "driver encoding (mssql-jdbc, incl. JDK code it calls)";
            }
            if (cls.startsWith("org.duckdb.") || cls.startsWith("org.apache.arrow.c.")
                    || cls.startsWith("io.deltafunnel.query.")) {
                return "query + Arrow export/import (DuckDB JNI, Arrow C data, ArrowBatchStream)";
            }
            if (cls.startsWith("io.deltafunnel.mssql.") || cls.startsWith("io.deltafunnel.camel.")) {
                return "producer/consumer (BulkLoadSession, Camel endpoints)";
            }
            if (cls.startsWith("org.apache.camel.")) {
                return "Camel routing";
            }
            if (cls.startsWith("io.deltafunnel.benchmark.")) {
                return "benchmark harness";
            }
        }
        return "other (" + threadName + ")";
    }

    private static String nativeStage(RecordedThread thread, List<RecordedFrame> frames) {
        String threadName = thread == null ? "" : String.valueOf(thread.getJavaName());
        String leaf = frames.isEmpty() ? "?" : frameName(frames.get(0));
        if (threadName.startsWith("mssql-emulator")) {
            return "emulator thread in " + leaf;
        }
        if (contains(frames, "org.duckdb.", null) || contains(frames, "org.apache.arrow.c.", null)) {
            return "client thread inside DuckDB native (query execution + Arrow export): " + leaf;
        }
        if (contains(frames, "com.microsoft.sqlserver.jdbc.", null)) {
            return "driver thread in native " + leaf + " (socket: write or waiting for the server's answer)";
        }
        return threadName + " in " + leaf;
    }

    private static boolean contains(List<RecordedFrame> frames, String classPrefix, String method) {
        for (RecordedFrame f : frames) {
            if (f.getMethod().getType().getName().startsWith(classPrefix)
                    && (method == null || method.equals(f.getMethod().getName()))) {
                return true;
            }
        }
        return false;
    }
}
