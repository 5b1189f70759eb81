package io.deltafunnel.benchmark;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import io.deltafunnel.mssql.TableName;
import io.deltafunnel.mssql.bind.TargetColumn;
import io.deltafunnel.mssql.direct.DirectBulkWriter;
import io.deltafunnel.mssql.direct.DirectTdsConnection;
import io.deltafunnel.mssql.direct.DirectUrl;

import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.memory.RootAllocator;
import org.apache.arrow.vector.BigIntVector;
import org.apache.arrow.vector.BitVector;
import org.apache.arrow.vector.DateDayVector;
import org.apache.arrow.vector.DecimalVector;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.Float8Vector;
import org.apache.arrow.vector.IntVector;
import org.apache.arrow.vector.SmallIntVector;
import org.apache.arrow.vector.TimeStampMicroTZVector;
import org.apache.arrow.vector.TimeStampMicroVector;
import org.apache.arrow.vector.VarCharVector;
import org.apache.arrow.vector.VectorSchemaRoot;

/**
 * The direct writer's own CPU per row on LINEITEM, without DuckDB or Camel: one Arrow batch of TPC-H-like values
 * (built in Java, {@link Shape#LINEITEM}'s types; or the README's sample table, {@link #ORDERS}), written again and
 * again with {@link DirectBulkWriter} (validation included) into the emulator's jar in sink mode as a separate
 * process. CPU = the writing thread's CPU time ({@link ThreadMXBean#getCurrentThreadCpuTime}, user + kernel, and the
 * user part alone) ÷ rows. Less sensitive to a loaded machine than {@code cpu.sh}: only this thread's time counts. See
 * benchmark/README.md.
 *
 * <pre>
 * java -cp ... io.deltafunnel.benchmark.EncodeCpu [batches per round, 60] [rounds, 7] [rows per batch, 65536]
 * </pre>
 */
public final class EncodeCpu {

    private EncodeCpu() {
    }

    public static void main(String[] args) throws Exception {
        int batches = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 7;
        int rows = args.length > 2 ? Integer.parseInt(args[2]) : 65_536;
        Path jar = EmulatorProcess.findJar();
        try (EmulatorProcess emulator = EmulatorProcess.start(jar, "sink");
                Session session = new Session(emulator.url(), ORDERS ? "encode_orders" : "encode_lineitem", rows)) {
            System.out.printf("EncodeCpu: %s, %,d rows per batch, %d batches per round, %d rounds, packet size %d,"
                    + " load average %s%n", shapeText(), rows, batches, rounds,
                    session.packetSize(),
                    java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim());
            session.round(batches); // warm-up
            long[] total = new long[rounds];
            long[] user = new long[rounds];
            for (int r = 0; r < rounds; r++) {
                long[] cpu = session.round(batches);
                total[r] = cpu[0];
                user[r] = cpu[1];
                System.out.printf("  round %d: thread CPU %d ns/row (user %d, kernel %d)%n", r + 1, total[r],
                        user[r], total[r] - user[r]);
            }
            System.out.printf("median: thread CPU %d ns/row, user %d ns/row; load average %s%n", median(total),
                    median(user), java.nio.file.Files.readString(Path.of("/proc/loadavg")).trim());
        }
    }

    /** What the batch is, for the output's first line. */
    static String shapeText() {
        return ORDERS ? "ORDERS (the README's sample table, " + ORDERS_NON_ASCII_PERCENT + "% of notes not ASCII)"
                : "LINEITEM (" + NON_ASCII_PERCENT + "% of l_comment not ASCII" + (CYRILLIC ? ", in Cyrillic" : "")
                + (CJK ? ", in CJK ideographs" : "") + ")";
    }

    /**
     * One LINEITEM (or ORDERS) batch and one direct connection to the server at {@code url}, a table of its columns
     * created there, and {@link #round} to write the batch into it again and again. {@link EncodeAb} makes one per
     * build, each in its own class loader, so its methods take and return only JDK types. Owns the allocator, the batch
     * and the connection; {@link #close} releases them. Not thread-safe: the thread that calls {@link #round} is the
     * one measured.
     */
    public static final class Session implements AutoCloseable {
        private final BufferAllocator allocator;
        private final VectorSchemaRoot root;
        private final DirectTdsConnection connection;
        private final DirectBulkWriter writer;
        private final TableName table;
        private final List<TargetColumn> targets = ORDERS ? ordersTargets() : targets();
        private final int rows;

