package io.deltafunnel.query;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;

import io.deltafunnel.arrow.read.ColumnReaders;

import org.apache.arrow.vector.BaseIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.Decimal256Vector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.FixedSizeBinaryVector;
import org.apache.arrow.vector.Float4Vector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.LargeVarBinaryVector;
import org.apache.arrow.vector.LargeVarCharVector;
import org.apache.arrow.vector.TimeMicroVector;
import org.apache.arrow.vector.TimeMilliVector;
import org.apache.arrow.vector.TimeNanoVector;
import org.apache.arrow.vector.TimeSecVector;
import org.apache.arrow.vector.TimeStampVector;
import org.apache.arrow.vector.VarBinaryVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.complex.ListVector;
import org.apache.arrow.vector.complex.StructVector;
import org.apache.arrow.vector.types.pojo.ArrowType;

/**
 * Reassembles a shredded variant (apache/parquet-format {@code VariantShredding.md}) from the Arrow vectors DuckDB
 * reads it into, writing its JSON text. Per value, {@code value} (binary, residual) and {@code typed_value}:
 *
 * <ul>
 * <li>both null: the value is missing (an object field that is absent; at top level rendered as JSON {@code null});</li>
 * <li>only {@code value}: the binary variant, decoded by {@link VariantJson};</li>
 * <li>only {@code typed_value}: the shredded value: a primitive column of the shredded type, a struct of shredded
 *     object fields (each a group of {@code value} and {@code typed_value}), or a list of such groups (array
 *     elements);</li>
 * <li>both: a partially shredded object, whose residual {@code value} is an object holding the fields that are not
 *     shredded; the two sets of fields are merged, and written sorted by key (unsigned UTF-8 byte order, the order
 *     of an object built by the Variant specification's rules, and the order Spark writes).</li>
 * </ul>
 *
 * A {@code typed_value} beside a non-null non-object {@code value}, an array element that is missing, a field present
 * in both halves, or a typed column of a type the specification does not allow is an {@link IllegalArgumentException}.
 */
final class ShreddedVariant {

    private ShreddedVariant() {
    }

    /** Appends the variant at row {@code i}; returns false (and appends nothing) when it is missing. */
    static boolean append(JsonText out, VariantJson.Metadata metadata, FieldVector value, FieldVector typed, int i) {
        boolean hasTyped = typed != null && !typed.isNull(i);
        byte[] residual = value == null || value.isNull(i) ? null : ((VarBinaryVector) value).get(i);
        if (!hasTyped) {
            if (residual == null) {
                return false;
            }
            VariantJson.append(out, metadata, residual);
            return true;
        }
        if (typed instanceof StructVector object) {
            appendObject(out, metadata, object, residual, i);
            return true;
        }
        if (residual != null) {
            throw new IllegalArgumentException("both value and typed_value are set on a value that is not an object");
        }
        if (typed instanceof ListVector array) {
            FieldVector elements = array.getDataVector();
            if (!(elements instanceof StructVector group)) {
                throw new IllegalArgumentException("shredded array elements must be groups of value and typed_value");
            }
            FieldVector elementValue = child(group, "value");
            FieldVector elementTyped = child(group, "typed_value");
            int start = array.getElementStartIndex(i);
            int end = array.getElementEndIndex(i);
            out.append('[');
            for (int j = start; j < end; j++) {
                if (j > start) {
                    out.append(',');
                }
                if (!append(out, metadata, elementValue, elementTyped, j)) {
                    throw new IllegalArgumentException("array element " + (j - start) + " is missing (value and "
                            + "typed_value both null)");
                }
            }
            out.append(']');
            return true;
        }
        primitive(out, typed, i);
        return true;
    }

    private static FieldVector child(StructVector group, String name) {
        return (FieldVector) group.getChild(name);
    }

    /** One field of a reassembled object: its key and how to write its value. */
    private record Field(byte[] key, StructVector shredded, int residualPos) {
    }

