package io.deltafunnel.query;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shard-safety check's function names: one scan of the catalog, kept per shared instance. */
class FunctionNamesTest {

    private static void run(Connection c, String sql) throws Exception {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    @Test
    void oneScanReadsAggregatesAndUserDefinedFunctions() throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            run(duck, "CREATE MACRO Twice(x) AS x * 2");
            FunctionNames names = FunctionNames.read(duck);
            assertTrue(names.aggregates().containsAll(List.of("sum", "count", "string_agg", "max")),
                    names.aggregates().toString());
            assertFalse(names.aggregates().contains("upper"));
            assertFalse(names.aggregates().contains("twice"));
            assertTrue(names.userDefined().contains("twice"), "lower case: " + names.userDefined());
            assertFalse(names.userDefined().contains("sum"));
            assertFalse(names.userDefined().contains("upper"));
        }
    }

    @Test
    void theLoadedExtensionsAreListedInNameOrder() throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            String loaded = FunctionNames.loadedExtensions(duck);
            assertTrue(loaded.contains("parquet") && loaded.contains("json"), loaded);
            List<String> names = List.of(loaded.split(","));
            assertTrue(names.stream().sorted().toList().equals(names), loaded);
        }
    }

    /** Kept while the loaded extensions stay the same; read again when they change (an extension adds functions). */
    @Test
    void theCacheReadsAgainOnlyWhenTheLoadedExtensionsChange() throws Exception {
        try (Connection duck = DriverManager.getConnection("jdbc:duckdb:")) {
            FunctionNames.Cache cache = new FunctionNames.Cache();
            FunctionNames first = cache.names(duck);
            assertSame(first, cache.names(duck), "the same extensions: not read again");
            run(duck, "CREATE MACRO later(x) AS x");
            assertSame(first, cache.names(duck, FunctionNames.loadedExtensions(duck)));
            FunctionNames other = cache.names(duck, FunctionNames.loadedExtensions(duck) + ",an_extension");
            assertNotSame(first, other);
            assertTrue(other.userDefined().contains("later"), other.userDefined().toString());
        }
    }

    /**
     * Shard routes on one shared instance read its catalog once; the instance's init SQL macros are seen, so a macro
     * shadowing an allowed table function is still refused.
     */
    @Test
    void sharedInstancesKeepTheirNamesAndTheChecksStillSeeInitSqlMacros() throws Exception {
        try (DuckDbInstances instances = new DuckDbInstances()) {
            DuckDbSettings settings = new DuckDbSettings(null, List.of("CREATE TABLE orders (id BIGINT)",
                    "CREATE MACRO range(x) AS TABLE SELECT count(*) AS n FROM orders"), false).sharedBy(instances);
            try (Connection a = DuckDbConnections.open(settings); Connection b = DuckDbConnections.open(settings)) {
                FunctionNames names = instances.functionNames(settings, a);
                assertSame(names, instances.functionNames(settings, b), "one scan per instance");
                assertTrue(names.userDefined().contains("range"), names.userDefined().toString());
                ShardUnsafeQueryException e = assertThrows(ShardUnsafeQueryException.class, () -> ShardSafety.check(
                        b, settings, "SELECT * FROM orders CROSS JOIN range(3) t", "orders"));
                assertTrue(e.getMessage().contains("user-defined"), e.getMessage());
                e = assertThrows(ShardUnsafeQueryException.class, () -> ShardSafety.check(
                        a, settings, "SELECT sum(id) FROM orders", "orders"));
                assertTrue(e.getMessage().contains("aggregate"), e.getMessage());
                ShardSafety.check(a, settings, "SELECT id + 1 FROM orders", "orders");
            }
            // another init SQL is another instance, with names of its own
            DuckDbSettings plain = DuckDbSettings.inMemory().sharedBy(instances);
            try (Connection c = DuckDbConnections.open(plain)) {
                assertFalse(instances.functionNames(plain, c).userDefined().contains("range"));
            }
        }
    }
}
