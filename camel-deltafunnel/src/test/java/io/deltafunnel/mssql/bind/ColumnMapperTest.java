package io.deltafunnel.mssql.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.deltafunnel.arrow.read.UnsupportedArrowTypeException;
import io.deltafunnel.handoff.HandoffStats;
import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.TableName;

import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.TimeUnit;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** {@link ColumnMapper} alone: name matching, missing and extra columns, identity columns, the CREATE TABLE text. */
class ColumnMapperTest {

    private static final TableName NAME = new TableName("dbo", "Orders");
    private static final BulkLoadException.Context CTX = BulkLoadException.Context.of("dbo.Orders", null,
            HandoffStats.ZERO);

    private static Field field(String name, ArrowType type, boolean nullable) {
        return new Field(name, new FieldType(nullable, type, null), null);
    }

    private static Field intField(String name) {
        return field(name, new ArrowType.Int(32, true), true);
    }

    private static Field textField(String name) {
        return field(name, ArrowType.Utf8.INSTANCE, true);
    }

    private static TargetColumn column(String name, String type, boolean nullable, int ordinal) {
        Integer length = type.equals("nvarchar") ? 100 : null;
        return new TargetColumn(name, type, length, null, null, null, nullable, ordinal);
    }

    private static TargetTable table(TargetColumn... columns) {
        return new TargetTable(NAME, List.of(columns));
    }

    @Test
    void sourceColumnsFindTheirTargetsIgnoringCaseAndKeepTheTargetSpelling() {
        Schema schema = new Schema(List.of(intField("ID"), textField("customer_name")));
        TargetTable target = table(column("Id", "int", false, 1), column("Customer_Name", "nvarchar", true, 2));

        List<BoundColumn> bound = ColumnMapper.bind(schema, target, Map.of(), false, CTX);

        assertEquals(List.of("ID", "customer_name"), bound.stream().map(BoundColumn::sourceName).toList());
        assertEquals(List.of("Id", "Customer_Name"), bound.stream().map(c -> c.target().name()).toList());
        assertEquals(List.of(0, 1), bound.stream().map(BoundColumn::sourceIndex).toList());
    }

    @Test
    void anExplicitMappingWinsOverTheSameName() {
        Schema schema = new Schema(List.of(intField("id"), textField("name")));
        TargetTable target = table(column("id", "int", false, 1), column("name", "nvarchar", true, 2),
                column("full_name", "nvarchar", true, 3));

        List<BoundColumn> bound = ColumnMapper.bind(schema, target, Map.of("NAME", "full_name"), false, CTX);

        assertEquals(List.of("id", "full_name"), bound.stream().map(c -> c.target().name()).toList());
        assertEquals(List.of("id", "full_name"), ColumnMapper.targetNames(schema, Map.of("NAME", "full_name"), CTX));
    }

