package io.deltafunnel.routes;

import java.util.ArrayList;
import java.util.List;

/**
 * What a terminal of {@code columns} columns shows for a captured output: carriage returns, line feeds, the erase
 * sequences {@code ESC[2K} (whole line) and {@code ESC[K} (to the end of the line) interpreted, and a line that
 * reaches the last column wrapped, as a terminal does. {@link #wrapped()} counts the wraps.
 */
final class TerminalScreen {

    private final int columns;
    private final List<String> lines = new ArrayList<>();
    private final StringBuilder line = new StringBuilder();
    private int col;
    private int wrapped;
    private final List<String> wrappedLines = new ArrayList<>();

    private TerminalScreen(int columns) {
        this.columns = columns;
    }

    static TerminalScreen render(String output, int columns) {
        TerminalScreen s = new TerminalScreen(columns);
        for (int i = 0; i < output.length(); i++) {
            char c = output.charAt(i);
            if (c == '\u001b' && i + 1 < output.length() && output.charAt(i + 1) == '[') {
                int j = i + 2;
                while (j < output.length() && !Character.isLetter(output.charAt(j))) {
                    j++;
                }
                if (j < output.length() && output.charAt(j) == 'K') {
                    String arg = output.substring(i + 2, j);
                    if (arg.equals("2")) {
                        s.line.setLength(0);
                    } else if (s.line.length() > s.col) {
                        s.line.setLength(s.col);
                    }
                }
                i = j;
            } else if (c == '\r') {
                s.col = 0;
            } else if (c == '\n') {
                s.newLine();
            } else {
                if (s.col >= s.columns) {
                    s.wrapped++;
                    s.wrappedLines.add(s.line.toString());
                    s.newLine();
                }
                if (s.col < s.line.length()) {
                    s.line.setCharAt(s.col, c);
                } else {
                    while (s.line.length() < s.col) {
                        s.line.append(' ');
                    }
                    s.line.append(c);
                }
                s.col++;
            }
        }
        if (s.line.length() > 0) {
            s.lines.add(s.line.toString());
        }
        return s;
    }

    private void newLine() {
        lines.add(line.toString());
        line.setLength(0);
        col = 0;
    }

    /** The lines as the terminal shows them (trailing blanks kept). */
    List<String> lines() {
        return lines;
    }

    /** The first screen line of each line that was wider than the terminal and wrapped. */
    List<String> wrappedLines() {
        return wrappedLines;
    }

    /** How often a line was wider than the terminal and wrapped. */
    int wrapped() {
        return wrapped;
    }
}
