package io.deltafunnel.emulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import org.junit.jupiter.api.Test;

class SmokeTest {
    @Test
    void loginCreateInsertSelect() throws Exception {
        try (MssqlEmulator emu = MssqlEmulator.builder().password("Str0ng!Passw0rd").start();
                Connection c = DriverManager.getConnection(emu.jdbcUrl(), emu.user(), emu.password());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[t] ([id] INT NOT NULL IDENTITY(1,1) PRIMARY KEY, [name] NVARCHAR(50) NULL DEFAULT N'x')");
            assertEquals(1, st.executeUpdate("INSERT INTO [dbo].[t] ([name]) VALUES (N'hello')"));
            try (ResultSet rs = st.executeQuery("SELECT [id], [name] FROM [dbo].[t] ORDER BY [id]")) {
                rs.next();
                assertEquals(1, rs.getInt(1));
                assertEquals("hello", rs.getString(2));
            }
        }
    }
}
