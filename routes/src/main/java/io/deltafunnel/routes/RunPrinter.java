package io.deltafunnel.routes;

import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;
import java.util.function.Supplier;

import io.deltafunnel.handoff.HandoffException;
import io.deltafunnel.handoff.QuerySetupException;
import io.deltafunnel.handoff.ShardPlanException;
import io.deltafunnel.handoff.UpstreamException;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.channel.JdbcUrls;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The terminal and log printer of the runs: the progress lines (one line updated in place on a terminal, else a log
 * line every {@code progressIntervalMillis}), the summary lines, and the one-line description of a failure.
 *
 * <p>On a terminal the in-place line never exceeds the terminal's width (the {@code COLUMNS} environment variable,
 * else {@code stty size}, else 80 columns) and never shares a line with a log line: {@link #start} replaces
 * {@code System.out} and {@code System.err} with streams that erase the progress line before anything else is
 * written and draw it again after the line ends (the log4j2 console appender follows {@code System.out}). It owns its
 * progress thread, which {@link #close()} stops, and then puts the original streams back.
 */
final class RunPrinter implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RunPrinter.class);

    /** Erase the whole line and return to its first column (ANSI "erase in line", then carriage return). */
    private static final String ERASE = "\r\u001b[2K\r";

    /** Where progress and summaries go; {@code columns} is the terminal's width. */
    record Output(PrintStream out, boolean terminal, long progressIntervalMillis, int columns) {
        Output(PrintStream out, boolean terminal, long progressIntervalMillis) {
            this(out, terminal, progressIntervalMillis, terminal ? TerminalWidth.detect() : 80);
        }
    }

    /**
     * The shortest time between two progress updates, in milliseconds. A test that needs an update during a run
     * shorter than this (the embedded endpoint loads its 5,000-row sample in well under 100 ms) lowers it; nothing
     * else changes it.
     */
    static volatile long minIntervalMillis = 100;

    private final Output output;
    private final Object lock;
    private volatile Thread ticker;
    private String shown; // the in-place line on screen, null when none; guarded by lock
    private PrintStream originalOut;
    private PrintStream originalErr;

    RunPrinter(Output output) {
        this.output = output;
        this.lock = output.out();
    }

    boolean terminal() {
        return output.terminal();
    }

    /** How often a progress log line is written (when not on a terminal). */
    long intervalNanos() {
        return output.progressIntervalMillis() * 1_000_000L;
    }

    /** Starts the progress thread, which prints what {@code lines} returns (an empty list: nothing to show). */
    void start(Supplier<List<String>> lines) {
        long interval = Math.max(minIntervalMillis, output.terminal() ? Math.min(500, output.progressIntervalMillis())
                : Math.min(1000, output.progressIntervalMillis()));
        if (output.terminal() && System.out == output.out()) {
            originalOut = System.out;
            originalErr = System.err;
            System.setOut(new PrintStream(new ClearingStream(originalOut), true));
            System.setErr(new PrintStream(new ClearingStream(originalErr), true));
        }
        Thread t = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                try {
                    Thread.sleep(interval);
                } catch (InterruptedException e) {
                    return;
                }
                show(lines.get());
            }
        }, "deltafunnel-progress");
        t.setDaemon(true);
        ticker = t;
        t.start();
    }

    @Override
    public void close() {
        Thread t = ticker;
        ticker = null;
        if (t != null) {
            t.interrupt();
        }
        synchronized (lock) {
            if (originalOut != null) {
                System.setOut(originalOut);
                System.setErr(originalErr);
                originalOut = null;
            }
            erase();
        }
    }

    /** Shows progress lines: in place on a terminal (joined, fitted to the width), else as log lines. */
    void show(List<String> lines) {
        if (lines.isEmpty()) {
            return;
        }
        if (!output.terminal()) {
            lines.forEach(LOG::info);
            return;
        }
        String line = fit(lines, output.columns() - 1);
        synchronized (lock) {
            output.out().print("\r" + line + "\u001b[K");
            output.out().flush();
            shown = line;
        }
    }

    /**
     * The progress lines joined by {@code " | "} in at most {@code width} characters. When they are too long, the
     * route ids' common prefix is said once ({@code load-table-shard-0: …, load-table-shard-1: …} becomes
     * {@code load-table-shard- 0: … | 1: …}), then each line is compacted (no ETA, no total, {@code r/s}), and then each
     * gets an equal share of the width, cut with a {@code ~}.
     */
    static String fit(List<String> lines, int width) {
        String joined = String.join(" | ", lines);
        if (joined.length() <= width || lines.isEmpty()) {
            return joined;
        }
        String prefix = "";
        List<String> parts = lines;
        if (lines.size() > 1) {
            prefix = commonIdPrefix(lines);
            int cut = prefix.length();
            parts = lines.stream().map(l -> l.substring(cut)).toList();
            joined = prefix + " " + String.join(" | ", parts);
            if (joined.length() <= width) {
                return joined;
            }
        }
        parts = parts.stream().map(RunPrinter::compact).toList();
        String head = prefix.isEmpty() ? "" : prefix + " ";
        joined = head + String.join(" | ", parts);
        if (joined.length() <= width) {
            return joined;
        }
        parts = parts.stream().map(RunPrinter::terse).toList();
        joined = head + String.join(" | ", parts);
        if (joined.length() > width && !head.isEmpty()) {
            head = ""; // the ids' own parts (0:, 1:, …) still tell the routes apart
            joined = String.join(" | ", parts);
        }
        if (joined.length() <= width) {
            return joined;
        }
        int share = Math.max(4, (width - head.length() - 3 * (parts.size() - 1)) / parts.size());
        StringBuilder sb = new StringBuilder(head);
        for (int i = 0; i < parts.size(); i++) {
            String l = parts.get(i);
            sb.append(i == 0 ? "" : " | ").append(l.length() <= share ? l : l.substring(0, share - 1) + "~");
        }
        return sb.length() <= width ? sb.toString() : sb.substring(0, Math.max(0, width - 1)) + "~";
    }

    /** The common start of the lines' route ids, up to and including its last {@code -}; empty when none. */
    private static String commonIdPrefix(List<String> lines) {
        String first = lines.get(0);
        int colon = first.indexOf(": ");
        int n = colon < 0 ? 0 : colon;
        for (String l : lines) {
            int i = 0;
            while (i < n && i < l.length() && l.charAt(i) == first.charAt(i)) {
                i++;
            }
            n = i;
        }
        int dash = first.lastIndexOf('-', n - 1);
        return dash < 0 ? "" : first.substring(0, dash + 1);
    }

    /** A progress line in fewer characters: no ETA, no total, {@code r/s}, no explanation in parentheses. */
    static String compact(String line) {
        return line.replaceAll(", ETA \\d+ s", "").replaceAll(" of [\\d,]+ rows", "").replace(" rows/s", " r/s")
                .replace(" rows", "").replaceAll(" \\((Delta log|last batch|after)[^)]*\\)", "");
    }

    private static final java.util.regex.Pattern GROUPED = java.util.regex.Pattern.compile("\\d{1,3}(,\\d{3})+");

    /**
     * A compacted line in the fewest characters, e.g. {@code 0: 120k 40% 35k/s}: no elapsed time, no
     * {@code writing}, thousands as {@code k} and millions as {@code M}.
     */
    static String terse(String line) {
        String t = line.replaceAll(", \\d+(\\.\\d)? s$", "").replace("writing ", "").replaceAll(" \\((\\d+%)\\)", " $1")
                .replace(", ", " ").replace(" r/s", "/s");
        java.util.regex.Matcher m = GROUPED.matcher(t);
        StringBuilder sb = new StringBuilder();
        while (m.find()) {
            long n = Long.parseLong(m.group().replace(",", ""));
            m.appendReplacement(sb, n >= 1_000_000 ? n / 1_000_000 + "M" : n / 1_000 + "k");
        }
        return m.appendTail(sb).toString();
    }

    /** Prints a line on the output (after erasing an in-place progress line, which the next tick draws again). */
    void print(String line) {
        PrintStream out = output.out();
        synchronized (lock) {
            erase();
            out.println(line);
            out.flush();
        }
    }

    private void erase() {
        if (shown != null) {
            output.out().print(ERASE);
            output.out().flush();
            shown = null;
        }
    }

    /** A stream for log output: erases the progress line before writing, draws it again after a line ends. */
    private final class ClearingStream extends OutputStream {
        private final PrintStream target;

        ClearingStream(PrintStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (lock) {
                String again = shown;
                erase();
                target.write(b, off, len);
                if (again != null && len > 0 && b[off + len - 1] == '\n' && target == originalOut) {
                    output.out().print(again + "\u001b[K");
                    shown = again;
                }
                target.flush();
            }
        }

        @Override
        public void flush() {
            target.flush();
        }
    }

    /**
     * The failure in one line: the most specific DeltaFunnel exception's message (the producer's, a shard's refusal,
     * else the query's), without the statistics when nothing was accepted, and no stack trace.
     */
    static String describe(Throwable failure) {
        Throwable best = failure;
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof BulkLoadException || t instanceof QuerySetupException || t instanceof UpstreamException
                || t instanceof ShardPlanException) {
                best = t;
                break;
            }
            if (!(t instanceof HandoffException) && t != failure && best == failure) {
                best = t; // a failure of another step, wrapped by the consumer's DownstreamException
            }
        }
        String message = best.getMessage() == null ? best.getClass().getSimpleName() : best.getMessage();
        message = message.replace(" [inputBatches=0, inputRows=0, outputBatches=0, outputRows=0]", "");
        if (best instanceof QuerySetupException && best.getCause() != null && best.getCause().getMessage() != null
            && !message.contains(best.getCause().getMessage())) {
            message += ": " + best.getCause().getMessage();
        }
        return JdbcUrls.redactText(message).replace('\n', ' ');
    }

    static double rate(long rows, long nanos) {
        return nanos <= 0 ? 0 : rows * 1e9 / nanos;
    }

    static String fmt(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }
}
