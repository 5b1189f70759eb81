package io.deltafunnel.emulator.h2;

import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.Identifiers;

import java.util.ArrayList;
import java.util.List;

/** H2 DDL for ALTER TABLE ... ADD column / ALTER COLUMN, generated from the catalog's definitions. */
public final class H2AlterTable {
    private H2AlterTable() {
    }

    /**
     * ADD COLUMN; with {@code fillDefault} the default is part of the column, so that H2 writes it into the existing
     * rows (SQL Server: NOT NULL with a default, or WITH VALUES); otherwise the column is added bare and
     * {@link #setDefault} follows (existing rows read NULL).
     */
    public static String addColumn(TableDef t, ColumnDef c, boolean fillDefault) {
        StringBuilder b = new StringBuilder("ALTER TABLE ").append(t.h2Name()).append(" ADD COLUMN ")
                .append(Identifiers.h2Quote(c.name())).append(' ').append(c.type().h2Type());
        if (fillDefault && c.defaultH2() != null) {
            b.append(" DEFAULT ").append(c.defaultH2());
        }
        if (!c.nullable()) {
            b.append(" NOT NULL");
        }
        return b.toString();
    }

    public static String setDefault(TableDef t, ColumnDef c) {
        return columnDefault(t.storage(), c);
    }

    /** Gives column {@code c} of H2 table {@code storage} {@code c}'s default, or none when it has none. */
    public static String columnDefault(TableDef.Storage storage, ColumnDef c) {
        return "ALTER TABLE " + storage.h2Name() + " ALTER COLUMN " + Identifiers.h2Quote(c.name())
                + (c.defaultH2() == null ? " DROP DEFAULT" : " SET DEFAULT " + c.defaultH2());
    }

    public static String setDataType(TableDef t, String column, SqlType type) {
        return "ALTER TABLE " + t.h2Name() + " ALTER COLUMN " + Identifiers.h2Quote(column) + " SET DATA TYPE "
                + type.h2Type();
    }

    public static String setNullable(TableDef t, String column, boolean nullable) {
        return "ALTER TABLE " + t.h2Name() + " ALTER COLUMN " + Identifiers.h2Quote(column)
                + (nullable ? " SET NULL" : " SET NOT NULL");
    }

    /**
     * Replaces the table's normalisation trigger after its columns changed: the trigger caches the column types,
     * and a new column may need one where none was needed before (or none any more).
     */
    public static List<String> refreshNormalizeTrigger(TableDef changed) {
        List<String> out = new ArrayList<>();
        String name = Identifiers.h2Quote(changed.storage().schema()) + "." + Identifiers.h2Quote(
                NormalizeTrigger.triggerName(changed));
        out.add("DROP TRIGGER IF EXISTS " + name);
        if (NormalizeTrigger.needed(changed)) {
            out.add("CREATE TRIGGER " + name + " BEFORE INSERT, UPDATE ON " + changed.h2Name()
                    + " FOR EACH ROW CALL \"" + NormalizeTrigger.class.getName() + "\"");
        }
        return out;
    }
}
