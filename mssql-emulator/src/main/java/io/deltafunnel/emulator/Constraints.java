package io.deltafunnel.emulator;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The named constraints the emulator keeps next to H2's (H2 knows neither SQL Server's constraint names nor the
 * difference between a unique index and a unique constraint): keys, CHECK constraints and FOREIGN KEYs. Held by
 * {@link Catalog}, keyed by the table's object id.
 */
final class Constraints {
    private Constraints() {
    }

    /** What a unique key is in SQL Server's terms: 2627 for the first two, 2601 for an index. */
    enum KeyKind { PRIMARY_KEY, UNIQUE_CONSTRAINT, UNIQUE_INDEX }

    /** A primary key, unique constraint or unique index. */
    static final class Key {
        final String name;
        final KeyKind kind;
        final List<String> columns;

        Key(String name, KeyKind kind, List<String> columns) {
            this.name = name;
            this.kind = kind;
            this.columns = List.copyOf(columns);
        }

        Key renamedColumn(String from, String to) {
            return new Key(name, kind, columns.stream().map(c -> c.equalsIgnoreCase(from) ? to : c).toList());
        }
    }

    /** A CHECK constraint; {@code column} is set for a column-level constraint. */
    static final class Check {
        final String name;
        final String column;
        /** A bulk load without CHECK_CONSTRAINTS skipped it (sys.check_constraints.is_not_trusted). */
        volatile boolean notTrusted;

        Check(String name, String column) {
            this.name = name;
            this.column = column;
        }
    }

    /** A FOREIGN KEY (NO ACTION on delete and update), enforced by {@link ForeignKeyTrigger}s on both tables. */
    static final class ForeignKey {
        final int id;
        final String name;
        final int child;
        final int parent;
        volatile List<String> childColumns;
        volatile List<String> parentColumns;
        /** A bulk load without CHECK_CONSTRAINTS skipped it, or it was added WITH NOCHECK. */
        volatile boolean notTrusted;

        ForeignKey(int id, String name, int child, List<String> childColumns, int parent, List<String> parentColumns) {
            this.id = id;
            this.name = name;
            this.child = child;
            this.parent = parent;
            this.childColumns = List.copyOf(childColumns);
            this.parentColumns = List.copyOf(parentColumns);
        }
    }

    /** A SQL Server-style generated constraint name, e.g. {@code PK__orders__3B75D760A1C2E3F4}. */
    static String generatedName(String prefix, String table, String column) {
        String t = table.length() > 8 ? table.substring(0, 8) : table;
        String c = column == null ? "" : (column.length() > 8 ? column.substring(0, 8) : column) + "__";
        long r = ThreadLocalRandom.current().nextLong();
        return prefix + "__" + t + "__" + c + (column == null ? String.format("%016X", r)
                : String.format("%08X", (int) r)).toUpperCase(Locale.ROOT);
    }
}
