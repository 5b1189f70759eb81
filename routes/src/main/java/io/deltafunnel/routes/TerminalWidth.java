package io.deltafunnel.routes;

import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;

/**
 * The width of the terminal the application runs on: the {@code COLUMNS} environment variable when set, else what
 * {@code stty size} answers for {@code /dev/tty} (once, at start-up; it takes a few milliseconds), else 80 columns.
 */
final class TerminalWidth {

    static final int DEFAULT = 80;

    private TerminalWidth() {
    }

    static int detect() {
        Integer columns = parse(System.getenv("COLUMNS"));
        if (columns != null) {
            return columns;
        }
        File tty = new File("/dev/tty");
        if (tty.exists()) {
            try {
                Process p = new ProcessBuilder("stty", "size").redirectInput(tty)
                        .redirectError(ProcessBuilder.Redirect.DISCARD).start();
                if (p.waitFor(2, TimeUnit.SECONDS) && p.exitValue() == 0) {
                    String[] rowsColumns = new String(p.getInputStream().readAllBytes(), StandardCharsets.US_ASCII)
                            .trim().split("\\s+");
                    if (rowsColumns.length == 2 && (columns = parse(rowsColumns[1])) != null) {
                        return columns;
                    }
                } else {
                    p.destroy();
                }
            } catch (Exception e) {
                // no stty, or no controlling terminal: the default
            }
        }
        return DEFAULT;
    }

    /** A positive column count, or null. */
    static Integer parse(String text) {
        if (text == null || text.isBlank()) {
            return null;
        }
        try {
            int n = Integer.parseInt(text.trim());
            return n >= 20 ? n : null;
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
