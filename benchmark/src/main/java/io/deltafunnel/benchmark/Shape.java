package io.deltafunnel.benchmark;

import java.util.List;

/**
 * The two benchmark tables: a deterministic DuckDB generator (hash-based, no tpch extension needed) and the SQL
 * Server target table. Every path loads the same Parquet files into the same target definition.
 */
public enum Shape {

    /** Five columns: int, bigint, nvarchar(20), decimal(18,2), datetime2(6). */
    NARROW(List.of(
            col("id", "INTEGER", "int NOT NULL", "CAST(i AS INTEGER)"),
            col("big", "BIGINT", "bigint NOT NULL", "CAST(hash(i, 1) >> 1 AS BIGINT)"),
            col("name", "VARCHAR", "nvarchar(20) NOT NULL", "'name-' || CAST(hash(i, 2) % 100000000 AS VARCHAR)"),
            col("amount", "DECIMAL(18,2)", "decimal(18,2) NOT NULL",
                    "CAST(CAST(hash(i, 3) % 10000000000 AS DECIMAL(18,0)) / 100 AS DECIMAL(18,2))"),
            col("ts", "TIMESTAMP", "datetime2(6) NOT NULL",
                    "TIMESTAMP '2020-01-01' + to_microseconds(CAST(hash(i, 4) % 157680000000000 AS BIGINT))"))),

    /** TPC-H lineitem's 16 columns, with TPC-H-like value distributions. */
    LINEITEM(List.of(
            col("l_orderkey", "BIGINT", "bigint NOT NULL", "CAST(i // 4 + 1 AS BIGINT)"),
            col("l_partkey", "BIGINT", "bigint NOT NULL", "CAST(hash(i, 1) % 200000 + 1 AS BIGINT)"),
            col("l_suppkey", "BIGINT", "bigint NOT NULL", "CAST(hash(i, 2) % 10000 + 1 AS BIGINT)"),
            col("l_linenumber", "INTEGER", "int NOT NULL", "CAST(i % 4 + 1 AS INTEGER)"),
            col("l_quantity", "DECIMAL(15,2)", "decimal(15,2) NOT NULL",
                    "CAST(hash(i, 3) % 50 + 1 AS DECIMAL(15,2))"),
            col("l_extendedprice", "DECIMAL(15,2)", "decimal(15,2) NOT NULL",
                    "CAST(CAST(hash(i, 4) % 10490000 + 90100 AS DECIMAL(15,0)) / 100 AS DECIMAL(15,2))"),
            col("l_discount", "DECIMAL(15,2)", "decimal(15,2) NOT NULL",
                    "CAST(CAST(hash(i, 5) % 11 AS DECIMAL(15,0)) / 100 AS DECIMAL(15,2))"),
            col("l_tax", "DECIMAL(15,2)", "decimal(15,2) NOT NULL",
                    "CAST(CAST(hash(i, 6) % 9 AS DECIMAL(15,0)) / 100 AS DECIMAL(15,2))"),
            col("l_returnflag", "VARCHAR", "nvarchar(1) NOT NULL", "(['R', 'A', 'N'])[CAST(hash(i, 7) % 3 + 1 AS BIGINT)]"),
            col("l_linestatus", "VARCHAR", "nvarchar(1) NOT NULL", "(['O', 'F'])[CAST(hash(i, 8) % 2 + 1 AS BIGINT)]"),
            col("l_shipdate", "DATE", "date NOT NULL", "DATE '1992-01-02' + CAST(hash(i, 9) % 2526 AS INTEGER)"),
            col("l_commitdate", "DATE", "date NOT NULL", "DATE '1992-01-31' + CAST(hash(i, 10) % 2466 AS INTEGER)"),
            col("l_receiptdate", "DATE", "date NOT NULL",
                    "DATE '1992-01-02' + CAST(hash(i, 9) % 2526 + hash(i, 11) % 30 + 1 AS INTEGER)"),
            col("l_shipinstruct", "VARCHAR", "nvarchar(25) NOT NULL",
                    "(['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'])[CAST(hash(i, 12) % 4 + 1 AS BIGINT)]"),
            col("l_shipmode", "VARCHAR", "nvarchar(10) NOT NULL",
                    "(['REG AIR', 'AIR', 'RAIL', 'SHIP', 'TRUCK', 'MAIL', 'FOB'])[CAST(hash(i, 13) % 7 + 1 AS BIGINT)]"),
            col("l_comment", "VARCHAR", "nvarchar(44) NOT NULL",
                    "rtrim(substr('carefully final deposits detect slyly regular requests. furiously ironic "
                    + "pinto beans haggle quickly along the express accounts; blithely even theodolites sleep "
                    + "above the pending foxes. quickly bold packages wake', CAST(hash(i, 14) % 160 + 1 AS INTEGER), "
                    + "CAST(hash(i, 15) % 34 + 10 AS INTEGER)))")));

    /** One column: name, DuckDB type, SQL Server column definition, generator expression over {@code i}. */
    public record Column(String name, String duckType, String sqlServerType, String expression) {
    }

    private final List<Column> columns;

    Shape(List<Column> columns) {
        this.columns = columns;
    }

    private static Column col(String name, String duckType, String sqlServerType, String expression) {
        return new Column(name, duckType, sqlServerType, expression);
    }

    public List<Column> columns() {
        return columns;
    }

    /** The generator query for rows 0..rows-1, in row order. */
    public String generatorSql(long rows) {
        StringBuilder sb = new StringBuilder("SELECT ");
        for (int c = 0; c < columns.size(); c++) {
            Column col = columns.get(c);
            sb.append(c == 0 ? "" : ", ").append("CAST(").append(col.expression()).append(" AS ")
                    .append(col.duckType()).append(") AS ").append(col.name());
        }
        return sb.append(" FROM range(0, ").append(rows).append(") AS t(i) ORDER BY i").toString();
    }

    /** CREATE TABLE for the SQL Server target. */
    public String createTableSql(String table) {
        StringBuilder sb = new StringBuilder("CREATE TABLE [dbo].[").append(table).append("] (");
        for (int c = 0; c < columns.size(); c++) {
            Column col = columns.get(c);
            sb.append(c == 0 ? "" : ", ").append('[').append(col.name()).append("] ").append(col.sqlServerType());
        }
        return sb.append(')').toString();
    }

    /** Comma list of the column names. */
    public String columnList() {
        return String.join(", ", columns.stream().map(Column::name).toList());
    }
}
