package io.deltafunnel.arrow.read;

import java.util.Map;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;

/**
 * The one place that picks the reader ({@link ArrowColumnType}) of an Arrow field, and with it the SQL Server type
 * {@code createTable} uses for it. Dispatch goes through {@link ArrowType.ArrowTypeVisitor}, so a new Arrow type
 * cannot be forgotten silently: it does not compile until it is handled here.
 *
 * <table>
 *   <caption>Arrow type → SQL Server column type (createTable)</caption>
 *   <tr><td>Int8, Int16</td><td>smallint (SQL Server tinyint is unsigned)</td></tr>
 *   <tr><td>Int32 / Int64</td><td>int / bigint</td></tr>
 *   <tr><td>UInt8 / UInt16 / UInt32</td><td>tinyint / int / bigint</td></tr>
 *   <tr><td>UInt64</td><td>decimal(20,0)</td></tr>
 *   <tr><td>Float16, Float32 / Float64</td><td>real / float</td></tr>
 *   <tr><td>Bool</td><td>bit</td></tr>
 *   <tr><td>Decimal128(p,s) / Decimal256(p,s)</td><td>decimal(p,s) / decimal(min(p,38),s)</td></tr>
 *   <tr><td>Utf8, LargeUtf8, Utf8View</td><td>nvarchar(max)</td></tr>
 *   <tr><td>Binary, LargeBinary, BinaryView / FixedSizeBinary(n)</td><td>varbinary(max) / varbinary(n)</td></tr>
 *   <tr><td>arrow.uuid extension</td><td>uniqueidentifier</td></tr>
 *   <tr><td>Date32, Date64</td><td>date</td></tr>
 *   <tr><td>Time32/Time64 (s, ms, us, ns)</td><td>time(0, 3, 6, 7)</td></tr>
 *   <tr><td>Timestamp (s, ms, us, ns) without / with zone</td><td>datetime2(0,3,6,7) / datetimeoffset(0,3,6,7)</td></tr>
 *   <tr><td>List, LargeList, FixedSizeList, Struct, Map</td><td>nvarchar(max) holding JSON</td></tr>
 * </table>
 *
 * <p>Unsupported, raising {@link UnsupportedArrowTypeException}: Null, Interval, Duration, Union, ListView,
 * LargeListView, RunEndEncoded, other extension types' unsupported storage, and dictionary-encoded fields (their
 * dictionary is not in the root; the consumer and the IPC readers decode them to their value type before a root
 * reaches this point, so only a root made elsewhere still has one).
 */
public final class ArrowColumnTypes {

    /** Field metadata key Arrow uses for extension types that are not registered in this JVM. */
    public static final String EXTENSION_NAME_KEY = "ARROW:extension:name";

    private ArrowColumnTypes() {
    }

    /**
     * The column type for {@code field}.
     *
     * @throws UnsupportedArrowTypeException naming the field when its type cannot be written
     */
    public static ArrowColumnType forField(Field field) {
        if (field.getDictionary() != null) {
            // deltafunnel: and the IPC bodies arrive decoded (io.deltafunnel.arrow.DictionaryColumns); a root made
            // elsewhere carries indices without the dictionary (that lives in its reader's DictionaryProvider)
            throw unsupported(field, field.getType(), "the column is dictionary-encoded and a VectorSchemaRoot does"
                    + " not carry its dictionary, so its values are unknown here; decode it before sending"
                    + " (io.deltafunnel.arrow.DictionaryColumns.decode with its reader, or Arrow's"
                    + " DictionaryEncoder.decode), or send the batch as Arrow IPC, which carries the dictionaries");
        }
        Map<String, String> metadata = field.getMetadata();
        if (metadata != null && "arrow.uuid".equals(metadata.get(EXTENSION_NAME_KEY))
                && field.getType() instanceof ArrowType.FixedSizeBinary fsb && fsb.getByteWidth() == 16) {
            return new TextColumnTypes.UuidType();
        }
        return field.getType().accept(new Visitor(field));
    }

    /** The SQL Server type {@code createTable} uses for {@code field}. */
    public static String createTableType(Field field) {
        return forField(field).createTableType();
    }

    private static UnsupportedArrowTypeException unsupported(Field field, ArrowType type, String why) {
        return new UnsupportedArrowTypeException(field.getName(), type,
                "Arrow type " + type + " cannot be written to SQL Server: " + why);
    }

    private static final class Visitor implements ArrowType.ArrowTypeVisitor<ArrowColumnType> {
        private final Field field;

        Visitor(Field field) {
            this.field = field;
        }

        private UnsupportedArrowTypeException no(ArrowType type, String why) {
            return unsupported(field, type, why);
        }

        @Override
        public ArrowColumnType visit(ArrowType.Null type) {
            throw no(type, "a column of the Null type has no SQL Server type; cast it in the query");
        }

