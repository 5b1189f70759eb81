package io.deltafunnel.routes;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.Level;
import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.LoggerContext;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Configuration;
import org.apache.logging.log4j.core.config.LoggerConfig;
import org.apache.logging.log4j.core.config.Property;

/**
 * Captures everything a test's JVM writes: every log4j2 event at the configured levels, with the loggers under
 * {@code io.deltafunnel} lowered to {@code level} (message and the rendered stack trace of its throwable, causes and
 * suppressed included), and standard output and error (still passed through).
 * {@link #close()} restores the logging configuration and the streams.
 */
final class LogCapture implements AutoCloseable {

    private final List<String> events = new CopyOnWriteArrayList<>();
    private final ByteArrayOutputStream streams = new ByteArrayOutputStream();
    private final PrintStream oldOut = System.out;
    private final PrintStream oldErr = System.err;
    private final LoggerContext context = (LoggerContext) LogManager.getContext(false);
    private final AbstractAppender appender;
    private final boolean addedLogger;

    LogCapture(Level level) {
        Configuration config = context.getConfiguration();
        LoggerConfig root = config.getRootLogger();
        appender = new AbstractAppender("secrets-capture", null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                StringBuilder sb = new StringBuilder(event.getLevel() + " " + event.getLoggerName() + " - "
                        + event.getMessage().getFormattedMessage());
                if (event.getThrown() != null) {
                    sb.append('\n').append(stackTrace(event.getThrown()));
                }
                events.add(sb.toString());
            }
        };
        appender.start();
        root.addAppender(appender, Level.ALL, null);
        addedLogger = !config.getLoggers().containsKey("io.deltafunnel");
        if (addedLogger) {
            config.addLogger("io.deltafunnel", new LoggerConfig("io.deltafunnel", level, true));
        }
        context.updateLoggers();
        System.setOut(new PrintStream(new Tee(oldOut), true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(new Tee(oldErr), true, StandardCharsets.UTF_8));
    }

    /** {@code t} as printStackTrace renders it: every message of the chain, causes and suppressed ones. */
    static String stackTrace(Throwable t) {
        StringWriter w = new StringWriter();
        t.printStackTrace(new PrintWriter(w));
        return w.toString();
    }

    /** All captured log events and stream output so far. */
    String text() {
        synchronized (streams) {
            return String.join("\n", events) + "\n" + streams.toString(StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() {
        System.setOut(oldOut);
        System.setErr(oldErr);
        LoggerConfig root = context.getConfiguration().getRootLogger();
        root.removeAppender(appender.getName());
        if (addedLogger) {
            context.getConfiguration().removeLogger("io.deltafunnel");
        }
        context.updateLoggers();
        appender.stop();
    }

    private final class Tee extends OutputStream {
        private final PrintStream passOn;

        Tee(PrintStream passOn) {
            this.passOn = passOn;
        }

        @Override
        public void write(int b) {
            synchronized (streams) {
                streams.write(b);
            }
            passOn.write(b);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            synchronized (streams) {
                streams.write(b, off, len);
            }
            passOn.write(b, off, len);
        }
    }
}
