package io.deltafunnel.emulator;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;

/**
 * Command line: {@code java -jar mssql-emulator-<ver>-all.jar --port 1433 --password 'pw' [--user sa] [--sink]
 * [--bind 0.0.0.0] [--read-committed-snapshot] [--stall-bulk-load N]... [--rollback-ms-per-row N]}. Prints a line containing {@code listening on <port>} when ready and
 * runs until killed.
 *
 * <p>{@code --stall-bulk-load N} (for tests that need a client caught inside a bulk load, e.g. to kill its process
 * there): the N-th BULK_LOAD message since the start is applied but its reply is held
 * ({@link Faults#stallBulkLoad}); the emulator prints {@code mssql-emulator: bulk load stalled (k of n)} when it
 * begins, and a line {@code release} on its standard input lets every held reply go.
 *
 * <p>{@code --rollback-ms-per-row N} (a decimal number of milliseconds, e.g. {@code 0.05}): the rollback of a lost
 * session's open transaction takes N ms per row it wrote, and the session's locks and application locks stay held
 * meanwhile ({@link MssqlEmulator.Builder#rollbackDelayPerRow}).
 * <p>{@code --read-committed-snapshot}: the database starts with READ_COMMITTED_SNAPSHOT ON (Azure SQL Database's
 * default; {@link MssqlEmulator.Builder#readCommittedSnapshot}).
 */
public final class Main {
    private Main() {
    }

    /** Parsed command line. */
    static final class Options {
        int port = 1433;
        String user = "sa";
        String password;
        boolean sink;
        boolean readCommittedSnapshot;
        InetAddress bind;
        java.time.Duration rollbackPerRow = java.time.Duration.ZERO;
        final java.util.List<Integer> stalls = new java.util.ArrayList<>();
    }

    static Options parse(String[] args) {
        Options o = new Options();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            switch (a) {
                case "--port":
                    o.port = Integer.parseInt(value(args, ++i, a));
                    break;
                case "--password":
                    o.password = value(args, ++i, a);
                    break;
                case "--user":
                    o.user = value(args, ++i, a);
                    break;
                case "--sink":
                    o.sink = true;
                    break;
                case "--read-committed-snapshot":
                    o.readCommittedSnapshot = true;
                    break;
                case "--stall-bulk-load":
                    int n = Integer.parseInt(value(args, ++i, a));
                    if (n < 1) {
                        throw new IllegalArgumentException("--stall-bulk-load counts from 1, got " + n);
                    }
                    o.stalls.add(n);
                    break;
                case "--rollback-ms-per-row": {
                    String v = value(args, ++i, a);
                    double ms;
                    try {
                        ms = Double.parseDouble(v);
                    } catch (NumberFormatException e) {
                        throw new IllegalArgumentException("--rollback-ms-per-row needs a number of milliseconds, got "
                                + v, e);
                    }
                    if (!(ms >= 0) || Double.isInfinite(ms)) {
                        throw new IllegalArgumentException("--rollback-ms-per-row must be zero or more, got " + v);
                    }
                    o.rollbackPerRow = java.time.Duration.ofNanos(Math.round(ms * 1_000_000d));
                    break;
                }
                case "--bind":
                    try {
                        o.bind = InetAddress.getByName(value(args, ++i, a));
                    } catch (UnknownHostException e) {
                        throw new IllegalArgumentException("unknown bind address " + args[i], e);
                    }
                    break;
                default:
                    throw new IllegalArgumentException("unknown option " + a + "\n" + usage());
            }
        }
        if (o.password == null) {
            throw new IllegalArgumentException("--password is required\n" + usage());
        }
        return o;
    }

    private static String value(String[] args, int i, String option) {
        if (i >= args.length) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return args[i];
    }

    static String usage() {
        return "usage: java -jar mssql-emulator-all.jar --port <port> --password <pw> [--user sa] [--sink]"
                + " [--bind <address>] [--read-committed-snapshot] [--stall-bulk-load <n>]... [--rollback-ms-per-row <ms>]";
    }

    /** Starts the emulator and prints the ready line; the caller owns the returned instance. */
    static MssqlEmulator start(String[] args, PrintStream out) {
        Options o = parse(args);
        MssqlEmulator.Builder b = MssqlEmulator.builder().port(o.port).user(o.user).password(o.password)
                .sinkMode(o.sink).rollbackDelayPerRow(o.rollbackPerRow).readCommittedSnapshot(o.readCommittedSnapshot);
        if (o.bind != null) {
            b.bindAddress(o.bind);
        }
        MssqlEmulator emu = b.start();
        for (int n : o.stalls) {
            emu.faults().stallBulkLoad(n);
        }
        out.println("mssql-emulator listening on " + emu.port() + (o.sink ? " (sink mode)" : "")
                + (o.readCommittedSnapshot ? " (READ_COMMITTED_SNAPSHOT ON)" : "")
                + " - JDBC URL: " + emu.jdbcUrl());
        out.flush();
        if (!o.stalls.isEmpty()) {
            int total = o.stalls.size();
            Thread reporter = new Thread(() -> {
                try {
                    for (int k = 1; k <= total; k++) {
                        emu.faults().awaitStalls(k, Long.MAX_VALUE / 2_000_000L);
                        out.println("mssql-emulator: bulk load stalled (" + k + " of " + total + "); a line 'release'"
                                + " on standard input lets it go");
                        out.flush();
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }, "mssql-emulator-stalls");
            reporter.setDaemon(true);
            reporter.start();
        }
        return emu;
    }

    public static void main(String[] args) throws InterruptedException {
        MssqlEmulator emu;
        try {
            emu = start(args, System.out);
        } catch (IllegalArgumentException e) {
            System.err.println(e.getMessage());
            System.exit(2);
            return;
        }
        Thread commands = new Thread(() -> {
            try (java.io.BufferedReader in = new java.io.BufferedReader(new java.io.InputStreamReader(System.in,
                    java.nio.charset.StandardCharsets.UTF_8))) {
                String line;
                while ((line = in.readLine()) != null) {
                    if (line.trim().equals("release")) {
                        emu.faults().releaseStalls();
                        System.out.println("mssql-emulator: stalled bulk loads released");
                        System.out.flush();
                    }
                }
            } catch (java.io.IOException e) {
                // standard input closed: no more commands
            }
        }, "mssql-emulator-stdin");
        commands.setDaemon(true);
        commands.start();
        CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(emu::close, "mssql-emulator-shutdown"));
        forever.await();
    }
}
