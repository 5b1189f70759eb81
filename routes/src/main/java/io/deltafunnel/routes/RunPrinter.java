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
import io.deltafunnel.mssql.JdbcUrls;
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
        long interval = Math.max(100, output.terminal() ? Math.min(500, output.progressIntervalMillis())
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
     * The progress lines joined by {@code " | "} in at most {@code width} characters: each line gets an equal share
     * of the width and is cut (ending in {@code ~}) when longer.
     */
    static String fit(List<String> lines, int width) {
        String joined = String.join(" | ", lines);
        if (joined.length() <= width) {
            return joined;
        }
        int share = Math.max(4, (width - 3 * (lines.size() - 1)) / lines.size());
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            if (sb.length() > 0) {
                sb.append(" | ");
            }
            sb.append(l.length() <= share ? l : l.substring(0, share - 1) + "~");
        }
        return sb.length() <= width ? sb.toString() : sb.substring(0, Math.max(0, width - 1)) + "~";
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
