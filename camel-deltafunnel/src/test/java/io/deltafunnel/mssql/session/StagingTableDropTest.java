package io.deltafunnel.mssql.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Properties;

import io.deltafunnel.emulator.fidelity.EmulatorServer;
import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.channel.JdbcSqlChannel;
import io.deltafunnel.mssql.channel.SqlChannel;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@link StagingTable#drop}: a staging table dropped by another session between the catalog check and the DROP
 * (two shards that both see their load done) counts as dropped; a 3701 for a table that is still there does not.
 */
class StagingTableDropTest {

    @RegisterExtension
    static final EmulatorServer SERVER = new EmulatorServer(b -> b.port(0).sinkMode(false));

    private static Connection jdbc() throws SQLException {
        Properties p = new Properties();
        p.setProperty("user", SERVER.emulator().user());
        p.setProperty("password", SERVER.emulator().password());
        return DriverManager.getConnection(SERVER.emulator().jdbcUrl(), p);
    }

    private static void sql(String sql) throws SQLException {
        try (Connection c = jdbc(); Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** A channel whose DROP TABLE first runs {@code before} on another session. */
    private static SqlChannel racing(String before) throws SQLException {
        JdbcSqlChannel real = new JdbcSqlChannel(jdbc());
        return (SqlChannel) Proxy.newProxyInstance(SqlChannel.class.getClassLoader(), new Class<?>[] {SqlChannel.class},
                (proxy, m, args) -> {
                    if (m.getName().equals("execute") && ((String) args[0]).startsWith("DROP TABLE")) {
                        sql(before);
                    }
                    try {
                        return m.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
    }

    @Test
    void aTableDroppedByAnotherSessionMeanwhileCountsAsDropped() throws Exception {
        sql("CREATE TABLE dbo.race_target (id int)");
        TableName staging = StagingTable.forRun(TableName.parse("dbo.race_target"), "run-race-1");
        sql("CREATE TABLE " + staging.quoted() + " (id int)");
        try (SqlChannel c = racing("DROP TABLE " + staging.quoted())) {
            new StagingTable(staging).drop(c);
            assertNull(TargetCatalog.find(c, staging));
        }
    }

    @Test
    void a3701ForATableThatIsStillThereIsRaised() throws Exception {
        sql("CREATE TABLE dbo.race_other (id int)");
        TableName staging = TableName.parse("dbo.race_kept");
        sql("CREATE TABLE " + staging.quoted() + " (id int)");
        // the DROP is rewritten to hit a missing table, so SQL Server answers 3701 while the staging table stays
        JdbcSqlChannel real = new JdbcSqlChannel(jdbc());
        SqlChannel c = (SqlChannel) Proxy.newProxyInstance(SqlChannel.class.getClassLoader(),
                new Class<?>[] {SqlChannel.class}, (proxy, m, args) -> {
                    Object[] a = args;
                    if (m.getName().equals("execute") && ((String) args[0]).startsWith("DROP TABLE")) {
                        a = new Object[] {"DROP TABLE [dbo].[race_missing]"};
                    }
                    try {
                        return m.invoke(real, a);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                });
        try (c) {
            SQLException e = assertThrows(SQLException.class, () -> new StagingTable(staging).drop(c));
            assertEquals(3701, e.getErrorCode());
        }
    }
}
