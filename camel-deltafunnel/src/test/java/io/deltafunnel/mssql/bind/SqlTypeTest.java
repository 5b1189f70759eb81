package io.deltafunnel.mssql.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

import io.deltafunnel.arrow.read.ValueKind;
import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.channel.JdbcSqlChannel;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The target type vocabulary: every type name the catalog reports parses to its {@link SqlType} (the producer's types)
 * or to {@link SqlType#UNSUPPORTED} (every other one), once, when {@link TargetCatalog} describes the table.
 */
class SqlTypeTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    /** Each type the producer writes, as a column definition, to its constant. */
    private static final Map<String, SqlType> WRITTEN = new LinkedHashMap<>();

    static {
        WRITTEN.put("tinyint", SqlType.TINYINT);
        WRITTEN.put("smallint", SqlType.SMALLINT);
        WRITTEN.put("int", SqlType.INT);
        WRITTEN.put("bigint", SqlType.BIGINT);
        WRITTEN.put("bit", SqlType.BIT);
        WRITTEN.put("decimal(10,2)", SqlType.DECIMAL);
        WRITTEN.put("numeric(10,2)", SqlType.NUMERIC);
        WRITTEN.put("real", SqlType.REAL);
        WRITTEN.put("float", SqlType.FLOAT);
        WRITTEN.put("char(3)", SqlType.CHAR);
        WRITTEN.put("varchar(10)", SqlType.VARCHAR);
        WRITTEN.put("text", SqlType.TEXT);
        WRITTEN.put("nchar(3)", SqlType.NCHAR);
        WRITTEN.put("nvarchar(max)", SqlType.NVARCHAR);
        WRITTEN.put("ntext", SqlType.NTEXT);
        WRITTEN.put("binary(4)", SqlType.BINARY);
        WRITTEN.put("varbinary(8)", SqlType.VARBINARY);
        WRITTEN.put("image", SqlType.IMAGE);
        WRITTEN.put("uniqueidentifier", SqlType.UNIQUEIDENTIFIER);
        WRITTEN.put("date", SqlType.DATE);
        WRITTEN.put("time(3)", SqlType.TIME);
        WRITTEN.put("datetime2(7)", SqlType.DATETIME2);
        WRITTEN.put("datetime", SqlType.DATETIME);
        WRITTEN.put("smalldatetime", SqlType.SMALLDATETIME);
        WRITTEN.put("datetimeoffset(3)", SqlType.DATETIMEOFFSET);
        WRITTEN.put("json", SqlType.JSON);
        WRITTEN.put("vector(3)", SqlType.VECTOR);
    }

    private static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    @Test
    void everyWrittenTypeHasOneConstant() {
        assertEquals(WRITTEN.size() + 1, SqlType.values().length, "one constant per written type, plus UNSUPPORTED");
        for (SqlType t : SqlType.values()) {
            if (t == SqlType.UNSUPPORTED) {
                assertNull(t.typeName());
            } else {
                assertEquals(t, SqlType.parse(t.typeName()));
                assertEquals(t, SqlType.parse(t.typeName().toUpperCase(java.util.Locale.ROOT)), "any case");
            }
        }
    }

    @Test
    void theCatalogReportsEachTypeAndItIsParsedIntoTheColumn() throws Exception {
        StringBuilder ddl = new StringBuilder("CREATE TABLE [dbo].[sqltypes] (");
        int i = 0;
        for (String type : WRITTEN.keySet()) {
            ddl.append(i == 0 ? "" : ", ").append("[c").append(i++).append("] ").append(type);
        }
        ddl.append(", [m] money, [x] xml)");
        try (Connection c = jdbc()) {
            try (Statement st = c.createStatement()) {
                st.execute(ddl.toString());
            }
            try (JdbcSqlChannel channel = new JdbcSqlChannel(jdbc())) {
                TargetTable table = TargetCatalog.describe(channel, new TableName("dbo", "sqltypes"));
                SqlType[] expected = WRITTEN.values().toArray(new SqlType[0]);
                for (int k = 0; k < expected.length; k++) {
                    TargetColumn column = table.columns().get(k);
                    assertEquals(expected[k], column.type(), column.name() + " " + column.dataType());
                    assertEquals(expected[k].typeName(), column.dataType());
                }
                TargetColumn money = table.columns().get(expected.length);
                assertEquals(SqlType.UNSUPPORTED, money.type());
                assertEquals("money", money.typeText(), "the catalog's name stays for messages");
                assertEquals(SqlType.UNSUPPORTED, table.columns().get(expected.length + 1).type());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"money", "smallmoney", "xml", "sql_variant", "geography", "geometry", "hierarchyid",
            "timestamp", "rowversion", "MyClrType"})
    void everyOtherTypeIsUnsupportedAndRefusedByName(String name) {
        assertEquals(SqlType.UNSUPPORTED, SqlType.parse(name));
        TargetColumn column = new TargetColumn("c", name, null, null, null, null, true, 1);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> TargetBinding.of(ValueKind.STRING, column, true));
        assertEquals("target column type " + name.toLowerCase(java.util.Locale.ROOT)
                + " is not supported by deltafunnel-mssql", e.getMessage());
    }

    @Test
    void typeTextFollowsTheType() {
        assertEquals("nvarchar(max)", new TargetColumn("c", "nvarchar", -1, null, null, null, true, 1).typeText());
        assertEquals("varbinary(16)", new TargetColumn("c", "varbinary", 16, null, null, null, true, 1).typeText());
        assertEquals("numeric(9,3)", new TargetColumn("c", "numeric", null, 9, 3, null, true, 1).typeText());
        assertEquals("time(7)", new TargetColumn("c", "time", null, null, null, null, true, 1).typeText());
        assertEquals("datetimeoffset(2)", new TargetColumn("c", "DATETIMEOFFSET", null, null, null, 2, true, 1)
                .typeText());
        assertEquals("ntext", new TargetColumn("c", "ntext", 1_073_741_823, null, null, null, true, 1).typeText());
        assertEquals(Arrays.asList(true, false, false), Arrays.asList(SqlType.NTEXT.unicode(),
                SqlType.TEXT.unicode(), SqlType.IMAGE.unicode()));
    }
}
