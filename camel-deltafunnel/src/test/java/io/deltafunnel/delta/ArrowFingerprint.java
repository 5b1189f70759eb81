package io.deltafunnel.delta;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DateMilliVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.ValueVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.complex.FixedSizeListVector;
import org.apache.arrow.vector.complex.LargeListVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.MapVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.ipc.ArrowReader;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * The corpus fingerprint (see {@code delta-corpus/FINGERPRINT.md}) computed over Arrow batches: feed every batch with
 * {@link #add(VectorSchemaRoot)} (the rows are rendered immediately, so the reader may reuse its root), then read
 * {@link #rowCount()} and {@link #hex()}. Columns named in {@code skippedColumns} are left out.
 */
public final class ArrowFingerprint {

    private static final String NULL = "\\N";
    private static final char SEPARATOR = '\u0001';

    private final Set<String> skipped;
    private final List<byte[]> rows = new ArrayList<>();

    public ArrowFingerprint(List<String> skippedColumns) {
        this.skipped = Set.copyOf(skippedColumns);
    }

    /** Reads every batch of {@code reader} into a new fingerprint. The caller still closes the reader. */
    public static ArrowFingerprint of(List<String> skippedColumns, ArrowReader reader) throws java.io.IOException {
        ArrowFingerprint fp = new ArrowFingerprint(skippedColumns);
        while (reader.loadNextBatch()) {
            fp.add(reader.getVectorSchemaRoot());
        }
        return fp;
    }

    /** Convenience: the hex fingerprint of every batch of {@code reader}. */
    public static String fingerprint(List<String> skippedColumns, ArrowReader reader) throws java.io.IOException {
        return of(skippedColumns, reader).hex();
    }

    /** Renders the root's current rows; the root may be reused or cleared afterwards. */
    public void add(VectorSchemaRoot root) {
        List<FieldVector> vectors = new ArrayList<>();
        for (FieldVector v : root.getFieldVectors()) {
            if (!skipped.contains(v.getName())) {
                vectors.add(v);
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int row = 0; row < root.getRowCount(); row++) {
            sb.setLength(0);
            for (int c = 0; c < vectors.size(); c++) {
                if (c > 0) {
                    sb.append(SEPARATOR);
                }
                render(vectors.get(c), row, sb);
            }
            rows.add(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    /** The rendered rows so far, in arrival order (for diagnostics). */
    public List<String> renderedRows() {
        return rows.stream().map(r -> new String(r, StandardCharsets.UTF_8)).toList();
    }

    public long rowCount() {
        return rows.size();
    }

    public String hex() {
        List<byte[]> sorted = new ArrayList<>(rows);
        sorted.sort(Arrays::compareUnsigned);
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            for (byte[] r : sorted) {
                sha.update(r);
                sha.update((byte) '\n');
            }
            return HexFormat.of().formatHex(sha.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    static void render(ValueVector v, int i, StringBuilder out) {
        if (v.isNull(i)) {
            out.append(NULL);
            return;
        }
        if (v instanceof BitVector b) {
            out.append(b.get(i) == 1 ? "true" : "false");
        } else if (v instanceof Float4Vector f) {
            out.append(Float.toString(f.get(i)));
        } else if (v instanceof Float8Vector d) {
            out.append(Double.toString(d.get(i)));
        } else if (v instanceof BaseIntVector n) {
            out.append(n.getValueAsLong(i));
        } else if (v instanceof DecimalVector d) {
            out.append(d.getObject(i).setScale(d.getScale()).toPlainString());
        } else if (v instanceof Decimal256Vector d) {
            out.append(d.getObject(i).setScale(d.getScale()).toPlainString());
        } else if (v instanceof DateDayVector d) {
            out.append(LocalDate.ofEpochDay(d.get(i)));
        } else if (v instanceof DateMilliVector d) {
            out.append(LocalDate.ofEpochDay(Math.floorDiv(d.get(i), 86_400_000L)));
        } else if (v instanceof TimeStampVector t) {
            TimeUnit unit = ((ArrowType.Timestamp) t.getField().getType()).getUnit();
            long raw = t.get(i);
            long micros = switch (unit) {
                case SECOND -> raw * 1_000_000L;
                case MILLISECOND -> raw * 1_000L;
                case MICROSECOND -> raw;
                case NANOSECOND -> Math.floorDiv(raw, 1_000L);
            };
            out.append(micros);
        } else if (v instanceof StructVector s) {
            out.append('{');
            boolean first = true;
            for (FieldVector child : s.getChildrenFromFields()) {
                if (!first) {
                    out.append(',');
                }
                first = false;
                out.append(child.getName()).append('=');
                render(child, i, out);
            }
            out.append('}');
        } else if (v instanceof MapVector m) {
            StructVector entries = (StructVector) m.getDataVector();
            FieldVector key = entries.getChildrenFromFields().get(0);
            FieldVector value = entries.getChildrenFromFields().get(1);
            List<byte[]> rendered = new ArrayList<>();
            StringBuilder e = new StringBuilder();
            for (int k = m.getElementStartIndex(i); k < m.getElementEndIndex(i); k++) {
                e.setLength(0);
                render(key, k, e);
                e.append('=');
                render(value, k, e);
                rendered.add(e.toString().getBytes(StandardCharsets.UTF_8));
            }
            rendered.sort(Arrays::compareUnsigned);
            out.append('{');
            for (int k = 0; k < rendered.size(); k++) {
                if (k > 0) {
                    out.append(',');
                }
                out.append(new String(rendered.get(k), StandardCharsets.UTF_8));
            }
            out.append('}');
        } else if (v instanceof ListVector l) {
            list(l.getDataVector(), l.getElementStartIndex(i), l.getElementEndIndex(i), out);
        } else if (v instanceof LargeListVector l) {
            list(l.getDataVector(), (int) l.getElementStartIndex(i), (int) l.getElementEndIndex(i), out);
        } else if (v instanceof FixedSizeListVector l) {
            list(l.getDataVector(), i * l.getListSize(), (i + 1) * l.getListSize(), out);
        } else {
            Object o = v.getObject(i);
            if (o instanceof byte[] bytes) {
                out.append(HexFormat.of().formatHex(bytes));
            } else if (o instanceof BigDecimal bd) {
                out.append(bd.toPlainString());
            } else {
                out.append(o); // Utf8 / LargeUtf8 / Utf8View: Text.toString()
            }
        }
    }

    private static void list(ValueVector data, int start, int end, StringBuilder out) {
        out.append('[');
        for (int k = start; k < end; k++) {
            if (k > start) {
                out.append(',');
            }
            render(data, k, out);
        }
        out.append(']');
    }
}
