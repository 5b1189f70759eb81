package io.deltafunnel.mssql.direct;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.read.ArrowColumnType;
import io.deltafunnel.arrow.read.ArrowColumnTypes;
import io.deltafunnel.mssql.bind.BoundColumn;
import io.deltafunnel.mssql.bind.SqlType;
import io.deltafunnel.mssql.bind.TargetBinding;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.tds.Collation;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.junit.jupiter.api.Test;

/**
 * {@link DirectEncoders#cannotEncode}, the question the run asks before it writes (no vector), gives exactly the
 * decision {@link DirectEncoders#forColumn} takes when it builds the encoder over a vector: for every target type and
 * every Arrow type the producer reads, wherever the binding accepts the pair.
 */
class DirectEncodersSupportTest {

    private static Field field(String name, ArrowType type, Field... children) {
        return new Field(name, FieldType.nullable(type), children.length == 0 ? null : List.of(children));
    }

    /** One field per Arrow type the producer reads (ArrowColumnTypes), nested ones included. */
    static List<Field> fields() {
        List<Field> f = new ArrayList<>();
        for (int bits : new int[] {8, 16, 32, 64}) {
            f.add(field("i" + bits, new ArrowType.Int(bits, true)));
            f.add(field("u" + bits, new ArrowType.Int(bits, false)));
        }
        for (FloatingPointPrecision p : FloatingPointPrecision.values()) {
            f.add(field("f" + p, new ArrowType.FloatingPoint(p)));
        }
        f.add(field("bool", ArrowType.Bool.INSTANCE));
        f.add(field("d128", new ArrowType.Decimal(10, 2, 128)));
        f.add(field("d256", new ArrowType.Decimal(40, 2, 256)));
        f.add(field("utf8", ArrowType.Utf8.INSTANCE));
        f.add(field("lutf8", ArrowType.LargeUtf8.INSTANCE));
        f.add(field("vutf8", ArrowType.Utf8View.INSTANCE));
        f.add(field("bin", ArrowType.Binary.INSTANCE));
        f.add(field("lbin", ArrowType.LargeBinary.INSTANCE));
        f.add(field("vbin", ArrowType.BinaryView.INSTANCE));
        f.add(field("fsb4", new ArrowType.FixedSizeBinary(4)));
        f.add(new Field("uuid", new FieldType(true, new ArrowType.FixedSizeBinary(16), null,
                Map.of(ArrowColumnTypes.EXTENSION_NAME_KEY, "arrow.uuid")), null));
        f.add(field("date32", new ArrowType.Date(DateUnit.DAY)));
        f.add(field("date64", new ArrowType.Date(DateUnit.MILLISECOND)));
        f.add(field("t_s", new ArrowType.Time(TimeUnit.SECOND, 32)));
        f.add(field("t_ms", new ArrowType.Time(TimeUnit.MILLISECOND, 32)));
        f.add(field("t_us", new ArrowType.Time(TimeUnit.MICROSECOND, 64)));
        f.add(field("t_ns", new ArrowType.Time(TimeUnit.NANOSECOND, 64)));
        for (TimeUnit u : TimeUnit.values()) {
            f.add(field("ts_" + u, new ArrowType.Timestamp(u, null)));
            f.add(field("tstz_" + u, new ArrowType.Timestamp(u, "Europe/Paris")));
        }
        f.add(field("list", new ArrowType.List(), field("item", new ArrowType.Int(32, true))));
        f.add(field("struct", ArrowType.Struct.INSTANCE, field("a", ArrowType.Utf8.INSTANCE)));
        f.add(new Field("map", FieldType.nullable(new ArrowType.Map(false)), List.of(new Field("entries",
                FieldType.notNullable(ArrowType.Struct.INSTANCE), List.of(
                        new Field("key", FieldType.notNullable(ArrowType.Utf8.INSTANCE), null),
                        field("value", new ArrowType.Int(32, true)))))));
        return f;
    }

    /** Target columns of every type; char types with a known collation, with an unknown one and with none. */
    static List<TargetColumn> targets() {
        List<TargetColumn> t = new ArrayList<>();
        for (SqlType type : SqlType.values()) {
            String name = type == SqlType.UNSUPPORTED ? "money" : type.typeName();
            Integer length = switch (type) {
                case CHAR, NCHAR, BINARY -> 8;
                case VARCHAR, NVARCHAR, VARBINARY -> 100;
                default -> null;
            };
            t.add(new TargetColumn("c", name, length, 18, 2, 7, true, 1, "SQL_Latin1_General_CP1_CI_AS"));
            if (type.unicode() || type.codePageText()) {
                t.add(new TargetColumn("c", name, length, null, null, null, true, 1, "Japanese_CI_AS"));
                t.add(new TargetColumn("c", name, length, null, null, null, true, 1, null));
            }
        }
        return t;
    }

    @Test
    void theQuestionByTypeGivesTheEncodersDecisionForEveryPair() {
        int pairs = 0;
        int refused = 0;
        try (BufferAllocator allocator = new RootAllocator()) {
            for (Field f : fields()) {
                ArrowColumnType arrowType = ArrowColumnTypes.forField(f);
                for (TargetColumn target : targets()) {
                    TargetBinding binding;
                    try {
                        binding = TargetBinding.of(arrowType.kind(), target, false);
                    } catch (IllegalArgumentException e) {
                        continue; // the producer refuses the pair before any encoder is asked
                    }
                    BoundColumn column = new BoundColumn(0, f.getName(), arrowType, target, binding);
                    for (Collation server : new Collation[] {null, Collation.SQL_LATIN1_GENERAL_CP1_CI_AS}) {
                        String asked = DirectEncoders.cannotEncode(column, f.getType(), server);
                        String built;
                        try (FieldVector vector = f.createVector(allocator)) {
                            DirectEncoders.forColumn(column, vector, server);
                            built = null;
                        } catch (DirectUnsupportedColumnException e) {
                            built = e.getMessage();
                        }
                        String where = f + " -> " + target.typeText() + " collation " + target.collationName()
                                + " server " + server;
                        assertEquals(built, asked == null ? null
                                : new DirectUnsupportedColumnException(f.getName(), asked).getMessage(), where);
                        pairs++;
                        refused += asked == null ? 0 : 1;
                    }
                }
            }
            assertEquals(0, allocator.getAllocatedMemory());
        }
        assertTrue(pairs > 200, "pairs checked: " + pairs);
        assertTrue(refused > 0, "the char types without a known collation are refused");
    }

    @Test
    void charTypesNeedACollationTheWriterKnows() {
        Field f = field("s", ArrowType.Utf8.INSTANCE);
        ArrowColumnType type = ArrowColumnTypes.forField(f);
        TargetColumn japanese = new TargetColumn("s", "varchar", 10, null, null, null, true, 1, "Japanese_CI_AS");
        BoundColumn column = new BoundColumn(0, "s", type, japanese, TargetBinding.of(type.kind(), japanese, false));
        assertTrue(DirectEncoders.cannotEncode(column, f.getType(), null).contains("collation Japanese_CI_AS"));
        assertNull(DirectEncoders.cannotEncode(column, f.getType(), Collation.SQL_LATIN1_GENERAL_CP1_CI_AS),
                "the server's collation of the column is enough");
        TargetColumn unicode = new TargetColumn("s", "nvarchar", 10, null, null, null, true, 1, "Japanese_CI_AS");
        assertNull(DirectEncoders.cannotEncode(new BoundColumn(0, "s", type, unicode,
                TargetBinding.of(type.kind(), unicode, false)), f.getType(), null), "UTF-16 whatever the collation");
    }
}
