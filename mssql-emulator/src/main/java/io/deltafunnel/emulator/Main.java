package io.deltafunnel.emulator;

import java.io.PrintStream;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.concurrent.CountDownLatch;

/**
 * Command line: {@code java -jar mssql-emulator-<ver>-all.jar --port 1433 --password 'pw' [--user sa] [--sink]
 * [--bind 0.0.0.0]}. Prints a line containing {@code listening on <port>} when ready and runs until killed.
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
        InetAddress bind;
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
                + " [--bind <address>]";
    }

    /** Starts the emulator and prints the ready line; the caller owns the returned instance. */
    static MssqlEmulator start(String[] args, PrintStream out) {
        Options o = parse(args);
        MssqlEmulator.Builder b = MssqlEmulator.builder().port(o.port).user(o.user).password(o.password)
                .sinkMode(o.sink);
        if (o.bind != null) {
            b.bindAddress(o.bind);
        }
        MssqlEmulator emu = b.start();
        out.println("mssql-emulator listening on " + emu.port() + (o.sink ? " (sink mode)" : "")
                + " - JDBC URL: " + emu.jdbcUrl());
        out.flush();
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
        CountDownLatch forever = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(emu::close, "mssql-emulator-shutdown"));
        forever.await();
    }
}
