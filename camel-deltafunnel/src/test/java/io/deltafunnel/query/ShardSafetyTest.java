package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shard-safety check with DuckDB's parser: each refused shape with its reason, and the allowed shapes. */
class ShardSafetyTest {

    private Connection duck;

    @BeforeEach
    void open() throws Exception {
        duck = DriverManager.getConnection("jdbc:duckdb:");
    }

    @AfterEach
    void close() throws Exception {
        duck.close();
    }

    @ParameterizedTest
    @ValueSource(strings = {
        "SELECT * FROM orders",
        "FROM orders",
        "SELECT id, amount * 2 AS doubled, upper(name) FROM orders WHERE amount > 10 AND name LIKE 'a%'",
        "SELECT o.*, c.name FROM orders o JOIN customers c ON o.customer = c.id",
        "SELECT o.* FROM orders o LEFT JOIN customers c ON o.customer = c.id",
        "SELECT c.name, o.id FROM customers c RIGHT JOIN orders o ON o.customer = c.id",
        "SELECT * FROM orders o SEMI JOIN customers c ON o.customer = c.id",
        "SELECT * FROM orders o ANTI JOIN blocked b ON o.customer = b.id",
        "SELECT * FROM orders o ASOF JOIN rates r ON o.ts >= r.ts",
        "SELECT * FROM orders CROSS JOIN (SELECT max(rate) AS top FROM rates) m",
        "SELECT * FROM orders WHERE customer IN (SELECT id FROM customers WHERE active)",
        "SELECT * FROM orders WHERE amount > (SELECT avg(amount) FROM history)",
        "SELECT * FROM orders o JOIN (SELECT customer, count(*) AS n FROM history GROUP BY customer) h USING (customer)",
        "WITH big AS (SELECT * FROM orders WHERE amount > 100) SELECT id FROM big",
        "WITH totals AS (SELECT k, sum(v) AS s FROM dims GROUP BY k) SELECT * FROM orders JOIN totals USING (k)",
        "SELECT * FROM (SELECT id, amount FROM orders WHERE amount > 0) t WHERE id > 5",
        "SELECT id FROM orders WHERE a > 1 UNION ALL SELECT id FROM orders WHERE a <= 1",
        "SELECT CASE WHEN amount > 0 THEN 'credit' ELSE 'debit' END, coalesce(name, '?') FROM \"ORDERS\"",
        "SELECT list_sum([amount, 1]), struct_pack(a := id) FROM orders",
        "SELECT o.*, r.range AS n FROM orders o CROSS JOIN range(3) r",
        "SELECT o.*, g.generate_series FROM orders o, generate_series(1, o.qty) g",
        "SELECT o.id, u.unnest FROM orders o, unnest(o.items) u",
        "SELECT o.*, p.rate FROM orders o JOIN read_parquet('/lake/rates/*.parquet') p ON o.cur = p.cur",
        "SELECT o.*, c.code FROM orders o JOIN read_csv('codes.csv', header = true) c ON o.code = c.code",
        "SELECT * FROM orders WHERE cur IN (SELECT cur FROM read_parquet(['a.parquet', 'b.parquet']))",
    })
    void rowWiseQueriesAreAllowed(String sql) {
        assertDoesNotThrow(() -> ShardSafety.check(duck, sql, "orders"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT count(*) FROM orders                                          | aggregate function(s) count_star",
        "SELECT sum(amount), max(id) FROM orders                              | aggregate function(s) max, sum",
        "SELECT customer, 1 FROM orders GROUP BY customer                     | GROUP BY",
        "SELECT * FROM orders GROUP BY ALL                                    | GROUP BY ALL",
        "SELECT customer FROM orders GROUP BY customer HAVING count(*) > 1    | HAVING",
        "SELECT DISTINCT customer FROM orders                                 | DISTINCT",
        "SELECT DISTINCT ON (customer) * FROM orders                          | DISTINCT ON",
        "SELECT * FROM orders ORDER BY id                                     | ORDER BY",
        "SELECT * FROM orders LIMIT 10                                        | LIMIT/OFFSET",
        "SELECT * FROM orders OFFSET 10                                       | LIMIT/OFFSET",
        "SELECT *, row_number() OVER () FROM orders                           | window function",
        "SELECT *, sum(amount) OVER (PARTITION BY customer) FROM orders       | window function",
        "SELECT * FROM orders QUALIFY row_number() OVER (ORDER BY id) = 1     | window function",
        "SELECT * FROM orders USING SAMPLE 10                                 | USING SAMPLE",
        "SELECT * FROM orders TABLESAMPLE 10%                                 | TABLESAMPLE",
        "SELECT id FROM orders UNION SELECT id FROM archive                   | UNION (only UNION ALL",
        "SELECT id FROM orders EXCEPT SELECT id FROM archive                  | EXCEPT (only UNION ALL",
        "SELECT id FROM orders INTERSECT ALL SELECT id FROM archive           | INTERSECT ALL (only UNION ALL",
        "SELECT id FROM orders UNION ALL SELECT id FROM archive               | branch that does not read",
        "SELECT * FROM customers                                              | does not read the sharded view",
        "SELECT c.* FROM customers c LEFT JOIN orders o ON o.customer = c.id  | looked-up side of a LEFT JOIN",
        "SELECT * FROM customers c ANTI JOIN orders o ON o.customer = c.id    | looked-up side of a ANTI JOIN",
        "SELECT * FROM orders o FULL JOIN customers c ON o.customer = c.id    | looked-up side of a FULL JOIN",
        "SELECT * FROM rates r ASOF JOIN orders o ON r.ts >= o.ts             | ASOF JOIN",
        "SELECT * FROM orders POSITIONAL JOIN customers                       | POSITIONAL JOIN",
        "SELECT * FROM orders a JOIN orders b ON a.parent = b.id              | with itself",
        "SELECT * FROM customers WHERE id IN (SELECT customer FROM orders)    | subquery expression",
        "SELECT * FROM orders WHERE amount > (SELECT avg(amount) FROM orders) | subquery expression",
        "SELECT * FROM (SELECT customer, count(*) n FROM orders GROUP BY 1) t | GROUP BY",
        "WITH c AS (SELECT DISTINCT id FROM orders) SELECT * FROM c           | CTE c has DISTINCT",
        "SELECT * FROM (SELECT * FROM orders) ORDER BY 1                      | ORDER BY",
    })
    void unsafeShapesAreRefusedWithTheReason(String sql, String reason) {
        ShardUnsafeQueryException e = assertThrows(ShardUnsafeQueryException.class,
                () -> ShardSafety.check(duck, sql, "orders"));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
        assertTrue(e.getMessage().contains("orders"), e.getMessage());
        assertEquals("orders", e.view());
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT * FROM orders CROSS JOIN (SELECT sum(amount) FROM query_table('orders')) t     | query_table",
        "SELECT * FROM orders CROSS JOIN query('SELECT count(*) FROM orders') t                | query",
        "SELECT * FROM orders WHERE amount > (SELECT avg(amount) FROM query_table('orders'))   | query_table",
        "SELECT * FROM orders WHERE id IN (SELECT * FROM query('SELECT max(id) FROM orders'))  | query",
        "WITH s AS (FROM query_table(['orders'])) SELECT * FROM orders CROSS JOIN s            | query_table",
        "SELECT * FROM query_table('orders')                                                   | query_table",
        "SELECT * FROM orders CROSS JOIN duckdb_tables() d                                     | duckdb_tables",
        "SELECT * FROM orders CROSS JOIN range((SELECT count(*) FROM orders)) r                | range",
        "SELECT * FROM orders CROSS JOIN unnest((SELECT list(id) FROM orders)) u               | unnest",
        "SELECT * FROM orders CROSS JOIN main.query_table('orders') t                          | main.query_table",
    })
    void tableFunctionsThatCanReadAViewAreRefusedByName(String sql, String function) {
        ShardUnsafeQueryException e = assertThrows(ShardUnsafeQueryException.class,
                () -> ShardSafety.check(duck, sql, "orders"));
        assertTrue(e.getMessage().contains("table function " + function + "("), e.getMessage());
        assertTrue(e.getMessage().contains("sharded view orders"), e.getMessage());
        assertEquals("orders", e.view());
    }

