package io.deltafunnel.mssql.bind;

import io.deltafunnel.mssql.BulkLoadSettings.TypeSettings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.TableName;
import org.apache.arrow.vector.types.FloatingPointPrecision;
import org.apache.arrow.vector.types.pojo.ArrowType;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.FieldType;
import org.apache.arrow.vector.types.pojo.Schema;
import org.junit.jupiter.api.Test;

/** jsonColumns / vectorColumns: parsing, the default, and the CREATE TABLE types they give. */
class TypeSettingsTest {

    private static Field floats(String name, int fixedSize) {
        Field element = new Field("element", FieldType.nullable(new ArrowType.FloatingPoint(
                FloatingPointPrecision.SINGLE)), null);
        ArrowType list = fixedSize > 0 ? new ArrowType.FixedSizeList(fixedSize) : ArrowType.List.INSTANCE;
        return new Field(name, FieldType.nullable(list), List.of(element));
    }

    @Test
    void parsesTextAndNativeAndRefusesOthers() {
        assertEquals(TypeSettings.DEFAULT, TypeSettings.parse(null, "Text"));
        assertEquals(new TypeSettings(true, false), TypeSettings.parse(" NATIVE", "text"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TypeSettings.parse("text", "binary"));
        assertTrue(e.getMessage().contains("vectorColumns must be text or native"), e.getMessage());
        assertEquals(TypeSettings.DEFAULT, BulkLoadSettings.defaults(TableName.parse("dbo.t")).typeSettings());
    }

    @Test
    void createTableTypes() {
        Schema schema = new Schema(List.of(floats("emb", 768), floats("l", 0)));
        BulkLoadException.Context ctx = BulkLoadException.Context.of("dbo.t", null, io.deltafunnel.handoff.HandoffStats.ZERO);
        String text = ColumnMapper.createTableSql(TableName.parse("dbo.t"), schema, Map.of(), ctx);
        assertEquals("CREATE TABLE [dbo].[t] ([emb] nvarchar(max) NULL, [l] nvarchar(max) NULL)", text);
        String vectors = ColumnMapper.createTableSql(TableName.parse("dbo.t"), schema, Map.of(), ctx,
                new TypeSettings(false, true));
        assertEquals("CREATE TABLE [dbo].[t] ([emb] vector(768) NULL, [l] nvarchar(max) NULL)", vectors);
        String both = ColumnMapper.createTableSql(TableName.parse("dbo.t"), schema, Map.of(), ctx,
                new TypeSettings(true, true));
        assertEquals("CREATE TABLE [dbo].[t] ([emb] vector(768) NULL, [l] json NULL)", both);
        Schema tooWide = new Schema(List.of(floats("big", 1999)));
        ColumnMappingException e = assertThrows(ColumnMappingException.class, () -> ColumnMapper.createTableSql(
                TableName.parse("dbo.t"), tooWide, Map.of(), ctx, new TypeSettings(false, true)));
        assertTrue(e.getMessage().contains("1999"), e.getMessage());
    }
}
