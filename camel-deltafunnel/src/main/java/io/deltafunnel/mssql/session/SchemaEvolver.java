package io.deltafunnel.mssql.session;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

import io.deltafunnel.mssql.BulkLoadException;
import io.deltafunnel.mssql.BulkLoadSettings;
import io.deltafunnel.mssql.SchemaEvolution;
import io.deltafunnel.mssql.SqlIdentifiers;
import io.deltafunnel.mssql.bind.ColumnMappingException;
import io.deltafunnel.mssql.bind.SchemaDiff;
import io.deltafunnel.mssql.bind.TargetCatalog;
import io.deltafunnel.mssql.bind.TargetTable;
import io.deltafunnel.mssql.channel.SqlChannel;

import org.apache.arrow.vector.types.pojo.Schema;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Brings the target's columns in line with the source's before the run's transaction, as {@code schemaEvolution}
 * says ({@link SchemaEvolution}): one {@code ALTER TABLE ... ADD [c] type NULL, ...} for the missing columns, one
 * {@code ALTER TABLE ... ALTER COLUMN} per widened column (its nullability and collation written back, as ALTER COLUMN
 * would otherwise make it nullable and give it the database's collation). Whatever the mode, everything it does not
 * fix is refused first, in one message listing every column, before any DDL.
 *
 * <p>DDL with auto-commit on, outside the run's transaction (an ALTER inside it would hold Sch-M on the target for the
 * whole load): it stays when the run fails. Idempotent: the next run finds nothing to do; when the DDL fails and the
 * catalog then shows the columns added or widened (a concurrent run, e.g. another shard, did it), they are taken as
 * they are. Stateless.
 */
public final class SchemaEvolver {

    private static final Logger LOG = LoggerFactory.getLogger(SchemaEvolver.class);

    /** The object '...' is dependent on column '...'. */
    static final int DEPENDENT_OBJECT = 5074;
    /** ALTER TABLE ALTER COLUMN c failed because one or more objects access this column. */
    static final int ALTER_COLUMN_FAILED = 4922;
    private static final Pattern COLLATION = Pattern.compile("[A-Za-z0-9_]+");
    private static final int ATTEMPTS = 3;

    private SchemaEvolver() {
    }

    /**
     * Refuses what {@code settings.schemaEvolution()} does not fix, else runs the DDL that the mode allows.
     *
     * @param table      the target as the catalog describes it now
     * @param dataSchema the batches' data columns (change columns left out)
     * @return the target as the catalog describes it after the DDL ({@code table} itself when nothing was run)
     * @throws ColumnMappingException listing every problem; {@link SchemaEvolutionException} when SQL Server cannot
     *                                alter a column (5074/4922), naming column and dependent objects
     */
    public static TargetTable evolve(SqlChannel channel, TargetTable table, Schema dataSchema,
            BulkLoadSettings settings, boolean temporalAsText, String runId, BulkLoadException.Context ctx)
            throws SQLException {
        SchemaEvolution mode = settings.schemaEvolution();
        for (int attempt = 1; ; attempt++) {
            SchemaDiff diff = SchemaDiff.of(dataSchema, table, settings.columnMapping(), temporalAsText, ctx);
            List<String> problems = diff.problems(mode, table);
            boolean widen = mode == SchemaEvolution.WIDEN && !diff.widenings().isEmpty();
            boolean ddl = mode != SchemaEvolution.NONE && (!diff.missing().isEmpty() || widen);
            if (!problems.isEmpty()) {
                if (!ddl && problems.size() == diff.unfixable().size()) {
                    // Nothing evolution would do, and nothing new to list: ColumnMapper refuses it as it always did
                    // (same message, column and cause).
                    return table;
                }
                throw refused(problems, mode, table, diff, ctx);
            }
            if (!ddl) {
                return table;
            }
            try {
                if (!diff.missing().isEmpty()) {
                    addColumns(channel, table, diff.missing(), runId);
                }
                if (widen) {
                    for (SchemaDiff.Widening w : diff.widenings()) {
                        alterColumn(channel, table, w, runId, ctx);
                    }
                }
            } catch (SQLException e) {
                // A concurrent run (another shard) evolved the same table at the same time (2705, or whatever a
                // racing ALTER reports): decided by the catalog, not the message. When it now shows what this run
                // was adding or widening, take it as it is; else the failure stands.
                TargetTable now = TargetCatalog.describe(channel, table.name());
                if (attempt >= ATTEMPTS || !evolvedMeanwhile(diff, now, widen)) {
                    throw e;
                }
                LOG.info("Run {}: {} was evolved concurrently ({}); reading its columns again", runId, table.name(),
                        e.getMessage());
            }
            table = TargetCatalog.describe(channel, table.name());
        }
    }

