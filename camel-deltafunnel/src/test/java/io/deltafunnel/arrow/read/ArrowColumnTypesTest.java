package io.deltafunnel.arrow.read;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import org.apache.arrow.vector.extension.UuidType;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.IntervalUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.UnionMode;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.DictionaryEncoding;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

class ArrowColumnTypesTest {

    static Field field(String name, ArrowType type, Field... children) {
        return new Field(name, FieldType.nullable(type), List.of(children));
    }

    private static String ddl(ArrowType type, Field... children) {
        return ArrowColumnTypes.createTableType(field("c", type, children));
    }

    private static ValueKind kind(ArrowType type, Field... children) {
        return ArrowColumnTypes.forField(field("c", type, children)).kind();
    }

    @Test
    void integers() {
        assertEquals("smallint", ddl(new ArrowType.Int(8, true)), "tinyint is unsigned in SQL Server");
        assertEquals("smallint", ddl(new ArrowType.Int(16, true)));
        assertEquals("int", ddl(new ArrowType.Int(32, true)));
        assertEquals("bigint", ddl(new ArrowType.Int(64, true)));
        assertEquals("tinyint", ddl(new ArrowType.Int(8, false)));
        assertEquals("int", ddl(new ArrowType.Int(16, false)));
        assertEquals("bigint", ddl(new ArrowType.Int(32, false)));
        assertEquals("decimal(20,0)", ddl(new ArrowType.Int(64, false)));
        assertEquals(ValueKind.INTEGER, kind(new ArrowType.Int(32, false)));
        assertEquals(ValueKind.DECIMAL, kind(new ArrowType.Int(64, false)));
    }

