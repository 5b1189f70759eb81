package io.deltafunnel.benchmark;

import com.microsoft.sqlserver.jdbc.ISQLServerBulkData;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopy;
import com.microsoft.sqlserver.jdbc.SQLServerBulkCopyOptions;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.util.Set;

import io.deltafunnel.emulator.MssqlEmulator;

/**
 * Not a test: bulk-loads N narrow rows (int, bigint, nvarchar(20), decimal(18,2), datetime2(6)) through
 * SQLServerBulkCopy from an ISQLServerBulkData into a sink-mode emulator and prints rows/s (driver encode + TLS +
 * emulator decode and checks; nothing stored). Run:
 * {@code java -cp benchmark/target/classes:$(cat benchmark/target/classpath.txt)
 * io.deltafunnel.benchmark.SinkDecodeBenchmark [rows] [batchSize] [native|text] [tls|plain]} after
 * {@code mvn -pl benchmark -am package -DskipTests}.
 */
public final class SinkDecodeBenchmark {
    private SinkDecodeBenchmark() {
    }

    /** Generated rows, no per-row allocation beyond the values. */
    static final class Narrow implements ISQLServerBulkData {
        private static final long serialVersionUID = 1L;
        private final long rows;
        private long i;
        private final Object[] row = new Object[5];
        private final Timestamp base = Timestamp.valueOf("2024-01-02 03:04:05.123456");

        Narrow(long rows) {
            this.rows = rows;
        }

        @Override
        public Set<Integer> getColumnOrdinals() {
            return Set.of(1, 2, 3, 4, 5);
        }

        @Override
        public String getColumnName(int c) {
            return new String[] {"id", "big", "name", "amount", "ts"}[c - 1];
        }

        @Override
        public int getColumnType(int c) {
            return new int[] {Types.INTEGER, Types.BIGINT, Types.NVARCHAR, Types.DECIMAL, Types.TIMESTAMP}[c - 1];
        }

        @Override
        public int getPrecision(int c) {
            return new int[] {10, 19, 20, 18, 26}[c - 1];
        }

        @Override
        public int getScale(int c) {
            return new int[] {0, 0, 0, 2, 6}[c - 1];
        }

        @Override
        public Object[] getRowData() {
            row[0] = (int) i;
            row[1] = i * 1_000_003L;
            row[2] = "name-" + (i % 100_000);
            row[3] = BigDecimal.valueOf(i % 10_000_000, 2);
            row[4] = new Timestamp(base.getTime() + i);
            ((Timestamp) row[4]).setNanos(123456000);
            return row;
        }

        @Override
        public boolean next() {
            return i++ < rows;
        }
    }

    public static void main(String[] args) throws Exception {
        long rows = args.length > 0 ? Long.parseLong(args[0]) : 2_000_000L;
        int batch = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        boolean nativeTemporals = args.length > 2 && args[2].equals("native");
        boolean plain = args.length > 3 && args[3].equals("plain");
        try (MssqlEmulator emu = MssqlEmulator.builder().sinkMode(true).start();
                Connection c = DriverManager.getConnection(emu.jdbcUrl()
                        + ";sendTemporalDataTypesAsStringForBulkCopy=" + !nativeTemporals
                        + (plain ? ";encrypt=false" : ""), emu.user(), emu.password());
                Statement st = c.createStatement()) {
            st.execute("CREATE TABLE [dbo].[narrow] ([id] INT NOT NULL, [big] BIGINT NOT NULL,"
                    + " [name] NVARCHAR(20) NOT NULL, [amount] DECIMAL(18,2) NOT NULL, [ts] DATETIME2(6) NOT NULL)");
            // warm-up
            load(c, 200_000, batch);
            long before = emu.bulkRowsDecoded();
            long t0 = System.nanoTime();
            load(c, rows, batch);
            double secs = (System.nanoTime() - t0) / 1e9;
            long decoded = emu.bulkRowsDecoded() - before;
            System.out.printf("sink decode: %,d rows in %.2f s = %,.0f rows/s (batchSize=%d, temporals=%s, %s)%n",
                    decoded, secs, decoded / secs, batch, nativeTemporals ? "native" : "text",
                    plain ? "no TLS" : "TLS");
        }
    }

    private static void load(Connection c, long rows, int batch) throws Exception {
        try (SQLServerBulkCopy bc = new SQLServerBulkCopy(c)) {
            bc.setDestinationTableName("[dbo].[narrow]");
            SQLServerBulkCopyOptions o = new SQLServerBulkCopyOptions();
            o.setBatchSize(batch);
            o.setBulkCopyTimeout(0);
            bc.setBulkCopyOptions(o);
            bc.writeToServer(new Narrow(rows));
        }
    }
}