    private static void appendObject(JsonText out, VariantJson.Metadata metadata, StructVector object, byte[] residual,
            int i) {
        List<Field> fields = new ArrayList<>();
        for (FieldVector child : object.getChildrenFromFields()) {
            if (!(child instanceof StructVector group)) {
                throw new IllegalArgumentException("shredded object field " + child.getName()
                        + " must be a group of value and typed_value");
            }
            FieldVector v = child(group, "value");
            FieldVector t = child(group, "typed_value");
            boolean present = !group.isNull(i) && (v != null && !v.isNull(i) || t != null && !t.isNull(i));
            if (present) {
                fields.add(new Field(group.getName().getBytes(StandardCharsets.UTF_8), group, -1));
            }
        }
        if (residual != null) {
            if (VariantJson.basicType(residual, 0) != 2) {
                throw new IllegalArgumentException("the residual value of a shredded object is not an object");
            }
            VariantJson.forEachField(residual, 0, (id, pos) -> fields.add(new Field(metadata.key(id), null, pos)));
        }
        fields.sort((a, b) -> Arrays.compareUnsigned(a.key(), b.key()));
        out.append('{');
        for (int k = 0; k < fields.size(); k++) {
            Field f = fields.get(k);
            if (k > 0) {
                if (Arrays.equals(fields.get(k - 1).key(), f.key())) {
                    throw new IllegalArgumentException("object field " + new String(f.key(), StandardCharsets.UTF_8)
                            + " is both shredded and in the residual value");
                }
                out.append(',');
            }
            out.appendString(f.key(), 0, f.key().length).append(':');
            if (f.shredded() != null) {
                append(out, metadata, child(f.shredded(), "value"), child(f.shredded(), "typed_value"), i);
            } else {
                VariantJson.append(out, metadata, residual, f.residualPos());
            }
        }
        out.append('}');
    }

    /** A shredded primitive, rendered like the variant primitive of the same type. */
    private static void primitive(JsonText out, FieldVector typed, int i) {
        if (typed instanceof BitVector b) {
            out.appendAscii(b.get(i) == 1 ? "true" : "false");
        } else if (typed instanceof BaseIntVector n && typed.getField().getType() instanceof ArrowType.Int) {
            out.appendAscii(Long.toString(n.getValueAsLong(i)));
        } else if (typed instanceof Float8Vector d) {
            VariantJson.appendDouble(out, d.get(i));
        } else if (typed instanceof Float4Vector f) {
            VariantJson.appendFloat(out, f.get(i));
        } else if (typed instanceof DecimalVector d) {
            VariantJson.appendDecimal(out, d.getObject(i));
        } else if (typed instanceof Decimal256Vector d) {
            VariantJson.appendDecimal(out, d.getObject(i));
        } else if (typed instanceof DateDayVector d) {
            VariantJson.appendDate(out, d.get(i));
        } else if (typed instanceof TimeStampVector ts) {
            ArrowType.Timestamp t = (ArrowType.Timestamp) typed.getField().getType();
            VariantJson.appendTimestamp(out, ts.get(i), 1_000_000_000L / ColumnReaders.unitsPerSecond(t.getUnit()), t.getTimezone() != null);
        } else if (typed instanceof TimeMicroVector t) {
            VariantJson.appendTime(out, t.get(i) * 1_000);
        } else if (typed instanceof TimeNanoVector t) {
            VariantJson.appendTime(out, t.get(i));
        } else if (typed instanceof TimeMilliVector t) {
            VariantJson.appendTime(out, t.get(i) * 1_000_000L);
        } else if (typed instanceof TimeSecVector t) {
            VariantJson.appendTime(out, t.get(i) * 1_000_000_000L);
        } else if (typed instanceof VarCharVector s) {
            byte[] utf8 = s.get(i);
            out.appendString(utf8, 0, utf8.length);
        } else if (typed instanceof LargeVarCharVector s) {
            byte[] utf8 = s.get(i);
            out.appendString(utf8, 0, utf8.length);
        } else if (typed instanceof VarBinaryVector b) {
            VariantJson.appendBinary(out, b.get(i));
        } else if (typed instanceof LargeVarBinaryVector b) {
            VariantJson.appendBinary(out, b.get(i));
        } else if (typed instanceof FixedSizeBinaryVector u && u.getByteWidth() == 16) {
            java.nio.ByteBuffer bytes = java.nio.ByteBuffer.wrap(u.get(i));
            VariantJson.appendUuid(out, new UUID(bytes.getLong(), bytes.getLong()));
        } else {
            throw new IllegalArgumentException("typed_value of Arrow type " + typed.getField().getType()
                    + " is not a shredded variant type");
        }
    }
}