    @Test
    void floatsBoolDecimals() {
        assertEquals("real", ddl(new ArrowType.FloatingPoint(FloatingPointPrecision.HALF)));
        assertEquals("real", ddl(new ArrowType.FloatingPoint(FloatingPointPrecision.SINGLE)));
        assertEquals("float", ddl(new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE)));
        assertEquals("bit", ddl(ArrowType.Bool.INSTANCE));
        assertEquals("decimal(18,2)", ddl(new ArrowType.Decimal(18, 2, 128)));
        assertEquals("decimal(38,0)", ddl(new ArrowType.Decimal(38, 0, 128)));
        assertEquals("decimal(38,4)", ddl(new ArrowType.Decimal(50, 4, 256)));
    }

    @Test
    void stringsAndBinary() {
        assertEquals("nvarchar(max)", ddl(ArrowType.Utf8.INSTANCE));
        assertEquals("nvarchar(max)", ddl(ArrowType.LargeUtf8.INSTANCE));
        assertEquals("nvarchar(max)", ddl(ArrowType.Utf8View.INSTANCE));
        assertEquals("varbinary(max)", ddl(ArrowType.Binary.INSTANCE));
        assertEquals("varbinary(max)", ddl(ArrowType.LargeBinary.INSTANCE));
        assertEquals("varbinary(max)", ddl(ArrowType.BinaryView.INSTANCE));
        assertEquals("varbinary(16)", ddl(new ArrowType.FixedSizeBinary(16)));
        assertEquals("varbinary(max)", ddl(new ArrowType.FixedSizeBinary(9000)));
    }

    @Test
    void uuids() {
        assertEquals("uniqueidentifier", ddl(UuidType.INSTANCE));
        Field withMetadata = new Field("u", new FieldType(true, new ArrowType.FixedSizeBinary(16), null,
                Map.of(ArrowColumnTypes.EXTENSION_NAME_KEY, "arrow.uuid")), List.of());
        assertEquals("uniqueidentifier", ArrowColumnTypes.createTableType(withMetadata));
        assertEquals(ValueKind.UUID, ArrowColumnTypes.forField(withMetadata).kind());
    }

    @Test
    void temporal() {
        assertEquals("date", ddl(new ArrowType.Date(DateUnit.DAY)));
        assertEquals("date", ddl(new ArrowType.Date(DateUnit.MILLISECOND)));
        assertEquals("time(0)", ddl(new ArrowType.Time(TimeUnit.SECOND, 32)));
        assertEquals("time(3)", ddl(new ArrowType.Time(TimeUnit.MILLISECOND, 32)));
        assertEquals("time(6)", ddl(new ArrowType.Time(TimeUnit.MICROSECOND, 64)));
        assertEquals("time(7)", ddl(new ArrowType.Time(TimeUnit.NANOSECOND, 64)));
        assertEquals("datetime2(0)", ddl(new ArrowType.Timestamp(TimeUnit.SECOND, null)));
        assertEquals("datetime2(3)", ddl(new ArrowType.Timestamp(TimeUnit.MILLISECOND, null)));
        assertEquals("datetime2(6)", ddl(new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)));
        assertEquals("datetime2(7)", ddl(new ArrowType.Timestamp(TimeUnit.NANOSECOND, null)));
        assertEquals("datetimeoffset(6)", ddl(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Etc/UTC")));
        assertEquals("datetimeoffset(7)", ddl(new ArrowType.Timestamp(TimeUnit.NANOSECOND, "+01:30")));
        assertEquals(ValueKind.TIMESTAMP_TZ, kind(new ArrowType.Timestamp(TimeUnit.MICROSECOND, "Europe/Paris")));
    }

    @Test
    void nestedAsJson() {
        Field item = field("item", new ArrowType.Int(32, true));
        assertEquals("nvarchar(max)", ddl(ArrowType.List.INSTANCE, item));
        assertEquals("nvarchar(max)", ddl(ArrowType.LargeList.INSTANCE, item));
        assertEquals("nvarchar(max)", ddl(new ArrowType.FixedSizeList(2), item));
        assertEquals("nvarchar(max)", ddl(ArrowType.Struct.INSTANCE, item, field("s", ArrowType.Utf8.INSTANCE)));
        Field entries = new Field("entries", FieldType.notNullable(ArrowType.Struct.INSTANCE),
                List.of(new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), List.of()), item));
        assertEquals("nvarchar(max)", ddl(new ArrowType.Map(false), entries));
        assertEquals(ValueKind.JSON, kind(ArrowType.List.INSTANCE, item));
    }

    @Test
    void unsupportedTypesNameTheColumn() {
        List<ArrowType> unsupported = List.of(ArrowType.Null.INSTANCE,
                new ArrowType.Interval(IntervalUnit.MONTH_DAY_NANO), new ArrowType.Duration(TimeUnit.SECOND),
                new ArrowType.Union(UnionMode.Sparse, new int[0]), ArrowType.ListView.INSTANCE,
                ArrowType.LargeListView.INSTANCE, new ArrowType.RunEndEncoded());
        for (ArrowType type : unsupported) {
            UnsupportedArrowTypeException e = assertThrows(UnsupportedArrowTypeException.class,
                    () -> ArrowColumnTypes.forField(field("weird col", type)), type.toString());
            assertEquals("weird col", e.column());
            assertEquals(type, e.arrowType());
            assertTrue(e.getMessage().contains("weird col"), e.getMessage());
        }
    }

    @Test
    void unsupportedInsideNestedTypeFailsUpFront() {
        Field interval = field("iv", new ArrowType.Interval(IntervalUnit.DAY_TIME));
        UnsupportedArrowTypeException e = assertThrows(UnsupportedArrowTypeException.class,
                () -> ArrowColumnTypes.forField(field("s", ArrowType.Struct.INSTANCE, interval)));
        assertEquals("iv", e.column());
    }

    @Test
    void dictionaryEncodedIsUnsupported() {
        Field enumField = new Field("e", new FieldType(true, new ArrowType.Int(8, false),
                new DictionaryEncoding(0, false, new ArrowType.Int(8, false))), List.of());
        UnsupportedArrowTypeException e = assertThrows(UnsupportedArrowTypeException.class,
                () -> ArrowColumnTypes.forField(enumField));
        assertTrue(e.getMessage().contains("dictionary"), e.getMessage());
        // what to do instead: the root has no dictionary, so decode first or send IPC
        assertTrue(e.getMessage().contains("does not carry its dictionary"), e.getMessage());
        assertTrue(e.getMessage().contains("send the batch as Arrow IPC"), e.getMessage());
    }
}
