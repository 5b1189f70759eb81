package io.deltafunnel.emulator.semantics;

import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The named constraints the emulator keeps next to H2's (H2 knows neither SQL Server's constraint names nor the
 * difference between a unique index and a unique constraint): keys, CHECK constraints and FOREIGN KEYs. Held by
 * {@link Catalog}, keyed by the table's object id.
 */
public final class Constraints {
    private Constraints() {
    }

    /** What a unique key is in SQL Server's terms: 2627 for the first two, 2601 for an index. */
    public enum KeyKind { PRIMARY_KEY, UNIQUE_CONSTRAINT, UNIQUE_INDEX }

    /** A primary key, unique constraint or unique index. */
    public static final class Key {
        public final String name;
        public final KeyKind kind;
        public final List<String> columns;

        public Key(String name, KeyKind kind, List<String> columns) {
            this.name = name;
            this.kind = kind;
            this.columns = List.copyOf(columns);
        }

        Key renamedColumn(String from, String to) {
            return new Key(name, kind, columns.stream().map(c -> c.equalsIgnoreCase(from) ? to : c).toList());
        }
    }

    /** A CHECK constraint; {@code column} is set for a column-level constraint. */
    public static final class Check {
        public final String name;
        public final String column;
        /**
         * The definition as {@code sys.check_constraints.definition} shows it (see {@link CheckDefinitions}); null
         * where the creating statement did not record it.
         */
        public final String definition;
        /** Its object id (sys.check_constraints.object_id); 0 where the creating statement gave it none. */
        public final int objectId;
        /** A bulk load without CHECK_CONSTRAINTS skipped it (sys.check_constraints.is_not_trusted). */
        public volatile boolean notTrusted;

        public Check(String name, String column) {
            this(name, column, null, 0);
        }

        public Check(String name, String column, String definition, int objectId) {
            this.name = name;
            this.column = column;
            this.definition = definition;
            this.objectId = objectId;
        }
    }

    /** A FOREIGN KEY (NO ACTION on delete and update), enforced by {@link ForeignKeyTrigger}s on both tables. */
    public static final class ForeignKey {
        public final int id;
        public final String name;
        public final int child;
        public final int parent;
        public volatile List<String> childColumns;
        public volatile List<String> parentColumns;
        /** A bulk load without CHECK_CONSTRAINTS skipped it, or it was added WITH NOCHECK. */
        public volatile boolean notTrusted;

        public ForeignKey(int id, String name, int child, List<String> childColumns, int parent, List<String> parentColumns) {
            this.id = id;
            this.name = name;
            this.child = child;
            this.parent = parent;
            this.childColumns = List.copyOf(childColumns);
            this.parentColumns = List.copyOf(parentColumns);
        }
    }

    /** A SQL Server-style generated constraint name, e.g. {@code PK__orders__3B75D760A1C2E3F4}. */
    public static String generatedName(String prefix, String table, String column) {
        String t = table.length() > 8 ? table.substring(0, 8) : table;
        String c = column == null ? "" : (column.length() > 8 ? column.substring(0, 8) : column) + "__";
        long r = ThreadLocalRandom.current().nextLong();
        return prefix + "__" + t + "__" + c + (column == null ? String.format("%016X", r)
                : String.format("%08X", (int) r)).toUpperCase(Locale.ROOT);
    }
}
