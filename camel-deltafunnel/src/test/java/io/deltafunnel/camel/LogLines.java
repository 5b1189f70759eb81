package io.deltafunnel.camel;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.logging.log4j.LogManager;
import org.apache.logging.log4j.core.LogEvent;
import org.apache.logging.log4j.core.appender.AbstractAppender;
import org.apache.logging.log4j.core.config.Property;

/** Captures the formatted messages one class logs while open (log4j2, the tests' logging backend). */
final class LogLines implements AutoCloseable {

    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final org.apache.logging.log4j.core.Logger logger;
    private final AbstractAppender appender;

    LogLines(Class<?> source) {
        logger = (org.apache.logging.log4j.core.Logger) LogManager.getLogger(source);
        appender = new AbstractAppender("capture-" + System.nanoTime(), null, null, true, Property.EMPTY_ARRAY) {
            @Override
            public void append(LogEvent event) {
                lines.add(event.getLevel() + " " + event.getMessage().getFormattedMessage());
            }
        };
        appender.start();
        logger.addAppender(appender);
    }

    /** Every captured line ("LEVEL message"). */
    List<String> all() {
        return List.copyOf(lines);
    }

    /** The captured lines containing {@code text}. */
    List<String> containing(String text) {
        return lines.stream().filter(l -> l.contains(text)).toList();
    }

    /**
     * The captured lines containing {@code text}, once there are at least {@code count} of them or after
     * {@code maxMillis} (whichever comes first): for a line logged by a run's final step, which may end after the
     * route's last exchange is done. A wait, not a timing assertion: the caller asserts on what it returns.
     */
    List<String> awaitContaining(String text, int count, long maxMillis) throws InterruptedException {
        long end = System.nanoTime() + maxMillis * 1_000_000L;
        List<String> found = containing(text);
        while (found.size() < count && System.nanoTime() < end) {
            Thread.sleep(20);
            found = containing(text);
        }
        return found;
    }

    @Override
    public void close() {
        logger.removeAppender(appender);
        appender.stop();
    }
}