    @Test
    void aMappingOfAnUnknownSourceColumnNamesItAndTheColumnsThereAre() {
        Schema schema = new Schema(List.of(intField("id")));
        ColumnMappingException e = assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.targetNames(schema, Map.of("missing", "x"), CTX));
        assertTrue(e.getMessage().contains("'missing'") && e.getMessage().contains("[id]"), e.getMessage());
        assertEquals("missing", e.column());
        assertEquals("dbo.Orders", e.table());
    }

    @Test
    void anExtraSourceColumnWithoutTargetIsRefusedNamingTableAndColumn() {
        Schema schema = new Schema(List.of(intField("id"), textField("extra")));
        TargetTable target = table(column("id", "int", false, 1));

        ColumnMappingException e = assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.bind(schema, target, Map.of(), false, CTX));
        assertTrue(e.getMessage().contains("source column 'extra' has no target column in dbo.Orders"),
                e.getMessage());
        assertEquals("extra", e.column());
    }

    @Test
    void aMissingNotNullTargetColumnIsRefusedButNullableAndServerFilledOnesMayBeLeftOut() {
        Schema schema = new Schema(List.of(intField("id")));
        TargetColumn computed = new TargetColumn("created", "datetime2", null, null, null, 7, false, 3, null, true);
        TargetTable fine = table(column("id", "int", false, 1), column("note", "nvarchar", true, 2), computed);
        assertEquals(1, ColumnMapper.bind(schema, fine, Map.of(), false, CTX).size());

        TargetTable strict = table(column("id", "int", false, 1), column("qty", "int", false, 2));
        ColumnMappingException e = assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.bind(schema, strict, Map.of(), false, CTX));
        assertTrue(e.getMessage().contains("NOT NULL target column 'qty' of dbo.Orders has no source column"),
                e.getMessage());
        assertEquals("qty", e.column());
    }

    @Test
    void twoSourceColumnsForOneTargetAreRefused() {
        Schema schema = new Schema(List.of(intField("id"), intField("other")));
        TargetTable target = table(column("id", "int", false, 1));
        ColumnMappingException e = assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.bind(schema, target, Map.of("other", "ID"), false, CTX));
        assertTrue(e.getMessage().contains("two source columns map to target column 'id'"), e.getMessage());
        assertEquals("other", e.column());
    }

    @Test
    void aSourceTypeTheTargetCannotTakeNamesBothColumnsAndTypes() {
        Schema schema = new Schema(List.of(field("flag", ArrowType.Bool.INSTANCE, true)));
        TargetTable target = table(column("flag", "uniqueidentifier", true, 1));
        ColumnMappingException e = assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.bind(schema, target, Map.of(), false, CTX));
        assertTrue(e.getMessage().contains("source column 'flag' (Bool) cannot go into target column 'flag'")
                && e.getMessage().contains("uniqueidentifier"),
                e.getMessage());
        assertEquals("flag", e.column());
    }

    @Test
    void anUnsupportedArrowTypeNamesTheColumn() {
        Schema schema = new Schema(List.of(field("nothing", ArrowType.Null.INSTANCE, true)));
        ColumnMappingException e = assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.bind(schema, table(column("nothing", "int", true, 1)), Map.of(), false, CTX));
        assertInstanceOf(UnsupportedArrowTypeException.class, e.getCause());
        assertEquals("nothing", e.column());
        assertEquals("dbo.Orders", e.table());
        assertInstanceOf(UnsupportedArrowTypeException.class, assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.createTableSql(NAME, schema, Map.of(), CTX)).getCause());
    }

    @Test
    void identityTargetsNeedKeepIdentity() {
        Schema schema = new Schema(List.of(field("id", new ArrowType.Int(64, true), false)));
        TargetColumn identity = new TargetColumn("id", "bigint", null, null, null, null, false, 1, null, true, true);
        List<BoundColumn> bound = ColumnMapper.bind(schema, table(identity), Map.of(), false, CTX);

        ColumnMapper.checkIdentity(bound, true, NAME, CTX);
        ColumnMappingException e = assertThrows(ColumnMappingException.class,
                () -> ColumnMapper.checkIdentity(bound, false, NAME, CTX));
        assertTrue(e.getMessage().contains("maps to identity column 'id' of dbo.Orders")
                && e.getMessage().contains("keepIdentity=true"), e.getMessage());
        assertEquals("id", e.column());

        TargetColumn plain = new TargetColumn("id", "bigint", null, null, null, null, false, 1);
        ColumnMapper.checkIdentity(ColumnMapper.bind(schema, table(plain), Map.of(), false, CTX), false, NAME, CTX);
    }

    @Test
    void createTableUsesTheMappedNamesQuotedWithTheTypesAndNullability() {
        Schema schema = new Schema(List.of(
                field("id", new ArrowType.Int(64, true), false),
                field("small", new ArrowType.Int(8, true), true),
                field("u8", new ArrowType.Int(8, false), true),
                field("amount", new ArrowType.Decimal(12, 2, 128), true),
                field("ratio", new ArrowType.FloatingPoint(FloatingPointPrecision.DOUBLE), true),
                textField("we]ird"),
                field("at", new ArrowType.Timestamp(TimeUnit.MICROSECOND, null), true),
                field("ok", ArrowType.Bool.INSTANCE, false)));

        String sql = ColumnMapper.createTableSql(NAME, schema, Map.of("ratio", "Ratio Pct"), CTX);

        assertEquals("CREATE TABLE [dbo].[Orders] ([id] bigint NOT NULL, [small] smallint NULL, [u8] tinyint NULL, "
                + "[amount] decimal(12,2) NULL, [Ratio Pct] float NULL, [we]]ird] nvarchar(max) NULL, "
                + "[at] datetime2(6) NULL, [ok] bit NOT NULL)", sql);
    }
}
