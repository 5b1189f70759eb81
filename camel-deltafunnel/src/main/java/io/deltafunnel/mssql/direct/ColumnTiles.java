package io.deltafunnel.mssql.direct;

import java.io.IOException;
import java.util.Arrays;

import io.deltafunnel.tds.TdsMessageWriter;
import io.deltafunnel.tds.TokenType;

/**
 * The direct writer's rows written column by column, a tile of rows at a time, for a batch whose every column is one
 * of the common encoders ({@link DirectBulkWriter#writeRows}): int/bigint, decimal (the source's scale), date, and
 * nvarchar(n) and nvarchar(max) from Utf8, with or without NULLs. The bytes are exactly those the row-by-row loop
 * writes.
 *
 * <p>A tile: the rows that fit in what the message writer can take at once ({@link TdsMessageWriter#spillRoom}), at
 * most {@value #MAX_ROWS}. Each row's size is known before anything is written (fixed per column; {@code 2 + 2 n}
 * for text of {@code n} UTF-8 bytes when it is ASCII, {@code 16 + 2 n} as PLP, {@code 2 + n} and {@code 16 + n}
 * when the batch's ASCII text goes as varchar; a NULL's marker; measured
 * {@value #CHUNK} rows at a time, column by column), so each row's start is too: the ROW tokens go first, then one
 * tight loop per column writes that column's values into all the tile's rows, and the tile is committed as a whole.
 * The encoders store 8 bytes at a time and may write up to 8 bytes past a value's end; within a row the next column
 * overwrites them, and for a column that may reach into the next row's start (its following columns can be shorter
 * than 8 bytes) the 8 bytes there are kept. Text that is not ASCII is measured by its UTF-16 code units and
 * transcoded in place, where such values are a minority of the batch's; where they are most of it, one ends the tile
 * before its row ({@link Utf8Text#addAsciiSizes}; a batch whose text is all ASCII is not looked at value by value). A
 * row the tiles cannot take (that text, a value longer than the column's bound, or UTF-8 whose transcoding does not
 * fill the bytes counted for it) is left to the row-by-row loop.
 *
 * <p>Not thread-safe: one per {@link DirectBulkWriter#writeRows} call; it holds only its position arrays.
 */
final class ColumnTiles {

    static final int MAX_ROWS = 256;
    /**
     * The rows measured at a time: a tile is usually some tens of rows (what fits in a packet and the next), so few
     * rows past its end are measured for nothing.
     */
    static final int CHUNK = 16;

    private final DirectEncoders.Bounded[] encoders;
    private final int[] kinds;
    /** Per column other than text: the bytes of a value (a NULL's marker is 1). */
    private final int[] valueSize;
    /** 1 (the ROW token) plus the bytes of every column whose values all have one size (no NULL, not text). */
    private final int fixed;
    /** The columns whose size varies by row: text, and the others when the batch has a NULL in them. */
    private final int[] varying;
    /** Per column: whether its 8-byte stores may reach into the next row (then the next row's start is kept). */
    private final boolean[] keep;
    private final int[] rowSize = new int[MAX_ROWS];
    private final int[] pos = new int[MAX_ROWS + 1];
    private final int[] cur = new int[MAX_ROWS];

    /**
     * The kind {@link ColumnTiles} writes {@code e} as ({@link DirectBulkWriter#TEXT}, {@code INTEGER},
     * {@code DECIMAL}, {@code DATE}), NULLs or not, or {@link DirectBulkWriter#OTHER}.
     */
    static int kind(DirectEncoders.Bounded e) {
        if (e instanceof Utf8Text) {
            return DirectBulkWriter.TEXT;
        }
        if (e instanceof NumericEncoders.RawInteger) {
            return DirectBulkWriter.INTEGER;
        }
        if (e instanceof NumericEncoders.RawDecimal128) {
            return DirectBulkWriter.DECIMAL;
        }
        return e instanceof TemporalEncoders.DateDays d && d.raw() ? DirectBulkWriter.DATE : DirectBulkWriter.OTHER;
    }

    /** Whether every column is one {@link ColumnTiles} writes (see the class comment). */
    static boolean applies(DirectEncoders.Bounded[] encoders) {
        for (DirectEncoders.Bounded e : encoders) {
            if (kind(e) == DirectBulkWriter.OTHER) {
                return false;
            }
        }
        return encoders.length > 0;
    }