        /** Creates table {@code dbo.<name>} (it must not exist) and opens the connection. */
        public Session(String url, String name, int rows) throws Exception {
            this.rows = rows;
            this.table = TableName.parse("dbo." + name);
            try (Connection c = BenchSupport.sqlServer(url); Statement st = c.createStatement()) {
                st.execute(ORDERS ? ordersTableSql(name) : Shape.LINEITEM.createTableSql(name));
            }
            allocator = new RootAllocator();
            VectorSchemaRoot batch = null;
            DirectTdsConnection open = null;
            try {
                batch = ORDERS ? orders(allocator, rows) : lineitem(allocator, rows);
                open = DirectTdsConnection.open(DirectUrl.parse(url, "sa", BenchSupport.PASSWORD));
            } catch (Exception | Error e) {
                if (batch != null) {
                    batch.close();
                }
                allocator.close();
                throw e;
            }
            root = batch;
            connection = open;
            writer = new DirectBulkWriter(connection).tableLock(true);
        }

        public int packetSize() {
            return connection.packetSize();
        }

        /**
         * Writes the batch {@code batches} times; returns this thread's CPU time and its user part, each in
         * nanoseconds per row.
         */
        public long[] round(int batches) throws Exception {
            ThreadMXBean threads = ManagementFactory.getThreadMXBean();
            long cpu0 = threads.getCurrentThreadCpuTime();
            long user0 = threads.getCurrentThreadUserTime();
            long written = 0;
            for (int i = 0; i < batches; i++) {
                written += writer.write(table, root, targets);
            }
            long cpu = threads.getCurrentThreadCpuTime() - cpu0;
            long user = threads.getCurrentThreadUserTime() - user0;
            if (written != (long) rows * batches) {
                throw new IllegalStateException("the server counted " + written + " rows");
            }
            return new long[] {cpu / ((long) rows * batches), user / ((long) rows * batches)};
        }

        @Override
        public void close() throws Exception {
            try (BufferAllocator a = allocator; VectorSchemaRoot r = root; DirectTdsConnection c = connection) {
                // closed in reverse order: the connection, the batch, then its allocator
            }
        }
    }

    static long median(long[] v) {
        long[] s = v.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }

    private static List<TargetColumn> targets() {
        List<TargetColumn> t = new ArrayList<>();
        int ordinal = 1;
        for (Shape.Column c : Shape.LINEITEM.columns()) {
            String type = c.sqlServerType().replace(" NOT NULL", "");
            String name = type.replaceAll("\\(.*", "");
            Integer max = null;
            Integer precision = null;
            Integer scale = null;
            String collation = null;
            if (name.equals("nvarchar")) {
                max = Integer.parseInt(type.replaceAll(".*\\((\\d+)\\)", "$1"));
                collation = "SQL_Latin1_General_CP1_CI_AS";
            } else if (name.equals("decimal")) {
                precision = 15;
                scale = 2;
            } else if (name.equals("bigint")) {
                precision = 19;
                scale = 0;
            } else if (name.equals("int")) {
                precision = 10;
                scale = 0;
            }
            t.add(new TargetColumn(c.name(), name, max, precision, scale, null, false, ordinal++, collation,
                    false));
        }
        return t;
    }

    /**
     * {@code -Ddeltafunnel.bench.shape=orders}: instead of LINEITEM, the README's sample table
     * ({@code io.deltafunnel.routes.SampleTable}: its eleven columns, types and values, NULLs included) into the
     * table the application's {@code createTable} makes for it. A realistic mix where LINEITEM has only integers,
     * decimals, dates and ASCII text: a smallint, a double, a boolean, a zoned and a plain timestamp (a seventh of it
     * NULL), and text that is not ASCII in every row (a thirteenth of it NULL).
     */
    static final boolean ORDERS = "orders".equalsIgnoreCase(System.getProperty("deltafunnel.bench.shape", ""));

    /** ORDERS: the share of notes, in percent, that are not ASCII (100 unless the property says otherwise). */
    static final int ORDERS_NON_ASCII_PERCENT = Integer.getInteger("deltafunnel.bench.nonAsciiPercent", 100);

    private static final String[] ORDER_STATUS = {"NEW", "PAID", "SHIPPED", "DELIVERED", "RETURNED"};

    /** The table {@code createTable} makes for the sample table's columns. */
    static String ordersTableSql(String name) {
        return "CREATE TABLE dbo." + name + " (order_id bigint, customer_id int, status nvarchar(max),"
                + " amount decimal(12,2), discount float, quantity smallint, priority bit, order_date date,"
                + " updated_at datetimeoffset(6), shipped_at datetime2(6), note nvarchar(max))";
    }

