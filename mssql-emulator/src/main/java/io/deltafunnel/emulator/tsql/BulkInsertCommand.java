package io.deltafunnel.emulator.tsql;

import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import java.util.ArrayList;
import java.util.List;

/** A parsed {@code INSERT BULK table (col type, ...) [WITH (hints)]}; the BULK_LOAD message that follows uses it. */
public final class BulkInsertCommand {
    public final TableDef table;
    public final List<String> columns;
    /** The declared type of each column of {@link #columns}, same order (its COLLATE applied for char types). */
    public final List<SqlType> types;
    public final boolean keepNulls;
    public final boolean checkConstraints;
    final boolean fireTriggers;
    public final boolean tablock;
    final long rowsPerBatch;
    /** ORDER(...) columns (may be empty) and whether each is DESC. */
    public final List<String> orderColumns = new ArrayList<>();
    public final List<Boolean> orderDescending = new ArrayList<>();

    private BulkInsertCommand(TableDef table, List<String> columns, List<SqlType> types, boolean keepNulls,
            boolean checkConstraints, boolean fireTriggers, boolean tablock, long rowsPerBatch) {
        this.table = table;
        this.columns = columns;
        this.types = types;
        this.keepNulls = keepNulls;
        this.checkConstraints = checkConstraints;
        this.fireTriggers = fireTriggers;
        this.tablock = tablock;
        this.rowsPerBatch = rowsPerBatch;
    }

    public static BulkInsertCommand parse(Stmt st, Catalog catalog) throws SqlServerError {
        List<Token> t = st.tokens;
        ObjectName name = ObjectName.at(t, 2);
        TableDef table = catalog.table(name.schema, name.name);
        if (table == null) {
            throw ErrorCatalog.INVALID_OBJECT_NAME.error("Invalid object name '" + name.name + "'.");
        }
        int i = name.next;
        List<String> cols = new ArrayList<>();
        List<SqlType> types = new ArrayList<>();
        if (i < t.size() && t.get(i).isSymbol("(")) {
            i++;
            while (i < t.size() && !t.get(i).isSymbol(")")) {
                Token c = t.get(i);
                if (!c.isIdentifier()) {
                    throw SqlServerError.syntax(c.text());
                }
                if (table.column(c.value()) == null) {
                    throw ErrorCatalog.INVALID_COLUMN_NAME.error("Invalid column name '" + c.value() + "'.");
                }
                cols.add(c.value());
                i++;
                if (i >= t.size() || t.get(i).isSymbol(",") || t.get(i).isSymbol(")")) {
                    throw SqlServerError.syntax(c.text());
                }
                TypeParser.Result type = TypeParser.parse(t, i, 1, c.value());
                i = type.next;
                SqlType declared = type.type;
                if (i + 1 < t.size() && t.get(i).is("COLLATE")) {
                    declared = TypeParser.collate(declared, t.get(i + 1), c.value());
                    i += 2;
                }
                types.add(declared);
                int depth = 0;
                while (i < t.size()) {
                    Token x = t.get(i);
                    if (x.isSymbol("(")) {
                        depth++;
                    } else if (x.isSymbol(")")) {
                        if (depth == 0) {
                            break;
                        }
                        depth--;
                    } else if (x.isSymbol(",") && depth == 0) {
                        i++;
                        break;
                    }
                    i++;
                }
            }
            i++;
        }
        boolean keepNulls = false;
        boolean check = false;
        boolean triggers = false;
        boolean tablock = false;
        long rowsPerBatch = 0;
        List<String> order = new ArrayList<>();
        List<Boolean> desc = new ArrayList<>();
        if (i < t.size() && t.get(i).is("WITH")) {
            i++;
            if (i >= t.size() || !t.get(i).isSymbol("(")) {
                throw SqlServerError.syntax("WITH");
            }
            i++;
            while (i < t.size() && !t.get(i).isSymbol(")")) {
                Token h = t.get(i);
                switch (h.upper()) {
                    case "KEEP_NULLS": keepNulls = true; i++; break;
                    case "CHECK_CONSTRAINTS": check = true; i++; break;
                    case "FIRE_TRIGGERS": triggers = true; i++; break;
                    case "TABLOCK": tablock = true; i++; break;
                    case "ROWS_PER_BATCH":
                    case "KILOBYTES_PER_BATCH":
                        if (i + 2 >= t.size() || !t.get(i + 1).isSymbol("=")) {
                            throw SqlServerError.syntax(h.text());
                        }
                        if (h.is("ROWS_PER_BATCH")) {
                            rowsPerBatch = Long.parseLong(t.get(i + 2).text());
                        }
                        i += 3;
                        break;
                    case "ORDER": {
                        // ORDER ( col [ASC|DESC] [, ...] ): checked against the rows (see BulkLoadHandler)
                        i++;
                        if (i >= t.size() || !t.get(i).isSymbol("(")) {
                            throw SqlServerError.syntax("ORDER");
                        }
                        i++;
                        while (i < t.size() && !t.get(i).isSymbol(")")) {
                            Token c = t.get(i);
                            if (!c.isIdentifier()) {
                                throw SqlServerError.syntax(c.text());
                            }
                            ColumnDef def = table.column(c.value());
                            if (def == null) {
                                throw ErrorCatalog.INVALID_COLUMN_NAME.error(
                                        "Invalid column name '" + c.value() + "'.");
                            }
                            order.add(def.name());
                            i++;
                            boolean d = false;
                            if (i < t.size() && (t.get(i).is("ASC") || t.get(i).is("DESC"))) {
                                d = t.get(i).is("DESC");
                                i++;
                            }
                            desc.add(d);
                            if (i < t.size() && t.get(i).isSymbol(",")) {
                                i++;
                            }
                        }
                        i++;
                        break;
                    }
                    default:
                        throw SqlServerError.unsupported("INSERT BULK hint " + h.text());
                }
                if (i < t.size() && t.get(i).isSymbol(",")) {
                    i++;
                }
            }
        }
        // FIRE_TRIGGERS is kept but has no effect: the emulator has no triggers (CREATE TRIGGER is refused).
        BulkInsertCommand cmd = new BulkInsertCommand(table, cols, types, keepNulls, check, triggers, tablock,
                rowsPerBatch);
        cmd.orderColumns.addAll(order);
        cmd.orderDescending.addAll(desc);
        return cmd;
    }
}