    /** Every column {@code diff} adds exists in {@code now}, and (when widening) has changed type. */
    private static boolean evolvedMeanwhile(SchemaDiff diff, TargetTable now, boolean widen) {
        for (SchemaDiff.Missing m : diff.missing()) {
            if (now.column(m.target()) == null) {
                return false;
            }
        }
        if (widen) {
            for (SchemaDiff.Widening w : diff.widenings()) {
                var c = now.column(w.column().name());
                if (c == null || c.typeText().equals(w.column().typeText())) {
                    return false;
                }
            }
        }
        return true;
    }

    private static void addColumns(SqlChannel channel, TargetTable table, List<SchemaDiff.Missing> missing,
            String runId) throws SQLException {
        StringBuilder sql = new StringBuilder("ALTER TABLE ").append(table.name().quoted()).append(" ADD ");
        for (int i = 0; i < missing.size(); i++) {
            SchemaDiff.Missing m = missing.get(i);
            sql.append(i == 0 ? "" : ", ").append(SqlIdentifiers.quote(m.target())).append(' ').append(m.type())
                    .append(" NULL");
        }
        LOG.info("Run {}: schemaEvolution adds to {}: {}", runId, table.name(),
                missing.stream().map(m -> m.target() + " " + m.type()).toList());
        channel.execute(sql.toString());
    }

    private static void alterColumn(SqlChannel channel, TargetTable table, SchemaDiff.Widening w, String runId,
            BulkLoadException.Context ctx) throws SQLException {
        String collation = w.column().collationName();
        boolean text = w.newType().contains("char");
        String sql = "ALTER TABLE " + table.name().quoted() + " ALTER COLUMN " + SqlIdentifiers.quote(w.column().name())
                + " " + w.newType()
                + (text && collation != null && COLLATION.matcher(collation).matches() ? " COLLATE " + collation : "")
                + (w.column().nullable() ? " NULL" : " NOT NULL");
        LOG.info("Run {}: schemaEvolution widens {}.{} from {} to {}", runId, table.name(), w.column().name(),
                w.column().typeText(), w.newType());
        try {
            channel.execute(sql);
        } catch (SQLException e) {
            if (!dependentObjects(e)) {
                throw e;
            }
            List<String> messages = new ArrayList<>();
            for (SQLException s = e; s != null; s = s.getNextException()) {
                messages.add(s.getMessage() + " (" + s.getErrorCode() + ")");
            }
            throw new SchemaEvolutionException("cannot widen column '" + w.column().name() + "' of " + table.name()
                    + " from " + w.column().typeText() + " to " + w.newType() + ": objects depend on it: "
                    + String.join(" ", messages) + " (drop or change them, or alter the column by hand)",
                    ctx.withColumn(w.source()), e);
        }
    }

    private static boolean dependentObjects(SQLException e) {
        for (SQLException s = e; s != null; s = s.getNextException()) {
            if (s.getErrorCode() == DEPENDENT_OBJECT || s.getErrorCode() == ALTER_COLUMN_FAILED) {
                return true;
            }
        }
        return false;
    }

    private static ColumnMappingException refused(List<String> problems, SchemaEvolution mode, TargetTable table,
            SchemaDiff diff, BulkLoadException.Context ctx) {
        StringBuilder sb = new StringBuilder();
        if (problems.size() == 1) {
            sb.append(problems.get(0));
        } else {
            sb.append(problems.size()).append(" columns of the source and ").append(table.name())
                    .append(" do not fit: ");
            for (int i = 0; i < problems.size(); i++) {
                sb.append(i == 0 ? "" : "; ").append(i + 1).append(") ").append(problems.get(i));
            }
        }
        sb.append(" (schemaEvolution=").append(mode.option());
        if (mode == SchemaEvolution.NONE && !diff.missing().isEmpty()) {
            sb.append("; addColumns adds missing columns");
        }
        if (mode != SchemaEvolution.WIDEN && diff.widenings().stream().anyMatch(SchemaDiff.Widening::needed)) {
            sb.append("; widen also widens column types");
        }
        sb.append("; target columns: ").append(table.columns().stream().map(c -> c.name() + " " + c.typeText())
                .toList()).append(')');
        String column = mode == SchemaEvolution.NONE && !diff.missing().isEmpty() ? diff.missing().get(0).source()
                : diff.widenings().stream().filter(SchemaDiff.Widening::needed).map(SchemaDiff.Widening::source)
                        .findFirst().orElse(null);
        return new ColumnMappingException(sb.toString(), column == null ? ctx : ctx.withColumn(column));
    }

    /** SQL Server cannot alter a column that {@code schemaEvolution=widen} would widen (5074/4922). */
    public static final class SchemaEvolutionException extends ColumnMappingException {
        private static final long serialVersionUID = 1L;

        SchemaEvolutionException(String message, BulkLoadException.Context ctx, SQLException cause) {
            super(message, ctx, cause);
        }
    }
}