    ColumnTiles(DirectEncoders.Bounded[] encoders) {
        this.encoders = encoders;
        int n = encoders.length;
        this.kinds = new int[n];
        this.valueSize = new int[n];
        int fixedBytes = 1;
        int varyingCount = 0;
        int[] minSize = new int[n];
        for (int c = 0; c < n; c++) {
            DirectEncoders.Bounded e = encoders[c];
            kinds[c] = kind(e);
            // a NULL is its marker (1 byte; 0xFFFF for text, eight 0xFF as PLP) and writes nothing past it
            int value = switch (kinds[c]) {
                case DirectBulkWriter.TEXT -> ((Utf8Text) e).minSize();
                case DirectBulkWriter.INTEGER -> ((NumericEncoders.RawInteger) e).size();
                case DirectBulkWriter.DECIMAL -> ((NumericEncoders.RawDecimal128) e).size();
                default -> ((TemporalEncoders.DateDays) e).size();
            };
            valueSize[c] = value;
            if (kinds[c] == DirectBulkWriter.TEXT || e.mayBeNull) {
                varyingCount++;
                minSize[c] = kinds[c] == DirectBulkWriter.TEXT ? value : 1;
            } else {
                fixedBytes += value;
                minSize[c] = value;
            }
        }
        this.fixed = fixedBytes;
        this.varying = new int[varyingCount];
        this.keep = new boolean[n];
        int v = 0;
        int tail = 0;
        for (int c = n - 1; c >= 0; c--) {
            keep[c] = tail < 8;
            tail += minSize[c];
        }
        for (int c = 0; c < n; c++) {
            if (kinds[c] == DirectBulkWriter.TEXT || encoders[c].mayBeNull) {
                varying[v++] = c;
            }
        }
    }

    /**
     * Writes and commits a tile of rows from {@code from} (before {@code to}); returns how many, or 0 when row
     * {@code from} is one the row-by-row loop must write.
     */
    int write(TdsMessageWriter w, int from, int to) throws IOException {
        int max = Math.min(to - from, MAX_ROWS);
        while (true) {
            int k = size(w, from, max);
            if (k == 0) {
                return 0;
            }
            int done = fill(w.buffer(), from, k);
            if (done == k) {
                w.commitSpilling(pos[k]);
                return k;
            }
            // a text value at row from + done that is not what was measured: the tile ends before it (nothing was
            // committed)
            max = done;
        }
    }

    /**
     * Measures up to {@code max} rows from {@code from} into {@link #pos}, {@value #CHUNK} rows at a time and column
     * by column within them; returns how many fit (0 when row {@code from} is one the tiles cannot take).
     */
    private int size(TdsMessageWriter w, int from, int max) {
        int p = w.position();
        // the last value's 8-byte stores may reach 8 bytes past the tile
        int end = p + w.spillRoom() - 8;
        int k = 0;
        while (k < max) {
            int m = measure(from + k, k, Math.min(CHUNK, max - k));
            for (int j = k; j < k + m; j++) {
                if (p + rowSize[j] > end) {
                    pos[j] = p;
                    return j;
                }
                pos[j] = p;
                p += rowSize[j];
            }
            k += m;
            pos[k] = p;
            if (m < CHUNK) {
                // the last rows asked for, or a row the tiles cannot take
                return k;
            }
        }
        return k;
    }

    /**
     * The sizes of {@code m} rows from {@code row} into {@link #rowSize} from {@code at}; returns {@code m}, or the
     * first of them (from 0) that the tiles cannot take.
     */
    private int measure(int row, int at, int m) {
        Arrays.fill(rowSize, at, at + m, fixed);
        for (int c : varying) {
            DirectEncoders.Bounded e = encoders[c];
            if (kinds[c] == DirectBulkWriter.TEXT) {
                m = ((Utf8Text) e).addAsciiSizes(rowSize, at, row, m);
            } else {
                // a varying column other than text is one with NULLs in the batch: the marker is 1 byte
                int value = valueSize[c];
                for (int j = 0; j < m; j++) {
                    rowSize[at + j] += e.nulls.isNull(row + j) ? 1 : value;
                }
            }
        }
        return m;
    }

    /**
     * Writes the {@code k} measured rows column by column; returns {@code k}, or the first row whose text is not
     * ASCII.
     */
    private int fill(byte[] b, int from, int k) {
        for (int j = 0; j < k; j++) {
            b[pos[j]] = (byte) TokenType.ROW;
            cur[j] = pos[j] + 1;
        }
        for (int c = 0; c < encoders.length; c++) {
            DirectEncoders.Bounded e = encoders[c];
            switch (kinds[c]) {
                case DirectBulkWriter.TEXT -> {
                    int done = ((Utf8Text) e).putColumn(b, cur, pos, from, k, keep[c]);
                    if (done < k) {
                        return done;
                    }
                }
                case DirectBulkWriter.INTEGER -> ((NumericEncoders.RawInteger) e).putColumn(b, cur, pos, from, k,
                        keep[c]);
                case DirectBulkWriter.DECIMAL -> ((NumericEncoders.RawDecimal128) e).putColumn(b, cur, pos, from, k,
                        keep[c]);
                default -> ((TemporalEncoders.DateDays) e).putColumn(b, cur, pos, from, k, keep[c]);
            }
        }
        return k;
    }
}