    @Test
    void aUserDefinedTableMacroShadowingAnAllowedNameIsRefused() throws Exception {
        try (Statement st = duck.createStatement()) {
            st.execute("CREATE TABLE orders (id BIGINT)");
            st.execute("CREATE MACRO range(x) AS TABLE SELECT count(*) AS n FROM orders");
        }
        ShardUnsafeQueryException e = assertThrows(ShardUnsafeQueryException.class,
                () -> ShardSafety.check(duck, "SELECT * FROM orders CROSS JOIN range(3) t", "orders"));
        assertTrue(e.getMessage().contains("table function range(") && e.getMessage().contains("user-defined"),
                e.getMessage());
    }

    /**
     * The check reads DuckDB's function catalog (a scan of duckdb_functions(), tens of ms on a fresh instance) only for
     * a query that calls a function or a table function: the only places its walk looks a name up.
     */
    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "SELECT * FROM orders                                                   | false",
        "SELECT id, name FROM orders WHERE amount > 10 AND name IS NOT NULL     | false",
        "SELECT CAST(id AS VARCHAR) FROM orders WHERE id IN (1, 2) OR NOT flag  | false",
        "SELECT o.* FROM orders o JOIN customers c ON o.customer = c.id         | false",
        "SELECT id + 1 FROM orders                                              | true",
        "SELECT upper(name) FROM orders                                         | true",
        "SELECT sum(id) FROM orders                                             | true",
        "SELECT count(*) FROM orders                                            | true",
        "SELECT twice(id) FROM orders                                           | true",
        "SELECT * FROM orders CROSS JOIN range(3) r                             | true",
        "SELECT * FROM orders JOIN read_parquet('x.parquet') p USING (id)       | true",
        "SELECT * FROM orders WHERE id IN (SELECT max(id) FROM history)         | true",
    })
    void theCatalogIsNeededOnlyForFunctionCallsAndTableFunctions(String sql, boolean needed) throws Exception {
        try (java.sql.PreparedStatement ps = duck.prepareStatement("SELECT json_serialize_sql(?)")) {
            ps.setString(1, sql);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                rs.next();
                JsonNode tree = new ObjectMapper().readTree(rs.getString(1));
                assertEquals(needed, ShardSafety.needsFunctionNames(tree), sql + "\n" + tree);
            }
        }
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "INSERT INTO orders VALUES (1)               | Only SELECT statements",
        "SELECT * FROM orders; SELECT * FROM orders  | one SELECT statement, found 2",
        "SELEC * FROM orders                         | cannot parse",
    })
    void queriesThatCannotBeCheckedAreRefused(String sql, String reason) {
        ShardUnsafeQueryException e = assertThrows(ShardUnsafeQueryException.class,
                () -> ShardSafety.check(duck, sql, "orders"));
        assertTrue(e.getMessage().contains(reason), e.getMessage());
    }
}
