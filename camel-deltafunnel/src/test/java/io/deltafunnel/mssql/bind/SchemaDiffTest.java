package io.deltafunnel.mssql.bind;

import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.SchemaEvolution;
import io.deltafunnel.mssql.TableName;
import org.apache.arrow.vector.types.DateUnit;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SchemaDiffTest {

    private static final TableName T = new TableName("dbo", "t");
    private static final BulkLoadException.Context CTX = BulkLoadException.Context.of("dbo.t", null,
            io.deltafunnel.handoff.HandoffStats.ZERO);

    private static TargetColumn col(String name, String type, Integer len, Integer p, Integer s, Integer dt,
            boolean nullable) {
        return new TargetColumn(name, type, len, p, s, dt, nullable, 1, null);
    }

    private static Field f(String name, ArrowType type) {
        return new Field(name, FieldType.nullable(type), null);
    }

    @Test
    void widensOnlyWhereTheSourceTypeIsWiderAndNeverNarrows() {
        assertEquals("bigint", SchemaDiff.widerType(col("a", "int", null, 10, 0, null, true), "bigint", ValueKind.INTEGER));
        assertNull(SchemaDiff.widerType(col("a", "bigint", null, 19, 0, null, true), "int", ValueKind.INTEGER));
        assertEquals("float", SchemaDiff.widerType(col("a", "int", null, 10, 0, null, true), "float", ValueKind.FLOAT64));
        assertNull(SchemaDiff.widerType(col("a", "bigint", null, 19, 0, null, true), "float", ValueKind.FLOAT64));
        // more scale never costs integer digits: decimal(5,2) and decimal(6,4) -> decimal(7,4)
        assertEquals("decimal(7,4)", SchemaDiff.widerType(col("a", "decimal", null, 5, 2, null, true), "decimal(6,4)",
                ValueKind.DECIMAL));
        assertNull(SchemaDiff.widerType(col("a", "decimal", null, 10, 2, null, true), "decimal(5,1)", ValueKind.DECIMAL));
        assertNull(SchemaDiff.widerType(col("a", "decimal", null, 38, 0, null, true), "decimal(38,10)",
                ValueKind.DECIMAL));
        assertEquals("decimal(12,2)", SchemaDiff.widerType(col("a", "decimal", null, 4, 2, null, true), "int",
                ValueKind.INTEGER));
        assertEquals("float", SchemaDiff.widerType(col("a", "real", null, 24, null, null, true), "float",
                ValueKind.FLOAT64));
        assertEquals("nvarchar(20)", SchemaDiff.widerType(col("a", "varchar", 20, null, null, null, true),
                "nvarchar(max)", ValueKind.STRING));
        assertEquals("nvarchar(max)", SchemaDiff.widerType(col("a", "varchar", 8000, null, null, null, true),
                "nvarchar(max)", ValueKind.STRING));
        assertNull(SchemaDiff.widerType(col("a", "nvarchar", 20, null, null, null, true), "nvarchar(max)",
                ValueKind.STRING));
        assertEquals("varbinary(32)", SchemaDiff.widerType(col("a", "varbinary", 16, null, null, null, true),
                "varbinary(32)", ValueKind.BINARY));
        assertNull(SchemaDiff.widerType(col("a", "varbinary", 16, null, null, null, true), "varbinary(max)",
                ValueKind.BINARY));
        assertEquals("datetime2(7)", SchemaDiff.widerType(col("a", "datetime2", null, null, null, 3, true),
                "datetime2(7)", ValueKind.TIMESTAMP));
        assertNull(SchemaDiff.widerType(col("a", "datetime2", null, null, null, 7, true), "datetime2(3)",
                ValueKind.TIMESTAMP));
        assertEquals("datetime2(6)", SchemaDiff.widerType(col("a", "date", null, null, null, null, true),
                "datetime2(6)", ValueKind.TIMESTAMP));
    }

    @Test
    void noneListsEveryMissingAndUnfitColumnAndWidenFixesWhatWideningCan() {
        TargetTable table = new TargetTable(T, List.of(col("id", "int", null, 10, 0, null, false),
                col("d", "date", null, null, null, null, true), col("must", "int", null, 10, 0, null, false)));
        Schema schema = new Schema(List.of(f("id", new ArrowType.Int(64, true)),
                f("d", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null)), f("x", new ArrowType.Utf8()),
                f("y", new ArrowType.Date(DateUnit.DAY))));
        SchemaDiff diff = SchemaDiff.of(schema, table, Map.of(), true, CTX);
        assertEquals(List.of(new SchemaDiff.Missing("x", "x", "nvarchar(max)"), new SchemaDiff.Missing("y", "y", "date")),
                diff.missing());
        List<String> none = diff.problems(SchemaEvolution.NONE, table);
        assertTrue(none.stream().anyMatch(p -> p.contains("'x' has no target column")), none.toString());
        assertTrue(none.stream().anyMatch(p -> p.contains("'y' has no target column")), none.toString());
        assertTrue(none.stream().anyMatch(p -> p.contains("'d'") && p.contains("datetime2(6)")), none.toString());
        assertTrue(none.stream().anyMatch(p -> p.contains("'must'")), none.toString());
        assertEquals(4, none.size(), none.toString());
        List<String> widen = diff.problems(SchemaEvolution.WIDEN, table);
        assertEquals(1, widen.size(), widen.toString()); // only the NOT NULL column without source stays refused
        assertEquals(List.of("bigint", "datetime2(6)"), diff.widenings().stream().map(SchemaDiff.Widening::newType)
                .toList());
    }

    @Test
    void schemaEvolutionParsesItsThreeValuesAndRefusesOthers() {
        assertEquals(SchemaEvolution.ADD_COLUMNS, SchemaEvolution.parse("addcolumns"));
        assertEquals(SchemaEvolution.WIDEN, SchemaEvolution.parse("WIDEN"));
        assertEquals(SchemaEvolution.NONE, SchemaEvolution.parse(null));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> SchemaEvolution.parse("drop"));
        assertTrue(e.getMessage().contains("'drop'"), e.getMessage());
    }
}
