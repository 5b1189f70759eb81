package io.deltafunnel.emulator.fidelity;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Local variables and sp_executesql with parameters, as the producer's SQL hooks use them (issue 26, section 5): the
 * producer runs a hook as {@code EXEC sp_executesql @P0, N'@deltafunnel_run_id nvarchar(128), ...', @P1, ...}, and
 * the hook's own text declares, assigns and reads variables. As "DECLARE @local_variable", "SET @local_variable",
 * "SELECT @local_variable" and "sp_executesql" (Transact-SQL) document them: several variables in one DECLARE with
 * initial values; SET and SELECT assignment (SELECT keeps the value when no row is returned, takes the last row's
 * otherwise); variables in WHERE, VALUES and INSERT ... SELECT; sp_executesql's parameters bound positionally and by
 * name, in their own scope (the caller's variables are not visible), inside the caller's transaction; 8178 for a
 * parameter without a value.
 */
abstract class VariableScenarios extends Scenarios {

    private String t() {
        return "[dbo].[" + table + "]";
    }

    @BeforeEach
    void createTable() throws SQLException {
        dropIfExists(table);
        exec("CREATE TABLE " + t() + " ([k] int NOT NULL, [v] nvarchar(20) NULL, [n] bigint NULL)");
        exec("INSERT INTO " + t() + " ([k], [v], [n]) VALUES (1, N'a', 10), (2, N'b', 20), (3, N'c', 30)");
    }

    @AfterEach
    void dropTable() throws SQLException {
        dropIfExists(table);
    }

    @Test
    void declareSeveralWithInitialValuesAndReadThemInValuesAndWhere() throws SQLException {
        exec("DECLARE @k int = 4, @v nvarchar(20) = N'd', @n bigint = 40;"
                + " INSERT INTO " + t() + " ([k], [v], [n]) VALUES (@k, @v, @n);"
                + " DELETE FROM " + t() + " WHERE [k] = @k - 3");
        assertEquals(List.of(List.of(2, "b", 20L), List.of(3, "c", 30L), List.of(4, "d", 40L)),
                rows("SELECT [k], [v], [n] FROM " + t() + " ORDER BY [k]"));
    }

    @Test
    void setAssignsAnExpressionAndAScalarSubquery() throws SQLException {
        exec("DECLARE @total bigint, @label nvarchar(20); SET @total = (SELECT SUM([n]) FROM " + t() + ");"
                + " SET @label = N'sum'; INSERT INTO " + t() + " ([k], [v], [n]) VALUES (9, @label, @total)");
        assertEquals(List.of(List.of("sum", 60L)), rows("SELECT [v], [n] FROM " + t() + " WHERE [k] = 9"));
    }

    @Test
    void setConvertsToTheDeclaredType() throws SQLException {
        exec("DECLARE @i int; SET @i = '12'; INSERT INTO " + t() + " ([k]) VALUES (@i)");
        assertEquals(1, ((Number) scalar("SELECT COUNT(*) FROM " + t() + " WHERE [k] = 12")).intValue());
    }

    @Test
    void selectAssignsSeveralVariablesFromTheLastRow() throws SQLException {
        exec("DECLARE @k int = 0, @v nvarchar(20); SELECT @k = [k], @v = [v] FROM " + t() + " WHERE [k] < 3"
                + " ORDER BY [k]; INSERT INTO " + t() + " ([k], [v]) VALUES (@k + 100, @v)");
        assertEquals(List.of(List.of(102, "b")), rows("SELECT [k], [v] FROM " + t() + " WHERE [k] > 100"));
    }

    @Test
    void selectWithoutRowsKeepsTheValue() throws SQLException {
        exec("DECLARE @k int = 7; SELECT @k = [k] FROM " + t() + " WHERE [k] > 100;"
                + " INSERT INTO " + t() + " ([k]) VALUES (@k)");
        assertEquals(1, ((Number) scalar("SELECT COUNT(*) FROM " + t() + " WHERE [k] = 7")).intValue());
    }

    @Test
    void insertSelectReadsVariables() throws SQLException {
        exec("DECLARE @offset int = 10, @tag nvarchar(20) = N'copy'; INSERT INTO " + t() + " ([k], [v], [n])"
                + " SELECT [k] + @offset, @tag, [n] FROM " + t() + " WHERE [n] >= @offset * 2");
        assertEquals(List.of(List.of(12, "copy", 20L), List.of(13, "copy", 30L)),
                rows("SELECT [k], [v], [n] FROM " + t() + " WHERE [k] > 10 ORDER BY [k]"));
    }

    @Test
    void executeSqlBindsPositionalAndNamedParameters() throws SQLException {
        exec("EXEC sp_executesql N'INSERT INTO " + t() + " ([k], [v], [n]) VALUES (@a, @b, @c)',"
                + " N'@a int, @b nvarchar(20), @c bigint', 5, N'e', 50");
        exec("EXEC sp_executesql N'INSERT INTO " + t() + " ([k], [v], [n]) VALUES (@a, @b, @c)',"
                + " N'@a int, @b nvarchar(20), @c bigint', @c = 60, @a = 6, @b = N'f'");
        assertEquals(List.of(List.of(5, "e", 50L), List.of(6, "f", 60L)),
                rows("SELECT [k], [v], [n] FROM " + t() + " WHERE [k] > 4 ORDER BY [k]"));
    }

    @Test
    void executeSqlTakesTheStatementAndValuesFromParameterMarkers() throws SQLException {
        // What the producer sends: the statement text and every value bound, nothing concatenated.
        String hook = "DECLARE @seen bigint; SELECT @seen = COUNT(*) FROM " + t() + ";"
                + " INSERT INTO " + t() + " ([k], [v], [n]) VALUES (100, @run, @rows + @seen)";
        try (PreparedStatement ps = conn.prepareStatement("EXEC sp_executesql ?, N'@run nvarchar(128), @rows bigint',"
                + " @run = ?, @rows = ?")) {
            ps.setString(1, hook);
            ps.setString(2, "run-1");
            ps.setLong(3, 7L);
            ps.execute();
        }
        assertEquals(List.of(List.of("run-1", 10L)), rows("SELECT [v], [n] FROM " + t() + " WHERE [k] = 100"));
    }

    @Test
    void executeSqlHasItsOwnScope() throws SQLException {
        assertError(137, "DECLARE @outer int = 1; EXEC sp_executesql N'INSERT INTO " + t() + " ([k]) VALUES (@outer)'");
        exec("DECLARE @outer int = 8; EXEC sp_executesql N'INSERT INTO " + t() + " ([k]) VALUES (@p)', N'@p int',"
                + " @p = @outer");
        assertEquals(1, ((Number) scalar("SELECT COUNT(*) FROM " + t() + " WHERE [k] = 8")).intValue());
    }

    @Test
    void executeSqlParameterWithoutValueIs8178() throws SQLException {
        SQLException e = assertError(8178, "EXEC sp_executesql N'SELECT @a', N'@a int'");
        assertEquals("The parameterized query '(@a int)SELECT @a' expects the parameter '@a', which was not"
                + " supplied.", e.getMessage());
    }

    @Test
    void executeSqlRunsInTheCallersTransaction() throws SQLException {
        conn.setAutoCommit(false);
        try (Statement st = conn.createStatement()) {
            st.execute("EXEC sp_executesql N'DELETE FROM " + t() + " WHERE [k] = @k', N'@k int', 1");
            assertEquals(1, ((Number) scalar("SELECT @@TRANCOUNT")).intValue());
        }
        conn.rollback();
        conn.setAutoCommit(true);
        assertEquals(3, ((Number) scalar("SELECT COUNT(*) FROM " + t())).intValue());
    }

    @Test
    void anErrorInsideExecuteSqlReachesTheCaller() throws SQLException {
        SQLException e = assertError(8134, "EXEC sp_executesql N'INSERT INTO " + t() + " ([k]) VALUES (@a / 0)',"
                + " N'@a int', 1");
        assertTrue(e.getMessage().startsWith("Divide by zero"), e.getMessage());
        assertEquals(3, ((Number) scalar("SELECT COUNT(*) FROM " + t())).intValue());
    }
}