        @Override
        public ArrowColumnType visit(ArrowType.Struct type) {
            return new TextColumnTypes.JsonType(field);
        }

        @Override
        public ArrowColumnType visit(ArrowType.List type) {
            return listType(field);
        }

        @Override
        public ArrowColumnType visit(ArrowType.LargeList type) {
            return listType(field);
        }

        @Override
        public ArrowColumnType visit(ArrowType.FixedSizeList type) {
            return listType(field);
        }

        @Override
        public ArrowColumnType visit(ArrowType.Union type) {
            throw no(type, "unions are not supported");
        }

        @Override
        public ArrowColumnType visit(ArrowType.Map type) {
            return new TextColumnTypes.JsonType(field);
        }

        @Override
        public ArrowColumnType visit(ArrowType.Int type) {
            if (!type.getIsSigned() && type.getBitWidth() == 64) {
                return new NumericColumnTypes.UInt64Type();
            }
            return new NumericColumnTypes.IntType(type.getBitWidth(), type.getIsSigned());
        }

        @Override
        public ArrowColumnType visit(ArrowType.FloatingPoint type) {
            return new NumericColumnTypes.FloatType(type.getPrecision() == FloatingPointPrecision.DOUBLE);
        }

        @Override
        public ArrowColumnType visit(ArrowType.Utf8 type) {
            return new TextColumnTypes.StringType();
        }

        @Override
        public ArrowColumnType visit(ArrowType.Utf8View type) {
            return new TextColumnTypes.StringType();
        }

        @Override
        public ArrowColumnType visit(ArrowType.LargeUtf8 type) {
            return new TextColumnTypes.StringType();
        }

        @Override
        public ArrowColumnType visit(ArrowType.Binary type) {
            return new TextColumnTypes.BinaryType(-1);
        }

        @Override
        public ArrowColumnType visit(ArrowType.BinaryView type) {
            return new TextColumnTypes.BinaryType(-1);
        }

        @Override
        public ArrowColumnType visit(ArrowType.LargeBinary type) {
            return new TextColumnTypes.BinaryType(-1);
        }

        @Override
        public ArrowColumnType visit(ArrowType.FixedSizeBinary type) {
            return new TextColumnTypes.BinaryType(type.getByteWidth());
        }

        @Override
        public ArrowColumnType visit(ArrowType.Bool type) {
            return new NumericColumnTypes.BoolType();
        }

        @Override
        public ArrowColumnType visit(ArrowType.Decimal type) {
            return new NumericColumnTypes.DecimalType(type.getPrecision(), type.getScale());
        }

        @Override
        public ArrowColumnType visit(ArrowType.Date type) {
            return new TemporalColumnTypes.DateType();
        }

        @Override
        public ArrowColumnType visit(ArrowType.Time type) {
            return new TemporalColumnTypes.TimeType(type.getUnit());
        }

        @Override
        public ArrowColumnType visit(ArrowType.Timestamp type) {
            if (type.getTimezone() != null) {
                try {
                    java.time.ZoneId.of(type.getTimezone());
                } catch (java.time.DateTimeException e) {
                    throw no(type, "unknown time zone '" + type.getTimezone() + "'");
                }
            }
            return new TemporalColumnTypes.TimestampType(type.getUnit(), type.getTimezone());
        }

        @Override
        public ArrowColumnType visit(ArrowType.Interval type) {
            throw no(type, "intervals have no SQL Server type; convert them in the query");
        }

        @Override
        public ArrowColumnType visit(ArrowType.Duration type) {
            throw no(type, "durations have no SQL Server type; convert them in the query");
        }

        @Override
        public ArrowColumnType visit(ArrowType.ListView type) {
            throw no(type, "list views are not supported");
        }

        @Override
        public ArrowColumnType visit(ArrowType.LargeListView type) {
            throw no(type, "list views are not supported");
        }

        @Override
        public ArrowColumnType visit(ArrowType.RunEndEncoded type) {
            throw no(type, "run-end encoded columns are not supported");
        }

        @Override
        public ArrowColumnType visit(ArrowType.ExtensionType type) {
            if ("arrow.uuid".equals(type.extensionName())
                    && type.storageType() instanceof ArrowType.FixedSizeBinary fsb && fsb.getByteWidth() == 16) {
                return new TextColumnTypes.UuidType();
            }
            // Other extension types are written as their storage type.
            return type.storageType().accept(this);
        }
    }

    /** A list of Float32/Float64 ({@link FloatListColumnType}: JSON, and the elements for vector targets), else JSON. */
    private static ArrowColumnType listType(Field field) {
        FloatListColumnType floats = FloatListColumnType.of(field);
        if (floats != null) {
            JsonWriter.check(field);
            return floats;
        }
        return new TextColumnTypes.JsonType(field);
    }
}
