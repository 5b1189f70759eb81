package io.deltafunnel.emulator.exec;

import io.deltafunnel.emulator.h2.H2AlterTable;
import io.deltafunnel.emulator.h2.H2Errors;
import io.deltafunnel.emulator.semantics.Catalog;
import io.deltafunnel.emulator.semantics.ColumnDef;
import io.deltafunnel.emulator.semantics.Constraints;
import io.deltafunnel.emulator.semantics.ErrorCatalog;
import io.deltafunnel.emulator.semantics.LockManager;
import io.deltafunnel.emulator.semantics.SqlServerError;
import io.deltafunnel.emulator.semantics.SqlType;
import io.deltafunnel.emulator.semantics.TableDef;
import io.deltafunnel.emulator.tsql.AlterColumnParser;
import io.deltafunnel.emulator.tsql.Identifiers;
import io.deltafunnel.emulator.tsql.ObjectName;
import io.deltafunnel.emulator.tsql.Stmt;
import io.deltafunnel.emulator.tsql.Token;
import io.deltafunnel.tds.DoneStatus;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * {@code ALTER TABLE t ADD col type ... [, ...]} and {@code ALTER TABLE t ALTER COLUMN col type [NULL | NOT NULL]}
 * with SQL Server's rules (ALTER TABLE (Transact-SQL), learn.microsoft.com/sql/t-sql/statements/alter-table-transact-sql):
 *
 * <p><b>ADD.</b> The new columns go to the end, in the order written. A nullable column reads NULL in the existing
 * rows, also with a DEFAULT (unless {@code WITH VALUES}); a NOT NULL column with a DEFAULT gets the default in every
 * existing row; a NOT NULL column without one is allowed only on an empty table (4901 otherwise). A name that the
 * table (or the statement) already has is 2705. The whole statement is checked before anything changes, against the
 * table as it is once this session holds its Sch-M lock (so two sessions adding the same column at once: the second
 * gets 2705, as on SQL Server).
 *
 * <p><b>ALTER COLUMN.</b> The column keeps its place and values, converted to the new type; without {@code NOT NULL}
 * it becomes nullable (SQL Server's rule for ALTER COLUMN). Existing values that do not fit the new type are 8115
 * (numbers) or 2628 (strings and binaries), a NULL under {@code NOT NULL} is 515, and the table is unchanged. A
 * column that another object depends on can only be changed as the page's list allows:
 * <ul>
 *   <li>PRIMARY KEY, FOREIGN KEY (either side): never;</li>
 *   <li>UNIQUE constraint, CHECK: only the length of a varchar, nvarchar or varbinary column;</li>
 *   <li>an index: only a varchar, nvarchar or varbinary column keeping its type, to an equal or larger size (not
 *       {@code max});</li>
 *   <li>a DEFAULT: the length, precision or scale, the type staying.</li>
 * </ul>
 * Otherwise SQL Server sends 5074 ("The object 'x' is dependent on column 'c'.", "The index ..." for an index) for
 * each such object and then 4922, and so does the emulator. Conversions between type families other than the
 * numeric, character, binary and date/time widenings (and narrowings) below are refused (50100).
 *
 * <p>Both run outside a user transaction only (50101 inside one, DdlHandler's rule: H2 would commit it).
 */
final class AlterColumnDdl {
    private static final Set<SqlType.Base> INTEGERS = EnumSet.of(SqlType.Base.TINYINT, SqlType.Base.SMALLINT,
            SqlType.Base.INT, SqlType.Base.BIGINT);
    private static final Set<SqlType.Base> DECIMALS = EnumSet.of(SqlType.Base.DECIMAL, SqlType.Base.NUMERIC);
    private static final Set<SqlType.Base> FLOATS = EnumSet.of(SqlType.Base.REAL, SqlType.Base.FLOAT);
    private static final Set<SqlType.Base> CHARS = EnumSet.of(SqlType.Base.CHAR, SqlType.Base.VARCHAR,
            SqlType.Base.NCHAR, SqlType.Base.NVARCHAR);
    private static final Set<SqlType.Base> BINARIES = EnumSet.of(SqlType.Base.BINARY, SqlType.Base.VARBINARY);
    private static final Set<SqlType.Base> VARIABLE = EnumSet.of(SqlType.Base.VARCHAR, SqlType.Base.NVARCHAR,
            SqlType.Base.VARBINARY);
    private static final Set<String> NOT_A_COLUMN = Set.of("CONSTRAINT", "FOREIGN", "PRIMARY", "UNIQUE", "CHECK");

    private final ExecContext ctx;
    private final Session s;
    private final DdlHandler ddl;

    AlterColumnDdl(ExecContext ctx, DdlHandler ddl) {
        this.ctx = ctx;
        this.s = ctx.session;
        this.ddl = ddl;
    }

    /** True for the ALTER TABLE forms this class runs: {@code ADD <column>} and {@code ALTER COLUMN}. */
    static boolean handles(Stmt st) throws SqlServerError {
        int i = ObjectName.at(st.tokens, 2).next;
        if (st.kw(i, "ALTER") && st.kw(i + 1, "COLUMN")) {
            return true;
        }
        if (!st.kw(i, "ADD") || i + 1 >= st.tokens.size()) {
            return false;
        }
        Token next = st.tokens.get(i + 1);
        return next.isIdentifier() && !(next.kind() == Token.Kind.WORD && NOT_A_COLUMN.contains(next.upper()));
    }

    void execute(Stmt st) throws SqlServerError, SQLException, java.io.IOException {
        ddl.refuseInTransaction(st.text);
        ObjectName n = ObjectName.at(st.tokens, 2);
        TableDef waitedFor = table(n);
        s.locks.lock(waitedFor, LockManager.Mode.SCH_M, LockManager.Duration.TRANSACTION, false);
        // read the definition again under Sch-M: another session's ALTER may have changed the table (or dropped
        // it) while this one waited, and SQL Server checks against the table as that one left it (2705 for a column
        // it added); the definition read before the wait would also overwrite its change in the catalog
        TableDef t = table(n);
        if (st.kw(n.next, "ADD")) {
            add(t, AlterColumnParser.parseAdd(st.tokens, n.next + 1, t.name(), s));
        } else {
            alter(t, AlterColumnParser.parseAlter(st.tokens, n.next + 2));
        }
        ctx.done(DoneStatus.CMD_NONE, -1);
    }

    private TableDef table(ObjectName n) throws SqlServerError {
        TableDef t = s.catalog().table(n.schema, n.name);
        if (t == null) {
            throw ErrorCatalog.ALTER_TABLE_NO_OBJECT.error("Cannot find the object \"" + n.name
                    + "\" because it does not exist or you do not have permissions.");
        }
        return t;
    }

    // ---- ADD ------------------------------------------------------------------------------------------------

    private void add(TableDef t, List<AlterColumnParser.Added> added) throws SqlServerError, SQLException {
        Set<String> names = new HashSet<>();
        t.columns().forEach(c -> names.add(c.name().toLowerCase(Locale.ROOT)));
        for (AlterColumnParser.Added a : added) {
            if (!names.add(a.column.name().toLowerCase(Locale.ROOT))) {
                throw ErrorCatalog.DUPLICATE_COLUMN_NAME.error("Column names in each table must be unique. Column name '"
                        + a.column.name() + "' in table '" + t.name() + "' is specified more than once.");
            }
        }
        boolean empty = isEmpty(t);
        for (AlterColumnParser.Added a : added) {
            if (!a.column.nullable() && a.column.defaultH2() == null && !empty) {
                throw ErrorCatalog.ADD_COLUMN_NOT_NULL.error("ALTER TABLE only allows columns to be added that can"
                        + " contain nulls, or have a DEFAULT definition specified, or the column being added is an"
                        + " identity or timestamp column, or alternatively if none of the previous conditions are"
                        + " satisfied the table must be empty to allow addition of this column. Column '"
                        + a.column.name() + "' cannot be added to non-empty table '" + t.name()
                        + "' because it does not satisfy these conditions.");
            }
        }
        List<ColumnDef> cols = new ArrayList<>(t.columns());
        added.forEach(a -> cols.add(a.column));
        TableDef changed = t.withColumns(cols);
        try (Statement x = s.h2.createStatement()) {
            for (AlterColumnParser.Added a : added) {
                boolean fill = !a.column.nullable() || a.withValues;
                x.execute(H2AlterTable.addColumn(t, a.column, fill));
                if (!fill && a.column.defaultH2() != null) {
                    x.execute(H2AlterTable.setDefault(t, a.column));
                }
            }
            for (String sql : H2AlterTable.refreshNormalizeTrigger(changed)) {
                x.execute(sql);
            }
        } catch (SQLException e) {
            throw H2Errors.map(e, t, s.database);
        }
        Catalog cat = s.catalog();
        cat.replace(t, changed);
        for (AlterColumnParser.Added a : added) {
            if (a.defaultName != null) {
                cat.putDefaultName(t.objectId(), a.column.name(), a.defaultName);
            }
        }
    }

    private boolean isEmpty(TableDef t) throws SQLException {
        try (Statement x = s.h2.createStatement();
                ResultSet rs = x.executeQuery("SELECT 1 FROM " + t.h2Name() + " FETCH FIRST 1 ROW ONLY")) {
            return !rs.next();
        }
    }

    // ---- ALTER COLUMN -----------------------------------------------------------------------------------------

    private void alter(TableDef t, AlterColumnParser.Altered a) throws SqlServerError, SQLException {
        ColumnDef old = t.column(a.column);
        if (old == null) {
            throw ErrorCatalog.ALTER_COLUMN_NO_COLUMN.error("ALTER TABLE ALTER COLUMN failed because column '"
                    + a.column + "' does not exist in table '" + t.name() + "'.");
        }
        boolean nullable = a.nullable == null || a.nullable;
        List<SqlServerError> dependents = dependents(t, old, a.type);
        if (!dependents.isEmpty()) {
            for (SqlServerError d : dependents) {
                ctx.response.error(d);
            }
            throw ErrorCatalog.ALTER_COLUMN_OBJECTS_ACCESS.error("ALTER TABLE ALTER COLUMN " + old.name()
                    + " failed because one or more objects access this column.");
        }
        if (old.identity()) {
            throw SqlServerError.unsupported("ALTER COLUMN of the identity column '" + old.name() + "'");
        }
        if (!convertible(old.type(), a.type)) {
            throw SqlServerError.unsupported("ALTER COLUMN from " + old.type().declaration() + " to "
                    + a.type.declaration() + " (column '" + old.name() + "'; supported: integer, decimal, float,"
                    + " character, binary and date/time types within their family, integers to decimal or float)");
        }
        checkValues(t, old, a.type, nullable);
        ColumnDef changed = new ColumnDef(old.name(), a.type, nullable, false, 0, 0, old.defaultH2(),
                old.defaultSql());
        List<ColumnDef> cols = new ArrayList<>();
        for (ColumnDef c : t.columns()) {
            cols.add(c == old ? changed : c);
        }
        TableDef after = t.withColumns(cols);
        try (Statement x = s.h2.createStatement()) {
            x.execute(H2AlterTable.setDataType(t, old.name(), a.type));
            x.execute(H2AlterTable.setNullable(t, old.name(), nullable));
            for (String sql : H2AlterTable.refreshNormalizeTrigger(after)) {
                x.execute(sql);
            }
        } catch (SQLException e) {
            throw H2Errors.map(e, t, s.database);
        }
        s.catalog().replace(t, after);
    }

    /** 5074 for every object that depends on {@code old} and does not allow the change to {@code type}. */
    private List<SqlServerError> dependents(TableDef t, ColumnDef old, SqlType type) throws SQLException {
        Catalog cat = s.catalog();
        String col = old.name();
        SqlType from = old.type();
        boolean sameBase = from.base() == type.base();
        boolean lengthOnly = sameBase && VARIABLE.contains(from.base());
        boolean widensIndexable = lengthOnly && !type.isMax() && !from.isMax() && type.length() >= from.length();
        Set<String> blocking = new LinkedHashSet<>();
        List<SqlServerError> out = new ArrayList<>();
        Set<String> keyNames = new HashSet<>();
        for (Constraints.Key k : cat.keys(t.objectId())) {
            keyNames.add(k.name.toLowerCase(Locale.ROOT));
            if (!contains(k.columns, col)) {
                continue;
            }
            boolean allowed = k.kind == Constraints.KeyKind.UNIQUE_CONSTRAINT ? lengthOnly
                    : k.kind == Constraints.KeyKind.UNIQUE_INDEX && widensIndexable;
            if (!allowed && blocking.add(k.name)) {
                out.add(depends(k.kind == Constraints.KeyKind.UNIQUE_INDEX ? "index" : "object", k.name, col));
            }
        }
        for (String ix : indexes(t, col)) {
            if (!keyNames.contains(ix.toLowerCase(Locale.ROOT)) && !widensIndexable && blocking.add(ix)) {
                out.add(depends("index", ix, col));
            }
        }
        Set<String> checkNames = checksOn(t, col);
        for (Constraints.Check c : cat.checks(t.objectId())) {
            boolean on = c.column != null && c.column.equalsIgnoreCase(col)
                    || checkNames.contains(c.name.toLowerCase(Locale.ROOT));
            if (on && !lengthOnly && blocking.add(c.name)) {
                out.add(depends("object", c.name, col));
            }
        }
        for (boolean referencing : new boolean[] {true, false}) {
            for (Constraints.ForeignKey fk : cat.foreignKeys(t.objectId(), referencing)) {
                List<String> cols = referencing ? fk.childColumns : fk.parentColumns;
                if (contains(cols, col) && blocking.add(fk.name)) {
                    out.add(depends("object", fk.name, col));
                }
            }
        }
        if (old.defaultH2() != null && !sameBase) {
            String name = cat.defaultName(t.objectId(), col);
            if (name == null) {
                name = Constraints.generatedName("DF", t.name(), col);
                cat.putDefaultName(t.objectId(), col, name);
            }
            out.add(depends("object", name, col));
        }
        return out;
    }

    private static SqlServerError depends(String kind, String name, String column) {
        return ErrorCatalog.OBJECT_DEPENDS_ON_COLUMN.error("The " + kind + " '" + name + "' is dependent on column '"
                + column + "'.");
    }

    private static boolean contains(List<String> cols, String col) {
        return cols.stream().anyMatch(c -> c.equalsIgnoreCase(col));
    }

    /** Indexes made by CREATE INDEX ({@code IndexDdl} names them {@code table.index} in H2) on {@code col}. */
    private List<String> indexes(TableDef t, String col) throws SQLException {
        List<String> out = new ArrayList<>();
        String prefix = t.name() + ".";
        try (PreparedStatement ps = s.h2.prepareStatement("SELECT INDEX_NAME FROM INFORMATION_SCHEMA.INDEX_COLUMNS"
                + " WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ? AND COLUMN_NAME = ? ORDER BY INDEX_NAME")) {
            ps.setString(1, t.storage().schema());
            ps.setString(2, t.storage().name());
            ps.setString(3, col);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    String ix = rs.getString(1);
                    if (ix.startsWith(prefix)) {
                        out.add(ix.substring(prefix.length()));
                    }
                }
            }
        }
        return out;
    }

    /** Lower-case names of the H2 constraints (the CHECKs among them) whose expression uses {@code col}. */
    private Set<String> checksOn(TableDef t, String col) throws SQLException {
        Set<String> out = new HashSet<>();
        try (PreparedStatement ps = s.h2.prepareStatement("SELECT CONSTRAINT_NAME FROM"
                + " INFORMATION_SCHEMA.CONSTRAINT_COLUMN_USAGE WHERE TABLE_SCHEMA = ? AND TABLE_NAME = ?"
                + " AND COLUMN_NAME = ?")) {
            ps.setString(1, t.storage().schema());
            ps.setString(2, t.storage().name());
            ps.setString(3, col);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    out.add(rs.getString(1).toLowerCase(Locale.ROOT));
                }
            }
        }
        return out;
    }

    /** The conversions ALTER COLUMN runs here: within a family, and integers to decimal or float. */
    static boolean convertible(SqlType from, SqlType to) {
        SqlType.Base f = from.base();
        SqlType.Base t = to.base();
        if (f == t) {
            return true;
        }
        if (INTEGERS.contains(f)) {
            return INTEGERS.contains(t) || DECIMALS.contains(t) || FLOATS.contains(t);
        }
        return DECIMALS.contains(f) && DECIMALS.contains(t)
                || FLOATS.contains(f) && FLOATS.contains(t)
                || CHARS.contains(f) && CHARS.contains(t)
                || BINARIES.contains(f) && BINARIES.contains(t)
                || (f == SqlType.Base.DATE || f == SqlType.Base.DATETIME || f == SqlType.Base.SMALLDATETIME)
                        && t == SqlType.Base.DATETIME2;
    }

    /** Every existing value must fit {@code to} (8115, 2628) and, under NOT NULL, none may be NULL (515). */
    private void checkValues(TableDef t, ColumnDef old, SqlType to, boolean nullable) throws SqlServerError,
            SQLException {
        String col = Identifiers.h2Quote(old.name());
        String table = t.messageName(s.database);
        try (Statement x = s.h2.createStatement();
                ResultSet rs = x.executeQuery("SELECT " + col + " FROM " + t.h2Name())) {
            while (rs.next()) {
                Object v = rs.getObject(1);
                if (v == null) {
                    if (!nullable) {
                        throw ErrorCatalog.NULL_NOT_ALLOWED.error("Cannot insert the value NULL into column '"
                                + old.name() + "', table '" + table + "'; column does not allow nulls. UPDATE fails.");
                    }
                    continue;
                }
                check(old, to, v, table);
            }
        }
    }

    private static void check(ColumnDef old, SqlType to, Object v, String table) throws SqlServerError {
        SqlType from = old.type();
        if (INTEGERS.contains(to.base()) && v instanceof Number) {
            long x = ((Number) v).longValue();
            long min = to.base() == SqlType.Base.TINYINT ? 0 : to.base() == SqlType.Base.SMALLINT ? Short.MIN_VALUE
                    : to.base() == SqlType.Base.INT ? Integer.MIN_VALUE : Long.MIN_VALUE;
            long max = to.base() == SqlType.Base.TINYINT ? 255 : to.base() == SqlType.Base.SMALLINT ? Short.MAX_VALUE
                    : to.base() == SqlType.Base.INT ? Integer.MAX_VALUE : Long.MAX_VALUE;
            if (x < min || x > max) {
                throw overflow("expression", to);
            }
        } else if (DECIMALS.contains(to.base()) && v instanceof Number) {
            BigDecimal d = (v instanceof BigDecimal ? (BigDecimal) v : new BigDecimal(v.toString()))
                    .setScale(to.scale(), RoundingMode.HALF_UP);
            if (d.signum() != 0 && d.precision() - d.scale() > to.precision() - to.scale()) {
                throw overflow(INTEGERS.contains(from.base()) ? from.name() : "numeric", to);
            }
        } else if (to.base() == SqlType.Base.REAL && v instanceof Number) {
            double d = ((Number) v).doubleValue();
            if (Float.isInfinite((float) d) && !Double.isInfinite(d)) {
                throw overflow("float", to);
            }
        } else if (CHARS.contains(to.base()) && !to.isMax() && v instanceof String) {
            String str = (String) v;
            if (str.length() > to.length()) {
                throw truncated(table, old.name(), str.substring(0, to.length()));
            }
        } else if (BINARIES.contains(to.base()) && !to.isMax() && v instanceof byte[]) {
            byte[] b = (byte[]) v;
            if (b.length > to.length()) {
                StringBuilder hex = new StringBuilder("0x");
                for (int k = 0; k < Math.min(to.length(), 32); k++) {
                    hex.append(String.format("%02X", b[k]));
                }
                throw truncated(table, old.name(), hex.toString());
            }
        }
    }

    private static SqlServerError overflow(String from, SqlType to) {
        String target = to.base() == SqlType.Base.DECIMAL ? "numeric" : to.name();
        return ErrorCatalog.ARITHMETIC_OVERFLOW.error("Arithmetic overflow error converting " + from
                + " to data type " + target + ".");
    }

    private static SqlServerError truncated(String table, String column, String value) {
        return ErrorCatalog.STRING_TRUNCATED.error("String or binary data would be truncated in table '" + table
                + "', column '" + column + "'. Truncated value: '" + value + "'.");
    }
}