    static List<TargetColumn> ordersTargets() {
        String latin = "SQL_Latin1_General_CP1_CI_AS";
        return List.of(new TargetColumn("order_id", "bigint", null, 19, 0, null, true, 1),
                new TargetColumn("customer_id", "int", null, 10, 0, null, true, 2),
                new TargetColumn("status", "nvarchar", -1, null, null, null, true, 3, latin),
                new TargetColumn("amount", "decimal", null, 12, 2, null, true, 4),
                new TargetColumn("discount", "float", null, 53, null, null, true, 5),
                new TargetColumn("quantity", "smallint", null, 5, 0, null, true, 6),
                new TargetColumn("priority", "bit", null, null, null, null, true, 7),
                new TargetColumn("order_date", "date", null, null, null, 0, true, 8),
                new TargetColumn("updated_at", "datetimeoffset", null, null, null, 6, true, 9),
                new TargetColumn("shipped_at", "datetime2", null, null, null, 6, true, 10),
                new TargetColumn("note", "nvarchar", -1, null, null, null, true, 11, latin));
    }

    /**
     * One batch of the sample table's rows {@code 0 .. rows - 1}, as {@code SampleTable}'s query makes them (its
     * hash-based columns with a fixed pseudo-random sequence instead of DuckDB's hash): the vectors DuckDB exports for
     * it, the zoned timestamp in UTC.
     */
    static VectorSchemaRoot orders(BufferAllocator a, int rows) {
        BigIntVector orderId = new BigIntVector("order_id", a);
        IntVector customer = new IntVector("customer_id", a);
        VarCharVector status = new VarCharVector("status", a);
        DecimalVector amount = new DecimalVector("amount", a, 12, 2);
        Float8Vector discount = new Float8Vector("discount", a);
        SmallIntVector quantity = new SmallIntVector("quantity", a);
        BitVector priority = new BitVector("priority", a);
        DateDayVector orderDate = new DateDayVector("order_date", a);
        TimeStampMicroTZVector updated = new TimeStampMicroTZVector("updated_at", a, "UTC");
        TimeStampMicroVector shipped = new TimeStampMicroVector("shipped_at", a);
        VarCharVector note = new VarCharVector("note", a);
        List<FieldVector> v = List.of(orderId, customer, status, amount, discount, quantity, priority, orderDate,
                updated, shipped, note);
        for (FieldVector f : v) {
            f.setInitialCapacity(rows);
            f.allocateNew();
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom(29);
        long jan2024 = 1_704_067_200_000_000L; // 2024-01-01 00:00:00 UTC in microseconds
        for (int i = 0; i < rows; i++) {
            orderId.set(i, i);
            customer.set(i, random.nextInt(50_000));
            text(status, i, ORDER_STATUS[i % 5]);
            amount.set(i, BigDecimal.valueOf(random.nextLong(10_000_000), 2));
            discount.set(i, (i % 17) / 100.0);
            quantity.set(i, (short) (1 + i % 40));
            priority.set(i, i % 11 == 0 ? 1 : 0);
            orderDate.set(i, 18_262 + i % 2000); // 2020-01-01 + n
            updated.set(i, jan2024 + i * 1_234_567L);
            if (i % 7 == 0) {
                shipped.setNull(i);
            } else {
                shipped.set(i, jan2024 + i * 7_654_321L);
            }
            if (i % 13 == 0) {
                note.setNull(i);
            } else {
                // -Ddeltafunnel.bench.nonAsciiPercent=p: only that share of the notes ends in " été ✓", the others
                // in " ete" (ASCII); by default every note does, as in the sample table
                boolean accents = (i * 37) % 100 < ORDERS_NON_ASCII_PERCENT;
                text(note, i, "customer note " + i + " " + "x".repeat(i % 60) + (accents ? " été ✓" : " ete"));
            }
        }
        VectorSchemaRoot root = new VectorSchemaRoot(v);
        root.setRowCount(rows);
        return root;
    }

    /** The share of l_comment values, in percent, that are not ASCII ({@code -Ddeltafunnel.bench.nonAsciiPercent}). */
    static final int NON_ASCII_PERCENT = Integer.getInteger("deltafunnel.bench.nonAsciiPercent", 0);
    /**
     * {@code -Ddeltafunnel.bench.cyrillic=true}: every l_comment in Cyrillic letters (a..z as U+0430..U+0449, two
     * UTF-8 bytes each), the same number of characters: text whose UTF-8 bytes outnumber the column's characters.
     */
    static final boolean CYRILLIC = Boolean.getBoolean("deltafunnel.bench.cyrillic");
    /**
     * {@code -Ddeltafunnel.bench.cjk=true}: every l_comment's letters a..z as the CJK ideographs U+4E00..U+4E19, three
     * UTF-8 bytes each, the same number of characters.
     */
    static final boolean CJK = Boolean.getBoolean("deltafunnel.bench.cjk");
    private static final String[] FLAGS = {"R", "A", "N"};
    private static final String[] STATUS = {"O", "F"};
    private static final String[] INSTRUCT = {"DELIVER IN PERSON", "COLLECT COD", "NONE", "TAKE BACK RETURN"};
    private static final String[] MODES = {"REG AIR", "AIR", "RAIL", "SHIP", "TRUCK", "MAIL", "FOB"};
    private static final String COMMENT = "carefully final deposits detect slyly regular requests. furiously ironic "
            + "pinto beans haggle quickly along the express accounts; blithely even theodolites sleep above the "
            + "pending foxes. quickly bold packages wake";

    /** {@code s} with a..z as the Cyrillic letters U+0430..U+0449. */
    private static String cyrillic(String s) {
        return letters(s, 0x430);
    }

    /** {@code s} with a..z as the characters from {@code first} on. */
    private static String letters(String s, int first) {
        char[] c = s.toCharArray();
        for (int i = 0; i < c.length; i++) {
            if (c[i] >= 'a' && c[i] <= 'z') {
                c[i] = (char) (first + c[i] - 'a');
            }
        }
        return new String(c);
    }

    /** One batch with {@link Shape#LINEITEM}'s columns and value distributions (a fixed pseudo-random sequence). */
    static VectorSchemaRoot lineitem(BufferAllocator a, int rows) {
        List<FieldVector> v = new ArrayList<>();
        for (Shape.Column c : Shape.LINEITEM.columns()) {
            String n = c.name();
            v.add(switch (c.duckType()) {
                case "BIGINT" -> new BigIntVector(n, a);
                case "INTEGER" -> new IntVector(n, a);
                case "DECIMAL(15,2)" -> new DecimalVector(n, a, 15, 2);
                case "DATE" -> new DateDayVector(n, a);
                default -> new VarCharVector(n, a);
            });
        }
        java.util.SplittableRandom random = new java.util.SplittableRandom(29);
        for (FieldVector f : v) {
            f.setInitialCapacity(rows);
            f.allocateNew();
        }
        for (int i = 0; i < rows; i++) {
            ((BigIntVector) v.get(0)).set(i, i / 4 + 1);
            ((BigIntVector) v.get(1)).set(i, random.nextInt(200_000) + 1);
            ((BigIntVector) v.get(2)).set(i, random.nextInt(10_000) + 1);
            ((IntVector) v.get(3)).set(i, i % 4 + 1);
            ((DecimalVector) v.get(4)).set(i, BigDecimal.valueOf((random.nextInt(50) + 1) * 100L, 2));
            ((DecimalVector) v.get(5)).set(i, BigDecimal.valueOf(random.nextInt(10_490_000) + 90_100, 2));
            ((DecimalVector) v.get(6)).set(i, BigDecimal.valueOf(random.nextInt(11), 2));
            ((DecimalVector) v.get(7)).set(i, BigDecimal.valueOf(random.nextInt(9), 2));
            text(v.get(8), i, FLAGS[random.nextInt(3)]);
            text(v.get(9), i, STATUS[random.nextInt(2)]);
            int ship = 8036 + random.nextInt(2526); // 1992-01-02 + n
            ((DateDayVector) v.get(10)).set(i, ship);
            ((DateDayVector) v.get(11)).set(i, 8065 + random.nextInt(2466));
            ((DateDayVector) v.get(12)).set(i, ship + random.nextInt(30) + 1);
            text(v.get(13), i, INSTRUCT[random.nextInt(4)]);
            text(v.get(14), i, MODES[random.nextInt(7)]);
            int from = random.nextInt(160);
            String comment = COMMENT.substring(from, Math.min(COMMENT.length(), from + 10 + random.nextInt(34)))
                    .stripTrailing();
            // -Ddeltafunnel.bench.nonAsciiPercent=p: that share of the comments, spread over the batch, starts with
            // "é" instead of its first character (text as users have it, beyond ASCII)
            if (CJK) {
                comment = letters(comment, 0x4E00);
            }
            if (CYRILLIC) {
                comment = cyrillic(comment);
            }
            text(v.get(15), i, (i * 37) % 100 < NON_ASCII_PERCENT ? "é" + comment.substring(1) : comment);
        }
        VectorSchemaRoot root = new VectorSchemaRoot(v);
        root.setRowCount(rows);
        return root;
    }

    private static void text(FieldVector v, int row, String s) {
        ((VarCharVector) v).setSafe(row, s.getBytes(StandardCharsets.UTF_8));
    }
}
